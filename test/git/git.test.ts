import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { committerConfig, FALLBACK_IDENTITY } from '../../src/git/client.js';
import { commitFile, discardChanges, resetToParent, showFileAt } from '../../src/git/commits.js';
import {
  buildSquash,
  checkCleanBase,
  checkoutPaths,
  moveCheckedOutBranch,
  SquashConflictError,
} from '../../src/git/squash.js';
import { branchNameFor } from '../../src/core/iterate/skill-layout.js';
import {
  createWorktree,
  deleteBranch,
  removeWorktree,
  WORKTREE_RETRY_DELAY_MS,
  worktreePathFor,
} from '../../src/git/worktree.js';
import { cleanupTempDirs, git, makeProject, SKILL_MD, tempDir } from '../helpers/engine-fixtures.js';

const SKILL = '.claude/skills/demo/SKILL.md';

afterEach(cleanupTempDirs);

async function setup() {
  const project = await makeProject();
  const home = await tempDir('skillclimb-home-');
  const wt = await createWorktree({ project, home, skill: 'demo', epoch: 1700000000 });
  return { project, home, wt };
}

describe('worktree naming', () => {
  it('follows the seed shape', () => {
    expect(worktreePathFor('/h', 'session-wrap', 42)).toBe(
      path.join('/h', 'worktree_skill-iterate-session-wrap-42'),
    );
    expect(branchNameFor('session-wrap', 42)).toBe('skill-iterate/session-wrap-42');
  });
});

describe('createWorktree', () => {
  it('adds a worktree on a new branch from the base HEAD', async () => {
    const { project, home, wt } = await setup();
    expect(wt.path).toBe(path.join(home, 'worktree_skill-iterate-demo-1700000000'));
    expect(wt.branch).toBe('skill-iterate/demo-1700000000');
    expect(wt.baseBranch).toBe('main');
    expect(wt.baseCommit).toBe(git(project, 'rev-parse', 'HEAD').trim());
    expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(wt.branch);
    expect(await readFile(path.join(wt.path, SKILL), 'utf8')).toBe(SKILL_MD);
    expect(git(project, 'worktree', 'list')).toContain('worktree_skill-iterate-demo-1700000000');
  });

  it("takes the next free names when the same second's are taken, leaving the old ones alone", async () => {
    const { project, home, wt } = await setup();
    const again = await createWorktree({ project, home, skill: 'demo', epoch: 1700000000 });
    expect(again.branch).toBe('skill-iterate/demo-1700000000-2');
    expect(again.path).toBe(path.join(home, 'worktree_skill-iterate-demo-1700000000-2'));
    expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(wt.branch);
    // A leftover folder without a branch is stepped over too, and no branch is left behind by trying.
    await mkdir(path.join(home, 'worktree_skill-iterate-demo-1700000000-3'));
    const third = await createWorktree({ project, home, skill: 'demo', epoch: 1700000000 });
    expect(third.branch).toBe('skill-iterate/demo-1700000000-4');
    expect(git(project, 'branch', '--list', 'skill-iterate/demo-1700000000-3').trim()).toBe('');
  });

  it('fails with a message naming the operation when git refuses', async () => {
    const { project } = await setup();
    const notADir = path.join(await tempDir('skillclimb-home-'), 'file');
    await writeFile(notADir, 'x');
    const failing = createWorktree({ project, home: notADir, skill: 'demo', epoch: 1 });
    await expect(failing).rejects.toThrow(/EEXIST|ENOTDIR|git worktree add failed/);
  });
});

