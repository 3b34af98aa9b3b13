/**
 * Decisions under noise (docs/how-it-works.md § Decisions under noise): a model-graded score is one draw of
 * a noisy measurement. This file is the arithmetic: the spread of a text's draws, the pooled noise estimate,
 * the margin a gain must clear, the per-assertion tallies behind the evidence table and the eval-quality
 * findings, and the confirmed ship gate. Pure: no I/O.
 */
import { mean, standardDeviation, withinTextSquares, type ScenarioParts } from './spread.js';
import { SCORE_EPSILON, compareScores, type ShipDecision } from './ship-gate.js';

export { mean, withinTextSquares, type ScenarioParts } from './spread.js';

/**
 * Which rule keeps an iteration. `original`: the original skill's (any delta > 0 over the high-water mark is
 * a keep, the loop's own scores ship). `noise-aware`: a gain must clear the margin on re-measured scores,
 * and the ship gate re-scores baseline and final side by side first (the confirmation).
 */
export type KeepRule = 'original' | 'noise-aware';
export const KEEP_RULES: readonly KeepRule[] = ['original', 'noise-aware'];
export const DEFAULT_KEEP_RULE: KeepRule = 'noise-aware';
/** Independent draws (a fresh render and a fresh grade each) of the baseline, a candidate, a confirmation. */
export const DEFAULT_TRIALS = 3;
/** How many standard errors of the difference a gain must clear (one-sided; 1 ≈ 84 % sure it is real). */
export const DEFAULT_MARGIN = 1;
/** The interval shown with a confirmed gain: ±1.645 standard errors, a 90 % interval. */
const INTERVAL_Z = 1.645;

/**
 * The night's estimate of one skill's noise: the composite's within-text variance, pooled over every text
 * measured more than once (the baseline's trials, re-measured candidates, the confirmation). `df` is the
 * degrees of freedom (Σ draws − 1 per text); 0 means nothing was measured twice yet.
 */
export interface NoiseEstimate {
  sumSquares: number;
  df: number;
}

export const NO_NOISE: NoiseEstimate = { sumSquares: 0, df: 0 };

/** One more text's draws pooled in (one draw adds nothing); `parts` split each by scenario (spread.ts). */
export function poolNoise(
  estimate: NoiseEstimate,
  draws: readonly number[],
  parts?: ReadonlyArray<ScenarioParts | undefined>,
): NoiseEstimate {
  if (draws.length < 2) return estimate;
  return {
    sumSquares: estimate.sumSquares + withinTextSquares(draws, parts),
    df: estimate.df + draws.length - 1,
  };
}

/** The pooled sd of one draw's composite; 0 until a spread was measured (float rounding is no spread). */
export function noiseSd(estimate: NoiseEstimate): number {
  if (estimate.df === 0) return 0;
  const sd = Math.sqrt(estimate.sumSquares / estimate.df);
  return sd <= SCORE_EPSILON ? 0 : sd;
}

/** The standard error of (mean of `a` draws) − (mean of `b` draws) under the estimate. */
export function differenceSe(estimate: NoiseEstimate, a: number, b: number): number {
  return noiseSd(estimate) * Math.sqrt(1 / Math.max(1, a) + 1 / Math.max(1, b));
}

/** The gain a comparison of `a` draws against `b` draws must exceed: `margin` standard errors. */
export function gainMargin(estimate: NoiseEstimate, a: number, b: number, margin: number): number {
  return margin * differenceSe(estimate, a, b);
}

/**
 * Whether more draws can change a decision (a candidate's keep, the ship gate's confirmation): only when
 * the skill is scored by models (structural scores are exact) and either a spread was seen, or nothing was
 * measured twice yet, or some verdict differed between draws of one text (`flipped`): draws whose
 * composites tie can still flip their verdicts — one assertion lost where another is gained — and a
 * skill measured so is not exact.
 */
export function worthMeasuring(
  est: NoiseEstimate,
  trials: number,
  deterministic: boolean,
  flipped = false,
): boolean {
  if (deterministic || trials < 2) return false;
  return est.df === 0 || noiseSd(est) > 0 || flipped;
}

