/**
 * The ship gate (docs/how-it-works.md § Shipping): ship when the final score beats the baseline, or ties it
 * with fewer lines; and the canonical squash message. Pure: no I/O.
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

export interface ShipGateInput {
  baselineScore: number;
  finalScore: number;
  linesBaseline: number;
  linesFinal: number;
}

/** SHIP when final > baseline OR (final >= baseline AND linesFinal < linesBaseline). */
export function shipGate(input: ShipGateInput): ShipDecision {
  const cmp = compareScores(input.finalScore, input.baselineScore);
  if (cmp > 0) return 'ship';
  if (cmp === 0 && input.linesFinal < input.linesBaseline) return 'ship';
  return 'no-improvement';
}

/** `+3`, `-2`, `+0`: the sign is always shown. */
export function formatSigned(n: number): string {
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
    `(lines_delta=${formatSigned(input.linesDelta)})`
  );
}
