/**
 * Keys and endpoints per provider. Base URL precedence: explicit options (flags, Action inputs) > the
 * conventional variables (ANTHROPIC_BASE_URL, OPENAI_BASE_URL) > `skillclimb.config.json` endpoints >
 * the provider default. The config file is repository content: a hostile repository must not decide where
 * the workflow's key is sent, so its endpoints arrive here only when the operator opted in (see
 * src/config/config.ts) and still rank below the environment. Keys come from options or the environment
 * only. A missing key is an Error before any work starts, naming the role, the model and the variable.
 */
import type { Role } from './errors.js';
import type { ModelId, ProviderName } from './model-id.js';

export interface EndpointOptions {
  anthropicApiKey?: string | undefined;
  /** As ANTHROPIC_BASE_URL: the host root (`https://proxy.example.com`) or the versioned root (`…/v1`). */
  anthropicBaseUrl?: string | undefined;
  openaiApiKey?: string | undefined;
  openaiBaseUrl?: string | undefined;
  /** The OpenAI-compatible server's `/v1` URL (default: OPENAI_BASE_URL). */
  compatibleBaseUrl?: string | undefined;
  /** Sent as a bearer token to the compatible server (default: OPENAI_API_KEY, when set). */
  compatibleApiKey?: string | undefined;
  /**
   * Base URLs from `skillclimb.config.json` (only when SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1): below the
   * environment variables, above the provider defaults.
   */
  configEndpoints?: ConfigEndpoints | undefined;
}

export interface ConfigEndpoints {
  anthropic?: string | undefined;
  openai?: string | undefined;
  openaiCompatible?: string | undefined;
}

export interface Endpoint {
  provider: ProviderName;
  baseUrl: string;
  /**
   * Where the base URL came from, as `doctor` prints it: `option` (a caller's setting), `environment
   * variable ANTHROPIC_BASE_URL`, `skillclimb.config.json endpoints.anthropic`, or `default`.
   */
  source: string;
  /** undefined only for OpenAI-compatible servers that need no key (ollama, llama.cpp, vLLM). */
  apiKey: string | undefined;
}

export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com';
export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';

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
function pickUrl(candidates: UrlCandidate[], sendsKey = true): { url: string; source: string } | undefined {
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
 * Anthropic's own SDKs take ANTHROPIC_BASE_URL without the API version and append `/v1/messages`; the AI
 * SDK wants the versioned root. Accept both spellings.
 */
export function anthropicVersionedUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

export function resolveEndpoint(
  role: Role,
  id: Exclude<ModelId, { provider: 'offline' }>,
  env: NodeJS.ProcessEnv,
  options: EndpointOptions = {},
): Endpoint {
  const who = `${role} model ${id.id}`;
  const fromConfig = options.configEndpoints ?? {};
  switch (id.provider) {
    case 'anthropic': {
      const apiKey = nonEmpty(options.anthropicApiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY);
      if (apiKey === undefined) throw new Error(`${who} needs ANTHROPIC_API_KEY`);
      const picked = pickUrl([
        [options.anthropicBaseUrl, 'anthropic base URL', 'option'],
        [env.ANTHROPIC_BASE_URL, 'ANTHROPIC_BASE_URL', fromEnv('ANTHROPIC_BASE_URL')],
        [fromConfig.anthropic, 'skillclimb.config.json: endpoints.anthropic', fromConfigFile('anthropic')],
      ]);
      return {
        provider: 'anthropic',
        apiKey,
        baseUrl: anthropicVersionedUrl(picked?.url ?? ANTHROPIC_DEFAULT_URL),
        source: picked?.source ?? DEFAULT_SOURCE,
      };
    }
    case 'openai': {
      const apiKey = nonEmpty(options.openaiApiKey) ?? nonEmpty(env.OPENAI_API_KEY);
      if (apiKey === undefined) throw new Error(`${who} needs OPENAI_API_KEY`);
      const picked = pickUrl([
        [options.openaiBaseUrl, 'openai base URL', 'option'],
        [env.OPENAI_BASE_URL, 'OPENAI_BASE_URL', fromEnv('OPENAI_BASE_URL')],
        [fromConfig.openai, 'skillclimb.config.json: endpoints.openai', fromConfigFile('openai')],
      ]);
      return {
        provider: 'openai',
        apiKey,
        baseUrl: picked?.url ?? OPENAI_DEFAULT_URL,
        source: picked?.source ?? DEFAULT_SOURCE,
      };
    }
    case 'openai-compatible': {
      const apiKey = nonEmpty(options.compatibleApiKey) ?? nonEmpty(env.OPENAI_API_KEY);
      // A keyless local server on the LAN (ollama, llama.cpp) may speak plain http: nothing secret travels.
      const picked = pickUrl(
        [
          [options.compatibleBaseUrl, 'openai-compatible base URL', 'option'],
          [env.OPENAI_BASE_URL, 'OPENAI_BASE_URL', fromEnv('OPENAI_BASE_URL')],
          [
            fromConfig.openaiCompatible,
            'skillclimb.config.json: endpoints.openaiCompatible',
            fromConfigFile('openaiCompatible'),
          ],
        ],
        apiKey !== undefined,
      );
      if (picked === undefined) {
        throw new Error(
          `${who} needs OPENAI_BASE_URL (the server's OpenAI-compatible /v1 URL, e.g. http://localhost:11434/v1 for ollama)`,
        );
      }
      return { provider: 'openai-compatible', apiKey, baseUrl: picked.url, source: picked.source };
    }
  }
}
