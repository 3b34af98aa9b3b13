/** A lock written on another host: its PID means nothing here, so its age decides (12 hours). */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PreflightHalt } from '../../../src/core/halt.js';
import {
  FOREIGN_LOCK_STALE_MS,
  LOCK_FILE,
  acquireLock,
  inspectLock,
  type LockRecord,
} from '../../../src/adapters/local/lock.js';
import { createLocalPlanPorts } from '../../../src/adapters/local/ports.js';
import type { HeldLock } from '../../../src/ports/lock.js';
import { runPreflight } from '../../../src/iterate/preflight.js';
import {
  deadPid,
  git,
  iterateOptions,
  makeTempDir,
  recordingLogger,
  removeTempDirs,
} from '../../helpers/skill-project.js';
import { messageOf } from '../../../src/core/errors.js';

afterEach(removeTempDirs);

const HOUR = 3_600_000;

async function lockWith(content: object): Promise<string> {
  const project = await makeTempDir();
  const file = path.join(project, LOCK_FILE);
  await writeFile(file, JSON.stringify(content));
  return file;
}

async function acquire(
  file: string,
): Promise<{ log: ReturnType<typeof recordingLogger>; lock?: HeldLock; error?: unknown }> {
  const log = recordingLogger();
  try {
    return { log, lock: await acquireLock(file, { log, now: () => new Date() }) };
  } catch (error) {
    return { log, error };
  }
}

describe('a lock from another host', () => {
  it('a committed {"pid":1,"host":"other"} (pid 1 is alive here) is taken over with a warning naming the host', async () => {
    const file = await lockWith({ pid: 1, host: 'other' });
    const { log, lock, error } = await acquire(file);
    expect(error).toBeUndefined();
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(/^stale lock from PID 1 on another host \(other\) at .*; taking over$/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    await lock?.release();
  });

  it('older than 12 hours is stale even though its PID is alive here', async () => {
    const started = new Date(Date.now() - 13 * HOUR).toISOString();
    const file = await lockWith({ pid: 1, started_at: started, host: 'ci-runner-7' });
    const { log, lock } = await acquire(file);
    expect(lock).toBeDefined();
    expect(log.warnings).toEqual([
      `stale lock from PID 1 on another host (ci-runner-7) at ${started}, over 12 hours ago or at an unusable time; taking over`,
    ]);
    await lock?.release();
  });

  it('younger than 12 hours halts naming host, PID and start time, even when that PID is dead here', async () => {
    const pid = await deadPid();
    const started = new Date(Date.now() - 2 * HOUR).toISOString();
    const content = JSON.stringify({ pid, started_at: started, host: 'ci-runner-7' });
    const project = await makeTempDir();
    const file = path.join(project, LOCK_FILE);
    await writeFile(file, content);
    const { error } = await acquire(file);
    expect(error).toBeInstanceOf(PreflightHalt);
    const message = messageOf(error);
    expect(message).toContain(`PID ${pid} on ci-runner-7`);
    expect(message).toContain(`started at ${started}`);
    expect(message).toContain('another host');
    expect(await readFile(file, 'utf8')).toBe(content);
  });

  it('a start time far in the future cannot hold the lock for years', async () => {
    const file = await lockWith({ pid: 1, started_at: '2099-01-01T00:00:00Z', host: 'other' });
    expect(await inspectLock(file)).toMatchObject({ state: 'stale', foreignHost: true });
  });

  it('the 12-hour boundary is measured from started_at', async () => {
    const record: LockRecord = { pid: 1, started_at: '2026-05-24T00:00:00Z', host: 'other' };
    const file = await lockWith(record);
    const started = Date.parse(record.started_at);
    expect(await inspectLock(file, started + FOREIGN_LOCK_STALE_MS - 1)).toEqual({ state: 'live', record });
    expect(await inspectLock(file, started + FOREIGN_LOCK_STALE_MS)).toEqual({
      state: 'stale',
      record,
      foreignHost: true,
    });
  });

  it('on this host the PID still decides, whatever the age', async () => {
    const file = await lockWith({ pid: 1, started_at: '2020-01-01T00:00:00Z', host: os.hostname() });
    expect((await inspectLock(file)).state).toBe('live');
    const { error } = await acquire(file);
    expect(error).toBeInstanceOf(PreflightHalt);
  });

  it('a dry run reports an expired foreign lock as one a real run would take over, and leaves it', async () => {
    const content = JSON.stringify({ pid: 1, host: 'other' });
    const project = await makeTempDir();
    // A project is a git repository (the pre-flight halts outside one).
    await git(project, 'init', '-q');
    await writeFile(path.join(project, LOCK_FILE), content);
    const log = recordingLogger();
    await runPreflight(iterateOptions(project), createLocalPlanPorts(project, { log }), false);
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /^stale lock from PID 1 on another host \(other\) .*; a real run would take over$/,
      ),
    ]);
    expect(await readFile(path.join(project, LOCK_FILE), 'utf8')).toBe(content);
  });
});
