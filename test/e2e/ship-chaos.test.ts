/**
 * Chaos: `skillclimb iterate` killed with SIGKILL in the middle of its local ship (issue 13, item 1). The
 * real CLI runs as a child process with the offline provider on a real repository; the env-controlled
 * pause point stops the landing at a known step (after the squash commit is built, or after the branch
 * moved) so the kill lands there and not at a random time. The next run must clean up with a warning
 * before its pre-flight decides anything, leave the checkout clean and ship.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_STATE_DIR } from '../../src/adapters/local/repo-lock.js';
import { SHIP_MARKER_FILE } from '../../src/adapters/local/ship-marker.js';
import { TEST_PAUSE_VARIABLE } from '../../src/cli/commands/iterate.js';
import { buildCli, childEnv, runCli, startCli } from '../helpers/cli-child.js';
import { cleanupTempDirs, git, makeProject, SKILL_MD, tempDir } from '../helpers/engine-fixtures.js';

/** A skill the offline editor improves at once: its one code fence has no language. */
const IMPROVABLE = SKILL_MD.replace(
  '2. Write the summary.\n',
  '2. Write the summary.\n\n```\nnpm install\nnpm test\n```\n',
);
const SKILL = '.claude/skills/demo/SKILL.md';

let cli: string;
beforeAll(async () => {
  cli = await buildCli();
}, 120_000);
afterAll(cleanupTempDirs);

/** Makes the next run see the skill as not run recently (as the next night would). */
async function ageResults(project: string): Promise<void> {
  const file = path.join(project, '.claude/skills/demo/evals/results.tsv');
  const old = new Date(Date.now() - 3 * 24 * 3_600_000);
  await utimes(file, old, old);
}

async function killedAt(step: string) {
  const project = await makeProject([{ name: 'demo', skillMd: IMPROVABLE }]);
  const home = await tempDir('skillclimb-home-');
  const parent = git(project, 'rev-parse', 'HEAD').trim();
  const args = ['iterate', '--project', project, '--worktree-home', home, '--per-skill-iterations', '2'];
  const child = startCli(cli, args, childEnv({ [TEST_PAUSE_VARIABLE]: step }));
  await child.waitForStderr(new RegExp(`paused at ${step}`));
  child.process.kill('SIGKILL');
  const end = await child.ended;
  expect(end.signal).toBe('SIGKILL');
  return { project, home, parent, args };
}

const markerFile = (project: string) => path.join(project, '.git', REPO_STATE_DIR, SHIP_MARKER_FILE);

describe('kill -9 during the local ship', () => {
  it('killed after the squash was built: the checkout is untouched; the next run cleans up and ships', async () => {
    const { project, parent, args } = await killedAt('squash-built');

    // What the kill left: the marker (and the run's lock and worktree), but not a changed checkout.
    expect(existsSync(markerFile(project))).toBe(true);
    expect(git(project, 'rev-parse', 'HEAD').trim()).toBe(parent);
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(existsSync(path.join(project, '.git', 'SQUASH_MSG'))).toBe(false);

    await ageResults(project);
    const next = await runCli(cli, args);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(
      /warning: cleaned up after an interrupted run: the ship of demo interrupted at .*nothing had been applied/,
    );
    // The cleanup came first: before the orphan scan, the lock takeover and every other pre-flight step.
    const cleaned = next.stderr.indexOf('cleaned up after an interrupted run');
    expect(cleaned).toBeLessThan(next.stderr.indexOf('orphaned worktrees'));
    expect(cleaned).toBeLessThan(next.stderr.indexOf('warning: stale lock from PID'));
    expect(next.stderr).not.toContain('dirty-master');
    expect(existsSync(markerFile(project))).toBe(false);
    expect(git(project, 'log', '-1', '--format=%s').trim()).toMatch(/^skill-iterate: demo: baseline /);
    expect(git(project, 'rev-parse', 'HEAD~1').trim()).toBe(parent);
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(await readFile(path.join(project, SKILL), 'utf8')).toContain('```sh\nnpm install');
    // No temporary file of the killed landing is left in the repository's state folder.
    expect(await readdir(path.join(project, '.git', REPO_STATE_DIR))).toEqual([]);
  }, 120_000);

  it('killed after the branch moved: the next run finishes the landing and the checkout is clean', async () => {
    const { project, parent, args } = await killedAt('branch-moved');

    const landed = git(project, 'rev-parse', 'HEAD').trim();
    expect(landed).not.toBe(parent);
    expect(git(project, 'log', '-1', '--format=%s').trim()).toMatch(/^skill-iterate: demo: baseline /);
    // The kill came before the skill's file was brought up to date: the checkout looks changed.
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).not.toBe('');

    await ageResults(project);
    await writeFile(path.join(project, 'untracked-by-hand.txt'), 'mine\n');
    const next = await runCli(cli, args);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/cleaned up after an interrupted run: .*had landed; brought .*SKILL\.md/);
    expect(next.stderr).not.toContain('dirty-master');
    expect(git(project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(git(project, 'show', `${landed}:${SKILL}`)).toBe(
      await readFile(path.join(project, SKILL), 'utf8'),
    );
    // What the run did not make is left alone.
    expect(await readFile(path.join(project, 'untracked-by-hand.txt'), 'utf8')).toBe('mine\n');
    expect(existsSync(markerFile(project))).toBe(false);
  }, 120_000);

  it('a dry run only says what a real run would clean', async () => {
    const { project, home, parent } = await killedAt('squash-built');
    const dry = await runCli(cli, ['iterate', '--project', project, '--worktree-home', home, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/an interrupted ship of demo .* a real run cleans it up first/);
    expect(existsSync(markerFile(project))).toBe(true);
    expect(git(project, 'rev-parse', 'HEAD').trim()).toBe(parent);
  }, 120_000);
});
