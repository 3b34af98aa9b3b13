/**
 * One iteration (docs/how-it-works.md § One iteration (steps A–H)): the attempt (steps A–F) under the
 * iteration timeout, its row (Step G), then the reset of a commit that is not kept (Step H). An iteration
 * the run's interruption or the skill's budget cut short was never judged: no row, and its commit goes.
 */
import { messageOf } from '../../core/errors.js';
import { NO_COMMIT, type KeptState, type LoopStopReason } from '../../core/iterate/hill-climb.js';
import { SkillBudgetReached, startIterationTimer } from '../iteration-timer.js';
import { Attempt, attemptEdit } from './attempt.js';
import { WorktreeGitFailure } from './background-reset.js';
import { CapAtStart, budgetCut, costCapReached, iterationLimits } from './caps.js';
import type { LoopContext } from './context.js';
import { crashVerdict, type Verdict } from './keep-decision.js';
import { recordAttempt, rowOf, secondsBetween } from './record.js';

/** Runs one iteration from `kept`; resolves the stop reason when the skill's budget ran out in it. */
export async function runIteration(loop: LoopContext, kept: KeptState): Promise<LoopStopReason | undefined> {
  const { input } = loop;
  const iteration = loop.ledger.state.iterations + 1;
  const started = input.now();
  const timer = startIterationTimer(iterationLimits(loop, started), input.signal);
  const attempt = new Attempt();
  // The first iteration runs beside the baseline's extra draws (baseline.ts): a cost budget their spend
  // reaches ends it unjudged, since with them counted first the loop would not have started it.
  const besideStart = loop.startPending;
  let verdict: Verdict;
  let capped: LoopStopReason | undefined;
  try {
    verdict = await attemptEdit(loop, kept, timer.signal, attempt);
  } catch (err) {
    if (err instanceof WorktreeGitFailure) throw err.failure;
    if (err instanceof CapAtStart) capped = err.stop;
    verdict = crashVerdict(messageOf(err));
  } finally {
    timer.stop();
  }
  // The first iteration may end before its attempt waited for the baseline's extra draws (a crash, an
  // interruption, the budget): the baseline row is recorded, or known never to be, before anything here.
  const from = (await loop.startSettled()) ?? kept;
  if (besideStart) capped ??= costCapReached(loop);
  if (input.signal?.aborted) {
    // Never judged, so neither recorded nor kept: the branch goes back to the last kept state.
    loop.spendUnjudged(attempt.usage);
    await loop.resets.settle().catch(() => undefined);
    if (attempt.commit !== NO_COMMIT)
      await input.git.resetToParent(input.worktreePath).catch(() => undefined);
    throw loop.interrupted();
  }
  if (verdict.outcome === 'crash' && timer.signal.reason instanceof SkillBudgetReached) {
    // Cut short by the budget, not judged: like an interruption, no row, and the commit goes.
    await loop.resets.settleOrFail();
    if (attempt.commit !== NO_COMMIT) await input.git.resetToParent(input.worktreePath);
    return budgetCut(loop, `iteration ${iteration}`, attempt.usage);
  }
  if (capped) {
    // Not judged, so neither recorded nor kept: like a budget cut, no row, and the commit goes.
    await loop.resets.settleOrFail();
    if (attempt.commit !== NO_COMMIT) await input.git.resetToParent(input.worktreePath);
    loop.spendUnjudged(attempt.usage);
    input.log.info(
      `${input.skill}: iteration ${iteration} not judged: the baseline's draws, made beside it, reached the ${capped}`,
    );
    return capped;
  }
  const { commit, description } = attempt;
  const { outcome, score, note } = verdict;
  const seconds = secondsBetween(started, input.now());
  const rowDescription = note === undefined ? description : `${description} (${outcome}: ${note})`;
  const delta = score === null || outcome === 'crash' ? null : score - from.score;
  await recordAttempt(
    loop,
    {
      kind: 'iteration',
      row: rowOf(commit, score, outcome, rowDescription, seconds),
      outcome,
      proposed: attempt.proposed,
      description,
      ...(verdict.kept ? { kept: verdict.kept } : {}),
      ...(verdict.measured ? { measured: verdict.measured, measuredParts: verdict.measuredParts } : {}),
      usage: attempt.usage,
    },
    iteration,
    delta,
    outcome === 'keep' ? undefined : note,
  );
  // A crashed edit was never judged, so it must not stay on the branch either.
  if (outcome !== 'keep' && commit !== NO_COMMIT) loop.resets.start();
  return undefined;
}
