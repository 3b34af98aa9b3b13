/**
 * Approval under noise (docs/how-it-works.md § Approval under noise), between Phase A and the stop gate:
 *   1. the finding check — the round's findings are read against the code at the head, one call for all
 *      of them, and the ones it cannot confirm are left out before anything is posted or fixed: a fresh
 *      call of the reviewer's model, or, when the round's fix follows at once, the executor's fix call
 *      itself (it reads that code anyway), which then fixes only the findings that hold;
 *   2. a positive verdict with a checked critical or major finding standing does not approve;
 *   3. the confirmation — a positive verdict that could approve, on a first look at the code it approves
 *      (round 1, or commits other than the loop's own fix since the last review), is confirmed by a fresh
 *      review of the same head that sees neither the first verdict nor the memory; a blocker it finds and
 *      the check confirms withholds the approval and joins the round's findings. When the round goes to the confirmation
 *      anyway, its own findings are checked in the same call as the confirmation's new blockers.
 * Nightmare already has its fresh second reviewer (the verifier must also be positive), so it gets no
 * extra confirmation. Every call goes through the provider layer and is counted in the round's usage.
 */
import {
  blockingFindings,
  confirmationOutcome,
  newFindings,
  standingBlockerNote,
  UNCONFIRMED_NOTE,
} from '../core/review/approval-confirmation.js';
import {
  applyCheck,
  droppedLine,
  materialForCheck,
  numberedForCheck,
  planCheck,
  rankedAgain,
  type CheckPlan,
} from '../core/review/finding-verification.js';
import type { DismissedWeakness, RankedWeakness } from '../core/review/state.js';
import { ranked, type Assessment } from './assess.js';
import { callWithOneRetry, type RoundMeter } from './calls.js';
import { fixList } from './fix.js';
import type { RoundMaterial } from './material.js';
import type { RunContext } from './start.js';

export interface ApprovalInput {
  /** The last round's posted findings: a check already confirmed them. */
  confirmed: readonly RankedWeakness[];
  dismissed: readonly DismissedWeakness[];
  /**
   * The round's fix follows at once with the executor's call (fix auto, no checkpoint, no debate, a round
   * to follow): a round that does not approve leaves its findings' check to that call.
   */
  fixFollows: boolean;
  /**
   * The head is the commit of the last round's own fix, reviewed by that round: this round's review is the
   * second look at the change (the first, fresh one found what was fixed), so a positive verdict here
   * needs no confirmation. Round 1, or a head with anyone else's commits since, is a first look.
   */
  afterOwnFix: boolean;
}

/**
 * Checks the findings, then decides whether a positive verdict may approve; edits `a` in place. Returns
 * the check left to the round's fix call (the findings it must check before fixing), or undefined when
 * every finding has had its check.
 */
export async function settleFindings(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  a: Assessment,
  input: ApprovalInput,
): Promise<CheckPlan | undefined> {
  if (!a.available) return undefined;
  const confirms = ctx.independence.canAcquit && ctx.options.difficulty !== 'nightmare' && !input.afterOwnFix;
  const plan = planCheck(a.weaknesses, input.confirmed);
  if (a.positive && confirms && blockingFindings(a.weaknesses).length === 0) {
    await confirmApproval(ctx, meter, round, material, a, input.dismissed, plan);
    return undefined;
  }
  if (!a.positive && input.fixFollows && plan.toCheck.length > 0) {
    // Every finding to check must reach the executor (the fix list has a cap); otherwise check here.
    const fixed = fixList(a.weaknesses, []);
    if (plan.toCheck.every((f) => fixed.includes(f))) return plan;
  }
  a.weaknesses = rankedAgain(await checked(ctx, meter, round, material, a.weaknesses, plan));
  if (!a.positive) return undefined;
  const blockers = blockingFindings(a.weaknesses);
  if (blockers.length > 0) {
    a.positive = false;
    a.note = standingBlockerNote(blockers);
    ctx.ports.log.info(`round ${round}: ${a.note}`);
    return undefined;
  }
  if (confirms) await confirmApproval(ctx, meter, round, material, a, input.dismissed, undefined);
  return undefined;
}

/**
 * One check call for the plan's findings; returns the findings that stand (the objects given, in order).
 * An unreadable check keeps them all.
 */
async function checked(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  findings: RankedWeakness[],
  plan: CheckPlan,
  purpose = 'finding-check',
): Promise<RankedWeakness[]> {
  if (plan.toCheck.length === 0) return findings;
  const check = await callWithOneRetry(ctx, meter, round, purpose, () =>
    ctx.ports.models.checkFindings(
      { findings: numberedForCheck(plan.toCheck), change: materialForCheck(material.change, plan.toCheck) },
      ctx.signal,
    ),
  );
  if (!check.ok) {
    ctx.ports.log.warn(
      `round ${round}: the finding check gave no usable answer (twice): ${check.error.message}; its ${plan.toCheck.length} finding(s) stand unchecked`,
    );
    return findings;
  }
  const result = applyCheck(findings, plan, check.call.value);
  if (result.dropped.length > 0) ctx.ports.log.info(droppedLine(round, material.head, result.dropped));
  return result.kept;
}

/**
 * The confirmation. `pending` is the plan for the round's own findings when they are still unchecked:
 * they are then checked together with the confirmation's new blockers.
 */
async function confirmApproval(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  material: RoundMaterial,
  a: Assessment,
  dismissed: readonly DismissedWeakness[],
  pending: CheckPlan | undefined,
): Promise<void> {
  const { options } = ctx;
  const second = await callWithOneRetry(ctx, meter, round, 'confirmation', () =>
    ctx.ports.models.review(
      {
        round,
        maxRounds: options.maxRounds,
        preset: options.preset,
        difficulty: options.difficulty,
        change: material.change,
        // Fresh: no memory, no carried findings, no diff since a last review — nothing of the first verdict.
        sinceLast: undefined,
        memory: '',
        dismissed,
      },
      ctx.signal,
    ),
  );
  const own = pending ?? { toCheck: [], confirmedBefore: a.weaknesses };
  if (!second.ok) {
    a.weaknesses = rankedAgain(await checked(ctx, meter, round, material, a.weaknesses, own));
    a.positive = false;
    a.note = UNCONFIRMED_NOTE;
    ctx.ports.log.warn(`round ${round}: ${UNCONFIRMED_NOTE}`);
    return;
  }
  const answer = second.call.value;
  const fresh = blockingFindings(newFindings(ranked(answer, 'verifier', 0), a.weaknesses, dismissed));
  // The confirmation's blockers are checked whatever the last round confirmed: that is what it disputes.
  const plan: CheckPlan = { toCheck: [...own.toCheck, ...fresh], confirmedBefore: own.confirmedBefore };
  // Its own trace name when the round's findings had their check already (a second check in one round).
  const purpose = pending === undefined ? 'confirmation-check' : 'finding-check';
  const kept = await checked(ctx, meter, round, material, [...a.weaknesses, ...fresh], plan, purpose);
  a.weaknesses = rankedAgain(kept.filter((f) => !fresh.includes(f)));
  const outcome = confirmationOutcome(
    round,
    a.weaknesses,
    blockingFindings(kept.filter((f) => fresh.includes(f))),
    answer.verdict,
  );
  ctx.ports.log.info(outcome.sentence);
  if (outcome.confirmed) return;
  a.positive = false;
  a.weaknesses = outcome.findings;
  a.score = a.score === null ? answer.score : Math.min(a.score, answer.score);
  a.verdict = 'not ready';
  a.note = outcome.note;
  a.verifierRaw = second.call.raw;
}
