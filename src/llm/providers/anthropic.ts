/** `anthropic:` — the Messages API (`/v1/messages`) through @ai-sdk/anthropic; its row: src/core/providers.ts. */
import { lazyModel } from './lazy-model.js';
import type { ProviderSdk } from './sdk.js';

/**
 * Anthropic's own SDKs take ANTHROPIC_BASE_URL without the API version and append `/v1/messages`; the AI
 * SDK wants the versioned root. Accept both spellings.
 */
function versionedUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

export const anthropic: ProviderSdk = {
  languageModel: (connection, model, fetch) =>
    lazyModel('anthropic.messages', model, async () => {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({
        baseURL: connection.baseUrl,
        apiKey: connection.apiKey,
        ...(fetch && { fetch }),
      })(model);
    }),
  jsonMode: 'schema',
  promptCaching: true,
  sdkBaseUrl: versionedUrl,
};
