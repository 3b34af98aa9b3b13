import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchBranch, hasCommit, isShallowRepository } from '../../../src/github/action/git.js';
import {
  cleanupTempDirs,
  git,
  hasObject,
  makeRemote,
  pushToOrigin,
  tempDir,
  writeFiles,
} from '../../helpers/github-fixtures.js';

const FILES = { '.claude/skills/alpha/SKILL.md': '# alpha\n', 'README.md': 'readme\n' };

/** A branch made from another clone on `main~<back>` (last night's PR branch on an older base). */
async function branchOnOlderBase(origin: string, branch: string, back: number): Promise<string> {
  const other = path.join(await tempDir(), 'other');
  git(path.dirname(other), 'clone', '--quiet', origin, other);
  git(other, 'checkout', '--quiet', '-b', branch, `main~${back}`);
  await writeFiles(other, { 'NOTES.md': `${branch}\n` });
  git(other, 'add', '-A');
  git(other, 'commit', '--quiet', '-m', branch);
  git(other, 'push', '--quiet', 'origin', branch);
  return git(other, 'rev-parse', 'HEAD');
}

afterEach(cleanupTempDirs);

describe('fetchBranch', () => {
  it('brings only the tip of a branch on an older base into a depth-1 checkout', async () => {
    const { origin, checkout } = await makeRemote(FILES, { earlierCommits: 3, checkout: 'actions' });
    const older = git(origin, 'rev-list', 'main~1').split('\n');
    const tip = await branchOnOlderBase(origin, 'skill-iterate/alpha', 2);

    const fetched = await fetchBranch(simpleGit(checkout), 'origin', 'skill-iterate/alpha');

    expect(fetched).toBe(tip);
    expect(git(checkout, 'rev-parse', 'refs/remotes/origin/skill-iterate/alpha')).toBe(tip);
    expect(git(checkout, 'show', `${tip}:NOTES.md`)).toBe('skill-iterate/alpha');
    // A plain fetch here downloads every commit below the checkout's one: 3 of them in this repository.
    expect(older.filter((sha) => hasObject(checkout, sha))).toEqual([]);
    expect(await isShallowRepository(simpleGit(checkout))).toBe(true);
  });

  it('brings only the new tip of a base that moved by several commits', async () => {
    const { origin, checkout } = await makeRemote(FILES, { earlierCommits: 1, checkout: 'actions' });
    const start = git(checkout, 'rev-parse', 'HEAD');
    const between = await pushToOrigin(origin, { 'a.md': 'a\n' }, 'one');
    const moved = await pushToOrigin(origin, { 'b.md': 'b\n' }, 'two');

    const fetched = await fetchBranch(simpleGit(checkout), 'origin', 'main');

    expect(fetched).toBe(moved);
    expect(hasObject(checkout, between)).toBe(false);
    // The checkout's own commit and branch are as they were: trees of both ends are all a squash needs.
    expect(git(checkout, 'rev-parse', 'HEAD')).toBe(start);
    expect(git(checkout, 'diff', '--name-only', start, moved)).toBe('a.md\nb.md');
  });

  it('does not fetch a tip that is already present, so a full clone keeps its whole history', async () => {
    const { origin, checkout } = await makeRemote(FILES, { earlierCommits: 2 });
    const main = git(origin, 'rev-parse', 'main');
    git(checkout, 'update-ref', '-d', 'refs/remotes/origin/main');

    const fetched = await fetchBranch(simpleGit(checkout), 'origin', 'main');

    expect(fetched).toBe(main);
    expect(git(checkout, 'rev-parse', 'refs/remotes/origin/main')).toBe(main);
    expect(git(checkout, 'rev-parse', '--is-shallow-repository')).toBe('false');
    expect(git(checkout, 'rev-list', '--count', 'main')).toBe('3');
  });

  it('does not cut the history of a deeper checkout (fetch-depth: 3) when its tip is present', async () => {
    const { origin, checkout } = await makeRemote(FILES, {
      earlierCommits: 3,
      checkout: 'actions',
      depth: 3,
    });

    expect(await fetchBranch(simpleGit(checkout), 'origin', 'main')).toBe(git(origin, 'rev-parse', 'main'));
    expect(git(checkout, 'rev-list', '--count', 'HEAD')).toBe('3');
  });

  it('fetches a missing branch with its history into a full clone, which stays a full clone', async () => {
    const { origin, checkout } = await makeRemote(FILES, { earlierCommits: 2 });
    const tip = await branchOnOlderBase(origin, 'skill-iterate/alpha', 1);

    expect(await fetchBranch(simpleGit(checkout), 'origin', 'skill-iterate/alpha')).toBe(tip);
    expect(git(checkout, 'rev-parse', '--is-shallow-repository')).toBe('false');
    expect(git(checkout, 'rev-list', '--count', tip)).toBe('3');
  });

  it("returns '' for a branch the remote does not have, fetching nothing", async () => {
    const { checkout } = await makeRemote(FILES, { checkout: 'actions' });
    expect(await fetchBranch(simpleGit(checkout), 'origin', 'skill-iterate-state')).toBe('');
    expect(git(checkout, 'for-each-ref', '--format=%(refname)', 'refs/remotes/')).toBe(
      'refs/remotes/origin/main',
    );
  });
});

describe('hasCommit', () => {
  it('tells a present commit from one below the depth-1 boundary', async () => {
    const { origin, checkout } = await makeRemote(FILES, { earlierCommits: 1, checkout: 'actions' });
    const repo = simpleGit(checkout);
    expect(await hasCommit(repo, git(origin, 'rev-parse', 'main'))).toBe(true);
    expect(await hasCommit(repo, git(origin, 'rev-parse', 'main~1'))).toBe(false);
    expect(await hasCommit(repo, '0'.repeat(40))).toBe(false);
  });
});
