/**
 * The concurrent-run lock the pre-flight takes (docs/how-it-works.md § Pre-flight). The CLI and the Action
 * use a lock file at the project root (src/adapters/local/lock.ts); the engine only asks and takes.
 */

/** What the pre-flight finds before it takes the lock; `message` says what was found, for the operator. */
export type LockStatus =
  | { state: 'free' }
  /** Another run holds it: a real run halts. */
  | { state: 'live'; message: string }
  /** It cannot be read and may be mid-write: a real run halts. */
  | { state: 'unreadable'; message: string }
  /** Left by a run that is gone: a real run takes it over. */
  | { state: 'stale'; message: string };

export interface HeldLock {
  path: string;
  /** Idempotent. */
  release(): Promise<void>;
}

export interface RunLock {
  /** Looks without writing or removing anything (the dry run). */
  inspect(): Promise<LockStatus>;
  /** Takes the lock (a stale one is taken over), or rejects with PreflightHalt. */
  acquire(): Promise<HeldLock>;
}
