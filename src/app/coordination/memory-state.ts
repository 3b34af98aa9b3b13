/**
 * The shared state of one process (no `REDIS_URL`): maps with expiry times. Claims and locks live as
 * long as the process, which is also the only place a loop can run.
 */
import { KeyedLock } from '../../core/keyed-lock.js';
import type { SharedState } from './shared-state.js';

const LIMIT = 10_000;

export class MemoryState implements SharedState {
  readonly mode = 'memory' as const;
  readonly #clock: () => number;
  readonly #values = new Map<string, { value: string; until: number }>();
  readonly #claims = new Map<string, { token: string; until: number }>();
  readonly #locks = new KeyedLock();

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  #live(name: string): string | undefined {
    const entry = this.#values.get(name);
    if (!entry) return undefined;
    if (entry.until <= this.#clock()) {
      this.#values.delete(name);
      return undefined;
    }
    return entry.value;
  }

  #set(name: string, value: string, ttlMs: number): void {
    this.#values.delete(name);
    this.#values.set(name, { value, until: this.#clock() + ttlMs });
    // Bounded: the oldest entries go first (a seen id a day old is the least likely to come back).
    while (this.#values.size > LIMIT) {
      const oldest = this.#values.keys().next().value;
      if (oldest === undefined) break;
      this.#values.delete(oldest);
    }
  }

  async mark(name: string, ttlMs: number): Promise<boolean> {
    if (this.#live(name) !== undefined) return true;
    this.#set(name, '1', ttlMs);
    return false;
  }

  async unmark(name: string): Promise<void> {
    this.#values.delete(name);
  }

  async isMarked(name: string): Promise<boolean> {
    return this.#live(name) !== undefined;
  }

  async put(name: string, value: string, ttlMs: number): Promise<void> {
    this.#set(name, value, ttlMs);
  }

  async take(name: string): Promise<string | undefined> {
    const value = this.#live(name);
    this.#values.delete(name);
    return value;
  }

  async claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    const held = this.#claims.get(key);
    if (held && held.token !== token && held.until > this.#clock()) return false;
    this.#claims.set(key, { token, until: this.#clock() + ttlMs });
    return true;
  }

  async release(key: string, token: string): Promise<void> {
    if (this.#claims.get(key)?.token === token) this.#claims.delete(key);
  }

  async isClaimed(key: string): Promise<boolean> {
    const held = this.#claims.get(key);
    return held !== undefined && held.until > this.#clock();
  }

  async claimedCount(): Promise<number> {
    const now = this.#clock();
    return [...this.#claims.values()].filter((held) => held.until > now).length;
  }

  withLock<R>(key: string, work: () => Promise<R>): Promise<R> {
    return this.#locks.run(key, work);
  }

  async ping(): Promise<{ ok: boolean; detail: string }> {
    return { ok: true, detail: 'in memory (no REDIS_URL): one process' };
  }

  async close(): Promise<void> {}
}
