/**
 * Step D's scoring (docs/how-it-works.md § Scoring): N=1, and for an all-pass the saturation handler — the
 * same renders re-graded 3 times (same cache, same timeout), a majority vote per pair.
 */
import { untilAborted } from '../core/abortable.js';
import type { KeptState } from '../core/iterate/hill-climb.js';
import type { AbsoluteResult } from '../core/iterate/score-types.js';
import { addUsage, type Usage } from '../core/usage.js';
import { scoreSkill, type ScoreRequest, type SkillScore } from './score.js';

/** An iteration's scoring: the N=1 result, or the N=3 median when the saturation handler ran. */
export interface ScoredText {
  score: SkillScore;
  saturation: 'none' | 'confirmed' | 'rejected';
  usage: Usage;
}

/** The state the loop climbs from once `text` is kept with `score` (the baseline or a kept edit). */
export function keptStateOf(text: string, score: number, scored: ScoredText): KeptState {
  const s = scored.score;
  return {
    text,
    score,
    structural: s.structural,
    absolute: s.absolute,
    confirmedAllPass: scored.saturation === 'confirmed',
    renders: s.renders,
  };
}

function isAllPass(absolute: AbsoluteResult | null): absolute is AbsoluteResult {
  return absolute !== null && absolute.failed_assertions.length === 0;
}

export async function scoreWithSaturation(request: Omit<ScoreRequest, 'trials'>): Promise<ScoredText> {
  const { signal } = request;
  const first = await untilAborted(scoreSkill({ ...request, trials: 1 }), signal);
  let spent = first.usage;
  if (first.status !== 'ok' || !isAllPass(first.absolute))
    return { score: first, saturation: 'none', usage: spent };
  // Any failure of the re-grade discards the whole iteration's result (the caller sees a non-ok status).
  // Three fresh grades of the same renders (a screening pass's grades are not among them).
  const median = await untilAborted(scoreSkill({ ...request, trials: 3, grades: undefined }), signal);
  spent = addUsage(spent, median.usage);
  if (median.status !== 'ok') {
    const detail = `saturation re-grade failed: ${median.detail ?? median.status}`;
    return {
      score: { ...median, status: 'harness-error', score: null, detail },
      saturation: 'none',
      usage: spent,
    };
  }
  return { score: median, saturation: isAllPass(median.absolute) ? 'confirmed' : 'rejected', usage: spent };
}
