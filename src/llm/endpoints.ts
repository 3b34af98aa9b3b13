/**
 * Keys and endpoints per provider, from explicit options first and the conventional variables second
 * (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL). A missing key is an Error
 * before any work starts, naming the role, the model and the variable.
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
}

export interface Endpoint {
  provider: ProviderName;
  baseUrl: string;
  /** undefined only for OpenAI-compatible servers that need no key (ollama, llama.cpp, vLLM). */
  apiKey: string | undefined;
}

export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com';
export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

function checkUrl(url: string, source: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${source}: "${url}" is not a URL (expected e.g. http://localhost:11434/v1)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${source}: "${url}" must be an http:// or https:// URL`);
  }
  return url.replace(/\/+$/, '');
}

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
  switch (id.provider) {
    case 'anthropic': {
      const apiKey = nonEmpty(options.anthropicApiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY);
      if (apiKey === undefined) throw new Error(`${who} needs ANTHROPIC_API_KEY`);
      const explicit = nonEmpty(options.anthropicBaseUrl);
      const raw = explicit ?? nonEmpty(env.ANTHROPIC_BASE_URL) ?? ANTHROPIC_DEFAULT_URL;
      const source = explicit !== undefined ? 'anthropic base URL' : 'ANTHROPIC_BASE_URL';
      return { provider: 'anthropic', apiKey, baseUrl: anthropicVersionedUrl(checkUrl(raw, source)) };
    }
    case 'openai': {
      const apiKey = nonEmpty(options.openaiApiKey) ?? nonEmpty(env.OPENAI_API_KEY);
      if (apiKey === undefined) throw new Error(`${who} needs OPENAI_API_KEY`);
      const explicit = nonEmpty(options.openaiBaseUrl);
      const raw = explicit ?? nonEmpty(env.OPENAI_BASE_URL) ?? OPENAI_DEFAULT_URL;
      return {
        provider: 'openai',
        apiKey,
        baseUrl: checkUrl(raw, explicit ? 'openai base URL' : 'OPENAI_BASE_URL'),
      };
    }
    case 'openai-compatible': {
      const explicit = nonEmpty(options.compatibleBaseUrl);
      const raw = explicit ?? nonEmpty(env.OPENAI_BASE_URL);
      if (raw === undefined) {
        throw new Error(
          `${who} needs OPENAI_BASE_URL (the server's OpenAI-compatible /v1 URL, e.g. http://localhost:11434/v1 for ollama)`,
        );
      }
      const apiKey = nonEmpty(options.compatibleApiKey) ?? nonEmpty(env.OPENAI_API_KEY);
      return {
        provider: 'openai-compatible',
        apiKey,
        baseUrl: checkUrl(raw, explicit ? 'openai-compatible base URL' : 'OPENAI_BASE_URL'),
      };
    }
  }
}
