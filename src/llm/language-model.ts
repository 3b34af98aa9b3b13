/**
 * AI SDK language models for a resolved endpoint. Every setting is passed explicitly so the SDK never reads
 * process.env. The provider SDKs are loaded on a model's first call, not when the module is imported: a
 * command that makes no model call (`--help`, `score --mode structural`, the Action's plan step) does not
 * pay for three SDKs (docs/how-it-works.md § Models and providers).
 */
import type { LanguageModel } from 'ai';
import type { Endpoint } from './endpoints.js';

export type FetchFunction = typeof globalThis.fetch;

export interface LanguageModelOptions {
  /** A custom fetch (tests, proxies); default: the global fetch. */
  fetch?: FetchFunction | undefined;
}

/** The model interface the AI SDK calls (the specification every provider package implements). */
type ProviderModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** How each lazy model loads its provider package. */
const loaders = new WeakMap<object, () => Promise<unknown>>();

/**
 * Loads a model's provider package if it is not loaded yet, so that a call's own timeout measures the
 * request, not the import.
 */
export async function loadProvider(model: LanguageModel): Promise<void> {
  if (typeof model === 'object') await loaders.get(model)?.();
}

/**
 * A model that imports its provider package on its first call. `provider` is the name the real model
 * reports, so nothing downstream can tell the two apart.
 */
function lazyModel(provider: string, modelId: string, load: () => Promise<ProviderModel>): ProviderModel {
  let loading: Promise<ProviderModel> | undefined;
  const model = () => (loading ??= load());
  const lazy: ProviderModel = {
    specificationVersion: 'v3',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
  loaders.set(lazy, model);
  return lazy;
}

/**
 * `openai:` goes through the Responses API (`/v1/responses`, the SDK's default for OpenAI and what OpenAI
 * recommends for gpt-5 and the o-series); `openai-compatible:` through Chat Completions
 * (`/v1/chat/completions`), which every compatible server speaks.
 */
export function createLanguageModel(
  endpoint: Endpoint,
  model: string,
  options: LanguageModelOptions = {},
): LanguageModel {
  const fetch = options.fetch;
  switch (endpoint.provider) {
    case 'anthropic':
      return lazyModel('anthropic.messages', model, async () => {
        const { createAnthropic } = await import('@ai-sdk/anthropic');
        return createAnthropic({
          baseURL: endpoint.baseUrl,
          apiKey: endpoint.apiKey,
          ...(fetch && { fetch }),
        })(model);
      });
    case 'openai':
      return lazyModel('openai.responses', model, async () => {
        const { createOpenAI } = await import('@ai-sdk/openai');
        return createOpenAI({
          baseURL: endpoint.baseUrl,
          apiKey: endpoint.apiKey,
          ...(fetch && { fetch }),
        }).responses(model);
      });
    case 'openai-compatible':
      return lazyModel('openai-compatible.chat', model, async () => {
        const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
        return createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: endpoint.baseUrl,
          ...(endpoint.apiKey !== undefined && { apiKey: endpoint.apiKey }),
          // Lets a schema request go out as `response_format: json_schema`; whether one is sent at all, and
          // in which mode, is decided per call (src/llm/structured-output.ts).
          supportsStructuredOutputs: true,
          includeUsage: true,
          ...(fetch && { fetch }),
        }).chatModel(model);
      });
  }
}
