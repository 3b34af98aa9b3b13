/**
 * Estimated cost from a price table (USD per million tokens). The built-in rows are the vendors' list
 * prices for standard (non-batch) requests as published in late 2025; vendors change them, so users
 * override rows in `skillclimb.config.json` (`prices`) or with the `SKILLCLIMB_PRICES` JSON variable.
 *
 * Token classes follow the Usage of the model port: `inputTokens` counts UNCACHED input only; cache reads
 * and cache writes (Anthropic's 5-minute ephemeral writes) are billed at their own rates. OpenAI reports
 * no cache writes, so its rows set cacheWrite = input.
 */
import { z } from 'zod';
import type { Usage } from '../core/usage.js';
import { messageOf } from '../core/errors.js';

export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const PriceSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cacheRead: z.number().nonnegative().optional(),
    cacheWrite: z.number().nonnegative().optional(),
  })
  .strict();
export type PriceInput = z.infer<typeof PriceSchema>;
/** Keys are `provider:model` ids or bare model names; a key also covers its dated versions (`…-20250929`). */
export const PriceTableSchema = z.record(z.string().min(1), PriceSchema);
export type PriceTable = Record<string, PriceInput>;

function anthropic(input: number, output: number): Price {
  return { input, output, cacheRead: input * 0.1, cacheWrite: input * 1.25 };
}
function openai(input: number, output: number, cacheRead: number): Price {
  return { input, output, cacheRead, cacheWrite: input };
}

export const DEFAULT_PRICES: Readonly<Record<string, Price>> = Object.freeze({
  // Anthropic — https://www.anthropic.com/pricing (cache read 0.1×, 5-minute cache write 1.25× input)
  'claude-opus-4-5': anthropic(5, 25),
  'claude-opus-4-1': anthropic(15, 75),
  'claude-opus-4': anthropic(15, 75),
  'claude-sonnet-4-5': anthropic(3, 15),
  'claude-sonnet-4': anthropic(3, 15),
  'claude-3-7-sonnet': anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-haiku': anthropic(0.25, 1.25),
  // OpenAI — https://openai.com/api/pricing (cached input rate as listed)
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
  o3: openai(2, 8, 0.5),
  'o3-mini': openai(1.1, 4.4, 0.55),
  'o4-mini': openai(1.1, 4.4, 0.275),
});

export function normalizePrice(p: PriceInput): Price {
  return {
    input: p.input,
    output: p.output,
    cacheRead: p.cacheRead ?? p.input,
    cacheWrite: p.cacheWrite ?? p.input,
  };
}

function lookup(table: Readonly<Record<string, PriceInput>>, key: string): PriceInput | undefined {
  if (Object.hasOwn(table, key)) return table[key];
  // Longest key that the model extends with a dash: `gpt-5-2025-08-07` → `gpt-5`, but `gpt-5-mini` → `gpt-5-mini`.
  let best: string | undefined;
  for (const candidate of Object.keys(table)) {
    if (key.startsWith(`${candidate}-`) && (best === undefined || candidate.length > best.length))
      best = candidate;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The price of `provider:model`: user overrides first (full id, then bare model name), then the built-in
 * table by model name. undefined when nothing matches — the cost is then reported as unknown, not zero.
 */
export function priceFor(modelId: string, overrides: PriceTable = {}): Price | undefined {
  const colon = modelId.indexOf(':');
  const model = colon === -1 ? modelId : modelId.slice(colon + 1);
  const found = lookup(overrides, modelId) ?? lookup(overrides, model) ?? lookup(DEFAULT_PRICES, model);
  return found === undefined ? undefined : normalizePrice(found);
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export function costUsd(tokens: TokenCounts, price: Price): number {
  return (
    (tokens.inputTokens * price.input +
      tokens.outputTokens * price.output +
      tokens.cacheReadTokens * price.cacheRead +
      tokens.cacheWriteTokens * price.cacheWrite) /
    1_000_000
  );
}

/** One call's Usage; costUsd is null when the model has no price. */
export function usageOf(tokens: TokenCounts, price: Price | undefined): Usage {
  return { calls: 1, ...tokens, costUsd: price === undefined ? null : costUsd(tokens, price) };
}

export const PRICES_ENV = 'SKILLCLIMB_PRICES';

/** `SKILLCLIMB_PRICES='{"openai-compatible:qwen3":{"input":0,"output":0}}'`; a bad value names the variable and field. */
export function pricesFromEnv(env: NodeJS.ProcessEnv): PriceTable {
  const raw = env[PRICES_ENV];
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new Error(`${PRICES_ENV}: not valid JSON (${messageOf(err)})`);
  }
  const result = PriceTableSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new Error(`${PRICES_ENV}: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}
