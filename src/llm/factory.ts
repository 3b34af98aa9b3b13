/**
 * Builds the engine's models from the role selection, the environment and explicit options. Every model
 * id is parsed and every key checked here, before any work starts, so a missing key is one clear error
 * instead of a crash in the middle of the night.
 *
 * Roles and defaults (README "Models"):
 * - `--model` sets editor, render and grader; `--editor-model` / `--render-model` / `--grader-model`
 *   override one role each.
 * - A role left unset takes the default model of the first provider in src/core/providers.ts whose key is
 *   set (`anthropic:claude-sonnet-4-5` for ANTHROPIC_API_KEY, else `openai:gpt-5` for OPENAI_API_KEY), else
 *   `offline`.
 */
import { AdaptiveConcurrency, type ConcurrencyChange } from './adaptive-concurrency.js';
import { createOfflineModels } from './offline.js';
import type { SkillModels } from '../ports/models.js';
import type { CallSettings, RoleModel } from './call.js';
import { resolveEndpoint, type EndpointOptions } from './endpoints.js';
import type { Role, SkillRole } from './errors.js';
import { parseModelId, type ModelId } from './model-id.js';
import { priceFor, pricesFromEnv, type PriceTable } from './prices.js';
import { createSkillModels, type RoleSlot } from './skill-models.js';
import { PROVIDER_SDKS } from './providers/registry.js';
import type { FetchFunction } from './providers/sdk.js';
import { credentialFreeUrl, keyedDefaultProviders } from '../core/providers.js';
import { DEFAULT_RETRY_POLICY, type RetryHooks, type RetryPolicy } from './retry.js';
import {
  StructuredOutputMemo,
  type StructuredOutputFallback,
  type StructuredOutputSetting,
} from './structured-output.js';

export interface ModelSelection {
  /** `--model`: sets all three roles. */
  model?: string | undefined;
  editorModel?: string | undefined;
  renderModel?: string | undefined;
  graderModel?: string | undefined;
}

export interface ModelFactoryOptions extends EndpointOptions {
  /** A custom fetch (tests, proxies); default: the global fetch. */
  fetch?: FetchFunction | undefined;
  /** Per-attempt timeout of one model call (default 120 s). */
  timeoutMs?: number | undefined;
  retry?: Partial<RetryPolicy> | undefined;
  /** Test seams and logging for the retry loop (injected sleep/random, a "retrying in …" logger). */
  retryHooks?: RetryHooks | undefined;
  /** Price overrides (USD per million tokens), on top of SKILLCLIMB_PRICES and the built-in table. */
  prices?: PriceTable | undefined;
  maxOutputTokens?: Partial<Record<Role, number>> | undefined;
  /** Anthropic `cache_control` on the SKILL.md and the grader instructions (default true). */
  promptCaching?: boolean | undefined;
  /** OpenAI-compatible servers: `auto` (default) negotiates json_schema → json_object → text; the others force one. */
  structuredOutput?: StructuredOutputSetting | undefined;
  /**
   * What each compatible server accepted, by base URL. Default: one memo per createModels call (one run);
   * pass the same memo to the doctor check and the run so the run starts from what the check learned.
   */
  structuredOutputMemo?: StructuredOutputMemo | undefined;
  /** Told once per base URL and step when a server refuses a mode (e.g. to log a warning). */
  onStructuredOutputFallback?: ((event: StructuredOutputFallback) => void) | undefined;
  /**
   * The most model calls in flight to one endpoint (default MAX_CALLS_PER_ENDPOINT); halved on 429 or
   * overload and recovered as calls succeed (src/llm/adaptive-concurrency.ts).
   */
  maxCallsPerEndpoint?: number | undefined;
  /** Told when an endpoint's limit changes (e.g. to log the halving after a 429). */
  onConcurrencyChange?: ((change: ConcurrencyChange) => void) | undefined;
}

/** The upper bound of calls in flight to one endpoint; the engine's `--concurrency` bounds them first. */
export const MAX_CALLS_PER_ENDPOINT = 64;

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_TOKENS: Readonly<Record<Role, number>> = {
  editor: 16_000,
  render: 16_000,
  grader: 8_000,
  reviewer: 16_000,
  executor: 16_000,
  author: 16_000,
};
export const ROLES: readonly SkillRole[] = ['editor', 'render', 'grader'];

/** The model a role gets when nothing selects one: by which key is present (src/core/providers.ts). */
export function defaultModelFor(env: NodeJS.ProcessEnv): string {
  return keyedDefaultProviders(env)[0]?.defaultModel ?? 'offline';
}

export type RoleIds = Record<SkillRole, string>;

/** Per role: its own selection, else `--model`, else the key-based default. */
export function resolveRoleIds(selection: ModelSelection, env: NodeJS.ProcessEnv): RoleIds {
  const fallback = selection.model ?? defaultModelFor(env);
  return {
    editor: selection.editorModel ?? fallback,
    render: selection.renderModel ?? fallback,
    grader: selection.graderModel ?? fallback,
  };
}

