/**
 * Writes paced per installation (docs/how-it-works.md § The App; docs/app.md § Rate limits and failed
 * writes). GitHub's secondary rate limits allow an installation about 80 content-creating requests a
 * minute and 500 an hour; past them it answers 403 and the App would wait minutes. So each write first
 * takes a slot in a sliding window per installation and, when the window is full, waits until its oldest
 * slot leaves it — in one process (a Map), or across every replica on one Redis (a sorted set per
 * installation, taken by one Lua script, so two replicas never take the same last slot).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** One window: at most `limit` writes in any `windowMs`. */
export interface PaceWindow {
  windowMs: number;
  limit: number;
}

/** GitHub's published secondary limits on content creation, per installation. */
export const CONTENT_WRITE_WINDOWS: readonly PaceWindow[] = [
  { windowMs: 60_000, limit: 80 },
  { windowMs: 60 * 60_000, limit: 500 },
];

export interface WritePacer {
  /** Takes a slot for one write of `key` (an installation): 0 when taken, else the milliseconds until one frees. */
  take(key: string): Promise<number>;
}

/** Waits for a slot: takes one, or sleeps until the window frees one and tries again. Resolves with the time waited. */
export async function paceWrite(
  pacer: WritePacer,
  key: string,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<number> {
  let waited = 0;
  for (;;) {
    const wait = await pacer.take(key);
    if (wait <= 0) return waited;
    waited += wait;
    await sleep(wait);
  }
}

/** How long until the window `windows` leaves room for one more write, given the times of the writes in it (sorted). */
function waitFor(times: readonly number[], now: number, windows: readonly PaceWindow[]): number {
  let wait = 0;
  for (const { windowMs, limit } of windows) {
    const inWindow = times.filter((at) => at > now - windowMs);
    if (inWindow.length < limit) continue;
    // The slot frees when the write `limit` places back from the newest leaves the window.
    const freeing = inWindow[inWindow.length - limit]!;
    wait = Math.max(wait, freeing + windowMs - now);
  }
  return wait > 0 ? Math.max(1, Math.ceil(wait)) : 0;
}

/** One process's pacer. */
export class MemoryWritePacer implements WritePacer {
  readonly #times = new Map<string, number[]>();
  readonly #windows: readonly PaceWindow[];
  readonly #now: () => number;

  constructor(windows: readonly PaceWindow[] = CONTENT_WRITE_WINDOWS, now: () => number = Date.now) {
    this.#windows = windows;
    this.#now = now;
  }

  take(key: string): Promise<number> {
    const now = this.#now();
    const longest = Math.max(...this.#windows.map((window) => window.windowMs));
    const times = (this.#times.get(key) ?? []).filter((at) => at > now - longest);
    const wait = waitFor(times, now, this.#windows);
    if (wait === 0) times.push(now);
    if (times.length > 0) this.#times.set(key, times);
    else this.#times.delete(key);
    return Promise.resolve(wait);
  }
}

/**
 * The sliding window of `waitFor`, in Redis: KEYS[1] the installation's sorted set (score: the write's
 * time in ms on Redis's own clock, so replicas' clocks do not matter); ARGV[1] a unique member; then
 * pairs of window and limit. Returns 0 when the slot was taken, else the wait in ms.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local longest = 0
local wait = 0
for i = 2, #ARGV, 2 do
  local window = tonumber(ARGV[i])
  local limit = tonumber(ARGV[i + 1])
  if window > longest then longest = window end
  local count = redis.call('ZCOUNT', KEYS[1], '(' .. (now - window), '+inf')
  if count >= limit then
    local freeing = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. (now - window), '+inf', 'WITHSCORES', 'LIMIT', count - limit, 1)
    local w = tonumber(freeing[2]) + window - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return math.max(1, math.ceil(wait)) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - longest)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], longest)
return 0
`;

/** The replicas' pacer: one budget per installation for every process on the Redis. */
export class RedisWritePacer implements WritePacer {
  readonly #redis: Redis;
  readonly #windows: readonly PaceWindow[];
  readonly #prefix: string;

  constructor(
    redis: Redis,
    windows: readonly PaceWindow[] = CONTENT_WRITE_WINDOWS,
    prefix = 'skillclimb:pace:',
  ) {
    this.#redis = redis;
    this.#windows = windows;
    this.#prefix = prefix;
  }

  async take(key: string): Promise<number> {
    const args = this.#windows.flatMap((window) => [String(window.windowMs), String(window.limit)]);
    const answer = await this.#redis.eval(TAKE_SCRIPT, 1, `${this.#prefix}${key}`, randomUUID(), ...args);
    return Number(answer);
  }
}

/**
 * The requests that create content, which the secondary limit counts: every write (POST, PATCH, PUT,
 * DELETE) of an installation — comments, reactions, reviews, issues, check runs, blobs, trees, commits,
 * ref moves — and GraphQL mutations; not the App's own routes (`/app/…`, its token requests) nor GraphQL
 * queries, which read.
 */
export function createsContent(method: string, url: string, fields: Record<string, unknown>): boolean {
  const verb = method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD' || verb === 'OPTIONS') return false;
  const path = url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/api\/v3(?=\/)/, '');
  if (/^\/app(\/|$)/.test(path) || /\/access_tokens$/.test(path)) return false;
  if (/^\/graphql$/.test(path))
    return typeof fields.query === 'string' && /^\s*mutation\b/.test(fields.query);
  return true;
}
