/**
 * The CLI's local shipper on real repositories: a moved base, no git identity, conflicts and git failures
 * each reported as what they are (issue 13, item 9), and the landing leaves nothing behind.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_LOCK_FILE, REPO_STATE_DIR } from '../../../src/adapters/local/repo-lock.js';
import { createLocalShipper } from '../../../src/adapters/local/shipper.js';
import { FALLBACK_IDENTITY } from '../../../src/git/client.js';
import { commitFile } from '../../../src/git/commits.js';
import { createWorktree } from '../../../src/git/worktree.js';
import { ZERO_USAGE } from '../../../src/core/usage.js';
import type { Worktree } from '../../../src/ports/git.js';
import type { ShipRequest } from '../../../src/ports/shipper.js';
import { cleanupTempDirs, git, makeProject, SKILL_MD, tempDir } from '../../helpers/engine-fixtures.js';
import { recordingLogger } from '../../helpers/skill-project.js';

const SKILL = '.claude/skills/demo/SKILL.md';

afterEach(cleanupTempDirs);

async function improvedWorktree(): Promise<{ project: string; wt: Worktree }> {
  const project = await makeProject();
  const home = await tempDir('skillclimb-home-');
  const wt = await createWorktree({ project, home, skill: 'demo', epoch: 1700000000 });
  await writeFile(path.join(wt.path, SKILL), `${SKILL_MD}- An added rule.\n`);
  await commitFile(wt.path, SKILL, 'add a rule');
  return { project, wt };
}

function requestFor(project: string, wt: Worktree): ShipRequest {
  return {
    skill: 'demo',
    project,
    skillPath: '.claude/skills/demo',
    worktreePath: wt.path,
    branch: wt.branch,
    baseBranch: wt.baseBranch,
    baseCommit: wt.baseCommit,
    baselineScore: 0.5,
    finalScore: 0.75,
    iterations: 1,
    linesBaseline: 15,
    linesFinal: 16,
    message: 'skill-iterate: demo: baseline 0.50 -> final 0.75 over 1 iterations (lines_delta=+1)',
    keptEdits: [],
    rows: [],
    usage: ZERO_USAGE,
  };
}

/** Runs `work` with no git identity anywhere: no variables, no global or system config. */
async function withoutIdentity<T>(work: () => Promise<T>): Promise<T> {
  const names = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  const home = process.env.HOME;
  const nosystem = process.env.GIT_CONFIG_NOSYSTEM;
  for (const name of names) delete process.env[name];
  process.env.HOME = await tempDir('skillclimb-empty-home-');
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  try {
    return await work();
  } finally {
    for (const name of names) if (saved[name] !== undefined) process.env[name] = saved[name];
    process.env.HOME = home;
    if (nosystem === undefined) delete process.env.GIT_CONFIG_NOSYSTEM;
    else process.env.GIT_CONFIG_NOSYSTEM = nosystem;
  }
}

describe('the local shipper', () => {
  it('ships onto a base that moved, with no git identity: the fallback identity, never "merge-conflict"', async () => {
    const { project, wt } = await improvedWorktree();
    await writeFile(path.join(project, 'README.md'), 'moved on\n');
    git(project, 'add', 'README.md');
    git(project, 'commit', '-q', '-m', 'the base moves on');
    const moved = git(project, 'rev-parse', 'HEAD').trim();
    const log = recordingLogger();

    const outcome = await withoutIdentity(() =>
      createLocalShipper(project, log, { retryDelayMs: 1 }).ship(requestFor(project, wt)),
    );

    expect(outcome, log.warnings.join('\n')).toMatchObject({ status: 'shipped' });
    expect(git(project, 'rev-parse', 'HEAD~1').trim()).toBe(moved);
    expect(git(project, 'log', '-1', '--format=%cn <%ce>').trim()).toBe(
      `${FALLBACK_IDENTITY.name} <${FALLBACK_IDENTITY.email}>`,
    );
    expect(await readFile(path.join(project, SKILL), 'utf8')).toBe(`${SKILL_MD}- An added rule.\n`);
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(existsSync(wt.path)).toBe(false);
    // The repository lock and the landing's temporary files are gone.
    expect(await readdir(path.join(project, '.git', REPO_STATE_DIR))).toEqual([]);
  });

  it('a git failure that is not a conflict is reported as itself, not as "merge-conflict"', async () => {
    const { project, wt } = await improvedWorktree();
    await writeFile(path.join(project, '.gitignore'), 'moved on\n');
    git(project, 'commit', '-q', '-am', 'the base moves on');
    const head = git(project, 'rev-parse', 'HEAD');
    const saved = process.env.GIT_COMMITTER_DATE;
    process.env.GIT_COMMITTER_DATE = 'not a date';
    try {
      await expect(
        createLocalShipper(project, recordingLogger()).ship(requestFor(project, wt)),
      ).rejects.toThrow(/git commit-tree failed in .*(date|Date)/);
    } finally {
      if (saved === undefined) delete process.env.GIT_COMMITTER_DATE;
      else process.env.GIT_COMMITTER_DATE = saved;
    }
    expect(git(project, 'rev-parse', 'HEAD')).toBe(head);
    expect(existsSync(path.join(project, '.git', REPO_STATE_DIR, REPO_LOCK_FILE))).toBe(false);
  });

  it('a real conflict is "merge-conflict", keeps the worktree and leaves the checkout as found', async () => {
    const { project, wt } = await improvedWorktree();
    await writeFile(path.join(project, SKILL), 'rewritten on the base\n');
    git(project, 'commit', '-q', '-am', 'conflicting base edit');
    const head = git(project, 'rev-parse', 'HEAD');
    const log = recordingLogger();
    const outcome = await createLocalShipper(project, log).ship(requestFor(project, wt));
    expect(outcome).toEqual({ status: 'skipped', reason: 'merge-conflict', keepWorktree: true });
    expect(git(project, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(existsSync(wt.path)).toBe(true);
  });

  it('a dirty base is still "dirty-master" (the run\'s own results.tsv does not count)', async () => {
    const { project, wt } = await improvedWorktree();
    await writeFile(path.join(project, '.gitignore'), 'edited by hand\n');
    const outcome = await createLocalShipper(project, recordingLogger()).ship(requestFor(project, wt));
    expect(outcome).toEqual({ status: 'skipped', reason: 'dirty-master', keepWorktree: true });
  });
});
