/**
 * Sequential decisions under noise (docs/how-it-works.md § Decisions under noise): a candidate (an edit
 * the keep rule re-measures, the final text the confirmation measures) gets its draws one at a time, and
 * after each one the decision looks at the gain so far. It stops drawing as soon as the answer is clear
 * either way, and spends the later draws only where it is close. Pure: no I/O.
 *
 * The boundaries, in standard errors of the difference (z = gain / se):
 * - before the planned number of draws: clear when z > margin + EARLY_EXTRA (an early stop has to be
 *   clearer than the ordinary rule, so looking more often does not make lucky draws pass more often);
 *   not better when the gain is not above 0 at all (the fresh draws already undid the first one's lead);
 * - at and after the planned number: clear when z > margin (the ordinary rule); while draws remain, a gain
 *   between half the margin and the margin is "close" and gets another draw, anything lower is not better;
 * - at the last draw allowed: clear when z > margin, else not better.
 * A gain must also reach `minGain` to be clear (the ship gate's minimum gain; 0 for a keep).
 */
import { SCORE_EPSILON, compareScores } from './ship-gate.js';

/** How much clearer than the margin a decision taken before the planned draws must be (standard errors). */
export const EARLY_EXTRA = 1;

/**
 * The share of `--margin` a KEEP must clear (docs/how-it-works.md § Decisions under noise, "The keep
 * rule"): half. A keep is not a ship — the confirmation holds what ships to the whole margin on fresh
 * draws — and a keep rule as strict as the ship gate forfeits most real gains at realistic noise: an edit
 * truly 0.4 standard deviations better (a good edit of `bench:quality`'s world at p = 0.3) is kept about
 * 28 times in 100 at the whole margin, 43 at half (docs/benchmarks.md has what the night gains).
 */
export const KEEP_MARGIN_SHARE = 0.5;

/**
 * The flip rate on identical texts from which a keep re-draws a promising edit (docs/how-it-works.md
 * § Decisions under noise, "The keep rule"): two draws of a check disagreeing 32 % of the time, a grader
 * wrong about 1 verdict in 5 (2p(1 − p) = 0.32 at p = 0.2). Under it one verdict is right at least 4
 * times in 5, and one draw of an edit against the kept state tells a good edit from a harmful one well
 * enough that the re-draws find no more than the confirmation (which holds what ships to the whole margin
 * on fresh draws) already guards: on `bench:quality`'s world at p = 0.15 (a rate of 0.255) they bought the
 * same true gain for a third of the night's calls. Above it they are where the gain comes from: at p = 0.3
 * (0.42) keeping on one draw found 40 % of the true gain the re-draws found (docs/benchmarks.md).
 */
export const REDRAW_FLIP_RATE = 0.32;

/** Whether a promising edit gets more draws at this measured flip rate (NaN: not measured, so it does). */
export function redrawsPayOff(flipRate: number): boolean {
  return Number.isNaN(flipRate) || flipRate >= REDRAW_FLIP_RATE;
}

/** 0.2549 → "25 %", rounded down: a rate just under `REDRAW_FLIP_RATE` never reads as equal to it. */
export function flipRatePercent(rate: number): string {
  return `${Math.floor(rate * 100)} %`;
}

/** What one look at a sequential measurement says. */
export type Look = 'clear' | 'not-better' | 'continue';

export interface LookInput {
  /** Mean of the candidate's draws so far minus the state's mean. */
  gain: number;
  /** Standard error of that difference (0 when no spread was ever measured). */
  se: number;
  /** `--margin`: standard errors the gain must clear. */
  margin: number;
  /** The smallest gain that counts as clear (the ship gate's minimum gain; 0 for a keep). */
  minGain: number;
  /** The candidate's draws so far. */
  draws: number;
  /** The draws the ordinary (fixed-size) rule takes: `trials`. */
  planned: number;
  /** The most draws a close call may get. */
  max: number;
  /** The simplicity bias: the candidate has fewer lines, so no loss at all is enough at the end. */
  simpler?: boolean | undefined;
}

/** One look: clear, not better, or draw once more. */
export function sequentialLook(input: LookInput): Look {
  const { gain, se, margin, minGain, draws, planned, max } = input;
  const reachesMin = compareScores(gain, minGain) >= 0;
  const beyond = (z: number): boolean => compareScores(gain, z * se) > 0 && reachesMin;
  const last = draws >= max;
  if (se <= SCORE_EPSILON) {
    // No spread measured: more draws of texts that never varied would repeat this one.
    if (compareScores(gain, 0) > 0 && reachesMin) return 'clear';
    return input.simpler && compareScores(gain, 0) >= 0 ? 'clear' : 'not-better';
  }
  if (last) {
    if (beyond(margin)) return 'clear';
    return input.simpler && compareScores(gain, 0) >= 0 ? 'clear' : 'not-better';
  }
  if (draws < planned) {
    if (beyond(margin + EARLY_EXTRA)) return 'clear';
    // A simpler text with an exact tie may still be kept at the end; only a loss stops it early.
    const lost = input.simpler ? compareScores(gain, 0) < 0 : compareScores(gain, 0) <= 0;
    return lost ? 'not-better' : 'continue';
  }
  if (beyond(margin)) return 'clear';
  if (compareScores(gain, (margin / 2) * se) > 0) return 'continue';
  return input.simpler && compareScores(gain, 0) >= 0 ? 'clear' : 'not-better';
}

/**
 * The smallest gain a comparison of `draws` candidate draws against `stateDraws` draws could call clear at
 * its last look: the margin in composite units (or the minimum gain, when that is larger). The summary,
 * the PR body and `skillclimb score` say it as "improvements under +0.04 cannot be told from noise".
 */
export function minimumDetectableGain(input: {
  sd: number;
  draws: number;
  stateDraws: number;
  margin: number;
  minGain: number;
}): number {
  const se = input.sd * Math.sqrt(1 / Math.max(1, input.draws) + 1 / Math.max(1, input.stateDraws));
  return Math.max(input.margin * se, input.minGain);
}

/**
 * The grader's flip rate on identical texts: of every two draws of the same (scenario, assertion) check of
 * the same text, the share whose verdicts differ — what an A/A test of the grader measures. NaN when
 * nothing was graded twice.
 */
export function flipRate(
  tallies: ReadonlyArray<{ comparisons?: number | undefined; disagreements?: number | undefined }>,
): number {
  const compared = tallies.reduce((s, t) => s + (t.comparisons ?? 0), 0);
  const differed = tallies.reduce((s, t) => s + (t.disagreements ?? 0), 0);
  return compared === 0 ? Number.NaN : differed / compared;
}
