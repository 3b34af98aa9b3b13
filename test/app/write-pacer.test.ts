/* eslint-disable @typescript-eslint/no-explicit-any -- the throttling plugin's limiter interface is untyped */
/**
 * Writes paced per installation (docs/app.md § Rate limits and failed writes): a sliding window per
 * installation under GitHub's secondary limit on content creation. The windows are shrunk and the clock
 * and the sleep are fakes, so the spacing is asserted from the times the writes were let through, never
 * from wall-clock timing; through the App's own Octokit class (src/app/github-client.ts) with nock; and two
 * pacers on one real Redis share one budget.
 */
import { Redis } from 'ioredis';
import nock from 'nock';
import { Probot } from 'probot';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appOctokit } from '../../src/app/github-client.js';
import type { PaceWindow } from '../../src/app/write-pacer.js';
import {
  CONTENT_WRITE_WINDOWS,
  MemoryWritePacer,
  RedisWritePacer,
  createsContent,
  paceWrite,
} from '../../src/app/write-pacer.js';
import { API, APP_ID, PRIVATE_KEY, REPO_PATH, recordingLog } from '../helpers/app-fixtures.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** A clock that only the fake sleep moves. */
function fakeTime() {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    slept,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('the pacer, in one process', () => {
  it('lets a window’s writes through at once, then one as each leaves the window', async () => {
    const time = fakeTime();
    const pacer = new MemoryWritePacer([{ windowMs: 1000, limit: 2 }], time.now);
    const through: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await paceWrite(pacer, 'installation:1', time.sleep);
      through.push(time.now());
    }
    expect(through).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('honours every window: the hour’s budget holds writes the minute’s would let through', async () => {
    const time = fakeTime();
    const windows: PaceWindow[] = [
      { windowMs: 1000, limit: 2 },
      { windowMs: 10_000, limit: 3 },
    ];
    const pacer = new MemoryWritePacer(windows, time.now);
    const through: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await paceWrite(pacer, 'installation:1', time.sleep);
      through.push(time.now());
    }
    expect(through).toEqual([0, 0, 1000, 10_000, 10_000]);
  });

  it('another installation does not wait for a full one', async () => {
    const time = fakeTime();
    const pacer = new MemoryWritePacer([{ windowMs: 1000, limit: 1 }], time.now);
    expect(await pacer.take('installation:1')).toBe(0);
    expect(await pacer.take('installation:1')).toBe(1000);
    expect(await pacer.take('installation:2')).toBe(0);
  });

  it('GitHub’s numbers by default: 80 a minute, 500 an hour', async () => {
    expect(CONTENT_WRITE_WINDOWS).toEqual([
      { windowMs: 60_000, limit: 80 },
      { windowMs: 3_600_000, limit: 500 },
    ]);
    const time = fakeTime();
    const pacer = new MemoryWritePacer(CONTENT_WRITE_WINDOWS, time.now);
    for (let i = 0; i < 80; i += 1) expect(await pacer.take('i')).toBe(0);
    expect(await pacer.take('i')).toBe(60_000);
  });

  it('counts writes that create content, not reads, the App’s own routes or GraphQL queries', () => {
    expect(createsContent('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', {})).toBe(true);
    expect(createsContent('PATCH', '/repos/{owner}/{repo}/check-runs/{check_run_id}', {})).toBe(true);
    expect(createsContent('POST', '/repos/{owner}/{repo}/git/commits', {})).toBe(true);
    expect(createsContent('DELETE', '/repos/{owner}/{repo}/issues/comments/{comment_id}', {})).toBe(true);
    expect(createsContent('GET', '/repos/{owner}/{repo}/pulls/{pull_number}', {})).toBe(false);
    expect(createsContent('POST', '/app/installations/{installation_id}/access_tokens', {})).toBe(false);
    expect(createsContent('POST', '/app/hook/deliveries/{delivery_id}/attempts', {})).toBe(false);
    expect(createsContent('POST', '/graphql', { query: 'query { viewer { login } }' })).toBe(false);
    expect(createsContent('POST', '/graphql', { query: ' mutation { resolveReviewThread }' })).toBe(true);
  });
});

/** A limiter that runs each job at once (the throttling plugin's own spacing is not under test here). */
const unpaced = {
  key: () => ({
    schedule: (...args: any[]) => {
      const at = args.findIndex((arg) => typeof arg === 'function');
      return Promise.resolve().then(() => args[at](...args.slice(at + 1)));
    },
  }),
};

describe('the App’s Octokit class paces each installation’s writes', () => {
  function pacedProbot(sleep: (ms: number) => Promise<void>, now: () => number) {
    return new Probot({
      appId: APP_ID,
      privateKey: PRIVATE_KEY,
      logLevel: 'fatal',
      Octokit: appOctokit({
        pacer: new MemoryWritePacer([{ windowMs: 60_000, limit: 2 }], now),
        sleep,
        throttle: { write: unpaced, notifications: unpaced, search: unpaced, global: unpaced },
        retry: { enabled: false },
      }),
    });
  }

  it('the third comment in a window waits for the first to leave it; reads and another installation do not', async () => {
    const order: string[] = [];
    let now = 0;
    let release: (() => void) | undefined;
    const slept: number[] = [];
    // The third write's wait is held open until the other installation's write went through.
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        slept.push(ms);
        release = () => {
          now += ms;
          resolve();
        };
      });
    const mock = nock(API)
      .post('/app/installations/1/access_tokens')
      .reply(201, { token: 'ghs_one', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
      .post('/app/installations/2/access_tokens')
      .reply(201, { token: 'ghs_two', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
      .post(`${REPO_PATH}/issues/7/comments`)
      .times(3)
      .reply(201, (_uri: string, body: any) => (order.push(`one:${body.body}`), { id: 1 }))
      .get(`${REPO_PATH}/pulls/7`)
      .times(3)
      .reply(200, () => (order.push('one:read'), { number: 7 }))
      .post('/repos/Other/Repo/issues/1/comments')
      .reply(201, (_uri: string, body: any) => (order.push(`two:${body.body}`), { id: 2 }));
    const probot = pacedProbot(sleep, () => now);
    const one = await probot.auth(1);
    const two = await probot.auth(2);
    const comment = (body: string) =>
      one.rest.issues.createComment({ owner: 'Codertocat', repo: 'Hello-World', issue_number: 7, body });
    const read = () => one.rest.pulls.get({ owner: 'Codertocat', repo: 'Hello-World', pull_number: 7 });

    await comment('a');
    await read();
    await comment('b');
    await read();
    const third = comment('c');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await read();
    await two.rest.issues.createComment({ owner: 'Other', repo: 'Repo', issue_number: 1, body: 'x' });
    expect(order).toEqual(['one:a', 'one:read', 'one:b', 'one:read', 'one:read', 'two:x']);
    expect(slept).toEqual([60_000]);
    release!();
    await third;

    expect(order.at(-1)).toBe('one:c');
    expect(slept).toEqual([60_000]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('a pacer out of reach', () => {
  it('lets the writes through, with one warning', async () => {
    const lines: string[] = [];
    const probot = new Probot({
      appId: APP_ID,
      privateKey: PRIVATE_KEY,
      log: recordingLog(lines),
      Octokit: appOctokit({
        pacer: { take: () => Promise.reject(new Error('Connection is closed.')) },
        throttle: { write: unpaced, notifications: unpaced, search: unpaced, global: unpaced },
        retry: { enabled: false },
      }),
    });
    const mock = nock(API)
      .post('/app/installations/1/access_tokens')
      .reply(201, { token: 'ghs_down', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
      .post(`${REPO_PATH}/issues/7/comments`)
      .times(2)
      .reply(201, { id: 1 });
    const octokit = await probot.auth(1);
    for (const body of ['a', 'b'])
      await octokit.rest.issues.createComment({
        owner: 'Codertocat',
        repo: 'Hello-World',
        issue_number: 7,
        body,
      });
    expect(lines.filter((line) => /not paced/.test(line))).toEqual([
      'writes are not paced while the pacer cannot be reached: Connection is closed.',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('two pacers on one Redis', () => {
  let redis: RedisProcess;
  const clients: Redis[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await redis.stop();
  });
  const client = () => {
    const made = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    clients.push(made);
    return made;
  };

  it('share one budget per installation, and each installation has its own', async () => {
    const windows = [{ windowMs: 60_000, limit: 3 }];
    const a = new RedisWritePacer(client(), windows, 'test-budget:');
    const b = new RedisWritePacer(client(), windows, 'test-budget:');
    expect(await a.take('installation:1')).toBe(0);
    expect(await b.take('installation:1')).toBe(0);
    expect(await a.take('installation:1')).toBe(0);
    const waitB = await b.take('installation:1');
    const waitA = await a.take('installation:1');
    // Full: the slot frees when the first write leaves the minute (a little under 60 s from now).
    expect(waitB).toBeGreaterThan(50_000);
    expect(waitB).toBeLessThanOrEqual(60_000);
    expect(waitA).toBeGreaterThan(50_000);
    expect(await b.take('installation:2')).toBe(0);
    // A refused take leaves no trace: the set holds the three writes taken.
    expect(await client().zcard('test-budget:installation:1')).toBe(3);
  });

  it('taken at once by many callers, the window still lets through exactly its limit', async () => {
    const windows = [{ windowMs: 60_000, limit: 5 }];
    const pacers = [client(), client()].map(
      (redisClient) => new RedisWritePacer(redisClient, windows, 'test-race:'),
    );
    const waits = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pacers[i % 2]!.take('installation:9')),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(5);
    expect(waits.filter((wait) => wait > 0)).toHaveLength(15);
  });

  it('a paced write waits on the shared window and then goes through', async () => {
    const windows = [{ windowMs: 300, limit: 1 }];
    const a = new RedisWritePacer(client(), windows, 'test-wait:');
    const b = new RedisWritePacer(client(), windows, 'test-wait:');
    expect(await paceWrite(a, 'installation:1')).toBe(0);
    const waited = await paceWrite(b, 'installation:1');
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(300 * 2);
  });
});
