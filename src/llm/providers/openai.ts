/**
 * `openai:` — the Responses API (`/v1/responses`, the SDK's default for OpenAI and what OpenAI recommends for
 * gpt-5 and the o-series) through @ai-sdk/openai; its row: src/core/providers.ts.
 */
import { lazyModel } from './lazy-model.js';
import type { ProviderSdk } from './sdk.js';

export const openai: ProviderSdk = {
  languageModel: (connection, model, fetch) =>
    lazyModel('openai.responses', model, async () => {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        baseURL: connection.baseUrl,
        apiKey: connection.apiKey,
        ...(fetch && { fetch }),
      }).responses(model);
    }),
  jsonMode: 'schema',
  // OpenAI caches long prompts by itself; cache_control breakpoints are Anthropic's.
  promptCaching: false,
};
