/** One skill's processing context and the records a skill ends with. */
import type { SkillResult, SkillStatus } from '../core/iterate/run-result.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import type { IteratePorts } from '../ports/iterate.js';
import type { LoopStopReason, SkillLoopResult } from './loop/types.js';
import type { IterateOptions } from './options.js';

export function totalUsage(results: readonly SkillResult[]): Usage {
  return results.reduce((sum, r) => addUsage(sum, r.usage), ZERO_USAGE);
}

export function costReached(options: IterateOptions, usage: Usage): boolean {
  return options.maxCostUsd !== undefined && usage.costUsd !== null && usage.costUsd >= options.maxCostUsd;
}

/** Whether the night budget lets no new skill start: the run's estimated cost has reached it. */
export function nightBudgetReached(options: IterateOptions, usage: Usage): boolean {
  const budget = options.nightBudgetUsd;
  return budget !== undefined && usage.costUsd !== null && usage.costUsd >= budget;
}

export function emptyResult(
  skill: string,
  status: SkillStatus,
  extra: Partial<SkillResult> = {},
): SkillResult {
  return {
    skill,
    baselineScore: null,
    finalScore: null,
    iterations: 0,
    wallSecondsTotal: 0,
    status,
    link: undefined,
    keptEdits: [],
    linesDelta: undefined,
    usage: ZERO_USAGE,
    rows: [],
    ...extra,
  };
}

export function fromLoop(
  skill: string,
  loop: SkillLoopResult,
  status: SkillStatus,
  extra: Partial<SkillResult> = {},
): SkillResult {
  return {
    skill,
    baselineScore: loop.baselineScore,
    finalScore: loop.finalScore,
    iterations: loop.iterations,
    // This run's rows only: the file also holds earlier nights.
    wallSecondsTotal: loop.rows.reduce((sum, r) => sum + r.wallSeconds, 0),
    status,
    link: undefined,
    keptEdits: loop.keptEdits,
    linesDelta: undefined,
    usage: loop.usage,
    rows: loop.rows,
    measurement: loop.measurement,
    ...extra,
  };
}

export interface SkillContext {
  options: IterateOptions;
  ports: IteratePorts;
  project: string;
  /** The root of the project's git repository (links inside it are followed). */
  repository: string;
  /** Usage of the skills already processed (the cost budget is per run). */
  usageBefore: Usage;
  /** The run's stop signal (a front-end's SIGINT, a caller's deadline). */
  signal: AbortSignal;
  /** What this skill has spent so far (calibration and loop), kept even when the skill throws. */
  spent: Usage;
  /** Set by processSkill when the skill's loop ran (or the budget kept it from running): why it ended. */
  stopReason?: LoopStopReason;
  /** The skill's record when the run ends inside it (interrupt, halt): the summary still lists it. */
  unfinished?: SkillResult;
  /** The progress lines' skill column width (the queue's longest name). */
  nameWidth?: number;
}
