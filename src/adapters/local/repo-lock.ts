/**
 * The repository lock (docs/how-it-works.md § Shipping): `<git common dir>/skillclimb/repo.lock`, one per
 * repository however many projects (folders with their own `.skill-iterate.lock`) it holds and however many
 * worktrees it has. Every git command of a run that touches the checkout's index — the clean-base check, the
 * squash landing, the cleanup of an interrupted ship — runs while this lock is held; everything else runs in
 * the run's own worktree. It is held for seconds, so a second run waits for it instead of halting.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { abortableSleep } from '../../core/abortable.js';
import type { HeldLock } from '../../ports/lock.js';
import type { Logger } from '../../ports/logger.js';
import {
  abandonedLockWarning,
  createExclusive,
  holdLock,
  inspectLock,
  liveLockMessage,
  staleLockWarning,
  unlinkIfAbandoned,
  unlinkIfRecord,
  type LockRecord,
} from './lock.js';
import { SkillclimbError } from '../../core/errors.js';

/** The folder of the repository's skillclimb state, inside the git common dir. */
export const REPO_STATE_DIR = 'skillclimb';
export const REPO_LOCK_FILE = 'repo.lock';
/** How long a run waits for another run's landing before it gives up on its own ship. */
export const REPO_LOCK_WAIT_MS = 2 * 60 * 1000;
/** A repository lock is written in one step; unparseable for this long, it is a crash's leftover. */
const REPO_LOCK_UNREADABLE_STALE_MS = 30 * 1000;
const POLL_MS = 50;

/** `<common dir>/skillclimb`. */
export function repoStateDir(commonDir: string): string {
  return path.join(commonDir, REPO_STATE_DIR);
}

/** Another run held the repository lock for longer than the wait allows. */
export class RepoBusyError extends SkillclimbError {
  readonly kind = 'git';
  constructor(message: string) {
    super(message);
    this.name = 'RepoBusyError';
  }
}

export interface RepoLockDeps {
  log: Pick<Logger, 'warn'>;
  /** Default REPO_LOCK_WAIT_MS. */
  waitMs?: number;
}

/**
 * Takes the repository lock, waiting while another live process holds it; a lock whose process is gone
 * (a run killed mid-landing) is taken over with a warning. Rejects with RepoBusyError after `waitMs`.
 */
export async function acquireRepoLock(commonDir: string, deps: RepoLockDeps): Promise<HeldLock> {
  const dir = repoStateDir(commonDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, REPO_LOCK_FILE);
  const record: LockRecord = { pid: process.pid, started_at: new Date().toISOString(), host: os.hostname() };
  const deadline = Date.now() + (deps.waitMs ?? REPO_LOCK_WAIT_MS);
  const never = new AbortController().signal;
  for (;;) {
    if (await createExclusive(file, record)) return holdLock(file, record);
    const found = await inspectLock(file, Date.now(), REPO_LOCK_UNREADABLE_STALE_MS);
    if (found.state === 'stale') {
      deps.log.warn(`repository lock ${file}: ${staleLockWarning(found.record, found.foreignHost === true)}`);
      unlinkIfRecord(file, found.record);
      continue;
    }
    if (found.state === 'abandoned') {
      deps.log.warn(abandonedLockWarning(file, found.detail, found.mtime));
      unlinkIfAbandoned(file, found.mtime);
      continue;
    }
    if (found.state === 'absent') continue;
    if (Date.now() >= deadline) {
      const holder =
        found.state === 'live' ? liveLockMessage(file, found.record) : `${file} is being written`;
      throw new RepoBusyError(
        `repository busy for over ${Math.round((deps.waitMs ?? REPO_LOCK_WAIT_MS) / 1000)} s: ${holder}`,
      );
    }
    await abortableSleep(POLL_MS, never);
  }
}

/** Runs `work` while holding the repository lock; the lock goes whether `work` resolves or throws. */
export async function withRepoLock<T>(
  commonDir: string,
  deps: RepoLockDeps,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await acquireRepoLock(commonDir, deps);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
