/**
 * The review loop (docs/how-it-works.md § Review rounds): rounds of review → (debate) → (checkpoint) →
 * fix → document, until an independent reviewer acquits, the rounds or the budget run out, the person
 * stops it — or the run pauses for the person (a manual fix, a checkpoint answer) or is interrupted, with
 * its state saved so the next call with the same store resumes it. One call runs as many rounds as it can
 * without waiting; the App calls it once per event, the CLI once per invocation.
 */
import type { CheckpointAnswer } from '../core/review/checkpoint.js';
import { formatScore, memoryForRun, renderMemorySection, type AcquittalReceipt } from '../core/review/log.js';
import type { ReviewOutcome, RoundReport } from '../core/review/outcome.js';
import type { DismissedWeakness, PendingRound, RankedWeakness, RoundSummary } from '../core/review/state.js';
import { sameFinding } from '../core/review/finding-identity.js';
import { totalTokens, ZERO_USAGE } from '../core/usage.js';
import { settleFindings } from './approval.js';
import { assess, type Assessment } from './assess.js';
import { RoundMeter } from './calls.js';
import { debate } from './debate.js';
import {
  buildOutcome,
  documentRound,
  emitCommit,
  maxRoundsMessage,
  pendingOf,
  progressLine,
  receiptFor,
  stopBeforeFix,
  terminate,
} from './document.js';
import { applyFixes, proposeFixes } from './fix.js';
import { gatherMaterial } from './material.js';
import { findPublished, resumePublished } from './published.js';
import { resolveOptions, type ResumeInput, type ReviewOptions, type ReviewPorts } from './options.js';
import { startRun, type RunContext } from './start.js';
import { waitForNewCommit, waitWhenFixChangedNothing } from './unchanged-head.js';

export type { ResumeInput, ReviewOptions, ReviewPorts } from './options.js';

/** Runs rounds until the run ends or pauses; never throws for an abort (the outcome says `interrupted`). */
export async function runReviewLoop(
  options: ReviewOptions,
  ports: ReviewPorts,
  resume: ResumeInput = {},
): Promise<ReviewOutcome> {
  const resolved = resolveOptions(options);
  const signal = ports.signal ?? new AbortController().signal;
  const ctx = await startRun(resolved, ports, signal);
  await ports.events?.emit({
    type: 'run-started',
    runId: ctx.state.run_id,
    resumed: ctx.resumed,
    round: ctx.state.pending?.round ?? ctx.state.round + 1,
    independence: ctx.independence,
  });
  try {
    return await loop(ctx, resume.checkpoint);
  } catch (err) {
    if (signal.aborted) return interrupted(ctx);
    throw err;
  }
}

function interrupted(ctx: RunContext): ReviewOutcome {
  const next = ctx.state.pending?.round ?? ctx.state.round + 1;
  const message = `Interrupted during round ${next}; ${ctx.state.run_id} is saved — run the review again to resume at round ${next}.`;
  ctx.ports.log.warn(message);
  return buildOutcome(ctx, 'interrupted', message, ctx.state.reviewed_head ?? ctx.base);
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('interrupted');
}

async function loop(ctx: RunContext, answer: CheckpointAnswer | undefined): Promise<ReviewOutcome> {
  const { target, log } = ctx.ports;
  const { options, state } = ctx;
  let given = answer;
  // The first round this invocation runs may have been published before the state recorded it (a restart
  // between a round's review and its end): asked once, it is then gone on with, not reviewed again.
  let lookForPublished = true;
  for (;;) {
    throwIfAborted(ctx.signal);
    const { head } = await target.resolve();
    if (state.pending !== null) {
      if (state.pending.head === head) {
        const outcome = await resumePending(ctx, state.pending, given);
        given = undefined;
        if (outcome) return outcome;
        continue;
      }
      log.warn(
        `round ${state.pending.round} waited at the checkpoint for ${state.pending.head.slice(0, 12)}, but the head is now ` +
          `${head.slice(0, 12)}: that review is superseded and round ${state.pending.round} reviews the new head`,
      );
      state.pending = null;
      state.awaiting = null;
    }
    const round = state.round + 1;
    if (round > options.maxRounds) {
      return terminate(ctx, 'max-rounds', maxRoundsMessage(ctx), head, undefined);
    }
    const cost = state.usage.costUsd ?? 0;
    if (options.maxCostUsd !== undefined && cost >= options.maxCostUsd) {
      const message = `Cost budget of $${options.maxCostUsd} reached ($${cost.toFixed(4)} spent) before round ${round}; not acquitted.`;
      return terminate(ctx, 'budget', message, head, undefined);
    }
    const tokens = totalTokens(state.usage);
    if (options.maxTokens !== undefined && tokens >= options.maxTokens) {
      const message = `Token budget of ${options.maxTokens.toLocaleString('en-US')} reached (${tokens.toLocaleString('en-US')} used) before round ${round}; not acquitted.`;
      return terminate(ctx, 'budget', message, head, undefined);
    }
    // A head is reviewed once: waiting for a fix (manual, or an own fix that changed nothing), it waits on.
    const waiting = await waitForNewCommit(ctx, head);
    if (waiting) return waiting;
    state.awaiting = null;
    // A caller's checkpoint answer is for the round waiting at the checkpoint, never for a new round.
    given = undefined;
    const published = lookForPublished ? await findPublished(ctx, round) : undefined;
    lookForPublished = false;
    const outcome = published
      ? await resumePublished(ctx, published, head)
      : await runRound(ctx, round, head);
    if (outcome) return outcome;
  }
}

