/** The background queue: nothing before the current turn ends, one claim per PR, a global limit, abort. */
import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../src/app/work-queue.js';

const quiet = { error: () => undefined };

describe('WorkQueue', () => {
  it('starts no work before the enqueuing turn ends', async () => {
    const queue = new WorkQueue({ concurrency: 1, log: quiet });
    const order: string[] = [];
    queue.task('t', async () => void order.push('task'));
    order.push('handler returned');
    await Promise.resolve();
    order.push('microtasks done');
    await queue.idle();
    expect(order).toEqual(['handler returned', 'microtasks done', 'task']);
  });

  it('claims a PR once, and runs at most `concurrency` loops at a time', async () => {
    const queue = new WorkQueue({ concurrency: 2, log: quiet });
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    for (const pr of ['a#1', 'a#2', 'a#3', 'a#4']) {
      const claim = queue.claim(pr);
      expect(claim).toBeDefined();
      expect(queue.claim(pr)).toBeUndefined(); // a second start while claimed
      queue.loop(pr, pr, claim!, async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      });
    }
    while (releases.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(queue.stats).toMatchObject({ running: 2, waiting: 2, claimed: 4 });
    while (releases.length > 0 || queue.stats.claimed > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await queue.idle();
    expect(peak).toBe(2);
    expect(queue.isClaimed('a#1')).toBe(false);
  });

  it('aborts a claimed loop, remembers seen ids, and survives a failing task', async () => {
    const errors: string[] = [];
    const queue = new WorkQueue({ concurrency: 1, log: { error: (message) => errors.push(message) } });
    const claim = queue.claim('b#1')!;
    let reason: unknown;
    queue.loop(
      'loop',
      'b#1',
      claim,
      (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => ((reason = signal.reason), resolve())),
        ),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(queue.abort('b#1', 'stopped')).toBe(true);
    queue.task('boom', () => Promise.reject(new Error('boom')));
    await queue.idle();
    expect((reason as Error).message).toBe('stopped');
    expect(errors).toEqual(['boom failed']);
    expect(queue.seenBefore('comment:1')).toBe(false);
    expect(queue.seenBefore('comment:1')).toBe(true);
  });
});
