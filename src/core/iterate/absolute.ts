/**
 * The absolute (model-graded) axis of docs/how-it-works.md § Scoring, minus the model calls: which pairs need a model,
 * the repairs of a grader answer, the majority vote across trials, the aggregation and the composite.
 * Pure: no I/O.
 */
import { evaluateCheck } from './checks.js';
import type { Assertion, Category, EvalsFile, EvalsFormat, Scenario } from './evals.js';
import type {
  AbsoluteResult,
  CategoryScore,
  FailedAssertion,
  PassingPair,
  ScoreMode,
  ScoreWeights,
} from './score-types.js';

export interface Verdict {
  pass: boolean;
  reason: string;
}

/** How one (scenario, assertion) pair is decided. */
export type Route = 'vacuous' | 'check' | 'model';

export interface PlannedPair {
  assertion: Assertion;
  category: Category;
  route: Route;
}

export interface ScenarioPlan {
  scenario: Scenario;
  pairs: PlannedPair[];
  /** The assertions the grader sees for this scenario (route 'model'); empty → no grader call. */
  modelGraded: PlannedPair[];
}

export const VACUOUS_REASON = 'trigger not expected in this scenario (vacuously true)';
export const OMITTED_REASON = 'grader omitted';

/**
 * Routes every assertion of every category for one scenario. An id absent from `expected_assertions` is
 * vacuously true in code; when `expected_assertions` is absent altogether nothing is vacuous here and the
 * grader applies the fallback rule itself (a trigger absent from the output is vacuously true). `format`
 * 'agent-skills': an assertion belongs to the scenarios that list it, and is no pair of any other (not a
 * vacuous one: another eval's assertions say nothing about this one).
 */
export function planScenario(
  evals: EvalsFile,
  scenario: Scenario,
  format: EvalsFormat | undefined = 'original',
): ScenarioPlan {
  const expected = scenario.expected_assertions ? new Set(scenario.expected_assertions) : undefined;
  const pairs: PlannedPair[] = [];
  for (const category of evals.categories) {
    for (const assertion of category.evals) {
      let route: Route;
      if (format === 'agent-skills' && !expected?.has(assertion.id)) continue;
      if (expected && !expected.has(assertion.id)) route = 'vacuous';
      else if (assertion.check) route = 'check';
      else route = 'model';
      pairs.push({ assertion, category, route });
    }
  }
  return { scenario, pairs, modelGraded: pairs.filter((p) => p.route === 'model') };
}

/** docs/how-it-works.md § Scoring: a non-boolean verdict counts as true only when it is "true" or "yes" (trimmed, any case). */
export function coerceVerdict(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    return v === 'true' || v === 'yes';
  }
  return false;
}

/**
 * Applies the repairs to one grader answer for the ids it was asked about: an omitted id → false with reason
 * "grader omitted"; an id it was not asked about → dropped; a non-boolean verdict → coerced.
 * Keys are matched after trimming, so `" 3"` still answers assertion 3.
 */
export function repairGraderAnswer(
  verdicts: Record<string, { verdict: unknown; reason?: string | undefined }>,
  askedIds: readonly number[],
): Map<number, Verdict> {
  const byId = new Map<string, { verdict: unknown; reason?: string | undefined }>();
  for (const [key, value] of Object.entries(verdicts)) {
    const id = key.trim();
    if (!byId.has(id)) byId.set(id, value);
  }
  const out = new Map<number, Verdict>();
  for (const id of askedIds) {
    const answer = byId.get(String(id));
    if (!answer) out.set(id, { pass: false, reason: OMITTED_REASON });
    else out.set(id, { pass: coerceVerdict(answer.verdict), reason: answer.reason ?? '' });
  }
  return out;
}

/**
 * Collapses one pair's verdicts across trials: strict majority passes, a tie fails. The reason comes from
 * the first trial that agrees with the outcome, so a failure keeps a grader's explanation.
 */
export function majorityVote(trials: readonly Verdict[]): Verdict {
  const passes = trials.filter((t) => t.pass).length;
  const pass = passes * 2 > trials.length;
  const agreeing = trials.find((t) => t.pass === pass);
  return { pass, reason: agreeing?.reason ?? OMITTED_REASON };
}

export function pairKey(scenarioId: string, assertionId: number): string {
  return `${assertionId}\u0000${scenarioId}`;
}

/**
 * Decides every pair of every plan. `renders` maps scenario id → render; `trials[t]` maps pairKey → the
 * repaired model verdict of trial t (only model-routed pairs need entries; a missing one counts as omitted).
 */
export function decidePairs(
  plans: readonly ScenarioPlan[],
  renders: ReadonlyMap<string, string>,
  trials: ReadonlyArray<ReadonlyMap<string, Verdict>>,
): Map<string, Verdict> {
  const decided = new Map<string, Verdict>();
  for (const plan of plans) {
    const output = renders.get(plan.scenario.id) ?? '';
    for (const pair of plan.pairs) {
      const key = pairKey(plan.scenario.id, pair.assertion.id);
      if (pair.route === 'vacuous') decided.set(key, { pass: true, reason: VACUOUS_REASON });
      else if (pair.route === 'check' && pair.assertion.check) {
        decided.set(key, evaluateCheck(pair.assertion.check, output));
      } else {
        decided.set(
          key,
          majorityVote(trials.map((t) => t.get(key) ?? { pass: false, reason: OMITTED_REASON })),
        );
      }
    }
  }
  return decided;
}

function compareStrings(a: string, b: string): number {
  // Code-unit order, like Python's sort of str (not locale order).
  return a < b ? -1 : a > b ? 1 : 0;
}

const WEIGHT_SUM_TOLERANCE = 1e-9;

