// CONTRACT STUB — owned by the scoring helper.
import type { ScoreRequest } from './score.js';

export interface CalibrationResult {
  verdict: 'ok' | 'grader-broken-for-skill';
  catchRate: number;
  threshold: number;
  baselineScore: number;
  mutations: Array<{ kind: string; applied: boolean; score: number | null; caught: boolean }>;
}

/** Seed Phase 0 adversarial-mutation calibration: 10 injected defects, catch rate vs threshold (0.70). */
export async function calibrateSkill(
  _request: Omit<ScoreRequest, 'skillMd' | 'trials'> & { skillMd: string },
  _threshold = 0.7,
): Promise<CalibrationResult> {
  throw new Error('not implemented');
}
