import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AdaptiveConcurrency,
  isOverload,
  type ConcurrencyChange,
} from '../../src/llm/adaptive-concurrency.js';
import { createModels } from '../../src/llm/factory.js';
import { anthropicMessage } from '../helpers/model-replies.js';

const signal = () => new AbortController().signal;

describe('AdaptiveConcurrency', () => {
  it('halves on an overload, once per burst, and recovers by one per window of successes', async () => {
    const changes: ConcurrencyChange[] = [];
    const gate = new AdaptiveConcurrency('https://api.example', 8, (c) => changes.push(c));
    const slots = await Promise.all(Array.from({ length: 8 }, () => gate.acquire(signal())));
    expect(gate.active).toBe(8);
    // The whole burst is refused: the limit halves once, not once per call.
    for (const slot of slots) slot.release('overload');
    expect(gate.limit).toBe(4);
    expect(changes).toEqual([{ endpoint: 'https://api.example', from: 8, to: 4, reason: 'overload' }]);
    // Four successes under the new limit raise it by one.
    for (let i = 0; i < 4; i++) (await gate.acquire(signal())).release('ok');
    expect(gate.limit).toBe(5);
    expect(changes.at(-1)).toMatchObject({ from: 4, to: 5, reason: 'recovered' });
    // Failures that are not overloads change nothing.
    (await gate.acquire(signal())).release('other');
    expect(gate.limit).toBe(5);
  });

  it('keeps callers waiting beyond the limit, in arrival order', async () => {
    const gate = new AdaptiveConcurrency('e', 2);
    const first = await gate.acquire(signal());
    await gate.acquire(signal());
    const order: number[] = [];
    const third = gate.acquire(signal()).then((slot) => (order.push(3), slot));
    const fourth = gate.acquire(signal()).then((slot) => (order.push(4), slot));
    await Promise.resolve();
    expect(order).toEqual([]);
    first.release('ok');
    (await third).release('ok');
    (await fourth).release('ok');
    expect(order).toEqual([3, 4]);
  });

  it('drops a waiting caller whose signal aborts', async () => {
    const gate = new AdaptiveConcurrency('e', 1);
    const held = await gate.acquire(signal());
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    held.release('ok');
    expect(gate.active).toBe(0);
    const next = await gate.acquire(signal());
    expect(gate.active).toBe(1);
    next.release('ok');
  });

  it('counts 429, 503 and 529 as overload', async () => {
    const { APICallError } = await import('ai');
    const error = (statusCode: number) =>
      new APICallError({ message: 'x', url: 'u', requestBodyValues: {}, statusCode });
    expect([429, 503, 529, 500, 400].map((s) => isOverload(error(s)))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(isOverload(new Error('x'))).toBe(false);
  });
});

describe('adaptive backoff through the real provider (nock)', () => {
  afterEach(() => nock.cleanAll());

  it('halves the calls in flight after a 429 and every call still succeeds', async () => {
    let inFlight = 0;
    let served = 0;
    const peaks: number[] = [];
    // The first 8 requests are refused (retry at once); the rest answer after a short while.
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .times(16)
      .reply((_uri, _body, callback) => {
        inFlight += 1;
        peaks.push(inFlight);
        const refused = served++ < 8;
        setTimeout(() => {
          inFlight -= 1;
          if (refused)
            callback(null, [
              429,
              { type: 'error', error: { type: 'rate_limit_error', message: 'Too many requests' } },
              { 'retry-after-ms': '1' },
            ]);
          else
            callback(null, [
              200,
              anthropicMessage([{ type: 'text', text: 'done' }], { input_tokens: 5, output_tokens: 1 }),
            ]);
        }, 30);
      });
    const changes: ConcurrencyChange[] = [];
    const models = createModels(
      { model: 'anthropic:claude-haiku-4-5' },
      { ANTHROPIC_API_KEY: 'sk-ant-test' },
      {
        maxCallsPerEndpoint: 8,
        onConcurrencyChange: (c) => changes.push(c),
        retryHooks: { sleep: async () => undefined },
      },
    );
    const renders = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        models.render(
          { skillName: 'demo', skillMd: '# Demo\n', scenario: { id: `s${i}`, context: 'c' } },
          signal(),
        ),
      ),
    );
    expect(renders.map((r) => r.value)).toEqual(Array(8).fill('done'));
    // All eight went out together; after the refusal, never more than four at once.
    expect(Math.max(...peaks.slice(0, 8))).toBe(8);
    expect(Math.max(...peaks.slice(8))).toBeLessThanOrEqual(4);
    expect(changes[0]).toEqual({
      endpoint: 'https://api.anthropic.com/v1',
      from: 8,
      to: 4,
      reason: 'overload',
    });
    expect(changes.filter((c) => c.reason === 'overload')).toHaveLength(1);
    expect(nock.isDone()).toBe(true);
  });
});
