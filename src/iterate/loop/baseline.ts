/**
 * The baseline (docs/how-it-works.md § Baseline): the unmodified SKILL.md scored, no edit. One that
 * cannot be scored is a crash row, retried until it scores or the crash counter parks the skill, because
 * without it no edit can be judged. An AMBIGUOUS baseline is different: the render said the skill cannot
 * do the task, which a retry of the same text will not change. How its draws become the climb's start is
 * baseline-measurement.ts's.
 */
import { messageOf } from '../../core/errors.js';
import type { LoopStopReason } from '../../core/iterate/hill-climb.js';
import { ZERO_USAGE, addUsage, type Usage } from '../../core/usage.js';
import { SkillBudgetReached, startIterationTimer } from '../iteration-timer.js';
import type { ScoredText } from '../saturation.js';
import {
  climbStart,
  drawBaselineExtras,
  drawBaselineRest,
  type BaselineExtras,
} from './baseline-measurement.js';
import { useStoredDraws } from './baseline-stored.js';
import { budgetCut, capReached, iterationLimits } from './caps.js';
import type { LoopContext } from './context.js';
import { recordAttempt, rowOf, secondsBetween } from './record.js';
import { storedBaselineDraws } from './stored-draws.js';
import { drawUplift } from './uplift.js';

/** Why the loop ends before its first iteration. */
export interface BaselineEnd {
  stop: LoopStopReason;
  /** The render's reason when the stop is 'baseline ambiguous'. */
  ambiguousReason?: string;
}

/** One scoring of the baseline text, under the iteration timeout and the skill's budget. */
interface BaselineDraw {
  scored: ScoredText | undefined;
  /** Why it has no score; undefined when it scored. */
  failure: string | undefined;
  extras: BaselineExtras;
  usage: Usage;
  /** The skill's budget ran out while it was scored. */
  cutByBudget: boolean;
}

/** Scores the baseline until it scores (the ledger then holds the kept state) or the loop must end. */
export async function scoreBaseline(loop: LoopContext): Promise<BaselineEnd | undefined> {
  while (loop.ledger.state.kept === undefined) {
    if (loop.input.signal?.aborted) throw loop.interrupted();
    const end = await baselineAttempt(loop);
    if (end) return end;
  }
  return undefined;
}

/** One attempt at the baseline and its row: scored, AMBIGUOUS, or a crash. */
async function baselineAttempt(loop: LoopContext): Promise<BaselineEnd | undefined> {
  const { input } = loop;
  const commit = input.baseCommit.slice(0, 7);
  const started = input.now();
  const { scored, failure, extras, usage, cutByBudget } = await drawBaseline(loop, started);
  if (input.signal?.aborted) {
    loop.spendUnjudged(usage);
    throw loop.interrupted();
  }
  if (failure !== undefined && cutByBudget) return { stop: budgetCut(loop, 'the baseline', usage) };
  const seconds = secondsBetween(started, input.now());
  if (scored?.score.status === 'ambiguous') {
    const reason = (scored.score.detail ?? '').trim();
    const description = `initial baseline (AMBIGUOUS: ${reason})`;
    await recordAttempt(
      loop,
      { kind: 'baseline', row: rowOf(commit, null, 'baseline', description, seconds), usage },
      0,
      null,
    );
    input.log.warn(
      `${input.skill}: the baseline render answered AMBIGUOUS (${reason}); not iterating this skill`,
    );
    return { stop: 'baseline ambiguous', ambiguousReason: reason };
  }
  if (failure === undefined && scored && scored.score.score !== null) {
    const { kept, description, measured, withSkill } = climbStart(loop, scored, extras);
    const row = rowOf(commit, kept.score, 'baseline', description, seconds);
    await recordAttempt(loop, { kind: 'baseline', row, kept, usage, measured }, 0, null);
    // The uplift is a report nothing in the loop decides on: it runs beside the first editor call.
    loop.beside(() => drawUplift(loop, withSkill));
    return undefined;
  }
  const description = `initial baseline (crash: ${failure ?? 'no score'})`;
  await recordAttempt(
    loop,
    { kind: 'baseline', row: rowOf(commit, null, 'crash', description, seconds), usage },
    0,
    null,
    failure ?? 'no score',
  );
  const stop = capReached(loop, false);
  return stop ? { stop } : undefined;
}

/** Draw 0 (with the saturation handler) and draw 1 side by side, then the others when those two disagree. */
async function drawBaseline(loop: LoopContext, started: Date): Promise<BaselineDraw> {
  const timer = startIterationTimer(iterationLimits(loop, started), loop.input.signal);
  let scored: ScoredText | undefined;
  let failure: string | undefined;
  let extras: BaselineExtras = { usage: ZERO_USAGE };
  // Draw 0's calls go out first, then draw 1's beside them.
  // Stored draws with tonight's key stand in for draws 1 … (baseline-stored.ts): none is drawn beside draw 0.
  const stored = storedBaselineDraws(loop);
  const scoring = loop.score(loop.baselineText, timer.signal);
  const extrasRun = stored
    ? Promise.resolve<BaselineExtras>({ usage: ZERO_USAGE })
    : drawBaselineExtras(loop, loop.baselineText, timer.signal);
  try {
    scored = await scoring;
    if (scored.score.status !== 'ok' || scored.score.score === null) {
      failure = `${scored.score.status}: ${scored.score.detail ?? 'no score'}`;
    }
  } catch (err) {
    failure = messageOf(err);
  } finally {
    extras = await extrasRun;
  }
  try {
    if (failure === undefined && scored) {
      extras = stored
        ? await useStoredDraws(loop, loop.baselineText, timer.signal, scored.score, stored)
        : await drawBaselineRest(loop, loop.baselineText, timer.signal, scored.score, extras);
    }
  } finally {
    timer.stop();
  }
  const usage = addUsage(scored?.usage ?? ZERO_USAGE, extras.usage);
  return {
    scored,
    failure,
    extras,
    usage,
    cutByBudget: timer.signal.reason instanceof SkillBudgetReached,
  };
}