/** The last review's findings still open (not resolved in its debate): round 2+ carries them forward. */
function openFindings(history: readonly RoundSummary[]): RankedWeakness[] {
  const last = [...history].reverse().find((r) => r.score !== null);
  return (last?.weaknesses ?? []).filter((w) => !w.resolved_by_debate);
}

/**
 * The maintainers' dismissals so far: new ones go to the reviewer's memory with their reason (once per
 * run) and into the state, so a resumed run keeps them.
 */
async function recordDismissals(ctx: RunContext, round: number): Promise<DismissedWeakness[]> {
  const listed = (await ctx.ports.dismissals?.list(ctx.signal)) ?? [];
  const known = ctx.state.dismissed ?? [];
  const fresh = listed.filter((d) => !known.some((k) => k.title === d.title && k.file === d.file));
  if (fresh.length > 0) {
    ctx.state.dismissed = [...known, ...fresh];
    const lines = fresh.map(
      (d) =>
        `- Dismissed by ${d.by}: "${d.title}"${d.file ? ` (${d.file})` : ''} — ${d.reason.replace(/\s+/g, ' ')}`,
    );
    await ctx.ports.store.appendMemory(
      `## Before round ${round} — dismissed by the maintainers (do not raise again)\n${lines.join('\n')}\n`,
    );
    ctx.ports.log.info(
      `round ${round}: ${fresh.length} finding(s) dismissed by the maintainers, recorded in the reviewer memory`,
    );
  }
  return ctx.state.dismissed ?? [];
}

/** A dismissed finding is not raised again, whatever its wording this round; the rest keep their order. */
function withoutDismissed(
  ctx: RunContext,
  round: number,
  weaknesses: RankedWeakness[],
  dismissed: readonly DismissedWeakness[],
): RankedWeakness[] {
  if (dismissed.length === 0) return weaknesses;
  const kept = weaknesses.filter((w) => !dismissed.some((d) => sameFinding(w, d)));
  if (kept.length < weaknesses.length) {
    ctx.ports.log.info(`round ${round}: left out ${weaknesses.length - kept.length} dismissed finding(s)`);
  }
  return kept.map((w, i) => ({ ...w, rank: i + 1 }));
}

function reportOf(round: number, head: string, a: Assessment): RoundReport {
  return {
    round,
    head,
    score: a.score,
    verdict: a.verdict,
    positive: a.positive,
    summary: a.note ? `${a.summary}\n(${a.note})`.trim() : a.summary,
    weaknesses: a.weaknesses,
    memoryUpdate: a.memoryUpdate,
    raw: a.raw,
    verifierRaw: a.verifierRaw,
    debate: null,
    fix: null,
    seconds: 0,
    usage: { ...ZERO_USAGE },
    phase: 'reviewed',
  };
}

function seconds(ctx: RunContext, since: Date): number {
  return Math.max(0, (ctx.ports.clock().getTime() - since.getTime()) / 1000);
}

