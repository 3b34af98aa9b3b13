/**
 * Every model provider skillclimb speaks, as data (docs/how-it-works.md § Models and providers): its
 * model-id prefix, the environment variables of its key and base URL, the Action inputs and the explicit
 * options that set them, its field under the config file's `endpoints`, the families of its models and its
 * default model. Redaction (src/core/text/redact.ts), the Action's masks and inputs, model selection, endpoint
 * resolution and `doctor` read this table, so a provider's key is masked and redacted as soon as it is
 * listed here. Its SDK code is one file under src/llm/providers/, listed in src/llm/providers/registry.ts.
 */

/** A provider's key: read from `option` (a caller's setting), else from `variable`. */
export interface ProviderKey {
  /** The environment variable: `ANTHROPIC_API_KEY`. */
  readonly variable: string;
  /** false: without a key the provider is called with none (a local server); true: a missing key is an error. */
  readonly required: boolean;
  /**
   * The Action input that sets the variable: `anthropic-api-key` (masked before anything runs). Without one,
   * a workflow hands the key over through `env:`, masked all the same.
   */
  readonly input?: string;
  /** The explicit setting's name in the endpoint options (src/llm/endpoints.ts). */
  readonly option: string;
}

/** Where a provider's key is sent: `option` > `variable` > the config file's `endpoints.<configKey>` > `default`. */
export interface ProviderBaseUrl {
  readonly variable: string;
  /** Without one, a base URL is required, and the error says what it is with `needs`. */
  readonly default?: string;
  readonly needs?: string;
  /** The Action input that sets the variable: `anthropic-base-url` (masked when it carries userinfo). */
  readonly input?: string;
  readonly option: string;
  /** Its field under `endpoints` in skillclimb.config.json, counted only when the operator opts in. */
  readonly configKey: string;
}

/** A provider reached over the network with a key and a base URL. */
export interface ModelProvider {
  /** The model-id prefix: `anthropic` in `anthropic:claude-sonnet-4-5`. */
  readonly id: string;
  /** As a sentence names it: `Anthropic`. */
  readonly name: string;
  readonly key: ProviderKey;
  readonly baseUrl: ProviderBaseUrl;
  /** The families of its models (src/core/families.ts); empty: any, told by the model name. */
  readonly families: readonly string[];
  /** What a role gets when nothing selects a model and this key is set; the first such provider wins. */
  readonly defaultModel?: string;
  /** A model id for messages and examples. */
  readonly example: string;
}

/** The built-in provider without key or network (src/llm/offline.ts). */
interface KeylessProvider {
  readonly id: string;
  readonly name: string;
  readonly families: readonly string[];
  readonly example: string;
  readonly key?: undefined;
  readonly baseUrl?: undefined;
}

/** The table. Order matters twice: the first provider whose key is set gives the default model, and messages list them in it. */
export const PROVIDERS = [
  {
    id: 'anthropic',
    name: 'Anthropic',
    key: {
      variable: 'ANTHROPIC_API_KEY',
      required: true,
      input: 'anthropic-api-key',
      option: 'anthropicApiKey',
    },
    baseUrl: {
      variable: 'ANTHROPIC_BASE_URL',
      default: 'https://api.anthropic.com',
      input: 'anthropic-base-url',
      option: 'anthropicBaseUrl',
      configKey: 'anthropic',
    },
    families: ['anthropic'],
    defaultModel: 'anthropic:claude-sonnet-4-5',
    example: 'anthropic:claude-sonnet-4-5',
  },
  {
    id: 'openai',
    name: 'OpenAI',
    key: { variable: 'OPENAI_API_KEY', required: true, input: 'openai-api-key', option: 'openaiApiKey' },
    baseUrl: {
      variable: 'OPENAI_BASE_URL',
      default: 'https://api.openai.com/v1',
      input: 'openai-base-url',
      option: 'openaiBaseUrl',
      configKey: 'openai',
    },
    families: ['openai'],
    defaultModel: 'openai:gpt-5',
    example: 'openai:gpt-5',
  },
  {
    // Any server speaking OpenAI Chat Completions (ollama, vLLM, llama.cpp, LiteLLM): OpenAI's variables.
    id: 'openai-compatible',
    name: 'an OpenAI-compatible server',
    key: { variable: 'OPENAI_API_KEY', required: false, input: 'openai-api-key', option: 'compatibleApiKey' },
    baseUrl: {
      variable: 'OPENAI_BASE_URL',
      needs: "the server's OpenAI-compatible /v1 URL, e.g. http://localhost:11434/v1 for ollama",
      input: 'openai-base-url',
      option: 'compatibleBaseUrl',
      configKey: 'openaiCompatible',
    },
    families: [],
    example: 'openai-compatible:qwen3',
  },
  { id: 'offline', name: 'the offline provider', families: [], example: 'offline' },
] as const satisfies readonly (ModelProvider | KeylessProvider)[];

