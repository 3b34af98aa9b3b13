/**
 * The ship gate (docs/how-it-works.md § Shipping): ship when the final score beats the baseline by at least
 * the minimum gain, or ties it (or better) with fewer lines; and the canonical squash message. Pure: no I/O.
 */

/**
 * Scores are means of ratios; two computations of the same text can differ in the last bit. Differences at
 * or below this are ties, so float noise never counts as an improvement (or a regression).
 */
export const SCORE_EPSILON = 1e-9;

/** -1, 0 or 1: how `a` compares with `b` once differences within SCORE_EPSILON are treated as ties. */
export function compareScores(a: number, b: number): -1 | 0 | 1 {
  const d = a - b;
  if (d > SCORE_EPSILON) return 1;
  if (d < -SCORE_EPSILON) return -1;
  return 0;
}

export type ShipDecision = 'ship' | 'no-improvement';

/**
 * The smallest composite gain that ships on its own (docs/how-it-works.md § Shipping): below it, a higher
 * final score is noise-sized and not worth a commit or a pull request. 0 is the original's rule.
 */
export const DEFAULT_MIN_GAIN = 0.005;

export interface ShipGateInput {
  baselineScore: number;
  finalScore: number;
  linesBaseline: number;
  linesFinal: number;
  /** DEFAULT_MIN_GAIN unless the operator set another (`--min-gain`, config `minGain`, input `min-gain`). */
  minGain?: number | undefined;
}

/**
 * SHIP when final − baseline >= minGain, OR (final >= baseline AND linesFinal < linesBaseline): the
 * simplicity-bias keep still ships an equal (or slightly better) score with fewer lines.
 */
export function shipGate(input: ShipGateInput): ShipDecision {
  const minGain = input.minGain ?? DEFAULT_MIN_GAIN;
  const cmp = compareScores(input.finalScore, input.baselineScore);
  if (cmp > 0 && compareScores(input.finalScore - input.baselineScore, minGain) >= 0) return 'ship';
  if (cmp >= 0 && input.linesFinal < input.linesBaseline) return 'ship';
  return 'no-improvement';
}

/** Why a higher final score was not shipped (the gain is below the minimum), for the summary; else undefined. */
export function belowMinimumGain(input: ShipGateInput): string | undefined {
  if (shipGate(input) === 'ship' || compareScores(input.finalScore, input.baselineScore) <= 0)
    return undefined;
  const minGain = input.minGain ?? DEFAULT_MIN_GAIN;
  return `gain +${(input.finalScore - input.baselineScore).toFixed(6)} is below the minimum gain ${minGain}`;
}

/** `+3`, `-2`, `+0`: the sign is always shown (the PR body's table writes `0`: formatSignedExceptZero). */
export function formatAlwaysSigned(n: number): string {
  return n < 0 ? String(n) : `+${n}`;
}

export interface ShipMessageInput {
  skill: string;
  baselineScore: number;
  finalScore: number;
  iterations: number;
  linesDelta: number;
}

/** `skill-iterate: <skill>: baseline N.NN -> final N.NN over K iterations (lines_delta=<+/-N>)`. */
export function shipMessage(input: ShipMessageInput): string {
  return (
    `skill-iterate: ${input.skill}: baseline ${input.baselineScore.toFixed(2)} -> ` +
    `final ${input.finalScore.toFixed(2)} over ${input.iterations} iterations ` +
    `(lines_delta=${formatAlwaysSigned(input.linesDelta)})`
  );
}
