/**
 * What one provider's SDK code gives the model layer (docs/how-it-works.md § Models and providers). Its data —
 * key and base-URL variables, inputs, config field, families, default model — is its row in
 * src/core/providers.ts; this is the code: one file per provider in this folder, listed in ./registry.ts.
 */
import type { LanguageModel } from 'ai';

export type FetchFunction = typeof globalThis.fetch;

/** Where and with which key a provider is called, as src/llm/endpoints.ts resolved it. */
export interface ProviderConnection {
  baseUrl: string;
  /** undefined only for a provider whose key is optional (a keyless local server). */
  apiKey: string | undefined;
}

export interface ProviderSdk {
  /**
   * The AI SDK model for `model`. Every setting is passed explicitly, so the SDK never reads process.env; the
   * SDK package is imported on the first call (./lazy-model.ts), not when this file is.
   */
  languageModel(
    connection: ProviderConnection,
    model: string,
    fetch: FetchFunction | undefined,
  ): LanguageModel;
  /**
   * `schema`: the provider enforces a JSON schema; `negotiated`: a server asked per src/llm/structured-output.ts
   * (json_schema, else json_object, else the prompt plus extraction with src/core/json-extract.ts).
   */
  jsonMode: 'schema' | 'negotiated';
  /** Takes `cache_control` breakpoints on the system prompt and the user message's stable prefix. */
  promptCaching: boolean;
  /** The base URL as the SDK wants it (e.g. with the API version appended); without it, as given. */
  sdkBaseUrl?: (url: string) => string;
}
