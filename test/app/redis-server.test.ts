import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';

describe('the test redis-server', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('serves on loopback, forgets everything when killed and restarted (no persistence)', async () => {
    const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    await client.set('k', 'v');
    expect(await client.get('k')).toBe('v');
    client.disconnect();
    await redis.kill();
    await redis.restart();
    const again = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await again.connect();
    expect(await again.get('k')).toBeNull();
    again.disconnect();
  });
});
