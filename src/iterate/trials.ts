/**
 * Independent draws of one text (docs/how-it-works.md § Decisions under noise): each draw is a fresh render
 * per scenario (cached per draw, so a draw already made is reused) and a fresh grade. The draws run side by
 * side; the first failure is the measurement's.
 */
import { untilAborted } from '../core/abortable.js';
import type { SkillEvals } from '../core/iterate/evals.js';
import { tallyDraws, type AssertionTally } from '../core/iterate/noise.js';
import type { ScoreStatus } from '../core/iterate/score-types.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import { scoreSkill, type ScoreRequest, type SkillScore } from './score.js';

export interface Measurement {
  status: ScoreStatus;
  detail: string | undefined;
  /** One result per draw, in draw order (all ok when status is ok). */
  draws: SkillScore[];
  /** The composite of each draw (empty unless ok). */
  scores: number[];
  tallies: AssertionTally[];
  usage: Usage;
}

/** Scores `draws` (draw numbers) of `request.skillMd`, one trial each. */
export async function measureDraws(
  request: Omit<ScoreRequest, 'trials' | 'draw'>,
  draws: readonly number[],
): Promise<Measurement> {
  const results = await untilAborted(
    Promise.all(draws.map((draw) => scoreSkill({ ...request, trials: 1, draw }))),
    request.signal,
  );
  const usage = results.reduce((sum, r) => addUsage(sum, r.usage), ZERO_USAGE);
  const failed = results.find((r) => r.status !== 'ok' || r.score === null);
  if (failed) {
    return { status: failed.status, detail: failed.detail, draws: results, scores: [], tallies: [], usage };
  }
  return {
    status: 'ok',
    detail: undefined,
    draws: results,
    scores: results.map((r) => r.score!),
    tallies: tallyDraws(results.map((r) => r.pairs)),
    usage,
  };
}

/** The draw numbers `from`, `from + 1`, … (`count` of them). */
export function drawRange(from: number, count: number): number[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) => from + i);
}

/** Holdout scenarios (`"holdout": true`) apart from the ones the loop and its editor see. */
export function splitHoldout(evals: SkillEvals): { training: SkillEvals; holdout: SkillEvals | undefined } {
  const holdout = evals.scenarios.filter((s) => s.holdout === true);
  if (holdout.length === 0) return { training: evals, holdout: undefined };
  return {
    training: { ...evals, scenarios: evals.scenarios.filter((s) => s.holdout !== true) },
    holdout: { ...evals, scenarios: holdout },
  };
}

/**
 * What a render sees in place of the skill when the uplift is measured (`score --uplift`): no instructions,
 * only the fact that there are none (an empty system prompt is refused by some endpoints).
 */
export const NO_SKILL_TEXT = 'No skill instructions are given. Do the task as you see fit.';
