/** The provider table (src/core/providers.ts) and the SDK registry agree, and every row is usable as written. */
import { describe, expect, it } from 'vitest';
import { MODEL_FAMILIES } from '../../src/core/families.js';
import {
  BASE_URL_VARIABLES,
  KEY_VARIABLES,
  MODEL_PROVIDERS,
  PROVIDERS,
  hasModelKey,
  keyedDefaultProviders,
} from '../../src/core/providers.js';
import { PROVIDER_SDKS } from '../../src/llm/providers/registry.js';
import { parseModelId } from '../../src/llm/model-id.js';

describe('the provider table', () => {
  it('has unique ids usable as model-id prefixes, and offline', () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(ids).toContain('offline');
  });

  it('gives every provider with a key its SDK code, and none without', () => {
    expect(Object.keys(PROVIDER_SDKS).sort()).toEqual(MODEL_PROVIDERS.map((p) => p.id).sort());
  });

  it("parses each example and default model as that provider's, with families the gate knows", () => {
    for (const provider of PROVIDERS) {
      expect(parseModelId(provider.example).provider).toBe(provider.id);
      for (const family of provider.families) expect(MODEL_FAMILIES).toContain(family);
    }
    for (const provider of MODEL_PROVIDERS) {
      if (provider.defaultModel !== undefined) {
        expect(parseModelId(provider.defaultModel).provider).toBe(provider.id);
      }
      // Without a default URL the provider cannot be called until one is set: its error says what it is.
      if (provider.baseUrl.default === undefined) expect(provider.baseUrl.needs).toBeTruthy();
      // Action inputs are optional (a workflow can pass the variables through env:); when given, named alike.
      if (provider.key.input !== undefined) expect(provider.key.input).toMatch(/^[a-z][a-z-]*-api-key$/);
      if (provider.baseUrl.input !== undefined) {
        expect(provider.baseUrl.input).toMatch(/^[a-z][a-z-]*-base-url$/);
      }
    }
  });

  it('lists each variable once and tells which keys are set, in table order', () => {
    for (const list of [KEY_VARIABLES, BASE_URL_VARIABLES]) expect(new Set(list).size).toBe(list.length);
    for (const provider of MODEL_PROVIDERS) {
      expect(KEY_VARIABLES).toContain(provider.key.variable);
      expect(BASE_URL_VARIABLES).toContain(provider.baseUrl.variable);
      expect(hasModelKey({ [provider.key.variable]: ' k3y ' })).toBe(true);
    }
    expect(hasModelKey({ OPENAI_API_KEY: '  ', HOME: '/root' })).toBe(false);
    const everyKey = Object.fromEntries(KEY_VARIABLES.map((name) => [name, 'k3y']));
    const withDefaults = MODEL_PROVIDERS.filter((p) => p.defaultModel !== undefined);
    expect(keyedDefaultProviders(everyKey)).toEqual(withDefaults);
    expect(keyedDefaultProviders({ OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' }).map((p) => p.id)).toEqual([
      'anthropic',
      'openai',
    ]);
  });
});