describe('commits in the worktree', () => {
  it('commits one file, returns the 7-char SHA, and resets back', async () => {
    const { project, wt } = await setup();
    await writeFile(path.join(wt.path, SKILL), SKILL_MD + 'extra\n');
    const sha = await commitFile(wt.path, SKILL, 'add a line\nwith a second line');
    expect(sha).toMatch(/^[0-9a-f]{7}$/);
    expect(git(wt.path, 'rev-parse', 'HEAD').trim().startsWith(sha)).toBe(true);
    expect(git(wt.path, 'log', '-1', '--format=%s').trim()).toBe('add a line with a second line');
    // The project's checkout is untouched: the commit lives on the per-skill branch only.
    expect(git(project, 'rev-parse', 'HEAD').trim()).toBe(wt.baseCommit);
    expect(await showFileAt(wt.path, sha, SKILL)).toBe(SKILL_MD + 'extra\n');
    expect(await showFileAt(wt.path, wt.baseCommit, SKILL)).toBe(SKILL_MD);

    await resetToParent(wt.path);
    expect(git(wt.path, 'rev-parse', 'HEAD').trim()).toBe(wt.baseCommit);
    expect(await readFile(path.join(wt.path, SKILL), 'utf8')).toBe(SKILL_MD);
  });

  it('fails a commit with nothing to commit, and discards an uncommitted edit', async () => {
    const { wt } = await setup();
    await expect(commitFile(wt.path, SKILL, 'nothing')).rejects.toThrow(/git commit failed/);
    await writeFile(path.join(wt.path, SKILL), 'scribble\n');
    await discardChanges(wt.path);
    expect(await readFile(path.join(wt.path, SKILL), 'utf8')).toBe(SKILL_MD);
  });

  it('falls back to a built-in identity only when none is configured', async () => {
    const { project } = await setup();
    // No global or system config may leak in from the machine running the tests.
    const bare = {
      PATH: process.env.PATH,
      HOME: await tempDir('skillclimb-home-'),
      GIT_CONFIG_NOSYSTEM: '1',
    };
    expect(await committerConfig(project, bare)).toEqual([
      `user.name=${FALLBACK_IDENTITY.name}`,
      `user.email=${FALLBACK_IDENTITY.email}`,
    ]);
    expect(
      await committerConfig(project, { ...bare, GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' }),
    ).toEqual([]);
    git(project, 'config', 'user.email', 'me@example.com');
    expect(await committerConfig(project, { ...bare, GIT_COMMITTER_NAME: 'a' })).toEqual([]);
    expect(await committerConfig(project, bare)).toEqual([`user.name=${FALLBACK_IDENTITY.name}`]);
  });
});

describe('clean-base check', () => {
  it('ignores untracked files, reports tracked changes, honours the ignore filter', async () => {
    const { project } = await setup();
    await writeFile(path.join(project, 'untracked.txt'), 'x');
    expect(await checkCleanBase(project)).toEqual({ clean: true, dirty: [] });
    await writeFile(path.join(project, SKILL), 'changed\n');
    expect(await checkCleanBase(project)).toEqual({ clean: false, dirty: [SKILL] });
    expect((await checkCleanBase(project, (p) => p.endsWith('SKILL.md'))).clean).toBe(true);
  });
});

/** The local ship's three git steps, as the shipper runs them: build, move the branch, update the paths. */
async function squashOnto(project: string, branch: string, baseCommit: string, message: string) {
  const parent = git(project, 'rev-parse', 'HEAD').trim();
  const scratch = path.join(await tempDir('skillclimb-scratch-'), 'scratch');
  const built = await buildSquash({
    project,
    branch,
    baseCommit,
    parent,
    skillRepoPath: '.claude/skills/demo',
    message,
    scratch,
  });
  expect(existsSync(scratch)).toBe(false);
  if (built.status === 'built') {
    await moveCheckedOutBranch(project, built.commit, parent, 'test');
    await checkoutPaths(project, built.commit, built.paths);
  }
  return built;
}

describe('the local squash', () => {
  it('lands the whole branch as one commit with the given message', async () => {
    const { project, wt } = await setup();
    await writeFile(path.join(wt.path, SKILL), SKILL_MD + 'one\n');
    await commitFile(wt.path, SKILL, 'first');
    await writeFile(path.join(wt.path, SKILL), SKILL_MD + 'one\ntwo\n');
    await commitFile(wt.path, SKILL, 'second');
    const before = Number(git(project, 'rev-list', '--count', 'HEAD').trim());
    const result = await squashOnto(project, wt.branch, wt.baseCommit, 'skill-iterate: demo: squashed');
    expect(result).toMatchObject({ status: 'built', paths: [SKILL] });
    expect(Number(git(project, 'rev-list', '--count', 'HEAD').trim())).toBe(before + 1);
    expect(git(project, 'log', '-1', '--format=%s').trim()).toBe('skill-iterate: demo: squashed');
    expect(await readFile(path.join(project, SKILL), 'utf8')).toBe(SKILL_MD + 'one\ntwo\n');
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    if (result.status === 'built') expect(git(project, 'rev-parse', 'HEAD').trim()).toBe(result.commit);
  });

  it('reports an empty branch without committing', async () => {
    const { project, wt } = await setup();
    const head = git(project, 'rev-parse', 'HEAD');
    expect(await squashOnto(project, wt.branch, wt.baseCommit, 'nothing')).toEqual({ status: 'empty' });
    expect(git(project, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('refuses a conflicting squash and leaves the checkout as found', async () => {
    const { project, wt } = await setup();
    await writeFile(path.join(wt.path, SKILL), 'branch version\n');
    await commitFile(wt.path, SKILL, 'branch edit');
    await writeFile(path.join(project, SKILL), 'base version\n');
    git(project, 'commit', '-q', '-am', 'base edit');
    const head = git(project, 'rev-parse', 'HEAD');
    await expect(squashOnto(project, wt.branch, wt.baseCommit, 'm')).rejects.toBeInstanceOf(
      SquashConflictError,
    );
    expect(git(project, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(await readFile(path.join(project, SKILL), 'utf8')).toBe('base version\n');
  });

  it('never touches staged or unstaged changes outside the skill', async () => {
    const { project, wt } = await setup();
    await writeFile(path.join(wt.path, SKILL), SKILL_MD + 'edit\n');
    await commitFile(wt.path, SKILL, 'edit');
    await writeFile(path.join(project, 'staged.txt'), 'mine\n');
    git(project, 'add', 'staged.txt');
    await writeFile(path.join(project, '.gitignore'), 'changed by hand\n');
    const result = await squashOnto(project, wt.branch, wt.baseCommit, 'squash');
    expect(result.status).toBe('built');
    // The squash holds only the skill's file; the user's staged and unstaged work is still there, uncommitted.
    expect(git(project, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe(SKILL);
    expect(git(project, 'status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
      ' M .gitignore',
      'A  staged.txt',
    ]);
  });
});

describe('cleanup', () => {
  it('removes the worktree and deletes the branch', async () => {
    const { project, wt } = await setup();
    expect(await removeWorktree(project, wt.path, { retryDelayMs: 1 })).toBe(true);
    expect(existsSync(wt.path)).toBe(false);
    await deleteBranch(project, wt.branch);
    expect(git(project, 'branch', '--list', wt.branch).trim()).toBe('');
  });

  it('retries once, then warns instead of throwing', async () => {
    const { project } = await setup();
    const warnings: string[] = [];
    const pauses: number[] = [];
    const gone = await removeWorktree(project, path.join(project, 'no-such-worktree'), {
      retryDelayMs: 50,
      sleep: async (ms) => void pauses.push(ms),
      warn: (m) => warnings.push(m),
    });
    expect(gone).toBe(false);
    // One pause of the requested length, between the two attempts.
    expect(pauses).toEqual([50]);
    expect(warnings).toEqual([
      `worktree at ${path.join(project, 'no-such-worktree')} could not be removed; leaving for manual cleanup`,
    ]);
  });

  it("pauses the seed's 2 seconds before the retry by default, and not at all when the first try works", async () => {
    const { project, wt } = await setup();
    const pauses: number[] = [];
    const sleep = async (ms: number) => void pauses.push(ms);
    expect(WORKTREE_RETRY_DELAY_MS).toBe(2000);
    expect(await removeWorktree(project, path.join(project, 'no-such-worktree'), { sleep })).toBe(false);
    expect(pauses).toEqual([2000]);
    expect(await removeWorktree(project, wt.path, { sleep })).toBe(true);
    expect(pauses).toEqual([2000]);
  });
});
