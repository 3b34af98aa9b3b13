/**
 * "Once across replicas" (docs/how-it-works.md § The App, missed deliveries): a key is granted to the
 * first caller only, until its TTL runs out. In one process a Map is enough; replicas sharing a Redis
 * take the key with `SET key 1 NX PX ttl`, which Redis grants to exactly one of them.
 */
import type { Redis } from 'ioredis';

export interface OnceGuard {
  /** True for the first caller of `key` within `ttlMs` (in this process, or across every replica on the Redis). */
  first(key: string, ttlMs: number): Promise<boolean>;
}

/** One process's guard: the keys it granted, each forgotten when its TTL ends. */
export class MemoryOnceGuard implements OnceGuard {
  readonly #until = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  first(key: string, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    for (const [granted, until] of this.#until) if (until <= now) this.#until.delete(granted);
    if (this.#until.has(key)) return Promise.resolve(false);
    this.#until.set(key, now + ttlMs);
    return Promise.resolve(true);
  }
}

/** The replicas' guard: one Redis key per grant, under a prefix, expiring on its own. */
export class RedisOnceGuard implements OnceGuard {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix = 'skillclimb:once:') {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async first(key: string, ttlMs: number): Promise<boolean> {
    const answer = await this.#redis.set(
      `${this.#prefix}${key}`,
      '1',
      'PX',
      Math.max(1, Math.ceil(ttlMs)),
      'NX',
    );
    return answer === 'OK';
  }
}
