/**
 * The run settings `skillclimb.config.json` may give: scoring mode, concurrency, the cost budget, the night budget, the
 * minimum gain, the trials, the margin, the keep rule, the skills globs and the structural settings. One rule for the CLI and the Action: a value
 * given on the command line (or as an Action input) wins, else the config's, else the built-in default
 * already in the options.
 */
import type { KeepRule } from '../core/iterate/noise.js';
import type { ScoreMode } from '../core/iterate/score-types.js';
import type { SkillclimbConfig } from './config.js';

export interface ConfigurableSettings {
  mode: ScoreMode;
  concurrency: number;
  maxCostUsd: number | undefined;
  nightBudgetUsd?: number | undefined;
  minGain?: number | undefined;
  trials?: number | undefined;
  margin?: number | undefined;
  keepRule?: KeepRule | undefined;
  skills?: readonly string[] | undefined;
}

export type ConfigurableSetting = keyof ConfigurableSettings;

/** `given(setting)`: the caller's value was set explicitly (a CLI flag, a non-empty Action input). */
export function applyConfigSettings<T extends ConfigurableSettings>(
  options: T,
  config: SkillclimbConfig,
  given: (setting: ConfigurableSetting) => boolean,
): T {
  return {
    ...options,
    mode: given('mode') ? options.mode : (config.mode ?? options.mode),
    concurrency: given('concurrency') ? options.concurrency : (config.concurrency ?? options.concurrency),
    maxCostUsd: given('maxCostUsd') ? options.maxCostUsd : (config.maxCostUsd ?? options.maxCostUsd),
    // No default: a value in the options was given (the flag, the input).
    nightBudgetUsd: options.nightBudgetUsd ?? config.nightBudgetUsd,
    minGain: given('minGain') ? options.minGain : (config.minGain ?? options.minGain),
    trials: given('trials') ? options.trials : (config.trials ?? options.trials),
    margin: given('margin') ? options.margin : (config.margin ?? options.margin),
    keepRule: given('keepRule') ? options.keepRule : (config.keepRule ?? options.keepRule),
    skills: given('skills') ? options.skills : (config.skills ?? options.skills),
  };
}
