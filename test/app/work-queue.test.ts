/** The background queue: nothing before the current turn ends, one claim per PR, a global limit, abort. */
import { describe, expect, it } from 'vitest';
import type { LoopJob } from '../../src/app/coordination/loop-jobs.js';
import { MemoryState } from '../../src/app/coordination/memory-state.js';
import { WorkQueue } from '../../src/app/work-queue.js';
import { loopState, pullData } from '../helpers/app-fixtures.js';
import { messageOf } from '../../src/core/errors.js';

const quiet = { info: () => undefined, error: () => undefined };

function jobFor(number: number, token: string): Omit<LoopJob, 'handoffs' | 'queuedAt'> {
  const pr = { owner: 'a', repo: 'r', number };
  const data = pullData();
  return {
    installationId: 1,
    pr: {
      pr,
      url: data.html_url,
      title: data.title,
      body: data.body,
      state: 'open',
      merged: false,
      headSha: data.head.sha,
      headRef: data.head.ref,
      baseSha: data.base.sha,
      baseRef: data.base.ref,
      isFork: false,
      author: 'author',
    },
    settings: loopState().settings!,
    runId: 'run_1',
    trigger: { kind: 'start' },
    token,
  };
}

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

  it("runs an event job in this process after the enqueuing turn, with the delivery's tools, once started", async () => {
    const errors: string[] = [];
    const queue = new WorkQueue({
      concurrency: 1,
      log: { info: () => undefined, error: (message) => void errors.push(message) },
    });
    const order: string[] = [];
    const pr = { owner: 'a', repo: 'r', number: 1 };
    const closed = { kind: 'closed' as const, delivery: 'd1', pr, merged: false };
    await queue.enqueue({ installationId: 1, event: closed }, 'delivery tools'); // before start: held
    order.push('added before start');
    queue.start(
      async () => undefined,
      async (job, run) => {
        order.push(`${job.event.delivery}: ${String(run.local)}, rerun ${run.rerun}`);
        if (job.event.delivery === 'd2') throw new Error('boom');
      },
    );
    await queue.enqueue({ installationId: 1, event: { ...closed, delivery: 'd2' } }, 'other tools');
    order.push('handler returned');
    await queue.idle();
    expect(order).toEqual([
      'added before start',
      'handler returned',
      'd1: delivery tools, rerun false',
      'd2: other tools, rerun false',
    ]);
    expect(errors).toEqual(['close of a/r#1 failed']);
  });

  it('claims a PR once, and runs at most `concurrency` loops at a time', async () => {
    const queue = new WorkQueue({ concurrency: 2, log: quiet });
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    queue.start(async (job) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
      await queue.release(`a/r#${job.pr.pr.number}`, job.token);
    });
    for (const number of [1, 2, 3, 4]) {
      const claim = await queue.claim(`a/r#${number}`);
      expect(claim).toBeDefined();
      expect(await queue.claim(`a/r#${number}`)).toBeUndefined(); // a second start while claimed
      await queue.submit(jobFor(number, claim!));
    }
    while (releases.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await queue.snapshot()).toEqual({ running: 2, waiting: 2, claimed: 4 });
    while (releases.length > 0 || (await queue.snapshot()).claimed > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await queue.idle();
    expect(peak).toBe(2);
    expect(await queue.isClaimed('a/r#1')).toBe(false);
    expect(await queue.ping()).toEqual({ ok: true, detail: expect.stringContaining('in memory') });
  });

  it('aborts a claimed loop, remembers seen ids, and survives a failing task', async () => {
    const errors: string[] = [];
    const queue = new WorkQueue({
      concurrency: 1,
      log: { ...quiet, error: (message) => errors.push(message) },
    });
    let reason: unknown;
    queue.start(
      (_job, run) =>
        new Promise<void>((resolve) =>
          run.signal.addEventListener('abort', () => ((reason = run.signal.reason), resolve())),
        ),
    );
    const claim = (await queue.claim('a/r#1'))!;
    await queue.submit(jobFor(1, claim));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await queue.abort('a/r#1', 'stopped', 'stop')).toBe(true);
    expect(await queue.abort('a/r#2', 'stopped', 'stop')).toBe(false);
    queue.task('boom', () => Promise.reject(new Error('boom')));
    await queue.idle();
    expect(messageOf(reason)).toBe('stopped');
    expect(queue.takeEndReason('a/r#1')).toBe('stop');
    expect(errors).toEqual(['boom failed']);
    expect(await queue.seenBefore('comment:1')).toBe(false);
    expect(await queue.seenBefore('comment:1')).toBe(true);
  });

  it('a claim is renewed by its token, taken back by it after expiry, and refused to another token', async () => {
    let now = 0;
    const state = new MemoryState(() => now);
    expect(await state.claim('k', 'one', 100)).toBe(true);
    expect(await state.claim('k', 'two', 100)).toBe(false);
    now = 50;
    expect(await state.claim('k', 'one', 100)).toBe(true); // renewed to 150
    now = 120;
    expect(await state.claim('k', 'two', 100)).toBe(false);
    now = 200;
    expect(await state.claim('k', 'two', 100)).toBe(true); // expired: taken
    await state.release('k', 'one'); // not its token: stays
    expect(await state.isClaimed('k')).toBe(true);
    await state.release('k', 'two');
    expect(await state.isClaimed('k')).toBe(false);
  });
  it('a stop asked while a loop is queued stops it as it starts; a stale stop never reaches the next loop', async () => {
    const queue = new WorkQueue({ concurrency: 1, log: quiet });
    const started: boolean[] = [];
    queue.start(async (job, run) => {
      started.push(run.signal.aborted);
      await queue.release(`a/r#${job.pr.pr.number}`, job.token);
    });
    const first = (await queue.claim('a/r#1'))!;
    expect(await queue.abort('a/r#1', 'stopped', 'stop')).toBe(true); // claimed, not running yet
    await queue.submit(jobFor(1, first));
    await queue.idle();
    expect(started).toEqual([true]);
    expect(queue.takeEndReason('a/r#1')).toBe('stop');

    // a stop for a claim released before its loop ran
    const second = (await queue.claim('a/r#1'))!;
    expect(await queue.abort('a/r#1', 'stopped', 'stop')).toBe(true);
    await queue.release('a/r#1', second);
    const third = (await queue.claim('a/r#1'))!;
    await queue.submit(jobFor(1, third));
    await queue.idle();
    expect(started).toEqual([true, false]);
  });
});
