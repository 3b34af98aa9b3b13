import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isValidBranchName, repoPrefix } from '../../src/git/repo.js';
import { createWorktree } from '../../src/git/worktree.js';
import { cleanupTempDirs, makeProject, tempDir } from '../helpers/engine-fixtures.js';

afterEach(cleanupTempDirs);

describe('repoPrefix', () => {
  it("is '' at the repository root and the folder path below it, with forward slashes", async () => {
    const repo = await makeProject();
    const pkg = path.join(repo, 'mono', 'pkg');
    await mkdir(pkg, { recursive: true });
    expect(await repoPrefix(repo)).toBe('');
    expect(await repoPrefix(pkg)).toBe('mono/pkg');
  });

  it('is recorded on a worktree created from a folder of the repository', async () => {
    const repo = await makeProject();
    const pkg = path.join(repo, '.claude');
    const wt = await createWorktree({ project: pkg, home: await tempDir(), skill: 'demo', epoch: 1 });
    expect(wt.prefix).toBe('.claude');
  });
});

describe('isValidBranchName', () => {
  it('asks git: spaces and ".." are refused, a plain skill branch is accepted', async () => {
    const repo = await makeProject();
    expect(await isValidBranchName(repo, 'skill-iterate/session-wrap-1700000000')).toBe(true);
    expect(await isValidBranchName(repo, 'skill-iterate/foo bar-1700000000')).toBe(false);
    expect(await isValidBranchName(repo, 'skill-iterate/a..b-1')).toBe(false);
  });
});
