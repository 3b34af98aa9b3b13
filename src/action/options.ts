/** The engine's options from the Action's inputs, and where the Action writes its result files. */
import path from 'node:path';
import type { SkillclimbConfig } from '../config/config.js';
import { applyConfigSettings } from '../config/run-settings.js';
import { ITERATE_DEFAULTS, type IterateOptions } from '../iterate/options.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';

/**
 * The engine's options from the inputs; `config` (the project's skillclimb.config.json) gives mode,
 * concurrency, the cost budget, the minimum gain, the trials, the margin, the keep rule, the skills setting and the structural settings where no
 * input does (max-cost-usd, night-budget, min-gain and skills are inputs).
 */
export function iterateOptions(
  inputs: ActionInputs,
  ctx: ActionContext,
  config: SkillclimbConfig = {},
): IterateOptions {
  const options: IterateOptions = {
    project: path.resolve(ctx.workspace, inputs.project),
    skill: inputs.skill,
    queueFile: inputs.queue ? path.resolve(ctx.workspace, inputs.queue) : undefined,
    perSkillBudgetMs: inputs.perSkillBudgetMs,
    perSkillIterations: inputs.perSkillIterations,
    skipList: inputs.skipList,
    calibrate: inputs.calibrate,
    dryRun: inputs.dryRun,
    mode: ITERATE_DEFAULTS.mode,
    concurrency: ITERATE_DEFAULTS.concurrency,
    iterationTimeoutMs: ITERATE_DEFAULTS.iterationTimeoutMs,
    worktreeHome: ctx.runnerTemp,
    maxCostUsd: inputs.maxCostUsd,
    nightBudgetUsd: inputs.nightBudgetUsd,
    freshnessWindowMs: inputs.freshnessWindowMs,
    killSwitchReadError: inputs.killSwitchReadError,
    minGain: inputs.minGain ?? ITERATE_DEFAULTS.minGain,
    trials: inputs.trials ?? ITERATE_DEFAULTS.trials,
    margin: inputs.margin ?? ITERATE_DEFAULTS.margin,
    keepRule: inputs.keepRule ?? ITERATE_DEFAULTS.keepRule,
    skills: inputs.skills,
    structural: config.structural,
    // The inputs that shape what a command does, carried into the CLI commands the job summary prints.
    command: {
      project: inputs.project === '.' ? undefined : inputs.project,
      skills: inputs.skills,
      calibrate: inputs.calibrate ? true : undefined,
      models: {
        model: inputs.model,
        editorModel: inputs.editorModel,
        renderModel: inputs.renderModel,
        graderModel: inputs.graderModel,
      },
    },
  };
  // An input given (not empty) wins over the config; the config over the default.
  const given = {
    maxCostUsd: inputs.maxCostUsd !== undefined,
    minGain: inputs.minGain !== undefined,
    trials: inputs.trials !== undefined,
    margin: inputs.margin !== undefined,
    keepRule: inputs.keepRule !== undefined,
    skills: inputs.skills !== undefined,
  } as Record<string, boolean>;
  return applyConfigSettings(options, config, (setting) => given[setting] === true);
}

/** `$RUNNER_TEMP/skill-iterate/<mode>-<skill or all>.json`. */
export function resultFilePath(ctx: ActionContext, inputs: ActionInputs, mode: string): string {
  return path.join(ctx.runnerTemp, 'skill-iterate', `${mode}-${inputs.skill ?? 'all'}.json`);
}