/** Phases A–E of one round; returns the outcome when the run ends or pauses, undefined to go on. */
// eslint-disable-next-line max-lines-per-function -- Phases A to E of one round in order (docs/how-it-works.md § Review rounds); not yet split (issue 30 item 3)
async function runRound(ctx: RunContext, round: number, head: string): Promise<ReviewOutcome | undefined> {
  const { store, events } = ctx.ports;
  const { options, state } = ctx;
  const startedAt = ctx.ports.clock();
  await events?.emit({ type: 'round-started', round, head });
  const meter = new RoundMeter(ctx);
  const material = await gatherMaterial(ctx, head);
  const dismissed = await recordDismissals(ctx, round);
  const memory = round > 1 ? memoryForRun(await store.readMemory(), state.run_id) : '';
  const openBlockers = round > 1 ? openFindings(state.history) : [];

  const previousReviewed = [...state.history].reverse().find((r) => r.score !== null);
  const a = await assess(ctx, meter, round, material, memory, { openBlockers, dismissed });
  a.weaknesses = withoutDismissed(ctx, round, a.weaknesses, dismissed);
  // Approval under noise: findings checked against the code, an approval confirmed by a fresh review.
  // With the fix following at once, the executor's fix call checks the findings (one call, not two).
  const fixFollows =
    options.fix === 'auto' &&
    !options.checkpoint &&
    options.difficulty === 'medium' &&
    round < options.maxRounds;
  const checkInFix = await settleFindings(ctx, meter, round, material, a, {
    confirmed: openBlockers,
    dismissed,
    fixFollows,
    afterOwnFix: previousReviewed?.round === round - 1 && previousReviewed.commit === head,
  });
  const report = reportOf(round, head, a);
  // B.5: the memory is appended every round, before the stop gate, so the last round's is kept too.
  const previous = previousReviewed;
  await store.appendMemory(
    `${renderMemorySection({
      round,
      score: a.score,
      memoryUpdate: a.memoryUpdate,
      previous: previous?.score != null ? { round: previous.round, score: previous.score } : undefined,
      traceId: state.trace_id,
    })}\n`,
  );
  const finish = async (status: string, receipt?: AcquittalReceipt): Promise<void> => {
    report.seconds = seconds(ctx, startedAt);
    report.usage = meter.usage;
    await documentRound(ctx, report, status, receipt);
  };

  /** The round's time and cost so far, for the review posted before Phase E (finish sets the final ones). */
  const reviewed = async (): Promise<void> => {
    report.seconds = seconds(ctx, startedAt);
    report.usage = { ...meter.usage };
    await events?.emit({ type: 'round-reviewed', report });
  };

  // B.5.1: the stop gate.
  if (a.positive) {
    await reviewed();
    if (ctx.independence.canAcquit) {
      const receipt = receiptFor(ctx, report);
      await finish('stopping: positive verdict from an independent reviewer (acquitted)', receipt);
      const message = `Acquitted in round ${round}: score ${formatScore(a.score)}, verdict ${a.verdict}, by ${ctx.ports.models.reviewer.id}; receipt bound to ${state.run_id}.`;
      return terminate(ctx, 'acquitted', message, head, receipt);
    }
    await finish(`stopping: positive verdict, but ${ctx.independence.sentence}`);
    const message = `Round ${round} gave a positive verdict (${formatScore(a.score)}, ${a.verdict}), but no receipt was written. ${ctx.independence.sentence}`;
    return terminate(ctx, 'not-independent', message, head, undefined);
  }
  if (!a.available) {
    await reviewed();
    const last = round >= options.maxRounds;
    await finish(
      last
        ? 'stopping: max rounds reached (this round had no verdict)'
        : `continuing to round ${round + 1}: this round had no verdict`,
    );
    return last ? terminate(ctx, 'max-rounds', maxRoundsMessage(ctx), head, undefined) : undefined;
  }

  // B.6: the debate.
  if (options.difficulty !== 'medium' && a.weaknesses.length > 0) {
    report.debate = await debate(ctx, meter, round, material, a.weaknesses);
  }
  // Manual mode with a round to follow: the executor's fixes are proposed (never committed) so the review
  // can offer them to the person.
  if (options.fix === 'manual' && options.proposeManualFixes && round < options.maxRounds) {
    report.fix = await proposeFixes(ctx, meter, round, material, a.weaknesses);
  }
  // A round whose findings the fix call checks is posted once the executor has answered (below).
  if (checkInFix === undefined) await reviewed();

  const stopped = await stopBeforeFix(ctx, { round, head, score: a.score, verdict: a.verdict }, finish);
  if (stopped) return stopped;

  if (!options.checkpoint) {
    const posted = async (standing: RankedWeakness[]): Promise<void> => {
      if (checkInFix === undefined) return;
      a.weaknesses = standing;
      report.weaknesses = standing;
      await reviewed();
    };
    report.fix = await applyFixes(
      ctx,
      meter,
      round,
      material,
      { weaknesses: a.weaknesses, skipped: [], guidance: null, check: checkInFix },
      posted,
    );
    await emitCommit(ctx, round, report);
    const unchanged = await waitWhenFixChangedNothing(ctx, report, finish);
    if (unchanged) return unchanged;
    await finish(`continuing to round ${round + 1}`);
    return undefined;
  }
  // The checkpoint: saved before asking, so an interruption or a `wait` resumes right here.
  report.seconds = seconds(ctx, startedAt);
  report.usage = meter.usage;
  state.pending = pendingOf(report, startedAt);
  state.awaiting = 'checkpoint';
  state.timestamp = ctx.ports.clock().toISOString();
  await store.writeState(state);
  return resumePending(ctx, state.pending, undefined, report, meter);
}

