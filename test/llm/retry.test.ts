import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  abortableSleep,
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  retryAfterMs,
  retryDecision,
  withRetries,
} from '../../src/llm/retry.js';

function httpError(
  status: number | undefined,
  headers: Record<string, string> = {},
  isRetryable?: boolean,
): APICallError {
  return new APICallError({
    message: `status ${status}`,
    url: 'https://api.example.com/v1/x',
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    ...(isRetryable !== undefined && { isRetryable }),
  });
}

describe('retry policy', () => {
  it.each([
    [429, true],
    [500, true],
    [502, true],
    [529, true],
    [408, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
  ])('HTTP %i retryable: %s', (status, retry) => {
    expect(retryDecision(httpError(status), 1, DEFAULT_RETRY_POLICY, () => 0).retry).toBe(retry);
  });

  it('retries connection failures the SDK marks retryable, never plain errors', () => {
    expect(retryDecision(httpError(undefined, {}, true), 1, DEFAULT_RETRY_POLICY).retry).toBe(true);
    expect(retryDecision(new Error('bug'), 1, DEFAULT_RETRY_POLICY).retry).toBe(false);
  });

  it('stops at the attempt cap', () => {
    expect(retryDecision(httpError(500), 3, DEFAULT_RETRY_POLICY).retry).toBe(true);
    expect(retryDecision(httpError(500), 4, DEFAULT_RETRY_POLICY).retry).toBe(false);
  });

  it('doubles with equal jitter and caps the delay', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 3000 };
    expect(backoffDelayMs(1, policy, () => 0)).toBe(500);
    expect(backoffDelayMs(1, policy, () => 1)).toBe(1000);
    expect(backoffDelayMs(2, policy, () => 0)).toBe(1000);
    expect(backoffDelayMs(5, policy, () => 1)).toBe(3000);
  });

  it('reads retry-after-ms, retry-after seconds and retry-after dates', () => {
    expect(retryAfterMs({ 'retry-after-ms': '120', 'retry-after': '9' })).toBe(120);
    expect(retryAfterMs({ 'Retry-After': '2' })).toBe(2000);
    const now = () => Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('uses the server wait when asked, refuses one beyond the cap', () => {
    expect(retryDecision(httpError(429, { 'retry-after': '3' }), 1, DEFAULT_RETRY_POLICY)).toEqual({
      retry: true,
      delayMs: 3000,
    });
    expect(retryDecision(httpError(429, { 'retry-after': '61' }), 1, DEFAULT_RETRY_POLICY)).toEqual({
      retry: false,
    });
  });
});

describe('withRetries', () => {
  it('runs until success and reports each wait', async () => {
    const waits: number[] = [];
    let calls = 0;
    const value = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw httpError(503);
        return 'ok';
      },
      { ...DEFAULT_RETRY_POLICY, baseDelayMs: 10 },
      new AbortController().signal,
      { sleep: async () => undefined, random: () => 0, onRetry: ({ delayMs }) => waits.push(delayMs) },
    );
    expect(value).toBe('ok');
    expect(waits).toEqual([5, 10]);
  });

  it('rejects with the abort reason during a backoff wait', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const run = withRetries(
      async () => {
        throw httpError(500);
      },
      { ...DEFAULT_RETRY_POLICY, baseDelayMs: 60_000 },
      controller.signal,
    );
    setTimeout(() => controller.abort(reason), 20);
    await expect(run).rejects.toBe(reason);
  });

  it('abortableSleep rejects at once on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(abortableSleep(10_000, controller.signal)).rejects.toThrow('already');
  });
});
