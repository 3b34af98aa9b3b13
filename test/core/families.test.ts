import { describe, expect, it } from 'vitest';
import { modelFamily, type ModelFamily } from '../../src/core/families.js';

const cases: Array<[string, ModelFamily]> = [
  // openai
  ['openai:gpt-5', 'openai'],
  ['gpt-4o-mini-2024-07-18', 'openai'],
  ['chatgpt-4o-latest', 'openai'],
  ['codex-mini-latest', 'openai'],
  ['o1', 'openai'],
  ['o3-pro', 'openai'],
  ['o4-mini', 'openai'],
  ['gpt4o', 'openai'],
  ['azure/gpt-4.1', 'openai'],
  ['ft:gpt-4o-mini:acme::abc123', 'openai'],
  ['openai/gpt-oss-120b', 'openai'],
  // anthropic
  ['anthropic:claude-sonnet-4-5', 'anthropic'],
  ['openrouter/anthropic/claude-3.5-sonnet', 'anthropic'],
  ['us.anthropic.claude-3-5-haiku-20241022-v1:0', 'anthropic'],
  ['claude-opus-4-1', 'anthropic'],
  // google
  ['gemini-2.5-pro', 'google'],
  ['google/gemma-3-27b-it', 'google'],
  ['gemma3n:e4b', 'google'],
  // deepseek
  ['deepseek-chat', 'deepseek'],
  ['openai-compatible:deepseek-r1:14b', 'deepseek'],
  // moonshot
  ['kimi-k2-instruct', 'moonshot'],
  ['moonshotai/Kimi-K2-Instruct', 'moonshot'],
  ['moonshot-v1-8k', 'moonshot'],
  // qwen
  ['openai-compatible:qwen3', 'qwen'],
  ['Qwen/Qwen2.5-Coder-32B-Instruct', 'qwen'],
  ['qwq-32b', 'qwen'],
  // meta
  ['llama3.1:8b', 'meta'],
  ['meta-llama/Llama-3.3-70B-Instruct', 'meta'],
  ['codellama:13b', 'meta'],
  // mistral
  ['mistral-large-latest', 'mistral'],
  ['mistralai/Mixtral-8x7B-Instruct-v0.1', 'mistral'],
  ['codestral-latest', 'mistral'],
  // xai
  ['x-ai/grok-4', 'xai'],
  ['grok-3-mini', 'xai'],
  // unknown: none, or more than one
  ['offline', 'unknown'],
  ['anything', 'unknown'],
  ['openai-compatible:anything', 'unknown'],
  ['phi-4', 'unknown'],
  ['deepseek-r1-distill-llama-70b', 'unknown'],
  ['openrouter/openai/claude-3.5-sonnet', 'unknown'],
  ['', 'unknown'],
  // a word must stand alone or carry a version: these only contain the letters
  ['gptq-model', 'unknown'],
  ['o3x', 'unknown'],
  ['solo1', 'unknown'],
];

describe('modelFamily', () => {
  it.each(cases)('%s → %s', (id, family) => {
    expect(modelFamily(id)).toBe(family);
  });

  it('ignores our transport prefix: the model decides, not the provider', () => {
    expect(modelFamily('openai-compatible:claude-3-haiku')).toBe('anthropic');
    expect(modelFamily('anthropic:gpt-5')).toBe('openai');
  });
});
