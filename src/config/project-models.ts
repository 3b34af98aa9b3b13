/**
 * The models a command runs with: flags over `skillclimb.config.json` over the environment's defaults.
 * Shared by `skillclimb iterate`, `skillclimb score` and the Action. Errors are plain Errors (a
 * ConfigError names the file and field; a missing key names the role, model and variable); the CLI
 * turns them into usage errors, the Action into a failed job.
 */
import type { Logger } from '../iterate/ports.js';
import { createModels, type ModelFactoryOptions } from '../llm/factory.js';
import type { SkillModels } from '../llm/port.js';
import {
  loadConfig,
  modelOptionsFromConfig,
  resolveModelSelection,
  type ModelFlags,
  type ResolvedModelSelection,
  type SkillclimbConfig,
} from './config.js';

export interface ProjectModelConfig {
  config: SkillclimbConfig;
  /** Each role's id and where it came from. */
  selection: ResolvedModelSelection;
  /** What the config implies for createModels (prices, endpoints, timeout), plus the retry logger. */
  modelOptions: ModelFactoryOptions;
}

export interface ProjectModels extends ProjectModelConfig {
  models: SkillModels;
}

interface ProjectModelsInput {
  project: string;
  flags: ModelFlags;
  env: NodeJS.ProcessEnv;
  /** Retries are logged as warnings ("retrying in 2000 ms: …"). */
  log?: Pick<Logger, 'warn'> | undefined;
}

/** Reads the config and resolves the selection, without building a model (no key is checked yet). */
export async function loadProjectModelConfig(input: ProjectModelsInput): Promise<ProjectModelConfig> {
  const config = await loadConfig(input.project);
  const selection = resolveModelSelection({ flags: input.flags, config, env: input.env });
  const log = input.log;
  const modelOptions: ModelFactoryOptions = {
    ...modelOptionsFromConfig(config, input.env),
    ...(log
      ? {
          retryHooks: {
            onRetry: ({ delayMs, error }) => log.warn(`retrying in ${delayMs} ms: ${String(error)}`),
          },
        }
      : {}),
  };
  return { config, selection, modelOptions };
}

/**
 * The config, the selection and the models, built before any work starts. Throws on a bad config file
 * or a missing key. `create` replaces the real factory (tests inject scripted models).
 */
export async function loadProjectModels(
  input: ProjectModelsInput & { create?: typeof createModels | undefined },
): Promise<ProjectModels> {
  const loaded = await loadProjectModelConfig(input);
  const models = (input.create ?? createModels)(loaded.selection, input.env, loaded.modelOptions);
  return { ...loaded, models };
}
