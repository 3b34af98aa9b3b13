/**
 * What the App's replicas share (docs/how-it-works.md § The App, "Shared state and takeover"): seen
 * delivery and comment ids, the claim on each PR's loop (an owner token with a TTL, renewed while the loop
 * runs), one-time marks (a user refused once, a PR answered "already running"), small values (a push that
 * waited for a loop, a stop asked of a loop running elsewhere) and a per-PR lock around the sticky
 * comment's read-modify-write. Two implementations, one interface: in this process's memory (no
 * `REDIS_URL`, the default) and in Redis (`REDIS_URL`), so every handler runs the same code in both modes.
 */
import { SkillclimbError } from '../../core/errors.js';

export interface SharedState {
  readonly mode: 'memory' | 'redis';
  /** Sets `name` for `ttlMs` when it is not set; true when it was set before (a redelivery, a second mark). */
  mark(name: string, ttlMs: number): Promise<boolean>;
  unmark(name: string): Promise<void>;
  isMarked(name: string): Promise<boolean>;
  /** A small value under `name` for `ttlMs` (replaced when set again). */
  put(name: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and removes the value under `name`. */
  take(name: string): Promise<string | undefined>;
  /**
   * Claims `key` for `token` for `ttlMs`: true when it was free, had expired, or is already `token`'s (its
   * TTL is then renewed, so the same call renews a claim and lets a re-run job take its own claim back).
   */
  claim(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Removes the claim only when `token` holds it (a claim taken over by another token stays). */
  release(key: string, token: string): Promise<void>;
  isClaimed(key: string): Promise<boolean>;
  /** How many PRs are claimed now, across replicas. */
  claimedCount(): Promise<number>;
  /** Runs `work` while holding `key`'s lock: at most one holder at a time across replicas. */
  withLock<R>(key: string, work: () => Promise<R>): Promise<R>;
  ping(): Promise<{ ok: boolean; detail: string }>;
  close(): Promise<void>;
}

/**
 * The shared store did not answer: the delivery is answered 5xx (GitHub records it as failed, so it can
 * be redelivered) and the message names the store, never its password.
 */
export class SharedStateUnavailable extends SkillclimbError {
  readonly kind = 'store';
  constructor(where: string, detail: string) {
    super(`Redis at ${where} is unreachable (${detail})`);
    this.name = 'SharedStateUnavailable';
  }
}

/** How long each kind of shared entry lives. */
export const TTL = {
  /** A delivery or trigger comment id: GitHub redelivers for 3 days; a day covers retries and replays. */
  seenMs: 24 * 60 * 60 * 1000,
  /** A refused-once user on a PR, a PR told "already running": as long as a loop may run. */
  markMs: 24 * 60 * 60 * 1000,
  /** A push that waited for its PR's loop, a stop asked of a loop on another replica. */
  valueMs: 24 * 60 * 60 * 1000,
} as const;

/** The URL as it may be logged: `redis://user:secret@host:6379/0` → `redis://host:6379/0`. */
export function safeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'the REDIS_URL (not a valid URL)';
  }
}
