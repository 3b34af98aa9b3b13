/**
 * The concurrent-run lock file (docs/how-it-works.md § Pre-flight): `<project>/.skill-iterate.lock` holding
 * `{"pid","started_at","host"}`,
 * created with an atomic exclusive create (never check-then-write) and flushed to disk before it counts,
 * taken over when its PID is dead (a lock from another host: when over 12 hours old) (or when it is unreadable and has not been touched for 10 minutes), and
 * released by release() and on the process's exit. SIGINT and SIGTERM are the front-ends' (the CLI's
 * graceful stop, the Action's src/action/interrupt.ts): both end in release() or an exit.
 */
import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PreflightHalt } from '../../core/halt.js';
import type { HeldLock, LockStatus, RunLock } from '../../ports/lock.js';
import type { Logger } from '../../ports/logger.js';

export const LOCK_FILE = '.skill-iterate.lock';

/**
 * An unreadable lock (empty, torn, not JSON) younger than this may be another run mid-write: halt. Older,
 * it is what a crash between create and write left behind (a power cut before the data reached the disk):
 * without this rule it would halt every later night.
 */
export const UNREADABLE_LOCK_STALE_MS = 10 * 60 * 1000;

/**
 * A PID only means something on the host that wrote it: a lock from another machine (a committed
 * `.skill-iterate.lock`, a shared folder) is judged by its age instead. Older than this, no run is still
 * going (a run is capped far below it), so it is taken over; without this rule it would halt every night.
 */
export const FOREIGN_LOCK_STALE_MS = 12 * 60 * 60 * 1000;

export interface LockRecord {
  pid: number;
  started_at: string;
  host: string;
}

export type LockInspection =
  | { state: 'absent' }
  | { state: 'live'; record: LockRecord }
  /** `foreignHost`: written on another host over FOREIGN_LOCK_STALE_MS ago (its PID was not checked). */
  | { state: 'stale'; record: LockRecord; foreignHost?: boolean }
  /** Unparseable and recently written: another run may be writing it. */
  | { state: 'unreadable'; detail: string; mtime: Date }
  /** Unparseable and untouched for UNREADABLE_LOCK_STALE_MS: taken over like a dead PID's lock. */
  | { state: 'abandoned'; detail: string; mtime: Date };

/** `kill -0`: EPERM means the process exists but belongs to someone else, so it is alive. */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseLockRecord(text: string): LockRecord | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return text.trim() ? 'not valid JSON' : 'empty file';
  }
  const r = raw as Partial<LockRecord> | null;
  if (!r || typeof r !== 'object' || !Number.isInteger(r.pid) || (r.pid as number) <= 0) {
    return 'no positive integer "pid"';
  }
  return {
    pid: r.pid as number,
    started_at: typeof r.started_at === 'string' ? r.started_at : 'an unknown time',
    host: typeof r.host === 'string' ? r.host : 'an unknown host',
  };
}

/**
 * `nowMs` is wall-clock time (file mtimes are), not the run's injectable clock. `unreadableStaleMs`: how long
 * an unparseable lock may be another process mid-write (the repository lock, held for seconds, waits less).
 */
