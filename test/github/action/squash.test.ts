import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSquashOnBase } from '../../../src/github/action/squash.js';
import { cleanupTempDirs, git, makeRemote, pushToOrigin, tempDir } from '../../helpers/github-fixtures.js';

const SKILL = '.claude/skills/session-wrap';
const SKILL_MD = `${SKILL}/SKILL.md`;
const ORIGINAL = [
  '---',
  'name: session-wrap',
  'description: wrap up',
  '---',
  '# Session wrap',
  '',
  '## Steps',
  '',
  '1. Read.',
  '2. Write.',
  '',
  '## Constraints',
  '',
  '- Short.',
  '',
].join('\n');
const MESSAGE = 'skill-iterate: session-wrap: baseline 0.75 -> final 0.88 over 2 iterations (lines_delta=+1)';

/** A checkout, and a run branch in a worktree with two kept edits on top of the checkout's HEAD. */
async function runBranch(prefix = '') {
  const remote = await makeRemote({ [`${prefix}${SKILL_MD}`]: ORIGINAL, 'README.md': 'readme\n' });
  const baseCommit = git(remote.checkout, 'rev-parse', 'HEAD');
  const worktree = path.join(await tempDir(), 'worktree_skill-iterate-session-wrap-1');
  git(
    remote.checkout,
    'worktree',
    'add',
    '--quiet',
    '-b',
    'skill-iterate/session-wrap-1',
    worktree,
    baseCommit,
  );
  const file = path.join(worktree, prefix, SKILL_MD);
  await writeFile(file, (await readFile(file, 'utf8')).replace('1. Read.', '1. Read the notes.'));
  git(worktree, 'commit', '--quiet', '-am', 'edit one');
  await writeFile(file, (await readFile(file, 'utf8')).replace('- Short.', '- Short.\n- No filler.'));
  git(worktree, 'commit', '--quiet', '-am', 'edit two');
  const request = {
    project: path.join(remote.checkout, prefix),
    remote: 'origin',
    base: 'main',
    baseCommit,
    head: 'skill-iterate/session-wrap-1',
    skillPath: SKILL,
    message: MESSAGE,
  };
  return { ...remote, baseCommit, worktree, request };
}

afterEach(cleanupTempDirs);

describe('buildSquashOnBase', () => {
  it('builds ONE commit with the canonical message on the unchanged base, touching nothing in the checkout', async () => {
    const { checkout, baseCommit, request } = await runBranch();
    const statusBefore = git(checkout, 'status', '--porcelain');

    const outcome = await buildSquashOnBase(request);

    expect(outcome.status).toBe('built');
    if (outcome.status !== 'built') return;
    expect(outcome.parent).toBe(baseCommit);
    expect(outcome.rebuilt).toBeUndefined();
    expect(git(checkout, 'rev-list', '--parents', '-n', '1', outcome.commit).split(' ')).toEqual([
      outcome.commit,
      baseCommit,
    ]);
    expect(git(checkout, 'log', '-1', '--format=%B', outcome.commit)).toBe(MESSAGE);
    const content = git(checkout, 'show', `${outcome.commit}:${SKILL_MD}`);
    expect(content).toContain('1. Read the notes.');
    expect(content).toContain('- No filler.');
    expect(git(checkout, 'rev-parse', 'HEAD')).toBe(baseCommit);
    expect(git(checkout, 'status', '--porcelain')).toBe(statusBefore);
  });

  it('puts the squash on top of a base that moved elsewhere during the run', async () => {
    const { checkout, origin, request } = await runBranch();
    const moved = await pushToOrigin(origin, { 'README.md': 'readme v2\n' }, 'docs');

    const outcome = await buildSquashOnBase(request);

    expect(outcome).toMatchObject({ status: 'built', parent: moved, rebuilt: undefined });
    if (outcome.status !== 'built') return;
    expect(git(checkout, 'show', `${outcome.commit}:README.md`)).toBe('readme v2');
  });

  it('rebuilds on the new base when the skill changed there and the diff still applies (3-way)', async () => {
    const { checkout, origin, request } = await runBranch();
    const moved = await pushToOrigin(
      origin,
      { [SKILL_MD]: ORIGINAL.replace('# Session wrap', '# Session wrap-up') },
      'retitle',
    );

    const outcome = await buildSquashOnBase(request);

    expect(outcome).toMatchObject({ status: 'built', parent: moved });
    if (outcome.status !== 'built') return;
    expect(outcome.rebuilt).toBe(
      `${SKILL} differs on main (${moved.slice(0, 7)}) from ${request.baseCommit.slice(0, 7)}, where the run ` +
        'started; the squash was rebuilt on main with a clean 3-way apply.',
    );
    const content = git(checkout, 'show', `${outcome.commit}:${SKILL_MD}`);
    expect(content).toContain('# Session wrap-up');
    expect(content).toContain('1. Read the notes.');
  });

  it('skips with the reason when the skill changed on the base and the squash conflicts', async () => {
    const { origin, request } = await runBranch();
    await pushToOrigin(origin, { [SKILL_MD]: ORIGINAL.replace('1. Read.', '1. Skim.') }, 'conflicting edit');

    const outcome = await buildSquashOnBase(request);

    expect(outcome.status).toBe('skipped');
    expect(outcome.status === 'skipped' && outcome.reason).toMatch(
      /^base moved: \.claude\/skills\/session-wrap differs on main \(now [0-9a-f]{7}\) from [0-9a-f]{7}, where the run started, and the squash does not apply cleanly/,
    );
  });

  it('skips a run branch without changes', async () => {
    const { request, baseCommit } = await runBranch();
    const outcome = await buildSquashOnBase({ ...request, head: baseCommit });
    expect(outcome).toEqual({
      status: 'skipped',
      reason: `${baseCommit} has no changes against ${baseCommit.slice(0, 7)}`,
    });
  });

  it('works when the project is a folder inside the repository', async () => {
    const { checkout, origin, request } = await runBranch('tools/skills/');
    await pushToOrigin(
      origin,
      { [`tools/skills/${SKILL_MD}`]: ORIGINAL.replace('# Session wrap', '# Wrap') },
      'retitle',
    );

    const outcome = await buildSquashOnBase(request);

    expect(outcome.status).toBe('built');
    if (outcome.status !== 'built') return;
    expect(outcome.rebuilt).toMatch(/^tools\/skills\/\.claude\/skills\/session-wrap differs on main/);
    const content = git(checkout, 'show', `${outcome.commit}:tools/skills/${SKILL_MD}`);
    expect(content).toContain('# Wrap');
    expect(content).toContain('- No filler.');
  });
});
