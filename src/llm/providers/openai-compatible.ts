/**
 * `openai-compatible:` — Chat Completions (`/v1/chat/completions`), which every compatible server speaks
 * (ollama, vLLM, llama.cpp, LiteLLM), through @ai-sdk/openai-compatible; its row: src/core/providers.ts.
 */
import { lazyModel } from './lazy-model.js';
import type { ProviderSdk } from './sdk.js';

export const openaiCompatible: ProviderSdk = {
  languageModel: (connection, model, fetch) =>
    lazyModel('openai-compatible.chat', model, async () => {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: connection.baseUrl,
        ...(connection.apiKey !== undefined && { apiKey: connection.apiKey }),
        // Lets a schema request go out as `response_format: json_schema`; whether one is sent at all, and
        // in which mode, is decided per call (src/llm/structured-output.ts).
        supportsStructuredOutputs: true,
        includeUsage: true,
        ...(fetch && { fetch }),
      }).chatModel(model);
    }),
  jsonMode: 'negotiated',
  promptCaching: false,
};
