/**
 * Retries for model calls. Our own loop rather than the AI SDK's `maxRetries`: it adds jitter, honours
 * `retry-after-ms` / `retry-after` exactly, refuses absurd server waits, and lets tests inject the sleep.
 */
import { APICallError } from 'ai';
import { abortableSleep } from '../core/abortable.js';

export { abortableSleep };

export interface RetryPolicy {
  /** Total attempts including the first (default 4). */
  maxAttempts: number;
  /** First backoff delay; doubles each attempt (default 1000 ms). */
  baseDelayMs: number;
  /** Cap on one computed backoff delay (default 30 s). */
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not retried; the error says what it asked (default 60 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** 408 timeout, 409 conflict, 429 rate limit, 5xx (Anthropic's 529 "overloaded" included). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Exponential backoff with "equal jitter": half the delay fixed, half random, so parallel callers spread out. */
export function backoffDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return exponential / 2 + random() * (exponential / 2);
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** The server's requested wait: `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now: () => number = Date.now,
): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/** Whether an error from one attempt deserves another, and after how long. */
export function retryDecision(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): RetryDecision {
  if (attempt >= policy.maxAttempts) return { retry: false };
  if (!APICallError.isInstance(error)) return { retry: false };
  const status = error.statusCode;
  // No status: the request never got an answer (connection refused/reset); the SDK marks those retryable.
  const retryable = status === undefined ? error.isRetryable : isRetryableStatus(status);
  if (!retryable) return { retry: false };
  const asked = retryAfterMs(error.responseHeaders);
  if (asked !== undefined)
    return asked > policy.maxRetryAfterMs ? { retry: false } : { retry: true, delayMs: asked };
  return { retry: true, delayMs: backoffDelayMs(attempt, policy, random) };
}

export interface RetryHooks {
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Called before each wait, e.g. to log "429, retrying in 2.0 s". */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** Runs `attempt(n)` until it succeeds, fails for good, or `signal` aborts (rejecting with its reason). */
export async function withRetries<T>(
  run: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  hooks: RetryHooks = {},
): Promise<T> {
  const sleep = hooks.sleep ?? abortableSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const decision = retryDecision(error, attempt, policy, hooks.random);
      if (!decision.retry) throw error;
      hooks.onRetry?.({ attempt, delayMs: decision.delayMs, error });
      await sleep(decision.delayMs, signal);
    }
  }
}
