/**
 * The loop's one mutable state (docs/how-it-works.md § The hill-climb loop): the pure bookkeeping of
 * core/iterate/hill-climb.ts, every draw's per-assertion tallies, what the baseline's trials measured and
 * how the confirmation ended. It changes only through the named transitions below; the loop's measurement
 * is derived from it.
 */
import {
  initialLoopState,
  stepLoop,
  withUsage,
  type IterationRecord,
  type LoopState,
} from '../../core/iterate/hill-climb.js';
import {
  evalFindings,
  mergeTallies,
  type AssertionTally,
  type Confirmation,
  noiseSd,
  poolNoise,
  type KeepRule,
  type NoiseEstimate,
  type NoiseReport,
  type UpliftReport,
} from '../../core/iterate/noise.js';
import type { Scenario } from '../../core/iterate/evals.js';
import {
  absoluteCountRows,
  feedbackEvidence,
  type FeedbackEvidence,
} from '../../core/iterate/feedback-evidence.js';
import type { NoiseFloor, SkillMeasurement, StoredTrials } from '../../core/iterate/run-result.js';
import type { AbsoluteResult } from '../../core/iterate/score-types.js';
import { flipRate, minimumDetectableGain } from '../../core/iterate/sequential.js';
import type { Usage } from '../../core/usage.js';
import type { BaselineDrawsEntry, BaselineDrawsRecord } from '../../core/iterate/baseline-draws-record.js';
import type { UpliftWithout } from './types.js';

/** How the ship gate's confirmation ended, when it was considered at all (confirmation.ts). */
export type ConfirmationOutcome =
  | { kind: 'confirmed'; confirmation: Confirmation }
  /** It ran, or would have, and could not be scored. */
  | { kind: 'failed'; reason: string }
  /** No draws were spent: they would have decided nothing. */
  | { kind: 'skipped'; reason: string };

/**
 * The baseline text's draws as measured before any edit (draw 0 and the extra trials): no selection chose
 * them, so the confirmation reuses them as its baseline side instead of drawing the baseline again.
 */
export interface BaselineDraws {
  scores: number[];
  tallies: AssertionTally[];
}

/** What the baseline's extra trials measured (baseline-measurement.ts). */
export interface BaselineReport {
  noise?: NoiseReport | undefined;
  /** The trials of `noise` an earlier night drew (baseline-stored.ts). */
  stored?: StoredTrials | undefined;
  uplift?: UpliftReport | undefined;
}

export class LoopLedger {
  private current: LoopState = initialLoopState();
  /** Every draw of the night, per assertion (the eval-quality findings). */
  private tallies: AssertionTally[] = [];
  private baseline: BaselineReport = {};
  private withoutSkill: UpliftWithout | undefined;
  /** Draws no selection touched, per text's key, for the next night (stored-draws.ts); `fresh`: drawn tonight. */
  private readonly keptDrawsByKey = new Map<string, { entry: BaselineDrawsEntry; fresh: boolean }>();
  private confirmation: ConfirmationOutcome | undefined;
  private baselineSample: BaselineDraws | undefined;
  /** The baseline's text and its graded draw 0, as the loop started from them (the findings' fallback counts). */
  private baselineKept: { text: string; absolute: AbsoluteResult | null } | undefined;
  /** Per text, how many draw numbers (0, 1, …) were scored: a fresh draw is numbered past them. */
  private readonly drawsMade = new Map<string, number>();

  get state(): LoopState {
    return this.current;
  }

  /** Step G's bookkeeping: a judged attempt, its row already on disk (record.ts). */
  recorded(record: IterationRecord): void {
    if (record.kind === 'baseline' && record.kept) this.baselineKept = record.kept;
    this.current = stepLoop(this.current, record);
  }

  /** Spend of an attempt that was never judged (interrupted, cut by the budget); returns the new total. */
  spentUnjudged(usage: Usage): Usage {
    this.current = withUsage(this.current, usage);
    return this.current.usage;
  }

  /** Draws scored tonight add to the per-assertion tallies. */
  observed(tallies: readonly AssertionTally[]): void {
    this.tallies = mergeTallies(this.tallies, tallies);
  }

  /** The grader's flip rate on identical texts over the night's draws so far (NaN until a check was drawn twice). */
  get flipRate(): number {
    return flipRate(this.tallies);
  }

  baselineMeasured(report: BaselineReport, draws?: BaselineDraws): void {
    this.baseline = { ...report, uplift: this.baseline.uplift };
    this.baselineSample = draws;
  }

  /** The draw without the skill ended or was reused (it runs beside the first iteration, uplift.ts). */
  upliftMeasured(uplift: UpliftReport, without: UpliftWithout): void {
    this.baseline = { ...this.baseline, uplift };
    this.withoutSkill = without;
  }

  /** The draw without the skill the uplift used, for the caller to keep (undefined: no uplift tonight). */
  get upliftWithout(): UpliftWithout | undefined {
    return this.withoutSkill;
  }

