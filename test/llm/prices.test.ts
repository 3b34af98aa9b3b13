import { describe, expect, it } from 'vitest';
import { costUsd, DEFAULT_PRICES, priceFor, pricesFromEnv, usageOf } from '../../src/llm/prices.js';

describe('priceFor', () => {
  it('finds built-in rows by model name, including dated and -latest versions', () => {
    expect(priceFor('anthropic:claude-sonnet-4-5')).toEqual(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceFor('anthropic:claude-sonnet-4-5-20250929')).toEqual(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceFor('anthropic:claude-3-5-haiku-latest')).toEqual(DEFAULT_PRICES['claude-3-5-haiku']);
    expect(priceFor('openai:gpt-5-2025-08-07')).toEqual(DEFAULT_PRICES['gpt-5']);
  });

  it('prefers the longest matching row, so a mini model never gets the big price', () => {
    expect(priceFor('openai:gpt-5-mini')).toEqual(DEFAULT_PRICES['gpt-5-mini']);
    expect(priceFor('openai:gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('openai:gpt-4.1-nano')).toEqual(DEFAULT_PRICES['gpt-4.1-nano']);
  });

  it('returns undefined for unknown models rather than a zero price', () => {
    expect(priceFor('openai-compatible:qwen3')).toBeUndefined();
    expect(priceFor('openai:gpt-50')).toBeUndefined();
  });

  it('lets overrides win: full id first, then bare model name; cache rates default to the input rate', () => {
    const overrides = {
      'openai-compatible:qwen3': { input: 0.5, output: 1 },
      'claude-sonnet-4-5': { input: 1, output: 2, cacheRead: 0.1 },
    };
    expect(priceFor('openai-compatible:qwen3', overrides)).toEqual({
      input: 0.5,
      output: 1,
      cacheRead: 0.5,
      cacheWrite: 0.5,
    });
    expect(priceFor('anthropic:claude-sonnet-4-5', overrides)).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0.1,
      cacheWrite: 1,
    });
  });

  it('prices Anthropic cache reads at a tenth and 5-minute cache writes at 1.25× the input rate', () => {
    const p = DEFAULT_PRICES['claude-sonnet-4-5']!;
    expect(p.cacheRead).toBeCloseTo(p.input * 0.1, 12);
    expect(p.cacheWrite).toBeCloseTo(p.input * 1.25, 12);
  });
});

describe('cost', () => {
  it('bills each token class at its own rate per million', () => {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    const tokens = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 2_000_000,
      cacheWriteTokens: 400_000,
    };
    expect(costUsd(tokens, price)).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 12);
    expect(usageOf(tokens, price)).toMatchObject({ calls: 1, costUsd: expect.closeTo(6.6, 12) });
    expect(usageOf(tokens, undefined).costUsd).toBeNull();
  });

  it('reads SKILLCLIMB_PRICES', () => {
    expect(pricesFromEnv({})).toEqual({});
    expect(pricesFromEnv({ SKILLCLIMB_PRICES: '{"qwen3":{"input":0,"output":0}}' })).toEqual({
      qwen3: { input: 0, output: 0 },
    });
    expect(() => pricesFromEnv({ SKILLCLIMB_PRICES: '{"qwen3":{"input":0,"output":0,"extra":1}}' })).toThrow(
      'SKILLCLIMB_PRICES: qwen3',
    );
  });
});