/** The noise-aware keep decision on a candidate's mean over `draws` against the state's mean over `stateDraws`. */
export function clearsMargin(input: {
  candidate: number;
  state: number;
  draws: number;
  stateDraws: number;
  estimate: NoiseEstimate;
  margin: number;
  linesDelta: number;
}): { keep: boolean; gain: number; needed: number } {
  const gain = input.candidate - input.state;
  const needed = gainMargin(input.estimate, input.draws, input.stateDraws, input.margin);
  // Simplicity bias on re-measured scores: fewer lines and no loss keeps.
  const simpler = input.linesDelta < 0 && compareScores(input.candidate, input.state) >= 0;
  return { keep: simpler || compareScores(gain, needed) > 0, gain, needed };
}

/** One (scenario, assertion) pair that a render can pass or fail (vacuous pairs are left out). */
export interface PairVerdict {
  assertionId: number;
  scenarioId: string;
  pass: boolean;
  /** The grader's (or the check's) reason, when the verdict came with one. */
  reason?: string | undefined;
}

/** k of n: how many draws of a pair (or of all an assertion's pairs) passed. */
export interface PassCount {
  passes: number;
  total: number;
}

/** Per assertion over a set of draws: passes of all its pairs, and the pairs whose verdict changed. */
export interface AssertionTally extends PassCount {
  assertionId: number;
  /** Pairs graded in more than one draw. */
  repeatedPairs: number;
  /** Of those, pairs whose verdict differed between draws. */
  flippedPairs: number;
  /**
   * Two draws of a pair compared (n(n − 1)/2 per pair graded n times), and how many of them disagreed
   * (k(n − k) with k passes): the grader's flip rate on identical texts is their ratio (sequential.ts).
   */
  comparisons?: number | undefined;
  disagreements?: number | undefined;
}

/** Tallies each assertion over the draws of ONE text (each draw: that draw's pair verdicts). */
export function tallyDraws(draws: ReadonlyArray<readonly PairVerdict[]>): AssertionTally[] {
  const byPair = new Map<string, { assertionId: number; verdicts: boolean[] }>();
  for (const draw of draws) {
    for (const v of draw) {
      const key = `${v.assertionId}\u0000${v.scenarioId}`;
      const entry = byPair.get(key) ?? { assertionId: v.assertionId, verdicts: [] };
      entry.verdicts.push(v.pass);
      byPair.set(key, entry);
    }
  }
  const byAssertion = new Map<number, AssertionTally>();
  for (const { assertionId, verdicts } of byPair.values()) {
    const t = byAssertion.get(assertionId) ?? {
      assertionId,
      passes: 0,
      total: 0,
      repeatedPairs: 0,
      flippedPairs: 0,
      comparisons: 0,
      disagreements: 0,
    };
    const k = verdicts.filter(Boolean).length;
    const n = verdicts.length;
    t.passes += k;
    t.total += n;
    t.comparisons = (t.comparisons ?? 0) + (n * (n - 1)) / 2;
    t.disagreements = (t.disagreements ?? 0) + k * (n - k);
    if (verdicts.length > 1) {
      t.repeatedPairs += 1;
      if (verdicts.some((v) => v !== verdicts[0])) t.flippedPairs += 1;
    }
    byAssertion.set(assertionId, t);
  }
  return [...byAssertion.values()].sort((a, b) => a.assertionId - b.assertionId);
}

/** Adds tallies of the same assertions (different texts or different draws). */
export function mergeTallies(...sets: ReadonlyArray<readonly AssertionTally[]>): AssertionTally[] {
  const out = new Map<number, AssertionTally>();
  for (const set of sets) {
    for (const t of set) {
      const m = out.get(t.assertionId);
      out.set(
        t.assertionId,
        m
          ? {
              assertionId: t.assertionId,
              passes: m.passes + t.passes,
              total: m.total + t.total,
              repeatedPairs: m.repeatedPairs + t.repeatedPairs,
              flippedPairs: m.flippedPairs + t.flippedPairs,
              comparisons: (m.comparisons ?? 0) + (t.comparisons ?? 0),
              disagreements: (m.disagreements ?? 0) + (t.disagreements ?? 0),
            }
          : { ...t },
      );
    }
  }
  return [...out.values()].sort((a, b) => a.assertionId - b.assertionId);
}

