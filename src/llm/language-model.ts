/** AI SDK language models for a resolved endpoint. Every setting is passed explicitly so the SDK never reads process.env. */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { Endpoint } from './endpoints.js';

export type FetchFunction = typeof globalThis.fetch;

export interface LanguageModelOptions {
  /** A custom fetch (tests, proxies); default: the global fetch. */
  fetch?: FetchFunction | undefined;
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
      return createAnthropic({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, ...(fetch && { fetch }) })(
        model,
      );
    case 'openai':
      return createOpenAI({
        baseURL: endpoint.baseUrl,
        apiKey: endpoint.apiKey,
        ...(fetch && { fetch }),
      }).responses(model);
    case 'openai-compatible':
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
  }
}