function reportFromPending(p: PendingRound): RoundReport {
  return {
    round: p.round,
    head: p.head,
    score: p.score,
    verdict: p.verdict,
    positive: false,
    summary: p.summary,
    weaknesses: p.weaknesses,
    memoryUpdate: p.memory_update,
    raw: p.raw,
    verifierRaw: p.verifier_raw,
    debate:
      p.debate === null
        ? null
        : {
            rebuttals: [],
            rulings: [],
            resolved: p.weaknesses.filter((w) => w.resolved_by_debate).map((w) => w.rank),
            transcript: p.debate,
          },
    fix: null,
    seconds: p.seconds,
    usage: p.usage,
    phase: 'awaiting-checkpoint',
  };
}

/** The checkpoint of a reviewed round: ask (or take the caller's answer), then stop, wait, or fix. */
async function resumePending(
  ctx: RunContext,
  pending: PendingRound,
  given: CheckpointAnswer | undefined,
  live?: RoundReport,
  liveMeter?: RoundMeter,
): Promise<ReviewOutcome | undefined> {
  const report = live ?? reportFromPending(pending);
  report.phase = 'awaiting-checkpoint';
  const meter = liveMeter ?? new RoundMeter(ctx);
  if (!liveMeter) meter.usage = { ...pending.usage };
  const resumedAt = ctx.ports.clock();
  const baseSeconds = report.seconds;
  const answer =
    given ??
    (await ctx.ports.checkpoint.ask(
      {
        round: report.round,
        maxRounds: ctx.options.maxRounds,
        score: report.score,
        verdict: report.verdict,
        weaknesses: report.weaknesses.filter((w) => !w.resolved_by_debate),
      },
      ctx.signal,
    ));
  const finish = async (status: string): Promise<void> => {
    report.seconds = baseSeconds + seconds(ctx, resumedAt);
    report.usage = meter.usage;
    await documentRound(ctx, report, status, undefined);
  };
  switch (answer.kind) {
    case 'wait': {
      // The App posts the reviewed round at once: the outcome carries it even though Phase E waits.
      if (!ctx.reports.includes(report)) ctx.reports.push(report);
      ctx.ports.log.progress(`${progressLine(report, ctx.options.maxRounds)} — waiting at the checkpoint`);
      const message = `Round ${report.round} reviewed (${formatScore(report.score)}, ${report.verdict}): waiting for the checkpoint answer — go, skip N, stop, or instructions for the fix.`;
      return buildOutcome(ctx, 'awaiting-checkpoint', message, report.head, {
        awaiting: { kind: 'checkpoint', round: report.round, head: report.head },
      });
    }
    case 'stop': {
      await finish('stopping: stopped at the checkpoint');
      const message = `Stopped at the checkpoint after round ${report.round} (${formatScore(report.score)}, ${report.verdict}); not acquitted.`;
      return terminate(ctx, 'stopped', message, report.head, undefined);
    }
    default: {
      const material = await gatherMaterial(ctx, report.head);
      report.fix = await applyFixes(ctx, meter, report.round, material, {
        weaknesses: report.weaknesses,
        skipped: answer.kind === 'skip' ? answer.items : [],
        guidance: answer.kind === 'guidance' ? answer.text : null,
      });
      await emitCommit(ctx, report.round, report);
      const unchanged = await waitWhenFixChangedNothing(ctx, report, finish);
      if (unchanged) return unchanged;
      await finish(`continuing to round ${report.round + 1}`);
      return undefined;
    }
  }
}
