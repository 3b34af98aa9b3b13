/** The models a command runs with: flags over `skillclimb.config.json` over the environment's defaults. */
import { loadConfig, modelOptionsFromConfig, resolveModelSelection } from '../config/config.js';
import type { ModelFlags, SkillclimbConfig } from '../config/config.js';
import { createModels } from '../llm/factory.js';
import type { SkillModels } from '../llm/port.js';
import type { Logger } from '../iterate/ports.js';
import { UsageError } from './errors.js';

export interface ProjectModels {
  models: SkillModels;
  config: SkillclimbConfig;
}

/** Bad config or a missing key is a usage error (exit 2) raised before any work starts. */
export async function loadProjectModels(input: {
  project: string;
  flags: ModelFlags;
  env: NodeJS.ProcessEnv;
  log?: Pick<Logger, 'warn'>;
}): Promise<ProjectModels> {
  try {
    const config = await loadConfig(input.project);
    const selection = resolveModelSelection({ flags: input.flags, config, env: input.env });
    const log = input.log;
    const models = createModels(selection, input.env, {
      ...modelOptionsFromConfig(config, input.env),
      ...(log
        ? {
            retryHooks: {
              onRetry: ({ delayMs, error }) => log.warn(`retrying in ${delayMs} ms: ${String(error)}`),
            },
          }
        : {}),
    });
    return { models, config };
  } catch (err) {
    // A bad config file (ConfigError names file and field) or a missing key: nothing has started yet.
    throw new UsageError((err as Error).message);
  }
}
