import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPlanPorts } from '../../src/adapters/local/ports.js';
import { PreflightHalt } from '../../src/core/halt.js';
import { isValidSkillName } from '../../src/core/iterate/skill-layout.js';
import { EMBEDDED_SKIP_LIST, mergeSkipList } from '../../src/core/iterate/skip-list.js';
import { runPreflight, type PreflightResult } from '../../src/iterate/preflight.js';
import type { HeldLock } from '../../src/ports/lock.js';
import { LOCK_FILE, acquireLock } from '../../src/adapters/local/lock.js';
import type { KillSwitch } from '../../src/ports/kill-switch.js';
import { parseQueueFile } from '../../src/iterate/queue-file.js';
import { exists } from '../helpers/files.js';
import {
  addSkill,
  addSkillAt,
  deadPid,
  git,
  initRepo,
  iterateOptions,
  makeTempDir,
  recordingLogger,
  removeTempDirs,
} from '../helpers/skill-project.js';

const NOW = new Date('2026-05-24T08:00:00.000Z');
const held: PreflightResult[] = [];

async function preflight(
  project: string,
  overrides: Parameters<typeof iterateOptions>[1] = {},
  takeLock = true,
  extra: { killSwitch?: KillSwitch } = {},
) {
  const log = recordingLogger();
  const result = await runPreflight(
    iterateOptions(project, overrides),
    { ...createLocalPlanPorts(project, { log, now: () => NOW }), ...extra },
    takeLock,
  );
  held.push(result);
  return { result, log };
}

/** Resolves the PreflightHalt message (fails the test when preflight does not halt). */
async function haltMessage(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PreflightHalt);
  return (err as PreflightHalt).message;
}

/** A project folder: a fresh git repository (the pre-flight halts outside one). */
async function makeProject(): Promise<string> {
  const project = await makeTempDir();
  await git(project, 'init', '-q');
  return project;
}

afterEach(async () => {
  await Promise.all(held.splice(0).map(async (r) => r.lock?.release()));
  await removeTempDirs();
});

describe('mergeSkipList', () => {
  it('keeps all seven embedded entries and adds the extension with its source', () => {
    const list = mergeSkipList(['skill-evolve', ' verify ', '']);
    expect([...list.all].sort()).toEqual([...EMBEDDED_SKIP_LIST, 'skill-evolve'].sort());
    expect(list.sourceOf('verify')).toBe('embedded');
    expect(list.sourceOf('claude-oauth-auth')).toBe('embedded');
    expect(list.sourceOf('skill-evolve')).toBe('--skip-list extension');
    expect(list.sourceOf('session-wrap')).toBeUndefined();
  });
});

describe('parseQueueFile', () => {
  it('strips whitespace, skips blanks and whole-line comments, and cuts inline comments at the first #', () => {
    const text =
      '  # tonight\n\nsession-wrap # known winner overnight\r\n\t user-debug  \n   #indented comment\nrelease-notes#a#b\n';
    expect(parseQueueFile(text)).toEqual([
      { name: 'session-wrap', line: 3 },
      { name: 'user-debug', line: 4 },
      { name: 'release-notes', line: 6 },
    ]);
  });

  it('accepts folder-like names only', () => {
    expect(isValidSkillName('session-wrap')).toBe(true);
    expect(isValidSkillName('v2.skill_x')).toBe(true);
    expect(isValidSkillName('../etc')).toBe(false);
    expect(isValidSkillName('a/b')).toBe(false);
    expect(isValidSkillName('two words')).toBe(false);
    expect(isValidSkillName('.hidden')).toBe(false);
  });
});