export async function inspectLock(
  file: string,
  nowMs: number = Date.now(),
  unreadableStaleMs: number = UNREADABLE_LOCK_STALE_MS,
): Promise<LockInspection> {
  let text: string;
  let mtime: Date;
  try {
    // stat first: a lock rewritten between the two calls then looks younger, never older, than it is.
    const info = await stat(file);
    mtime = info.mtime;
    // A FIFO would block the read forever (and SIGTERM with it), a directory would throw EISDIR: anything
    // but a file is a lock nobody can read, and never one to take over (docs/how-it-works.md § Pre-flight).
    if (!info.isFile()) {
      return { state: 'unreadable', detail: 'not a regular file: remove it by hand', mtime };
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    throw err;
  }
  const record = parseLockRecord(text);
  if (typeof record === 'string') {
    const abandoned = nowMs - mtime.getTime() >= unreadableStaleMs;
    return { state: abandoned ? 'abandoned' : 'unreadable', detail: record, mtime };
  }
  if (record.host === os.hostname()) return { state: isPidAlive(record.pid) ? 'live' : 'stale', record };
  return isForeignLockExpired(record, nowMs)
    ? { state: 'stale', record, foreignHost: true }
    : { state: 'live', record };
}

/**
 * A start time that does not parse cannot be waited out, and one far in the future (a hand-written or
 * committed lock) would halt for years: neither is a lock this tool wrote on a running host, so both count
 * as expired. A small clock skew between hosts stays within the window either way.
 */
export function isForeignLockExpired(record: LockRecord, nowMs: number): boolean {
  const started = Date.parse(record.started_at);
  if (Number.isNaN(started)) return true;
  return Math.abs(nowMs - started) >= FOREIGN_LOCK_STALE_MS;
}

export function liveLockMessage(file: string, record: LockRecord): string {
  const message = `another skill-iterate run holds the lock: PID ${record.pid} on ${record.host}, started at ${record.started_at} (${file})`;
  if (record.host === os.hostname()) return message;
  return (
    `${message}; it was written on another host, so its PID cannot be checked from here: it is taken over ` +
    `once ${FOREIGN_LOCK_STALE_MS / 3_600_000} hours old, or remove the file if no run is active`
  );
}

export function unreadableLockMessage(file: string, detail: string): string {
  return (
    `lock file ${file} is unreadable (${detail}); another run may be starting. If no run is active, remove ` +
    `the file (a run takes it over once it is ${UNREADABLE_LOCK_STALE_MS / 60_000} minutes old)`
  );
}

export function staleLockWarning(record: LockRecord, foreignHost = false): string {
  if (foreignHost) return `${foreignStaleLockText(record)}; taking over`;
  return `stale lock from PID ${record.pid} at ${record.started_at}; taking over`;
}

/** The stale-lock text for a lock from another host (its PID cannot be checked from here). */
export function foreignStaleLockText(record: LockRecord): string {
  return (
    `stale lock from PID ${record.pid} on another host (${record.host}) at ${record.started_at}, over ` +
    `${FOREIGN_LOCK_STALE_MS / 3_600_000} hours ago or at an unusable time`
  );
}

export function abandonedLockWarning(file: string, detail: string, mtime: Date): string {
  return (
    `lock file ${file} is unreadable (${detail}) and untouched since ${mtime.toISOString()}, over ` +
    `${UNREADABLE_LOCK_STALE_MS / 60_000} minutes ago: treating it as left by a crashed run; taking over`
  );
}

/** Atomic exclusive create; resolves false when the file already exists. */
export async function createExclusive(file: string, record: LockRecord): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(`${JSON.stringify(record)}\n`, 'utf8');
    // On disk before anyone relies on it: a crash right after must not leave an empty lock behind.
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Removes the lock file only while it still holds `record` (never a lock someone else wrote meanwhile). The
 * read-compare-unlink is synchronous so no other acquisition in this process can interleave with it.
 */
export function unlinkIfRecord(file: string, record: LockRecord): void {
  try {
    const current = parseLockRecord(readFileSync(file, 'utf8'));
    if (typeof current === 'string') return;
    if (
      current.pid !== record.pid ||
      current.started_at !== record.started_at ||
      current.host !== record.host
    )
      return;
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Removes an abandoned (unreadable) lock only while it is still unreadable and unchanged since inspection. */
export function unlinkIfAbandoned(file: string, mtime: Date): void {
  try {
    if (statSync(file).mtime.getTime() !== mtime.getTime()) return;
    if (typeof parseLockRecord(readFileSync(file, 'utf8')) !== 'string') return;
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * The held lock: release() removes the file, and so does the process's exit (a normal end, an uncaught
 * exception, a front-end's process.exit on a signal). Signals are the front-ends' own business
 * (docs/how-it-works.md § Layers and ports): the CLI turns them into a graceful stop, the Action releases
 * the lock and saves its state before it exits (src/action/interrupt.ts). An adapter never listens.
 */
export function holdLock(file: string, record: LockRecord): HeldLock {
  let released = false;
  const releaseSync = (): void => {
    if (released) return;
    released = true;
    process.removeListener('exit', onExit);
    unlinkIfRecord(file, record);
  };
  const onExit = (): void => {
    try {
      releaseSync();
    } catch {
      // The process is going away; a lock we could not remove is taken over as stale next time.
    }
  };
  process.on('exit', onExit);
  return {
    path: file,
    release: async () => releaseSync(),
  };
}

/**
 * Takes the lock: exclusive create; on EEXIST a live PID halts, a dead one is warned about, unlinked and
 * the exclusive create retried ONCE (a racing third process makes the retry fail, which halts rather than
 * overwriting).
 */
export async function acquireLock(file: string, deps: { log: Logger; now: () => Date }): Promise<HeldLock> {
  const record: LockRecord = { pid: process.pid, started_at: deps.now().toISOString(), host: os.hostname() };
  if (await createExclusive(file, record)) return holdLock(file, record);

  const found = await inspectLock(file);
  if (found.state === 'live') throw new PreflightHalt(liveLockMessage(file, found.record));
  if (found.state === 'unreadable') throw new PreflightHalt(unreadableLockMessage(file, found.detail));
  if (found.state === 'stale') {
    deps.log.warn(staleLockWarning(found.record, found.foreignHost === true));
    unlinkIfRecord(file, found.record);
  }
  if (found.state === 'abandoned') {
    deps.log.warn(abandonedLockWarning(file, found.detail, found.mtime));
    unlinkIfAbandoned(file, found.mtime);
  }
  if (await createExclusive(file, record)) return holdLock(file, record);
  throw new PreflightHalt(
    `another run created ${file} while the stale lock was being replaced; halting rather than overwriting it`,
  );
}

/** What the pre-flight is told about the lock file, worded for the operator. */
export function lockStatusOf(file: string, found: LockInspection): LockStatus {
  switch (found.state) {
    case 'absent':
      return { state: 'free' };
    case 'live':
      return { state: 'live', message: liveLockMessage(file, found.record) };
    case 'unreadable':
      return { state: 'unreadable', message: unreadableLockMessage(file, found.detail) };
    case 'stale':
      return {
        state: 'stale',
        message: found.foreignHost
          ? foreignStaleLockText(found.record)
          : `stale lock from PID ${found.record.pid} at ${found.record.started_at}`,
      };
    case 'abandoned':
      return {
        state: 'stale',
        message: abandonedLockWarning(file, found.detail, found.mtime).replace(/; taking over$/, ''),
      };
  }
}

/** The lock port over `<project>/.skill-iterate.lock`. */
export function createFileLock(project: string, deps: { log: Logger; now: () => Date }): RunLock {
  const file = path.join(path.resolve(project), LOCK_FILE);
  return {
    inspect: async () => lockStatusOf(file, await inspectLock(file)),
    acquire: () => acquireLock(file, deps),
  };
}
