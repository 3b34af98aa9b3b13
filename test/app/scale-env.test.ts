/** The shared-state settings (docs/app.md § Environment): REDIS_URL, DATA_DIR and CLAIM_TTL_MS, or a named refusal. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readScaleEnv } from '../../src/app/config.js';
import { safeRedisUrl } from '../../src/app/coordination/shared-state.js';

const at = (p: string) => path.resolve('/srv/app', p);

describe('readScaleEnv', () => {
  it('without REDIS_URL: one process, the running loops recorded in DATA_DIR (default .review-loop-data)', () => {
    expect(readScaleEnv({}, at)).toEqual({
      redisUrl: undefined,
      dataDir: '/srv/app/.review-loop-data',
      claimTtlMs: 30_000,
    });
    expect(readScaleEnv({ DATA_DIR: 'state', CLAIM_TTL_MS: '5000' }, at)).toEqual({
      redisUrl: undefined,
      dataDir: '/srv/app/state',
      claimTtlMs: 5_000,
    });
  });

  it('with REDIS_URL: no data folder (the queue holds the loops)', () => {
    expect(readScaleEnv({ REDIS_URL: 'rediss://:pw@cache:6380/2', DATA_DIR: 'x' }, at)).toEqual({
      redisUrl: 'rediss://:pw@cache:6380/2',
      dataDir: undefined,
      claimTtlMs: 30_000,
    });
  });

  it('refuses a bad value naming the variable', () => {
    expect(() => readScaleEnv({ REDIS_URL: 'cache:6379' }, at)).toThrow(
      'REDIS_URL: expected a redis:// or rediss:// URL, got a cache: one',
    );
    expect(() => readScaleEnv({ REDIS_URL: 'not a url' }, at)).toThrow('REDIS_URL: is not a URL');
    expect(() => readScaleEnv({ CLAIM_TTL_MS: '200' }, at)).toThrow('CLAIM_TTL_MS: expected at least 1000');
    expect(() => readScaleEnv({ CLAIM_TTL_MS: 'soon' }, at)).toThrow(
      'CLAIM_TTL_MS: expected a positive whole number',
    );
  });

  it('logs the Redis URL without its user and password', () => {
    expect(safeRedisUrl('redis://admin:hunter2-secret@cache.internal:6379/0')).toBe(
      'redis://cache.internal:6379/0',
    );
    expect(safeRedisUrl('::')).toBe('the REDIS_URL (not a valid URL)');
  });
});
