/**
 * The shared state in Redis (`REDIS_URL`): every entry a key under one prefix with a TTL — `SET NX PX`
 * for marks, claims and locks, Lua for the compare-and-renew and compare-and-delete of a token, so a
 * replica only ever renews or releases what it holds (docs/how-it-works.md § The App, "Shared state and
 * takeover"). A command that Redis does not answer fails fast (one reconnection attempt, a 2 s timeout),
 * except a sticky-comment lock, which waits for Redis to return (bounded) so a running loop survives an
 * outage.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { messageOf } from '../../core/errors.js';
import type { SharedState } from './shared-state.js';
import { SharedStateUnavailable, safeRedisUrl } from './shared-state.js';

/** Claims `KEYS[1]` for `ARGV[1]` (or renews it when `ARGV[1]` holds it) for `ARGV[2]` ms. */
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if held then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Deletes `KEYS[1]` only when `ARGV[1]` holds it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface RedisStateOptions {
  url: string;
  /** Key prefix, so several Apps can share one Redis. */
  prefix?: string;
  /** How long a sticky-comment lock lives when its holder dies. */
  lockTtlMs?: number;
  /** How long a writer waits for the lock (and for Redis to come back) before giving up. */
  lockWaitMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RedisState implements SharedState {
  readonly mode = 'redis' as const;
  readonly redis: Redis;
  readonly where: string;
  readonly #prefix: string;
  readonly #lockTtlMs: number;
  readonly #lockWaitMs: number;

  constructor(options: RedisStateOptions) {
    this.where = safeRedisUrl(options.url);
    this.#prefix = options.prefix ?? 'skillclimb:app:';
    this.#lockTtlMs = options.lockTtlMs ?? 30_000;
    this.#lockWaitMs = options.lockWaitMs ?? 120_000;
    this.redis = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      commandTimeout: 2_000,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
      lazyConnect: false,
    });
    // A lost connection is reported by the calls that fail (the delivery's 5xx names Redis); ioredis
    // reconnects on its own, so the event itself is not an error to crash on.
    this.redis.on('error', () => undefined);
  }

  async #do<R>(what: string, command: () => Promise<R>): Promise<R> {
    try {
      return await command();
    } catch (error) {
      throw new SharedStateUnavailable(this.where, `${what}: ${messageOf(error)}`);
    }
  }

  #key(name: string): string {
    return `${this.#prefix}${name}`;
  }

  async mark(name: string, ttlMs: number): Promise<boolean> {
    const set = await this.#do('mark', () => this.redis.set(this.#key(name), '1', 'PX', ttlMs, 'NX'));
    return set === null;
  }

  async unmark(name: string): Promise<void> {
    await this.#do('unmark', () => this.redis.del(this.#key(name)));
  }

  async isMarked(name: string): Promise<boolean> {
    return (await this.#do('read', () => this.redis.exists(this.#key(name)))) === 1;
  }

  async put(name: string, value: string, ttlMs: number): Promise<void> {
    await this.#do('write', () => this.redis.set(this.#key(name), value, 'PX', ttlMs));
  }

  async take(name: string): Promise<string | undefined> {
    const value = await this.#do('take', () => this.redis.getdel(this.#key(name)));
    return value ?? undefined;
  }

  async claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    const done = await this.#do('claim', () =>
      this.redis.eval(CLAIM, 1, this.#key(`claim:${key}`), token, ttlMs),
    );
    return done === 1;
  }

  async release(key: string, token: string): Promise<void> {
    await this.#do('release', () => this.redis.eval(RELEASE, 1, this.#key(`claim:${key}`), token));
  }

  async isClaimed(key: string): Promise<boolean> {
    return (await this.#do('read', () => this.redis.exists(this.#key(`claim:${key}`)))) === 1;
  }

  async claimedCount(): Promise<number> {
    return this.#do('count', async () => {
      let cursor = '0';
      let count = 0;
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', this.#key('claim:*'), 'COUNT', 1000);
        cursor = next;
        count += keys.length;
      } while (cursor !== '0');
      return count;
    });
  }

  async withLock<R>(key: string, work: () => Promise<R>): Promise<R> {
    const name = this.#key(`lock:${key}`);
    const token = randomUUID();
    const deadline = Date.now() + this.#lockWaitMs;
    let problem = 'another writer held it';
    for (;;) {
      try {
        if ((await this.redis.set(name, token, 'PX', this.#lockTtlMs, 'NX')) === 'OK') break;
        problem = 'another writer held it';
      } catch (error) {
        problem = messageOf(error);
      }
      if (Date.now() > deadline) {
        throw new SharedStateUnavailable(
          this.where,
          `the sticky comment's lock for ${key} was not free within ${this.#lockWaitMs} ms: ${problem}`,
        );
      }
      await sleep(problem === 'another writer held it' ? 20 : 250);
    }
    // Renewed while held: a write that waits for GitHub (a rate limit's retry-after) keeps its lock.
    const renewal = setInterval(
      () => void this.redis.eval(CLAIM, 1, name, token, this.#lockTtlMs).catch(() => undefined),
      Math.max(50, Math.floor(this.#lockTtlMs / 3)),
    );
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      // Not answered (Redis went away): the lock's TTL frees it.
      await this.redis.eval(RELEASE, 1, name, token).catch(() => undefined);
    }
  }

  async ping(): Promise<{ ok: boolean; detail: string }> {
    try {
      await this.redis.ping();
      return { ok: true, detail: `Redis at ${this.where} answers` };
    } catch (error) {
      return { ok: false, detail: `Redis at ${this.where} is unreachable (${messageOf(error)})` };
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
