/**
 * The baseline (docs/how-it-works.md § Baseline): the unmodified SKILL.md scored, no edit. One that
 * cannot be scored is a crash row, retried until it scores or the crash counter parks the skill, because
 * without it no edit can be judged. An AMBIGUOUS baseline is different: the render said the skill cannot
 * do the task, which a retry of the same text will not change; both are decided from draw 0 alone. Once
 * draw 0 scored, the draws beyond it run beside the first editor call, and the climb's start and the
 * baseline row wait for them (`settleStart`). How its draws become the climb's start is
 * baseline-measurement.ts's.
 */
import { messageOf } from '../../core/errors.js';
import type { LoopStopReason } from '../../core/iterate/hill-climb.js';
import { ZERO_USAGE, addUsage } from '../../core/usage.js';
import { SkillBudgetReached, startIterationTimer } from '../iteration-timer.js';
import { keptStateOf, type ScoredText } from '../saturation.js';
import {
  climbStart,
  drawBaselineExtras,
  type ClimbStart,
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

/** Draw 0 of the baseline text, under the iteration timeout and the skill's budget. */
interface FirstDraw {
  scored: ScoredText | undefined;
  /** Why it has no score; undefined when it scored. */
  failure: string | undefined;
}

/** Draw 0 scored: what the climb's start (`settleStart`) is made from once the extra draws are in. */
interface ScoredFirst {
  loop: LoopContext;
  commit: string;
  started: Date;
  scored: ScoredText;
  /** The baseline's timer, still running: the extra draws are bounded by it like draw 0. */
  timer: { signal: AbortSignal; stop: () => void };
}

/**
 * Scores the baseline's draw 0 until it scores or the loop must end. Once it scored, the climb's start is
 * the ledger's kept state, or pending beside the first editor call (LoopContext.startBeside) while the
 * baseline's extra draws are made.
 */
export async function scoreBaseline(loop: LoopContext): Promise<BaselineEnd | undefined> {
  for (;;) {
    if (loop.input.signal?.aborted) throw loop.interrupted();
    const outcome = await baselineAttempt(loop);
    if (outcome !== 'crash') return outcome === 'scored' ? undefined : outcome;
  }
}

/** One attempt at the baseline's draw 0: scored, AMBIGUOUS (a row), or a crash (a row). */
async function baselineAttempt(loop: LoopContext): Promise<BaselineEnd | 'scored' | 'crash'> {
  const { input } = loop;
  const commit = input.baseCommit.slice(0, 7);
  const started = input.now();
  const timer = startIterationTimer(iterationLimits(loop, started), input.signal);
  const { scored, failure } = await drawFirst(loop, timer.signal);
  if (failure === undefined && scored && !input.signal?.aborted) {
    const first: ScoredFirst = { loop, commit, started, scored, timer };
    // With model grading, the draws beyond draw 0 run beside the first editor call instead of before it
    // (docs/how-it-works.md § Baseline): the editor reads draw 0's renders and verdicts only, and the
    // window before the first edit is the engine's CPU per call as much as the models' latency, so every
    // call taken out of it shortens it. Without extra draws the start is settled here, as before, and
    // there is no uplift either (uplift.ts): nothing runs beside the first edit.
    if (loop.deterministic || loop.trials < 2) {
      await settleStart(first);
      return 'scored';
    }
    // The uplift is a report nothing in the loop decides on. Its draw without the skill does not depend
    // on the baseline's draws, so it goes out beside the first editor call with them; only its report
    // waits for them (what it compares with), and is left out when the baseline was never judged.
    let withSkill: (start: ClimbStart['withSkill'] | undefined) => void = () => undefined;
    const compared = new Promise<ClimbStart['withSkill'] | undefined>((resolve) => (withSkill = resolve));
    loop.startBeside(keptStateOf(loop.baselineText, scored.score.score!, scored), scored.usage, () =>
      settleStart(first).then(withSkill, (err: unknown) => {
        withSkill(undefined);
        throw err;
      }),
    );
    loop.beside(() => drawUplift(loop, compared));
    return 'scored';
  }
  timer.stop();
  const usage = scored?.usage ?? ZERO_USAGE;
  if (input.signal?.aborted) {
    loop.spendUnjudged(usage);
    throw loop.interrupted();
  }
  if (failure !== undefined && timer.signal.reason instanceof SkillBudgetReached)
    return { stop: budgetCut(loop, 'the baseline', usage) };
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
  const description = `initial baseline (crash: ${failure ?? 'no score'})`;
  await recordAttempt(
    loop,
    { kind: 'baseline', row: rowOf(commit, null, 'crash', description, seconds), usage },
    0,
    null,
    failure ?? 'no score',
  );
  const stop = capReached(loop, false);
  return stop ? { stop } : 'crash';
}

/** Draw 0, with the saturation handler. */
async function drawFirst(loop: LoopContext, signal: AbortSignal): Promise<FirstDraw> {
  try {
    const scored = await loop.score(loop.baselineText, signal);
    if (scored.score.status !== 'ok' || scored.score.score === null) {
      return { scored, failure: `${scored.score.status}: ${scored.score.detail ?? 'no score'}` };
    }
    return { scored, failure: undefined };
  } catch (err) {
    return { scored: undefined, failure: messageOf(err) };
  }
}

/**
 * The baseline's extra draws, then the climb's start from all its draws and the baseline row. It runs
 * beside the first editor call, which waits for it before anything of the iteration reads the kept state
 * or records a row (LoopContext.startSettled), so the row stays first in results.tsv and every decision
 * sees the draws as before. Never rejects but for a row that cannot be written; interrupted, the baseline
 * was never judged: its spend counts, it has no row. Resolves what the uplift's report compares with (the
 * baseline's draws), undefined when interrupted.
 */
async function settleStart(first: ScoredFirst): Promise<ClimbStart['withSkill'] | undefined> {
  const { loop, commit, started, scored, timer } = first;
  const { input } = loop;
  let extras: BaselineExtras = { usage: ZERO_USAGE };
  try {
    if (!input.signal?.aborted) extras = await drawExtras(loop, timer.signal, scored);
  } finally {
    timer.stop();
  }
  const usage = addUsage(scored.usage, extras.usage);
  if (input.signal?.aborted) {
    loop.spendUnjudged(usage);
    return undefined;
  }
  const seconds = secondsBetween(started, input.now());
  const { kept, description, measured, measuredParts, withSkill } = climbStart(loop, scored, extras);
  const row = rowOf(commit, kept.score, 'baseline', description, seconds);
  await recordAttempt(loop, { kind: 'baseline', row, kept, usage, measured, measuredParts }, 0, null);
  return withSkill;
}

/**
 * Draw 1 (or the noise probe's part of it), then the others when those two disagree; or the stored draws
 * with tonight's key standing in for draws 1 … (baseline-stored.ts). Never rejects.
 */
async function drawExtras(
  loop: LoopContext,
  signal: AbortSignal,
  scored: ScoredText,
): Promise<BaselineExtras> {
  if (loop.deterministic || loop.trials < 2) return { usage: ZERO_USAGE };
  const stored = storedBaselineDraws(loop);
  if (stored) return useStoredDraws(loop, loop.baselineText, signal, scored.score, stored);
  const extras = await drawBaselineExtras(loop, loop.baselineText, signal);
  return drawBaselineRest(loop, loop.baselineText, signal, scored.score, extras);
}
