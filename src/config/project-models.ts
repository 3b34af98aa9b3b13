/**
 * The models a command runs with: flags over `skillclimb.config.json` over the environment's defaults.
 * Shared by `skillclimb iterate`, `skillclimb score` and the Action. Errors are plain Errors (a
 * ConfigError names the file and field; a missing key names the role, model and variable); the CLI
 * turns them into usage errors, the Action into a failed job.
 */
import { APICallError } from 'ai';
import type { Logger } from '../ports/logger.js';
import { createModels, type ModelFactoryOptions } from '../llm/factory.js';
import type { SkillModels } from '../ports/models.js';
import { redactMessage } from '../llm/redact-message.js';
import { secretsFromEnv } from '../core/text/redact.js';
import { DEFAULT_RETRY_POLICY, type RetryHooks } from '../llm/retry.js';
import type { StructuredOutputFallback } from '../llm/structured-output.js';
import type { ConcurrencyChange } from '../llm/adaptive-concurrency.js';
import {
  loadConfig,
  modelOptionsFromConfig,
  resolveModelSelection,
  structuredOutputSetting,
  type ModelFlags,
  type ResolvedModelSelection,
  type SkillclimbConfig,
} from './config.js';
import { messageOf } from '../core/errors.js';

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
  /** Retries are logged as warnings ("retrying in 0.8 s (attempt 2 of 4): HTTP 529: Overloaded"). */
  log?: Pick<Logger, 'warn'> | undefined;
  /** The most calls in flight to one endpoint, when the command was given one (`iterate --concurrency`). */
  maxCallsPerEndpoint?: number | undefined;
}

/** Reads the config and resolves the selection, without building a model (no key is checked yet). */
export async function loadProjectModelConfig(input: ProjectModelsInput): Promise<ProjectModelConfig> {
  const config = await loadConfig(input.project);
  const selection = resolveModelSelection({ flags: input.flags, config, env: input.env });
  const log = input.log;
  const fromConfig = modelOptionsFromConfig(
    config,
    input.env,
    log ? (message) => log.warn(message) : undefined,
  );
  const maxAttempts = { ...DEFAULT_RETRY_POLICY, ...fromConfig.retry }.maxAttempts;
  const structuredOutput = structuredOutputSetting(input.flags, config);
  const modelOptions: ModelFactoryOptions = {
    ...fromConfig,
    ...(input.maxCallsPerEndpoint !== undefined && { maxCallsPerEndpoint: input.maxCallsPerEndpoint }),
    ...(structuredOutput !== undefined && { structuredOutput }),
    ...(log && {
      onStructuredOutputFallback: (event: StructuredOutputFallback) =>
        log.warn(structuredOutputWarning(event, secretsFromEnv(input.env))),
    }),
    ...(log ? { retryHooks: { onRetry: retryWarnings(log, maxAttempts, secretsFromEnv(input.env)) } } : {}),
    ...(log && {
      onConcurrencyChange: (change: ConcurrencyChange) => {
        if (change.reason === 'overload') log.warn(concurrencyWarning(change, secretsFromEnv(input.env)));
      },
    }),
  };
  return { config, selection, modelOptions };
}

/**
 * `openai-compatible server http://localhost:11434/v1 refused structured output json_schema (HTTP 400: …);
 * using json_object for the rest of the run`.
 */
export function structuredOutputWarning(
  event: StructuredOutputFallback,
  secrets: readonly (string | undefined)[] = [],
): string {
  return redactMessage(
    `openai-compatible server ${event.baseUrl} refused structured output ${event.from} (${event.reason}); ` +
      `using ${event.to} for the rest of the run`,
    secrets,
  );
}

/**
 * `http://localhost:11434/v1 is rate-limiting or overloaded: at most 8 model calls at once to it now (was
 * 16), raised again as calls succeed`.
 */
export function concurrencyWarning(
  change: ConcurrencyChange,
  secrets: readonly (string | undefined)[] = [],
): string {
  return redactMessage(
    `${change.endpoint} is rate-limiting or overloaded: at most ${change.to} model ` +
      `${change.to === 1 ? 'call' : 'calls'} at once to it now (was ${change.from}), raised again as calls succeed`,
    secrets,
  );
}

type RetryInfo = Parameters<NonNullable<RetryHooks['onRetry']>>[0];

/** A wait as a person reads it: `0.8 s`, `30.0 s`; below a tenth of a second in whole ms. */
function formatDelay(ms: number): string {
  return ms < 100 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** What went wrong, without the SDK's class names: `HTTP 529: Overloaded`, or the error's own message. */
function describeRetryCause(error: unknown): string {
  const message = messageOf(error).replace(/\s+/g, ' ').trim();
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return message ? `HTTP ${error.statusCode}: ${message}` : `HTTP ${error.statusCode}`;
  }
  return message;
}

/**
 * One retry warning: `retrying in 0.8 s (attempt 2 of 4): HTTP 529: Overloaded`. `attempt` is the one that
 * failed (the retry hook's numbering); the line names the attempt about to start. The model call already
 * hands the hook a redacted error; this redacts again (credential shapes, URL credentials, `secrets`) since
 * the warning may be persisted.
 */
export function formatRetryWarning(
  info: RetryInfo,
  maxAttempts: number,
  secrets: readonly (string | undefined)[] = [],
): string {
  return redactMessage(
    `retrying in ${formatDelay(info.delayMs)} (attempt ${info.attempt + 1} of ${maxAttempts}): ${describeRetryCause(info.error)}`,
    secrets,
  );
}

/** A retry hook that logs each wait as a warning; `maxAttempts` is the policy the calls run under. */
export function retryWarnings(
  log: Pick<Logger, 'warn'>,
  maxAttempts: number,
  secrets: readonly (string | undefined)[] = [],
): NonNullable<RetryHooks['onRetry']> {
  return (info) => log.warn(formatRetryWarning(info, maxAttempts, secrets));
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
