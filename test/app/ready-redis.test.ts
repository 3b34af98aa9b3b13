/**
 * `GET /ready` with REDIS_URL (docs/app.md § Monitoring) on a started App against a real `redis-server`:
 * ready while Redis answers, 503 naming Redis once it is killed (a crash, not a clean stop), ready again
 * after it restarts on the same port; the URL's password is never shown. A REDIS_URL that is no Redis URL
 * stops the start, naming the variable.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StartedApp } from '../../src/app/server.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { nockGetApp, readyState, startOnLoopback, waitUntil } from '../helpers/started-app.js';

let started: StartedApp | undefined;
let redis: RedisProcess;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  await started?.stop();
  started = undefined;
  nock.cleanAll();
});

describe('GET /ready with REDIS_URL: the Redis connection', () => {
  it('is ready while Redis answers, 503 naming Redis while it is down, and ready again once it is back', async () => {
    const mock = nockGetApp();
    const url = redis.url.replace('redis://', 'redis://:hunter2-secret@');
    const app = await startOnLoopback({ REDIS_URL: url });
    started = app.started;

    const up = await readyState(app.origin);
    expect(up.status).toBe(200);
    expect(up.body).toStrictEqual({
      ready: true,
      app: 'skillclimb-review-loop',
      checks: { store: `redis at 127.0.0.1:${redis.port}: answered PONG to PING` },
    });

    await redis.kill();
    const down = await readyState(app.origin);
    expect(down.status).toBe(503);
    expect(down.body.ready).toBe(false);
    expect(down.body.reason).toMatch(
      new RegExp(`^Redis \\(REDIS_URL, 127\\.0\\.0\\.1:${redis.port}\\) does not answer \\(.+\\)`),
    );
    expect(down.body.checks?.store).toBe(down.body.reason);
    expect(JSON.stringify(down.body)).not.toContain('hunter2');
    // /ping is liveness: the process still answers.
    expect(await (await fetch(`${app.origin}/ping`)).text()).toBe('PONG');

    await redis.restart();
    const back = await waitUntil(
      async () => {
        const state = await readyState(app.origin);
        return state.status === 200 ? state : undefined;
      },
      10_000,
      '/ready answering 200 after Redis restarted',
    );
    expect(back.body.checks?.store).toMatch(/answered PONG/);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('refuses to start with a REDIS_URL that is not a Redis URL, naming the variable', async () => {
    // The start refuses it before any connection is tried, whichever check reads it first.
    await expect(startOnLoopback({ REDIS_URL: 'http://127.0.0.1:6379' })).rejects.toThrow(
      /^REDIS_URL: expected .*redis:\/\/.* rediss:\/\/.*http/,
    );
    await expect(startOnLoopback({ REDIS_URL: 'not a url' })).rejects.toThrow(/^REDIS_URL: /);
  });
});
