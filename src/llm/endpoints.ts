/**
 * Keys and endpoints per provider, by the variables, options and config field of its row in
 * src/core/providers.ts. Base URL precedence: explicit options (flags, Action inputs) > the conventional
 * variables (ANTHROPIC_BASE_URL, OPENAI_BASE_URL) > `skillclimb.config.json` endpoints > the provider
 * default. The config file is repository content: a hostile repository must not decide where the
 * workflow's key is sent, so its endpoints arrive here only when the operator opted in (see
 * src/config/config.ts) and still rank below the environment. Keys come from options or the environment
 * only. A missing key is an Error before any work starts, naming the role, the model and the variable.
 */
import type { Role } from './errors.js';
import type { ModelId } from './model-id.js';
import {
  baseUrlVariablesNote,
  modelProvider,
  type ConfigEndpointKey,
  type ProviderName,
  type ProviderOptionName,
} from '../core/providers.js';
import { PROVIDER_SDKS } from './providers/registry.js';
import type { ProviderConnection } from './providers/sdk.js';

/**
 * A caller's explicit settings, above the environment: per provider its key and base URL, under the names
 * its row in src/core/providers.ts gives them (`anthropicApiKey`, `anthropicBaseUrl`, `compatibleBaseUrl`, …).
 */
export type EndpointOptions = { [name in ProviderOptionName]?: string | undefined } & {
  /**
   * Base URLs from `skillclimb.config.json` (only when SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1): below the
   * environment variables, above the provider defaults.
   */
  configEndpoints?: ConfigEndpoints | undefined;
};

export type ConfigEndpoints = { [key in ConfigEndpointKey]?: string | undefined };

export interface Endpoint extends ProviderConnection {
  provider: ProviderName;
  /**
   * Where the base URL came from, as `doctor` prints it: `option` (a caller's setting), `environment
   * variable ANTHROPIC_BASE_URL`, `skillclimb.config.json endpoints.anthropic`, or `default`.
   */
  source: string;
  /** Where the key came from, as `doctor` prints it: `ANTHROPIC_API_KEY`, `option`, or `none` (a keyless server). */
  keySource: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Plain http is fine to this machine only: anywhere else the key would cross the network in clear text. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * Validates a base URL from `source` (a variable, an option or a config field). Messages never print the
 * URL's userinfo or query: those are where credentials would be.
 */
export function checkUrl(url: string, source: string, sendsKey = true): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${source}: not a URL (expected e.g. http://localhost:11434/v1)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${source}: must be an http:// or https:// URL (e.g. https://proxy.example.com/v1)`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new Error(
      `${source}: credentials in the URL (user:password@) are not allowed; pass the key through the key variable`,
    );
  }
  if (sendsKey && parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new Error(
      `${source}: plain http:// to ${parsed.hostname} would send the API key unencrypted; use https:// ` +
        '(http:// is allowed to localhost, 127.0.0.0/8 and ::1 only)',
    );
  }
  return url.trim().replace(/\/+$/, '');
}

/** A base URL in precedence order: its value, the name its errors use, and where it came from. */
type UrlCandidate = [value: string | undefined, name: string, origin: string];

/** The first set base URL in precedence order, validated under its own name, with where it came from. */
function pickUrl(candidates: UrlCandidate[], sendsKey: boolean): { url: string; source: string } | undefined {
  for (const [value, name, origin] of candidates) {
    const set = nonEmpty(value);
    if (set !== undefined) return { url: checkUrl(set, name, sendsKey), source: origin };
  }
  return undefined;
}

const fromEnv = (name: string) => `environment variable ${name}`;
const fromConfigFile = (field: string) => `skillclimb.config.json endpoints.${field}`;
const DEFAULT_SOURCE = 'default';

/**
 * The role's key and base URL for `id`'s provider, as its row in src/core/providers.ts names them. A required
 * key that is missing, or a base URL the provider has no default for, is an Error naming the variable.
 */
export function resolveEndpoint(
  role: Role,
  id: Exclude<ModelId, { provider: 'offline' }>,
  env: NodeJS.ProcessEnv,
  options: EndpointOptions = {},
): Endpoint {
  const who = `${role} model ${id.id}`;
  const { key, baseUrl } = modelProvider(id.provider);
  const optionKey = nonEmpty(options[key.option as ProviderOptionName]);
  const apiKey = optionKey ?? nonEmpty(env[key.variable]);
  if (apiKey === undefined && key.required) {
    // A local server's operator set its base URL but named a provider that needs a key: say what they set.
    const note = baseUrlVariablesNote(env);
    throw new Error(`${who} needs ${key.variable}${note === undefined ? '' : ` (${note})`}`);
  }
  const configKey = baseUrl.configKey as ConfigEndpointKey;
  // A keyless local server on the LAN (ollama, llama.cpp) may speak plain http: nothing secret travels.
  const picked = pickUrl(
    [
      [options[baseUrl.option as ProviderOptionName], `${id.provider} base URL`, 'option'],
      [env[baseUrl.variable], baseUrl.variable, fromEnv(baseUrl.variable)],
      [
        options.configEndpoints?.[configKey],
        `skillclimb.config.json: endpoints.${configKey}`,
        fromConfigFile(configKey),
      ],
    ],
    apiKey !== undefined,
  );
  const url = picked?.url ?? baseUrl.default;
  if (url === undefined)
    throw new Error(`${who} needs ${baseUrl.variable} (${baseUrl.needs ?? 'its base URL'})`);
  const sdk = PROVIDER_SDKS[id.provider];
  return {
    provider: id.provider,
    apiKey,
    baseUrl: sdk.sdkBaseUrl?.(url) ?? url,
    source: picked?.source ?? DEFAULT_SOURCE,
    keySource: optionKey !== undefined ? 'option' : apiKey !== undefined ? key.variable : 'none',
  };
}