describe('runPreflight halts', () => {
  it('halts on the kill-switch file with the seed message and takes no lock', async () => {
    const project = await makeProject();
    await writeFile(path.join(project, '.skill-iterate-killswitch'), '');
    const message = await haltMessage(preflight(project));
    expect(message).toBe(
      `kill-switch is set at ${path.join(project, '.skill-iterate-killswitch')}; remove the file to proceed`,
    );
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('halts on the kill-switch in a dry run too (a nightly run would halt)', async () => {
    const project = await makeProject();
    await writeFile(path.join(project, '.skill-iterate-killswitch'), 'stop');
    expect(await haltMessage(preflight(project, {}, false))).toMatch(/^kill-switch is set at /);
  });

  it('uses an injected kill-switch port when given', async () => {
    const project = await makeProject();
    const killSwitch: KillSwitch = {
      check: async () => 'repository variable SKILL_ITERATE_KILLSWITCH is set',
    };
    expect(await haltMessage(preflight(project, {}, true, { killSwitch }))).toBe(
      'repository variable SKILL_ITERATE_KILLSWITCH is set',
    );
  });

  it('halts on a live lock, naming its PID and start time, and leaves the file untouched', async () => {
    const project = await makeProject();
    const lockFile = path.join(project, LOCK_FILE);
    const content = JSON.stringify({
      pid: process.pid,
      started_at: '2026-05-23T22:00:00Z',
      host: os.hostname(),
    });
    await writeFile(lockFile, content);
    const message = await haltMessage(preflight(project));
    expect(message).toContain(`PID ${process.pid}`);
    expect(message).toContain('started at 2026-05-23T22:00:00Z');
    expect(await readFile(lockFile, 'utf8')).toBe(content);
  });

  it('a dry run only warns about a live lock and does not touch it', async () => {
    const project = await makeProject();
    const lockFile = path.join(project, LOCK_FILE);
    const content = JSON.stringify({
      pid: process.pid,
      started_at: '2026-05-23T22:00:00Z',
      host: os.hostname(),
    });
    await writeFile(lockFile, content);
    const { result, log } = await preflight(project, {}, false);
    expect(result.lock).toBeUndefined();
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toContain(`PID ${process.pid}`);
    expect(log.warnings[0]).toContain('a real run would halt');
    expect(await readFile(lockFile, 'utf8')).toBe(content);
  });

  it('halts when the lock file is not readable JSON rather than guessing', async () => {
    const project = await makeProject();
    await writeFile(path.join(project, LOCK_FILE), '');
    expect(await haltMessage(preflight(project))).toContain('is unreadable (empty file)');
  });

  it('a fresh unreadable lock still halts: another run may be writing it', async () => {
    const project = await makeProject();
    const lockFile = path.join(project, LOCK_FILE);
    await writeFile(lockFile, '{"pid": 12');
    const recent = new Date(Date.now() - 9 * 60_000);
    await utimes(lockFile, recent, recent);
    expect(await haltMessage(preflight(project))).toContain('is unreadable (not valid JSON)');
    expect(await readFile(lockFile, 'utf8')).toBe('{"pid": 12');
  });

  it('halts when the --skill folder is missing', async () => {
    const project = await makeProject();
    const message = await haltMessage(preflight(project, { skill: 'ghost' }));
    expect(message).toBe(
      'skill folder missing for ghost: no folder named ghost matches the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
  });

  it('halts with the seed message when evals.json is missing', async () => {
    const project = await makeProject();
    await addSkill(project, 'half', { evals: false });
    expect(await haltMessage(preflight(project, { skill: 'half' }))).toBe(
      'evals not bootstrapped for half; run `skillclimb evals init half` first (or score structure only: `skillclimb iterate --skill half --mode structural`)',
    );
  });

  it('halts with the seed message when test_scenarios.json is missing', async () => {
    const project = await makeProject();
    await addSkill(project, 'half', { scenarios: false });
    expect(await haltMessage(preflight(project, { skill: 'half' }))).toBe(
      'evals not bootstrapped for half; run `skillclimb evals init half` first (or score structure only: `skillclimb iterate --skill half --mode structural`)',
    );
  });

  it('halts on an explicit --skill that is in the embedded skip-list', async () => {
    const project = await makeProject();
    await addSkill(project, 'verify');
    expect(await haltMessage(preflight(project, { skill: 'verify' }))).toBe(
      'explicit-bypass: verify is in the skip-list; remove --skill flag or extend skip-list semantics to proceed',
    );
  });

  it('halts on an explicit --skill that is in the --skip-list extension, and takes no lock', async () => {
    const project = await makeProject();
    await addSkill(project, 'skill-evolve');
    const message = await haltMessage(
      preflight(project, { skill: 'skill-evolve', skipList: ['skill-evolve'] }),
    );
    expect(message).toBe(
      'explicit-bypass: skill-evolve is in the skip-list; remove --skill flag or extend skip-list semantics to proceed',
    );
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('halts on malformed evals.json naming the file and the JSON path', async () => {
    const project = await makeProject();
    const evals = JSON.stringify({
      categories: [
        { name: 'A', evals: [{ id: 1, statement: 'ok' }] },
        { name: 'B', evals: [{ id: 'two', statement: 'bad id' }] },
      ],
    });
    await addSkill(project, 'broken', { evals });
    expect(await haltMessage(preflight(project, { skill: 'broken' }))).toBe(
      '.claude/skills/broken/evals/evals.json: categories[1].evals[0].id: expected integer',
    );
  });

  it('halts on test_scenarios.json naming an unknown assertion id', async () => {
    const project = await makeProject();
    const scenarios = JSON.stringify({
      scenarios: [{ id: 's1', context: 'c', expected_assertions: [1, 9] }],
    });
    await addSkill(project, 'drift', { scenarios });
    expect(await haltMessage(preflight(project, { skill: 'drift' }))).toBe(
      '.claude/skills/drift/evals/test_scenarios.json: scenarios[0].expected_assertions[1]: unknown assertion id 9 (not in evals.json)',
    );
  });

  it('halts on the FIRST bad queue line, naming the file and the line', async () => {
    const project = await makeProject();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'user-debug');
    const queueFile = path.join(project, 'tonight.queue');
    await writeFile(
      queueFile,
      '# curated\nsession-wrap   # known winner overnight\n\nsesion-wrap\nuser-debug\nanother-typo\n',
    );
    const message = await haltMessage(preflight(project, { queueFile }));
    expect(message).toBe(
      `queue file ${queueFile} line 4: skill folder missing for sesion-wrap: no folder named sesion-wrap ` +
        'matches the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
    expect(message).not.toContain('another-typo');
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('halts on a queue line naming a skip-listed skill', async () => {
    const project = await makeProject();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'schedule');
    const queueFile = path.join(project, 'q.txt');
    await writeFile(queueFile, 'session-wrap\nschedule # oops\n');
    expect(await haltMessage(preflight(project, { queueFile }))).toBe(
      `queue file ${queueFile} line 2: explicit-bypass: schedule is in the skip-list; remove --skill flag or extend skip-list semantics to proceed`,
    );
  });

  it('halts on a missing queue file and on an invalid skill name', async () => {
    const project = await makeProject();
    const queueFile = path.join(project, 'missing.queue');
    expect(await haltMessage(preflight(project, { queueFile }))).toBe(`queue file not found: ${queueFile}`);
    expect(await haltMessage(preflight(project, { skill: '../outside' }))).toMatch(
      /^invalid skill name "\.\.\/outside"/,
    );
  });

  it('halts when the project folder does not exist', async () => {
    const project = path.join(await makeTempDir(), 'nope');
    expect(await haltMessage(preflight(project))).toBe(`project folder not found: ${project}`);
  });
});

describe('runPreflight success', () => {
  it('returns the validated explicit queue in file order, deduplicated, and takes the lock last', async () => {
    const project = await makeProject();
    for (const name of ['session-wrap', 'user-debug', 'release-notes']) await addSkill(project, name);
    const queueFile = path.join(project, 'q.txt');
    await writeFile(queueFile, 'user-debug\nsession-wrap # again below\nrelease-notes\nsession-wrap\n');
    const { result, log } = await preflight(project, { queueFile });
    expect(result.explicit?.map((s) => s.name)).toEqual(['user-debug', 'session-wrap', 'release-notes']);
    expect(log.warnings).toEqual([]);
    const lockFile = path.join(project, LOCK_FILE);
    expect(result.lock?.path).toBe(lockFile);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toEqual({
      pid: process.pid,
      started_at: NOW.toISOString(),
      host: os.hostname(),
    });
  });

  it('returns undefined explicit for auto-discovery and no lock for a dry run', async () => {
    const project = await makeProject();
    const { result } = await preflight(project, {}, false);
    expect(result.explicit).toBeUndefined();
    expect(result.lock).toBeUndefined();
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('refuses a second lock while the first is held (exclusive create), and release is idempotent', async () => {
    const project = await makeProject();
    const { result } = await preflight(project);
    const message = await haltMessage(preflight(project));
    expect(message).toContain(`PID ${process.pid}`);
    await result.lock?.release();
    await result.lock?.release();
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
    const again = await preflight(project);
    expect(again.result.lock).toBeDefined();
    expect(again.result.lock?.path).toBe(path.join(project, LOCK_FILE));
    expect(JSON.parse(await readFile(path.join(project, LOCK_FILE), 'utf8'))).toEqual({
      pid: process.pid,
      started_at: NOW.toISOString(),
      host: os.hostname(),
    });
  });

  it('takes over a stale lock from a dead PID with the seed warning, exactly once', async () => {
    const project = await makeProject();
    const pid = await deadPid();
    const lockFile = path.join(project, LOCK_FILE);
    await writeFile(
      lockFile,
      JSON.stringify({ pid, started_at: '2026-05-22T23:00:00Z', host: os.hostname() }),
    );
    const { result, log } = await preflight(project);
    expect(log.warnings).toEqual([`stale lock from PID ${pid} at 2026-05-22T23:00:00Z; taking over`]);
    expect(JSON.parse(await readFile(lockFile, 'utf8')).pid).toBe(process.pid);
    await result.lock?.release();
    expect(await exists(lockFile)).toBe(false);
  });

  it('a dry run reports a stale lock without removing it', async () => {
    const project = await makeProject();
    const pid = await deadPid();
    const lockFile = path.join(project, LOCK_FILE);
    const content = JSON.stringify({ pid, started_at: '2026-05-22T23:00:00Z', host: os.hostname() });
    await writeFile(lockFile, content);
    const { log } = await preflight(project, {}, false);
    expect(log.warnings).toEqual([
      `stale lock from PID ${pid} at 2026-05-22T23:00:00Z; a real run would take over`,
    ]);
    expect(await readFile(lockFile, 'utf8')).toBe(content);
  });

  it('release leaves a lock alone that is no longer ours', async () => {
    const project = await makeProject();
    const { result } = await preflight(project);
    const lockFile = path.join(project, LOCK_FILE);
    const other = JSON.stringify({ pid: process.pid, started_at: '2030-01-01T00:00:00Z', host: 'x' });
    await writeFile(lockFile, other);
    await result.lock?.release();
    expect(await readFile(lockFile, 'utf8')).toBe(other);
  });

  it('warns about orphaned worktree_skill-iterate-* worktrees from git worktree list and never removes them', async () => {
    const project = await makeProject();
    await initRepo(project);
    const home = await makeTempDir('skillclimb-home-');
    const orphan = path.join(home, 'worktree_skill-iterate-session-wrap-1716502504');
    const unrelated = path.join(home, 'feature-work');
    await git(project, 'worktree', 'add', '-q', '-b', 'skill-iterate/session-wrap-1716502504', orphan);
    await git(project, 'worktree', 'add', '-q', '-b', 'feature', unrelated);
    const { log } = await preflight(project);
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(
      new RegExp(`^orphaned worktrees from prior crash: ${orphan}; consider cleanup`),
    );
    expect(log.warnings[0]).not.toContain('feature-work');
    expect(await exists(orphan)).toBe(true);
    expect(await git(project, 'worktree', 'list', '--porcelain')).toContain(`worktree ${orphan}`);
  });

  it('halts outside a git repository, dry run and real run alike, before writing anything', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    for (const takeLock of [false, true]) {
      const message = await haltMessage(preflight(project, {}, takeLock));
      expect(message).toBe(
        `${project} is not inside a git repository: skill-iterate works in git worktrees and commits its ` +
          'edits; run `git init` there and commit the skills first',
      );
    }
    expect((await readdir(project)).sort()).toEqual(['.claude']);
  });
});

describe('stale lock and later halts', () => {
  it('does not announce a takeover when a later check halts, and leaves the stale lock in place', async () => {
    const project = await makeProject();
    const pid = await deadPid();
    const lockFile = path.join(project, LOCK_FILE);
    const content = JSON.stringify({ pid, started_at: '2026-05-22T23:00:00Z', host: os.hostname() });
    await writeFile(lockFile, content);
    const log = recordingLogger();
    const err = await runPreflight(
      iterateOptions(project, { skill: 'ghost' }),
      createLocalPlanPorts(project, { log, now: () => NOW }),
      true,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PreflightHalt);
    expect(log.warnings).toEqual([]);
    expect(await readFile(lockFile, 'utf8')).toBe(content);
  });
});

describe('stale lock takeover races', () => {
  it('of several concurrent takeovers exactly one gets the lock; the others halt instead of overwriting', async () => {
    const project = await makeProject();
    const pid = await deadPid();
    const lockFile = path.join(project, LOCK_FILE);
    await writeFile(
      lockFile,
      JSON.stringify({ pid, started_at: '2026-05-22T23:00:00Z', host: os.hostname() }),
    );
    const log = recordingLogger();
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        acquireLock(lockFile, { log, now: () => new Date(NOW.getTime() + i) }),
      ),
    );
    const winners = attempts.filter((a) => a.status === 'fulfilled');
    const losers = attempts.filter((a) => a.status === 'rejected');
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(4);
    for (const loser of losers) expect(loser.reason).toBeInstanceOf(PreflightHalt);
    const holder = JSON.parse(await readFile(lockFile, 'utf8')) as { pid: number; started_at: string };
    expect(holder.pid).toBe(process.pid);
    const lock = (winners[0] as PromiseFulfilledResult<HeldLock>).value;
    await lock.release();
    expect(await exists(lockFile)).toBe(false);
  });
});

describe('abandoned lock', () => {
  it('an empty lock untouched for over 10 minutes is taken over with a warning, like a dead PID', async () => {
    const project = await makeProject();
    const lockFile = path.join(project, LOCK_FILE);
    await writeFile(lockFile, '');
    const old = new Date(Date.now() - 11 * 60_000);
    await utimes(lockFile, old, old);

    const dry = await preflight(project, {}, false);
    expect(dry.log.warnings).toEqual([
      expect.stringMatching(
        /is unreadable \(empty file\) and untouched since .*; a real run would take over$/,
      ),
    ]);
    expect(await readFile(lockFile, 'utf8')).toBe('');

    const { result, log } = await preflight(project);
    expect(result.lock?.path).toBe(lockFile);
    expect(log.warnings).toEqual([
      `lock file ${lockFile} is unreadable (empty file) and untouched since ${old.toISOString()}, ` +
        'over 10 minutes ago: treating it as left by a crashed run; taking over',
    ]);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
  });
});

describe('skills the setting finds', () => {
  it('are found the same way on a dry run and a real run; an invalid name is excluded, the others stay', async () => {
    const project = await makeProject();
    await addSkill(project, 'foo bar');
    await addSkill(project, 'session-wrap');
    for (const takeLock of [false, true]) {
      const { result } = await preflight(project, {}, takeLock);
      await result.lock?.release();
      expect(result.found.skills).toEqual([{ name: 'session-wrap', dir: '.claude/skills/session-wrap' }]);
      expect(result.found.excluded.map((e) => [e.skill, e.reason.split(' (')[0]])).toEqual([
        ['foo bar', 'not a branch-safe name'],
      ]);
    }
  });

  it('an explicit --skill outside the setting halts naming where it is and the setting to use', async () => {
    const project = await makeProject();
    await addSkillAt(project, 'skills/alpha');
    expect(await haltMessage(preflight(project, { skill: 'alpha' }))).toBe(
      'skill folder missing for alpha: it is at skills/alpha, outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer); ' +
        'set "skills": [".claude/skills/*",".github/skills/review-loop-reviewer","skills/*"] in skillclimb.config.json, or pass ' +
        "--skills '.claude/skills/*,.github/skills/review-loop-reviewer,skills/*' " +
        "(`skillclimb iterate --skill alpha --skills '.claude/skills/*,.github/skills/review-loop-reviewer,skills/*'`)",
    );
    const { result, log } = await preflight(project, { skill: 'alpha', skills: ['skills/*'] });
    expect(result.explicit).toEqual([{ name: 'alpha', dir: 'skills/alpha' }]);
    expect(log.warnings).toEqual([]);
  });

  it('leaves the hint about skills outside the setting to the plan (printed once)', async () => {
    const project = await makeProject();
    await addSkillAt(project, 'skills/alpha');
    const { log } = await preflight(project, {}, false);
    // Once, by what reports the queue (the plan), not by the pre-flight as well.
    expect(log.warnings).toEqual([]);
  });

  it('an explicit --skill without evals runs in structural mode', async () => {
    const project = await makeProject();
    await addSkill(project, 'bare', { evals: false, scenarios: false });
    const { result } = await preflight(project, { skill: 'bare', mode: 'structural' }, false);
    expect(result.explicit).toEqual([{ name: 'bare', dir: '.claude/skills/bare' }]);
  });
});
