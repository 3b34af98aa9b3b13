/**
 * The spread of one text's draws, measured scenario by scenario (docs/how-it-works.md § Decisions under
 * noise, "The noise"): each scenario is rendered and graded on its own calls, so its part of a draw's
 * composite varies independently of the others', and their spreads add up to the composite's. Pure: no I/O.
 */
import { combineScores, pairKey, pairWeights, planScenario } from './absolute.js';
import type { SkillEvals } from './evals.js';
import { DEFAULT_WEIGHTS, type ScoreMode, type ScoreWeights } from './score-types.js';

/**
 * Scenario id → what that scenario's passing pairs add to one draw's composite. The rest of the composite
 * (the structural score, the vacuous pairs) is the same in every draw of a text.
 */
export type ScenarioParts = ReadonlyMap<string, number>;

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Sum of squared deviations from the mean (the numerator of the sample variance). */
function sumOfSquares(values: readonly number[]): number {
  const m = mean(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0);
}

/**
 * The within-text sum of squares of one text's draws. With every draw's scenario parts (the same
 * scenarios in each), it is Σ over scenarios of that scenario's sum of squares: the same expectation as
 * the composites' (the scenarios vary independently, so their variances add up to the composite's), but
 * estimated from every scenario's spread rather than from one composite per draw: three draws of six
 * scenarios that vary alike carry 12 degrees of freedom instead of 2 (docs/how-it-works.md § Decisions
 * under noise, "The noise"). Without parts, or with parts of different scenarios, the
 * composites' own sum of squares.
 */
export function withinTextSquares(
  draws: readonly number[],
  parts?: ReadonlyArray<ScenarioParts | undefined>,
): number {
  const whole = parts?.length === draws.length && parts.every((p): p is ScenarioParts => p !== undefined);
  if (!whole || !sameScenarios(parts)) return sumOfSquares(draws);
  let sum = 0;
  for (const scenario of parts[0]!.keys()) sum += sumOfSquares(parts.map((p) => p.get(scenario) ?? 0));
  return sum;
}

function sameScenarios(parts: readonly ScenarioParts[]): boolean {
  const first = parts[0];
  if (!first || first.size === 0) return false;
  return parts.every((p) => p.size === first.size && [...first.keys()].every((k) => p.has(k)));
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function standardDeviation(values: readonly number[]): number {
  return values.length < 2 ? 0 : Math.sqrt(sumOfSquares(values) / (values.length - 1));
}

/** One (scenario, assertion) verdict of a draw. */
export interface DrawnPair {
  scenarioId: string;
  assertionId: number;
  pass: boolean;
}

/** A draw's parts from its verdicts and what each passing pair adds to the composite. */
export function scenarioParts(
  pairs: readonly DrawnPair[],
  weightOf: (scenarioId: string, assertionId: number) => number,
): Map<string, number> {
  const parts = new Map<string, number>();
  for (const p of pairs) {
    const add = p.pass ? weightOf(p.scenarioId, p.assertionId) : 0;
    parts.set(p.scenarioId, (parts.get(p.scenarioId) ?? 0) + add);
  }
  return parts;
}

/**
 * The splitter for draws of `evals` scored in `mode`: each passing pair adds its share of the weighted
 * score (absolute.ts `pairWeights`) times what the mode gives the weighted score (combineScores is linear
 * in it; structural scores give it nothing).
 */
export function scenarioSplitter(
  evals: SkillEvals,
  mode: ScoreMode,
  weights: ScoreWeights = DEFAULT_WEIGHTS,
): (pairs: readonly DrawnPair[]) => Map<string, number> {
  const plans = evals.scenarios.map((s) => planScenario(evals.evals, s, evals.format));
  const scale = mode === 'structural' ? 0 : combineScores(mode, 0, 1, weights);
  const shares = pairWeights(evals.evals, plans);
  return (pairs) => scenarioParts(pairs, (s, a) => (shares.get(pairKey(s, a)) ?? 0) * scale);
}
