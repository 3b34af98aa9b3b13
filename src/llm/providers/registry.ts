/**
 * The providers' SDK code, one file each in this folder, by the id of their row in src/core/providers.ts.
 * The record's type makes a row without SDK code a compile error.
 */
import type { ProviderName } from '../../core/providers.js';
import { anthropic } from './anthropic.js';
import { openai } from './openai.js';
import { openaiCompatible } from './openai-compatible.js';
import type { ProviderSdk } from './sdk.js';

export const PROVIDER_SDKS: Readonly<Record<ProviderName, ProviderSdk>> = {
  anthropic,
  openai,
  'openai-compatible': openaiCompatible,
};
