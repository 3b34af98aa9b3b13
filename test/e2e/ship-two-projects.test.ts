/**
 * Two projects in one repository shipping at once (issue 13, item 2): `skillclimb iterate --project
 * repo/p1` and `--project repo/p2` run as two real processes. Each squash commit must hold only its own
 * project's files, and no ship may fail on the checkout's `index.lock`: the squash is built in a temporary
 * index and the landing runs under the repository lock.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, runCli } from '../helpers/cli-child.js';
import { cleanupTempDirs, EVALS, git, SCENARIOS, SKILL_MD, tempDir } from '../helpers/engine-fixtures.js';

const SKILLS = ['alpha', 'beta', 'gamma', 'delta'];

/** SKILL.md with an unlabelled fence (the offline editor labels it: a sure ship). */
function improvable(name: string): string {
  return SKILL_MD.replace('name: demo', `name: ${name}`).replace(
    '2. Write the summary.\n',
    '2. Write the summary.\n\n```\nnpm install\nnpm test\n```\n',
  );
}

async function addProject(repo: string, folder: string): Promise<void> {
  for (const skill of SKILLS) {
    const dir = path.join(repo, folder, '.claude', 'skills', `${folder}-${skill}`);
    await mkdir(path.join(dir, 'evals'), { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), improvable(`${folder}-${skill}`));
    await writeFile(path.join(dir, 'evals', 'evals.json'), JSON.stringify(EVALS));
    await writeFile(path.join(dir, 'evals', 'test_scenarios.json'), JSON.stringify(SCENARIOS));
  }
}

let cli: string;
beforeAll(async () => {
  cli = await buildCli();
}, 120_000);
afterAll(cleanupTempDirs);

describe('two projects of one repository at once', () => {
  it('each squash holds only its own project files, and no ship fails on index.lock', async () => {
    const repo = await tempDir('skillclimb-monorepo-');
    await addProject(repo, 'p1');
    await addProject(repo, 'p2');
    await writeFile(path.join(repo, '.gitignore'), 'results.tsv\n.skill-iterate.lock\ndocs/\n');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial');
    const start = git(repo, 'rev-parse', 'HEAD').trim();
    const home = await tempDir('skillclimb-home-');
    const run = (project: string) =>
      runCli(cli, [
        'iterate',
        '--project',
        path.join(repo, project),
        '--worktree-home',
        home,
        '--per-skill-iterations',
        '1',
      ]);

    const [one, two] = await Promise.all([run('p1'), run('p2')]);
    for (const end of [one, two]) {
      expect(end.code, end.stderr).toBe(0);
      expect(end.stderr).not.toMatch(/index\.lock|File exists|dirty-master|merge-conflict/);
    }

    const squashes = git(repo, 'rev-list', '--reverse', `${start}..HEAD`).trim().split('\n');
    expect(squashes).toHaveLength(2 * SKILLS.length);
    for (const sha of squashes) {
      const subject = git(repo, 'log', '-1', '--format=%s', sha).trim();
      const skill = /^skill-iterate: (p[12]-\w+): /.exec(subject)?.[1];
      expect(skill, subject).toBeDefined();
      const files = git(repo, 'show', '--name-only', '--format=', sha).trim().split('\n');
      expect(files).toEqual([`${skill!.slice(0, 2)}/.claude/skills/${skill}/SKILL.md`]);
    }
    expect(git(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  }, 180_000);
});