  /** Whole draws of a text that no selection touched, kept for the next night (stored-draws.ts). */
  keepDraws(entry: BaselineDrawsEntry, fresh: boolean): void {
    this.keptDrawsByKey.set(entry.key, { entry, fresh });
  }

  /** The draws to keep for the next night; undefined when none, or when none was drawn tonight. */
  get keptDraws(): BaselineDrawsRecord | undefined {
    const kept = [...this.keptDrawsByKey.values()];
    if (!kept.some((k) => k.fresh)) return undefined;
    return { entries: kept.map((k) => k.entry) };
  }

  /** The baseline's draws, when it was measured more than once (the confirmation reuses them). */
  get baselineDraws(): BaselineDraws | undefined {
    return this.baselineSample;
  }

  /** The baseline's graded draw 0, as the loop started from it (the final text's check compares with it). */
  get baselineFirstDraw(): AbsoluteResult | null {
    return this.baselineKept?.absolute ?? null;
  }

  /**
   * Draws of one text that no row measured (the final text's check and the draw it completed, final-check.ts)
   * add their spread to the night's pooled estimate.
   */
  spreadMeasured(scores: readonly number[]): void {
    this.current = { ...this.current, noise: poolNoise(this.current.noise, scores) };
  }

  /** `text` was scored with draw numbers 0 … count − 1. */
  drew(text: string, count: number): void {
    this.drawsMade.set(text, Math.max(count, this.drawsMade.get(text) ?? 0));
  }

  /** The first draw number of `text` that no measurement (and so no selection) has seen. */
  freshDraw(text: string): number {
    return this.drawsMade.get(text) ?? 0;
  }

  confirmationEnded(outcome: ConfirmationOutcome): void {
    this.confirmation = outcome;
  }

  measurement(
    keepRule: KeepRule,
    statements: Record<string, string>,
    power?: { trials: number; margin: number; minGain: number },
    scenarios: readonly Scenario[] = [],
  ): SkillMeasurement {
    const feedback = this.feedbackEvidence(scenarios);
    const { noise, stored, uplift } = this.baseline;
    const outcome = this.confirmation;
    const floor = power
      ? noiseFloorOf(this.tallies, this.current.noise, this.baselineSample, power)
      : undefined;
    return {
      ...(floor ? { noiseFloor: floor } : {}),
      keepRule,
      noise,
      ...(stored ? { baselineStored: stored } : {}),
      uplift,
      confirmation: outcome?.kind === 'confirmed' ? outcome.confirmation : undefined,
      confirmationFailure: outcome?.kind === 'failed' ? outcome.reason : undefined,
      confirmationSkipped: outcome?.kind === 'skipped' ? outcome.reason : undefined,
      findings: evalFindings({ night: this.tallies, uplift }),
      statements,
      ...(feedback ? { feedback } : {}),
    };
  }

  /**
   * The feedback evals' findings on the baseline and the kept text: from the confirmation's fresh draws when
   * it ran, else from the loop's one graded draw of each; none when no edit was kept (nothing changed).
   */
  private feedbackEvidence(scenarios: readonly Scenario[]): FeedbackEvidence | undefined {
    if (!scenarios.some((s) => s.feedback)) return undefined;
    const outcome = this.confirmation;
    if (outcome?.kind === 'confirmed' && outcome.confirmation.perAssertion) {
      return feedbackEvidence(scenarios, 'confirmation', outcome.confirmation.perAssertion);
    }
    const base = this.baselineKept;
    const kept = this.current.kept;
    if (!base?.absolute || !kept?.absolute || kept.text === base.text) return undefined;
    return feedbackEvidence(scenarios, 'loop', absoluteCountRows(base.absolute, kept.absolute));
  }
}

/**
 * The noise floor from the night's draws: the flip rate over every check drawn more than once, and the
 * smallest gain the confirmation could call clear at its last look (twice `trials` fresh draws against the
 * baseline's) with the night's pooled spread. Undefined until something was drawn twice.
 */
function noiseFloorOf(
  tallies: readonly AssertionTally[],
  noise: NoiseEstimate,
  baseline: BaselineDraws | undefined,
  power: { trials: number; margin: number; minGain: number },
): NoiseFloor | undefined {
  const comparisons = tallies.reduce((s, t) => s + (t.comparisons ?? 0), 0);
  if (comparisons === 0 || noise.df === 0) return undefined;
  const draws = 2 * power.trials;
  const baselineDraws = baseline?.scores.length ?? power.trials;
  return {
    flipRate: flipRate(tallies),
    comparisons,
    minimumDetectableGain: minimumDetectableGain({
      sd: noiseSd(noise),
      draws,
      stateDraws: baselineDraws,
      margin: power.margin,
      minGain: power.minGain,
    }),
    draws,
    baselineDraws,
  };
}