/** What the baseline's trials said about one skill's noise (the morning summary shows it). */
export interface NoiseReport {
  trials: number;
  /** The composite of each trial, in order. */
  scores: number[];
  mean: number;
  sd: number;
  /** Assertions whose verdict changed between trials on at least one scenario. */
  flipping: AssertionTally[];
  /** Draw 1 stopped at the agreeing noise probe (noise-probe.ts); `scores` are then over its scenarios. */
  probe?: { scenarios: number; of: number } | undefined;
}

export function noiseReport(
  scores: readonly number[],
  tallies: readonly AssertionTally[],
  parts?: ReadonlyArray<ScenarioParts | undefined>,
): NoiseReport {
  return {
    trials: scores.length,
    scores: [...scores],
    mean: mean(scores),
    sd: scores.length < 2 ? 0 : Math.sqrt(withinTextSquares(scores, parts) / (scores.length - 1)),
    flipping: tallies.filter((t) => t.flippedPairs > 0),
  };
}

/** One assertion whose pass rate changed between the confirmation's baseline and final trials. */
export interface EvidenceRow {
  assertionId: number;
  before: PassCount;
  after: PassCount;
}

/** The ship gate's re-measurement: baseline and final text, fresh trials each, side by side. */
export interface Confirmation {
  /** Fresh draws of the final text. */
  trials: number;
  /**
   * The baseline side is the baseline's own draws from before the loop (no selection chose them), not
   * fresh ones; `baselineScores.length` says how many.
   */
  reusedBaseline?: boolean | undefined;
  baselineScores: number[];
  finalScores: number[];
  baseline: number;
  final: number;
  gain: number;
  /** The gain the confirmation had to clear (the margin in composite units). */
  needed: number;
  /** 90 % interval of the gain. */
  low: number;
  high: number;
  evidence: EvidenceRow[];
  /**
   * Every assertion's pass counts on both texts, changed or not, the holdout's included (assertion ids are
   * the skill's own, so they never clash): the reviewer skill's findings table (feedback-evidence.ts).
   */
  perAssertion?: EvidenceRow[] | undefined;
  /** Pass counts on the holdout scenarios, when the skill has any. */
  holdout?: { before: PassCount; after: PassCount } | undefined;
  /** Reviewer skill: the accepted findings it lost, drawn again; the ones missed again (accepted-floor.ts). */
  acceptedRecheck?: { lost: string[] } | undefined;
}

export function passRate(count: PassCount): number {
  return count.total === 0 ? 0 : count.passes / count.total;
}

function sumCounts(tallies: readonly AssertionTally[]): PassCount {
  return tallies.reduce((s, t) => ({ passes: s.passes + t.passes, total: s.total + t.total }), {
    passes: 0,
    total: 0,
  });
}

/** Assertions whose pass rate differs between the two tallies, as k of n before → after. */
export function evidenceRows(
  before: readonly AssertionTally[],
  after: readonly AssertionTally[],
): EvidenceRow[] {
  return countRows(before, after).filter((row) => passRate(row.before) !== passRate(row.after));
}

/** Every assertion of either tally, as k of n before → after, by id. */
function countRows(before: readonly AssertionTally[], after: readonly AssertionTally[]): EvidenceRow[] {
  const ids = [...new Set([...before, ...after].map((t) => t.assertionId))].sort((a, b) => a - b);
  const zero: PassCount = { passes: 0, total: 0 };
  const rows: EvidenceRow[] = [];
  for (const id of ids) {
    const b = before.find((t) => t.assertionId === id) ?? zero;
    const a = after.find((t) => t.assertionId === id) ?? zero;
    rows.push({
      assertionId: id,
      before: { passes: b.passes, total: b.total },
      after: { passes: a.passes, total: a.total },
    });
  }
  return rows;
}