/**
 * What Σ weight × category score is divided by (the renormalisation `aggregate` describes): 1 when the
 * counted weights (categories with pairs) sum to 1, else their sum; undefined when they sum to 0 or less
 * (the weighted score is then 1, whatever passes).
 */
function weightDivisor(categories: ReadonlyArray<{ weight: number; total: number }>): number | undefined {
  const weightSum = categories.reduce((sum, c) => sum + (c.total === 0 ? 0 : c.weight), 0);
  if (weightSum <= 0) return undefined;
  return Math.abs(weightSum - 1) <= WEIGHT_SUM_TOLERANCE ? 1 : weightSum;
}

/**
 * What one passing (scenario, assertion) pair adds to the weighted score of `plans`, by pairKey: its
 * category's weight over the category's pairs, renormalised as `aggregate` does (0 for every pair when the
 * weights sum to 0). Σ over a draw's passing pairs is its weighted score, so the noise estimate can split a
 * draw's score by scenario (spread.ts `scenarioSplitter`).
 */
export function pairWeights(evals: EvalsFile, plans: readonly ScenarioPlan[]): Map<string, number> {
  const totals = new Map<Category, number>();
  for (const plan of plans)
    for (const pair of plan.pairs) totals.set(pair.category, (totals.get(pair.category) ?? 0) + 1);
  const divisor = weightDivisor(
    evals.categories.map((c) => ({ weight: c.weight, total: totals.get(c) ?? 0 })),
  );
  const weights = new Map<string, number>();
  for (const plan of plans) {
    for (const pair of plan.pairs) {
      const total = totals.get(pair.category) ?? 1;
      weights.set(
        pairKey(plan.scenario.id, pair.assertion.id),
        divisor === undefined ? 0 : pair.category.weight / total / divisor,
      );
    }
  }
  return weights;
}

/**
 * Aggregates decided pairs. Category score = passed / graded pairs of that category (vacuous pairs are graded
 * pairs that pass). Weighted score = Σ weight × category score. Two edge cases the design leaves open:
 * - a category with no pairs (an empty `evals` list) is reported with score 1 but left out of the weighting,
 *   the other weights renormalised, so it neither rewards nor penalises; with no pairs at all the score is 1;
 * - when the counted weights do not sum to 1 they are renormalised so the score stays in [0, 1] (weights that
 *   sum to 1, including the 1/n default, give exactly Σ weight × score).
 */
export function aggregate(
  evals: EvalsFile,
  plans: readonly ScenarioPlan[],
  decided: ReadonlyMap<string, Verdict>,
): AbsoluteResult {
  const failed: FailedAssertion[] = [];
  const passing: PassingPair[] = [];
  const categories: CategoryScore[] = evals.categories.map((c) => ({
    name: c.name,
    weight: c.weight,
    passed: 0,
    total: 0,
    score: 1,
  }));
  const indexOf = new Map(evals.categories.map((c, i) => [c, i]));

  for (const plan of plans) {
    for (const pair of plan.pairs) {
      const verdict = decided.get(pairKey(plan.scenario.id, pair.assertion.id)) ?? {
        pass: false,
        reason: OMITTED_REASON,
      };
      const category = categories[indexOf.get(pair.category) ?? -1];
      if (!category) throw new Error(`aggregate: assertion ${pair.assertion.id} has no category`);
      category.total += 1;
      if (verdict.pass) {
        category.passed += 1;
        passing.push({ assertion_id: pair.assertion.id, scenario_id: plan.scenario.id });
      } else {
        failed.push({
          assertion_id: pair.assertion.id,
          scenario_id: plan.scenario.id,
          category_name: pair.category.name,
          category_weight: pair.category.weight,
          statement: pair.assertion.statement,
          source: pair.assertion.source,
          defect_type: pair.assertion.defect_type,
          grader_reason: verdict.reason,
        });
      }
    }
  }

  let weighted = 0;
  for (const c of categories) {
    if (c.total === 0) continue;
    c.score = c.passed / c.total;
    weighted += c.weight * c.score;
  }
  const divisor = weightDivisor(categories);
  const weightedScore = divisor === undefined ? 1 : weighted / divisor;

  failed.sort(
    (a, b) =>
      b.category_weight - a.category_weight ||
      a.assertion_id - b.assertion_id ||
      compareStrings(a.scenario_id, b.scenario_id),
  );
  passing.sort((a, b) => a.assertion_id - b.assertion_id || compareStrings(a.scenario_id, b.scenario_id));

  return {
    weighted_score: weightedScore,
    passed: passing.length,
    total: passing.length + failed.length,
    categories,
    failed_assertions: failed,
    passing_pairs: passing,
  };
}

/** The score for a mode: composite = w.structural·structural + w.absolute·weighted. */
export function combineScores(
  mode: ScoreMode,
  structural: number,
  weighted: number | null,
  weights: ScoreWeights,
): number {
  if (mode === 'structural') return structural;
  if (weighted === null) throw new Error(`combineScores: mode ${mode} needs an absolute score`);
  if (mode === 'absolute') return weighted;
  return weights.structural * structural + weights.absolute * weighted;
}

const AMBIGUOUS_SENTINEL = 'AMBIGUOUS:';

/** Step E (docs/how-it-works.md § Scoring): a render that starts with `AMBIGUOUS:` (after trimming) could not do the task; returns its reason. */
export function ambiguousReason(render: string): string | undefined {
  const trimmed = render.trim();
  if (!trimmed.startsWith(AMBIGUOUS_SENTINEL)) return undefined;
  const reason = trimmed.slice(AMBIGUOUS_SENTINEL.length).trim();
  return reason === '' ? '(no reason given)' : reason;
}
