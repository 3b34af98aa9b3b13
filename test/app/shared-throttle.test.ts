/**
 * Probot's throttling shares its state through `REDIS_URL` (docs/app.md § Rate limits and failed writes):
 * Probot 14 builds Bottleneck's IORedisConnection from the URL, loading ioredis through npx-import-light.
 * With the App's own Octokit class (src/app/github-client.ts) and the ioredis this repository installs, a
 * write through an installation's client lands in the throttle's limiter ON the Redis, keyed by the
 * installation — and nothing runs `npx`: the test runs with `npx` out of reach on PATH and as if started
 * by `npx` (the one case in which npx-import-light would try it), so a missing local ioredis would fail here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import nock from 'nock';
import { Probot } from 'probot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOctokit } from '../../src/app/github-client.js';
import { API, APP_ID, PRIVATE_KEY, REPO_PATH } from '../helpers/app-fixtures.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';

describe('Probot’s throttling on REDIS_URL, with the App’s Octokit class', () => {
  let redis: RedisProcess;
  let emptyBin: string;
  const saved = { path: process.env.PATH, lifecycle: process.env.npm_lifecycle_event };
  beforeAll(async () => {
    redis = await startRedis();
    emptyBin = mkdtempSync(join(tmpdir(), 'skillclimb-no-npx-'));
  });
  afterAll(async () => {
    process.env.PATH = saved.path;
    if (saved.lifecycle === undefined) delete process.env.npm_lifecycle_event;
    else process.env.npm_lifecycle_event = saved.lifecycle;
    nock.cleanAll();
    await redis.stop();
    rmSync(emptyBin, { recursive: true, force: true });
  });

  it('a write waits in the shared limiter on the Redis, per installation, without npx', async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    process.env.PATH = emptyBin;
    process.env.npm_lifecycle_event = 'npx';
    const mock = nock(API)
      .post('/app/installations/31/access_tokens')
      .reply(201, { token: 'ghs_shared', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
      .post(`${REPO_PATH}/issues/7/comments`)
      .reply(201, { id: 1 });
    const probot = new Probot({
      appId: APP_ID,
      privateKey: PRIVATE_KEY,
      redisConfig: redis.url,
      logLevel: 'fatal',
      Octokit: appOctokit({ retry: { enabled: false } }),
    });
    const octokit = await probot.auth(31);
    await octokit.rest.issues.createComment({
      owner: 'Codertocat',
      repo: 'Hello-World',
      issue_number: 7,
      body: 'hi',
    });

    const look = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const keys = (await look.keys('b_octokit-*')).sort();
    look.disconnect();
    // plugin-throttling's write group and global group, each keyed by the installation's id (Probot sets it).
    expect(keys).toEqual(
      expect.arrayContaining(['b_octokit-write-31_settings', 'b_octokit-global-31_settings']),
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
