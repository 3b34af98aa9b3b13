/**
 * The seed's concurrent-run lock: `<project>/.skill-iterate.lock` holding `{"pid","started_at","host"}`,
 * created with an atomic exclusive create (never check-then-write), taken over when its PID is dead, and
 * released on every exit path this process can see (release(), process exit, SIGINT, SIGTERM).
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import os from 'node:os';
import { PreflightHalt } from './halt.js';
import type { Logger } from './ports.js';
import type { Lock } from './preflight.js';

export const LOCK_FILE = '.skill-iterate.lock';

export interface LockRecord {
  pid: number;
  started_at: string;
  host: string;
}

export type LockInspection =
  | { state: 'absent' }
  | { state: 'live'; record: LockRecord }
  | { state: 'stale'; record: LockRecord }
  | { state: 'unreadable'; detail: string };

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

export async function inspectLock(file: string): Promise<LockInspection> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    throw err;
  }
  const record = parseLockRecord(text);
  if (typeof record === 'string') return { state: 'unreadable', detail: record };
  return { state: isPidAlive(record.pid) ? 'live' : 'stale', record };
}

export function liveLockMessage(file: string, record: LockRecord): string {
  return `another skill-iterate run holds the lock: PID ${record.pid} on ${record.host}, started at ${record.started_at} (${file})`;
}

export function unreadableLockMessage(file: string, detail: string): string {
  return `lock file ${file} is unreadable (${detail}); another run may be starting. If no run is active, remove the file`;
}

export function staleLockWarning(record: LockRecord): string {
  return `stale lock from PID ${record.pid} at ${record.started_at}; taking over`;
}

/** Atomic exclusive create; resolves false when the file already exists. */
async function createExclusive(file: string, record: LockRecord): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(`${JSON.stringify(record)}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  return true;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Removes the lock file only while it still holds `record` (never a lock someone else wrote meanwhile). The
 * read-compare-unlink is synchronous so no other acquisition in this process can interleave with it.
 */
function unlinkIfRecord(file: string, record: LockRecord): void {
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

function holdLock(file: string, record: LockRecord): Lock {
  let released = false;
  const releaseSync = (): void => {
    if (released) return;
    released = true;
    process.removeListener('exit', onExit);
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    unlinkIfRecord(file, record);
  };
  const onExit = (): void => {
    try {
      releaseSync();
    } catch {
      // The process is going away; a lock we could not remove is taken over as stale next time.
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    onExit();
    // Our listener suppressed the default action. When nobody else handles the signal, re-raise it so the
    // process dies the way the sender asked (exit status 128+signo); otherwise the other handler decides.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
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
export async function acquireLock(file: string, deps: { log: Logger; now: () => Date }): Promise<Lock> {
  const record: LockRecord = { pid: process.pid, started_at: deps.now().toISOString(), host: os.hostname() };
  if (await createExclusive(file, record)) return holdLock(file, record);

  const found = await inspectLock(file);
  if (found.state === 'live') throw new PreflightHalt(liveLockMessage(file, found.record));
  if (found.state === 'unreadable') throw new PreflightHalt(unreadableLockMessage(file, found.detail));
  if (found.state === 'stale') {
    deps.log.warn(staleLockWarning(found.record));
    unlinkIfRecord(file, found.record);
  }
  if (await createExclusive(file, record)) return holdLock(file, record);
  throw new PreflightHalt(
    `another run created ${file} while the stale lock was being replaced; halting rather than overwriting it`,
  );
}