export function callSettings(options: ModelFactoryOptions): CallSettings {
  return {
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    hooks: options.retryHooks ?? {},
  };
}

/** The options with a structured-output memo: the given one, else a new one (one per run). */
export function withStructuredOutputMemo(options: ModelFactoryOptions): ModelFactoryOptions {
  if (options.structuredOutputMemo !== undefined) return options;
  return { ...options, structuredOutputMemo: new StructuredOutputMemo(options.onStructuredOutputFallback) };
}

/** One adaptive limit per endpoint, shared by the roles that call it. */
type Gates = Map<string, AdaptiveConcurrency>;

function gateFor(gates: Gates, endpoint: string, options: ModelFactoryOptions): AdaptiveConcurrency {
  let gate = gates.get(endpoint);
  if (gate === undefined) {
    gate = new AdaptiveConcurrency(
      endpoint,
      options.maxCallsPerEndpoint ?? MAX_CALLS_PER_ENDPOINT,
      options.onConcurrencyChange,
    );
    gates.set(endpoint, gate);
  }
  return gate;
}

/**
 * One role's model, keys and endpoint resolved (throws the "needs ANTHROPIC_API_KEY" error). With `gates`,
 * its calls share the adaptive limit of its endpoint with the other roles built from the same map.
 */
export function buildRoleModel(
  role: Role,
  id: Exclude<ModelId, { provider: 'offline' }>,
  env: NodeJS.ProcessEnv,
  options: ModelFactoryOptions = {},
  gates?: Gates,
): RoleModel {
  const endpoint = resolveEndpoint(role, id, env, options);
  const prices = { ...pricesFromEnv(env), ...options.prices };
  const sdk = PROVIDER_SDKS[id.provider];
  return {
    role,
    id,
    endpoint: credentialFreeUrl(endpoint.baseUrl),
    model: sdk.languageModel(endpoint, id.model, options.fetch),
    jsonMode: sdk.jsonMode,
    structuredOutput:
      sdk.jsonMode === 'negotiated'
        ? {
            baseUrl: endpoint.baseUrl,
            setting: options.structuredOutput ?? 'auto',
            memo:
              options.structuredOutputMemo ?? new StructuredOutputMemo(options.onStructuredOutputFallback),
          }
        : undefined,
    price: priceFor(id.id, prices),
    cacheSystemPrompt: sdk.promptCaching && options.promptCaching !== false,
    maxOutputTokens: options.maxOutputTokens?.[role] ?? DEFAULT_MAX_OUTPUT_TOKENS[role],
    secrets: endpoint.apiKey === undefined ? [] : [endpoint.apiKey],
    gate: gates && gateFor(gates, endpoint.baseUrl, options),
  };
}

/** The AI SDK prints provider warnings to the console by default; a nightly log has no use for them. */
function silenceSdkWarnings(): void {
  if (globalThis.AI_SDK_LOG_WARNINGS === undefined) globalThis.AI_SDK_LOG_WARNINGS = false;
}

/**
 * Builds the engine's models from the selection and the environment. With nothing configured and no API
 * key in `env`, returns the offline provider. Throws a clear Error (before any work) when an id is bad,
 * a key is missing, or render and grader disagree on being offline.
 */
export function createModels(
  selection: ModelSelection,
  // Required: the front-end's env (the CLI's io.env, the Action's inputs); the model layer never reads
  // the process (docs/how-it-works.md § Layers and ports).
  env: NodeJS.ProcessEnv,
  options: ModelFactoryOptions = {},
): SkillModels {
  const ids = resolveRoleIds(selection, env);
  const parsed = {
    editor: parseModelId(ids.editor),
    render: parseModelId(ids.render),
    grader: parseModelId(ids.grader),
  };
  if (ROLES.every((role) => parsed[role].provider === 'offline')) return createOfflineModels();
  if ((parsed.render.provider === 'offline') !== (parsed.grader.provider === 'offline')) {
    throw new Error(
      `render model ${parsed.render.id} and grader model ${parsed.grader.id}: both must be offline (structural ` +
        'scoring only) or both real models',
    );
  }
  let offline: SkillModels | undefined;
  // Created on first use, so a real editor with offline scoring never builds what it does not call.
  const offlineSlot: SkillModels = {
    label: 'offline',
    structuralOnly: true,
    renderModelId: 'offline',
    propose: (input, signal) => (offline ??= createOfflineModels()).propose(input, signal),
    render: (input, signal) => (offline ??= createOfflineModels()).render(input, signal),
    grade: (input, signal) => (offline ??= createOfflineModels()).grade(input, signal),
  };
  // One memo for the three roles: a server's refusal is learned once for the run, whichever role met it.
  const shared = withStructuredOutputMemo(options);
  const gates: Gates = new Map();
  const slot = (role: SkillRole): RoleSlot => {
    const id = parsed[role];
    return id.provider === 'offline' ? offlineSlot : buildRoleModel(role, id, env, shared, gates);
  };
  const slots = { editor: slot('editor'), render: slot('render'), grader: slot('grader') };
  silenceSdkWarnings();
  return createSkillModels({ ...slots, settings: callSettings(shared) });
}