/**
 * The confirmation from the two texts' fresh draws. `estimate` already includes these draws (they are
 * measurements of the noise too); the margin is `margin` standard errors of the difference of the means.
 */
export function confirmationOf(input: {
  baselineScores: readonly number[];
  finalScores: readonly number[];
  baselineTallies: readonly AssertionTally[];
  finalTallies: readonly AssertionTally[];
  holdoutBefore?: readonly AssertionTally[] | undefined;
  holdoutAfter?: readonly AssertionTally[] | undefined;
  estimate: NoiseEstimate;
  margin: number;
  reusedBaseline?: boolean | undefined;
}): Confirmation {
  const baseline = mean(input.baselineScores);
  const final = mean(input.finalScores);
  const gain = final - baseline;
  const n = input.finalScores.length;
  const m = input.baselineScores.length;
  const se = differenceSe(input.estimate, n, m);
  const holdout =
    input.holdoutBefore && input.holdoutAfter && input.holdoutBefore.length > 0
      ? { before: sumCounts(input.holdoutBefore), after: sumCounts(input.holdoutAfter) }
      : undefined;
  return {
    trials: n,
    baselineScores: [...input.baselineScores],
    finalScores: [...input.finalScores],
    baseline,
    final,
    gain,
    needed: input.margin * se,
    low: gain - INTERVAL_Z * se,
    high: gain + INTERVAL_Z * se,
    evidence: evidenceRows(input.baselineTallies, input.finalTallies),
    perAssertion: countRows(
      [...input.baselineTallies, ...(input.holdoutBefore ?? [])],
      [...input.finalTallies, ...(input.holdoutAfter ?? [])],
    ),
    ...(holdout ? { holdout } : {}),
    ...(input.reusedBaseline ? { reusedBaseline: true } : {}),
  };
}

/**
 * The ship gate on confirmed scores: ship when the confirmed gain clears the margin and the minimum gain,
 * or (simplicity bias) the confirmed final is no lower with fewer lines — and in both cases only when the
 * holdout pass rate did not drop. `detail` says why not, for the summary.
 */
export function confirmedShipGate(input: {
  confirmation: Confirmation;
  linesBaseline: number;
  linesFinal: number;
  minGain: number;
}): { decision: ShipDecision; detail: string | undefined } {
  const c = input.confirmation;
  const holdout = c.holdout;
  if (holdout && passRate(holdout.after) < passRate(holdout.before)) {
    return {
      decision: 'no-improvement',
      detail:
        `holdout pass rate dropped: ${holdout.before.passes} of ${holdout.before.total} → ` +
        `${holdout.after.passes} of ${holdout.after.total}`,
    };
  }
  const clears = compareScores(c.gain, c.needed) > 0 && compareScores(c.gain, input.minGain) >= 0;
  const simpler = input.linesFinal < input.linesBaseline && compareScores(c.final, c.baseline) >= 0;
  if (clears || simpler) return { decision: 'ship', detail: undefined };
  return {
    decision: 'no-improvement',
    detail:
      `the confirmation measured a gain of ${formatGain(c.gain)} (90 % interval ${formatGain(c.low)} to ` +
      `${formatGain(c.high)}, ${drawsOf(c)}), which does not clear the margin ${c.needed.toFixed(4)}` +
      (input.minGain > c.needed ? ` or the minimum gain ${input.minGain}` : ''),
  };
}

/**
 * How many draws a confirmation rests on: "3 trials each", "2 fresh trials of the final text against the
 * baseline's 3" (reused), or "6 fresh trials of the final text against 3 of the baseline" (a close call).
 */
