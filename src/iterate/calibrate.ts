/**
 * Adversarial-mutation calibration (docs/how-it-works.md § Calibration): inject ten known defects into copies of the SKILL.md, score
 * each with the same scoring the loop uses, and check the grader notices (score strictly below baseline).
 */
import { mutateAll } from '../core/iterate/mutations.js';
import type { ScoreStatus } from '../core/iterate/score-types.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import { scoreSkill, type ScoreRequest } from './score.js';
import { SkillclimbError } from '../core/errors.js';

export interface CalibrationMutation {
  kind: string;
  /** false: this kind found nothing to mutate in the text; excluded from the catch rate. */
  applied: boolean;
  score: number | null;
  caught: boolean;
  /** How the mutated copy scored ('ambiguous' counts as caught: the loop would revert it). */
  status?: ScoreStatus;
}

export interface CalibrationResult {
  verdict: 'ok' | 'grader-broken-for-skill';
  catchRate: number;
  threshold: number;
  baselineScore: number;
  mutations: CalibrationMutation[];
  /** What the eleven scorings cost (the run's budget and summary count it like any other spend). */
  usage: Usage;
}

export const DEFAULT_CALIBRATION_THRESHOLD = 0.7;

/** Scores within this of the baseline count as equal, so float noise is never a catch. */
const SCORE_EPSILON = 1e-9;

/** Calibration could not reach a verdict: the baseline or a mutated copy failed to score (harness side). */
export class CalibrationError extends SkillclimbError {
  readonly kind = 'model';
  constructor(
    message: string,
    /** What the scorings before the failure cost. */
    readonly usage: Usage = ZERO_USAGE,
  ) {
    super(message);
    this.name = 'CalibrationError';
  }
}

/** Adversarial-mutation calibration: 10 injected defects, catch rate vs threshold (0.70). */
export async function calibrateSkill(
  request: Omit<ScoreRequest, 'skillMd' | 'trials'> & { skillMd: string },
  threshold = DEFAULT_CALIBRATION_THRESHOLD,
): Promise<CalibrationResult> {
  const baseline = await scoreSkill({ ...request, trials: 1 });
  let usage = baseline.usage;
  if (baseline.status !== 'ok' || baseline.score === null) {
    throw new CalibrationError(
      `calibration of ${request.skillName}: baseline scored ${baseline.status}: ${baseline.detail ?? 'no score'}`,
      usage,
    );
  }
  const baselineScore = baseline.score;
  const mutations: CalibrationMutation[] = [];
  // One mutation at a time: each scoreSkill already runs its scenarios under the concurrency limit.
  for (const mutation of mutateAll(request.skillMd, { requiredSections: request.evals.requiredSections })) {
    if (mutation.text === null) {
      mutations.push({ kind: mutation.kind, applied: false, score: null, caught: false });
      continue;
    }
    const scored = await scoreSkill({ ...request, skillMd: mutation.text, trials: 1 });
    usage = addUsage(usage, scored.usage);
    if (scored.status === 'ambiguous') {
      mutations.push({
        kind: mutation.kind,
        applied: true,
        score: null,
        caught: true,
        status: scored.status,
      });
      continue;
    }
    if (scored.status !== 'ok' || scored.score === null) {
      throw new CalibrationError(
        `calibration of ${request.skillName}: mutation ${mutation.kind} scored ${scored.status}: ${scored.detail ?? 'no score'}`,
        usage,
      );
    }
    mutations.push({
      kind: mutation.kind,
      applied: true,
      score: scored.score,
      caught: scored.score < baselineScore - SCORE_EPSILON,
      status: scored.status,
    });
  }
  const applied = mutations.filter((m) => m.applied);
  const catchRate = applied.length === 0 ? 0 : applied.filter((m) => m.caught).length / applied.length;
  return {
    verdict: catchRate < threshold ? 'grader-broken-for-skill' : 'ok',
    catchRate,
    threshold,
    baselineScore,
    mutations,
    usage,
  };
}
