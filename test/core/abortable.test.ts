import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortableSleep, untilAborted } from '../../src/core/abortable.js';

describe('abortableSleep', () => {
  it('resolves after the wait and leaves no listener behind', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(5, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await sleeping;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('untilAborted', () => {
  it('settles with the work when it finishes first', async () => {
    const controller = new AbortController();
    await expect(untilAborted(Promise.resolve(42), controller.signal)).resolves.toBe(42);
    await expect(untilAborted(Promise.reject(new Error('boom')), controller.signal)).rejects.toThrow('boom');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the reason when the signal aborts, even if the work never settles', async () => {
    const controller = new AbortController();
    const hung = new Promise<never>(() => undefined);
    const waiting = untilAborted(hung, controller.signal);
    controller.abort(new Error('timed out'));
    await expect(waiting).rejects.toThrow('timed out');
    const already = new AbortController();
    already.abort(new Error('before'));
    await expect(untilAborted(hung, already.signal)).rejects.toThrow('before');
  });
});