type Entry = (typeof PROVIDERS)[number];
type NetworkEntry = Extract<Entry, { key: object }>;
/** The `provider:` prefixes of model ids (`offline` is an id of its own). */
export type ProviderName = NetworkEntry['id'];
type InputOf<T> = T extends { input: infer Name extends string } ? Name : never;
/** The Action inputs the providers declare (action.yml). */
export type ProviderInputName = InputOf<NetworkEntry['key']> | InputOf<NetworkEntry['baseUrl']>;
/** The explicit settings of src/llm/endpoints.ts, one key and one base URL per provider. */
export type ProviderOptionName = NetworkEntry['key']['option'] | NetworkEntry['baseUrl']['option'];
/** The fields of `endpoints` in skillclimb.config.json. */
export type ConfigEndpointKey = NetworkEntry['baseUrl']['configKey'];

const ALL: readonly (ModelProvider | KeylessProvider)[] = PROVIDERS;
/** The providers with a key and a base URL, in table order. */
export const MODEL_PROVIDERS = ALL.filter((p): p is ModelProvider => p.key !== undefined);
const BY_NAME = Object.fromEntries(MODEL_PROVIDERS.map((p) => [p.id, p])) as Record<
  ProviderName,
  ModelProvider
>;

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(BY_NAME, name);
}

export function modelProvider(name: ProviderName): ModelProvider {
  return BY_NAME[name];
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Every key variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`), each once. */
export const KEY_VARIABLES = unique(MODEL_PROVIDERS.map((p) => p.key.variable));
/** Every base-URL variable (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`), each once. */
export const BASE_URL_VARIABLES = unique(MODEL_PROVIDERS.map((p) => p.baseUrl.variable));

/** An Action input of a provider and the variable it sets. */
export interface ProviderInput {
  input: ProviderInputName;
  variable: string;
  kind: 'key' | 'base URL';
}

/** Every provider input, each once: the keys first, then the base URLs. */
export const PROVIDER_INPUTS: readonly ProviderInput[] = [
  ...MODEL_PROVIDERS.map((p) => ({ ...p.key, kind: 'key' as const })),
  ...MODEL_PROVIDERS.map((p) => ({ ...p.baseUrl, kind: 'base URL' as const })),
]
  .flatMap(({ input, variable, kind }) =>
    input === undefined ? [] : [{ input: input as ProviderInputName, variable, kind }],
  )
  .filter((entry, index, all) => all.findIndex((other) => other.input === entry.input) === index);

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/** The providers that have a default model, in table order. */
export const DEFAULT_MODEL_PROVIDERS = MODEL_PROVIDERS.filter(
  (p): p is ModelProvider & { defaultModel: string } => p.defaultModel !== undefined,
);

/** The providers with a default model whose key `env` sets, in table order. */
export function keyedDefaultProviders(
  env: NodeJS.ProcessEnv,
): Array<ModelProvider & { defaultModel: string }> {
  return DEFAULT_MODEL_PROVIDERS.filter((p) => isSet(env[p.key.variable]));
}

/** Some provider's key is set in `env`. */
export function hasModelKey(env: NodeJS.ProcessEnv): boolean {
  return KEY_VARIABLES.some((name) => isSet(env[name]));
}

/**
 * The base-URL variables set in `env`, as one clause for a model error: a local server's operator who set
 * OPENAI_BASE_URL and gets "needs OPENAI_API_KEY" or "no model" learns which id sends there
 * (`OPENAI_BASE_URL is set: openai:<model> or openai-compatible:<model> sends there`). The values are not
 * shown (a URL may carry credentials). Undefined when none is set.
 */
export function baseUrlVariablesNote(env: NodeJS.ProcessEnv): string | undefined {
  const set = BASE_URL_VARIABLES.filter((variable) => isSet(env[variable]));
  if (set.length === 0) return undefined;
  return set
    .map((variable) => {
      const ids = MODEL_PROVIDERS.filter((p) => p.baseUrl.variable === variable).map(
        (p) => `${p.id}:<model>`,
      );
      const keyless = MODEL_PROVIDERS.filter((p) => p.baseUrl.variable === variable && !p.key.required);
      const noKey = keyless.length > 0 ? ` (${keyless.map((p) => p.id).join(', ')} needs no key)` : '';
      return `${variable} is set: ${ids.join(' or ')} sends there${noKey}`;
    })
    .join('; ');
}

/**
 * A base URL as something may name the server it reaches (the records kept between nights hash it,
 * docs/how-it-works.md § Baseline): scheme, host (lower-cased, default port dropped) and path without
 * trailing slashes; never its userinfo, query or fragment, where credentials travel.
 */
export function credentialFreeUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return 'not a URL';
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