export function drawsOf(c: Confirmation): string {
  if (c.reusedBaseline)
    return `${c.trials} fresh trial${c.trials === 1 ? '' : 's'} of the final text against the baseline's ${c.baselineScores.length}`;
  if (c.baselineScores.length !== c.trials)
    return `${c.trials} fresh trial${c.trials === 1 ? '' : 's'} of the final text against ${c.baselineScores.length} of the baseline`;
  return `${c.trials} trial${c.trials === 1 ? '' : 's'} each`;
}

export function formatGain(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
}

/** With the skill minus without it: the skill's marginal effect on the pass rate (`score --uplift`). */
export interface UpliftReport {
  with: PassCount;
  without: PassCount;
  uplift: number;
  measurable: boolean; // false when the difference is within the noise (or not positive)
  perAssertion: Array<{ assertionId: number; with: PassCount; without: PassCount }>;
  /** Set when the side without the skill is an earlier night's draw, reused (docs/how-it-works.md § Baseline): its date. */
  withoutDrawnAt?: string | undefined;
}

export function upliftOf(input: {
  withSkill: readonly AssertionTally[];
  withoutSkill: readonly AssertionTally[];
  /** The pass rate of each draw with the skill (its spread sets what "measurable" means). */
  withRates: readonly number[];
  margin: number;
}): UpliftReport {
  const w = sumCounts(input.withSkill);
  const wo = sumCounts(input.withoutSkill);
  const uplift = passRate(w) - passRate(wo);
  const sd = standardDeviation(input.withRates);
  const se = sd * Math.sqrt(1 / Math.max(1, input.withRates.length) + 1);
  const ids = [...new Set(input.withSkill.map((t) => t.assertionId))].sort((a, b) => a - b);
  const zero: PassCount = { passes: 0, total: 0 };
  const pick = (set: readonly AssertionTally[], id: number): PassCount => {
    const t = set.find((x) => x.assertionId === id);
    return t ? { passes: t.passes, total: t.total } : zero;
  };
  return {
    with: w,
    without: wo,
    uplift,
    measurable: compareScores(uplift, input.margin * se) > 0,
    perAssertion: ids.map((id) => ({
      assertionId: id,
      with: pick(input.withSkill, id),
      without: pick(input.withoutSkill, id),
    })),
  };
}

export type FindingKind = 'not discriminating' | 'flaky' | 'never passing';

/** An eval to fix rather than a skill to edit (the summary and the PR body list them). */
export interface EvalFinding {
  assertionId: number;
  kind: FindingKind;
  /** What was measured, e.g. "passed 2 of 3 without the skill, 2 of 3 with it". */
  evidence: string;
}

function kOfN(c: PassCount): string {
  return `${c.passes} of ${c.total}`;
}

/**
 * The three eval-quality findings: flaky (a verdict changed between draws of the same text), never passing
 * (no pass in any draw of the night), not discriminating (passes as often without the skill as with it).
 */
export function evalFindings(input: {
  /** Every draw of the night, per assertion (texts merged). */
  night: readonly AssertionTally[];
  uplift?: UpliftReport | undefined;
}): EvalFinding[] {
  const findings: EvalFinding[] = [];
  for (const t of input.night) {
    if (t.total > 0 && t.passes === 0) {
      findings.push({
        assertionId: t.assertionId,
        kind: 'never passing',
        evidence: `passed 0 of ${t.total} graded draws tonight`,
      });
    }
    if (t.flippedPairs > 0) {
      findings.push({
        assertionId: t.assertionId,
        kind: 'flaky',
        evidence: `verdict changed between draws of the same text on ${t.flippedPairs} of ${t.repeatedPairs} repeated scenario checks`,
      });
    }
  }
  for (const a of input.uplift?.perAssertion ?? []) {
    if (a.with.passes === 0 || a.without.total === 0) continue;
    if (passRate(a.without) >= passRate(a.with)) {
      findings.push({
        assertionId: a.assertionId,
        kind: 'not discriminating',
        evidence: `passed ${kOfN(a.without)} without the skill, ${kOfN(a.with)} with it`,
      });
    }
  }
  return findings.sort((a, b) => a.assertionId - b.assertionId || a.kind.localeCompare(b.kind));
}
