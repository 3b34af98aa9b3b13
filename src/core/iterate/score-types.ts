/** Shapes shared by the scoring code, the loop, the summaries and the `score --json` output. */

export const METRIC_NAMES = [
  'section_depth_consistency',
  'required_sections',
  'banned_phrases',
  'link_integrity',
  'code_fence_balance',
  'max_line_length',
  'cross_reference_resolution',
  'rules_to_rationale_ratio',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** Each metric has a `score` in [0, 1] plus the counts that produced it (metric-specific keys). */
export interface MetricResult {
  score: number;
  [detail: string]: unknown;
}

export interface StructuralResult {
  /**
   * Arithmetic mean of the eight metric scores, times the substance factor in skillclimb's reading
   * (docs/how-it-works.md § A score that never rewards deleting the skill).
   */
  score: number;
  metrics: Record<MetricName, MetricResult>;
  /** Words of instructions, the words that score in full, and the factor; absent in the original reading. */
  substance?: { words: number; needed: number; factor: number } | undefined;
}

export interface FailedAssertion {
  assertion_id: number;
  scenario_id: string;
  category_name: string;
  category_weight: number;
  statement: string;
  source: string;
  defect_type: string;
  grader_reason: string;
}

export interface PassingPair {
  assertion_id: number;
  scenario_id: string;
}

export interface CategoryScore {
  name: string;
  weight: number;
  passed: number;
  total: number;
  score: number;
}

export interface AbsoluteResult {
  weighted_score: number;
  passed: number;
  total: number;
  categories: CategoryScore[];
  /** Sorted by (−category_weight, assertion_id). */
  failed_assertions: FailedAssertion[];
  /** Sorted by (assertion_id, scenario_id). */
  passing_pairs: PassingPair[];
}

export type ScoreMode = 'composite' | 'structural' | 'absolute';

/**
 * - ok: `score` is a number.
 * - ambiguous: a render answered with the `AMBIGUOUS:` sentinel (Step E → revert).
 * - unparseable: the grader's answer stayed unusable after one retry (→ crash).
 * - harness-error: a model call failed or timed out (→ crash).
 */
export type ScoreStatus = 'ok' | 'ambiguous' | 'unparseable' | 'harness-error';

export interface ScoreWeights {
  structural: number;
  absolute: number;
}

export const DEFAULT_WEIGHTS: ScoreWeights = { structural: 0.4, absolute: 0.6 };

/** Metrics below 1.0, weakest first; ties keep METRIC_NAMES order. */
export function weakestMetrics(structural: StructuralResult): MetricName[] {
  // A metric missing from a hand-built result (tests, older callers) is treated as perfect.
  const score = (name: MetricName): number =>
    (structural.metrics[name] as MetricResult | undefined)?.score ?? 1;
  return METRIC_NAMES.filter((name) => score(name) < 1).sort(
    (a, b) => score(a) - score(b) || METRIC_NAMES.indexOf(a) - METRIC_NAMES.indexOf(b),
  );
}
