import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scoreStructure } from '../../src/core/iterate/structural.js';
import { createGitWorkspace } from '../../src/git/workspace.js';
import { readTreeFiles } from '../../src/git/tree-files.js';
import type { FileLookup, Worktree } from '../../src/ports/git.js';
import { addSkill, git, initRepo, makeTempDir, removeTempDirs, skillPath } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

const SKILL = 'wrap';
const SKILL_DIR = `.claude/skills/${SKILL}`;

/** Links and `[[refs]]` that resolve, or not, all over the repository. */
const SKILL_MD = `---
name: wrap
description: test skill
---
# Wrap

- [guide](../../../docs/guide.md) and [missing](../../../docs/missing.md)
- [other skill](../other/SKILL.md) and [through a missing folder](nowhere/../SKILL.md)
- [a folder](../../../docs/) and [a file as a folder](../../../README.md/)
- [via a linked folder](../../../manual/guide.md) and [a broken link](../../../dangling.md)
- [[helper]] [[remembered]] [[forgotten]] [[#anchor]]
`;

/** A repository with a skill, another skill, docs, a memory folder, links, and 200 unrelated files. */
async function repository(): Promise<string> {
  const project = await makeTempDir('skillclimb-sparse-');
  await initRepo(project);
  await addSkill(project, SKILL);
  await addSkill(project, 'other');
  await writeFile(skillPath(project, SKILL, 'SKILL.md'), SKILL_MD);
  await writeFile(skillPath(project, SKILL, 'helper.md'), 'helper\n');
  await mkdir(path.join(project, 'docs'), { recursive: true });
  await writeFile(path.join(project, 'docs', 'guide.md'), '# guide\n');
  await symlink('docs', path.join(project, 'manual'));
  await symlink('nothing-here.md', path.join(project, 'dangling.md'));
  const memory = path.join(project, '.claude', 'projects', 'p', 'memory');
  await mkdir(memory, { recursive: true });
  await writeFile(path.join(memory, 'feedback_remembered.md'), 'memory\n');
  for (let i = 0; i < 200; i++) {
    const dir = path.join(project, 'src', `m${i % 10}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `f${i}.ts`), `export const x${i} = ${i};\n`);
  }
  await git(project, 'add', '-A');
  await git(project, 'commit', '-q', '-m', 'skills and files');
  return project;
}

async function inWorktree<T>(project: string, work: (worktree: Worktree) => Promise<T>): Promise<T> {
  const home = await makeTempDir('skillclimb-sparse-home-');
  return createGitWorkspace({ warn: () => undefined }).withWorktree(
    { project, home, skill: SKILL, epoch: 1_700_000_000, sparse: [SKILL_DIR] },
    (worktree) => work(worktree),
  );
}

function structural(skillDir: string, files?: FileLookup) {
  return scoreStructure(SKILL_MD, {
    skillDir,
    requiredSections: undefined,
    exists: files ? (p) => files.exists(p) : (p) => existsSync(p),
    listDir: files
      ? (p) => files.listDir(p)
      : (p) => {
          try {
            return readdirSync(p);
          } catch {
            return [];
          }
        },
  });
}

describe('sparse worktrees', () => {
  it('check out only the skill folder, with a clean status and the project config untouched', async () => {
    const project = await repository();
    const configBefore = await readFile(path.join(project, '.git', 'config'), 'utf8');
    await inWorktree(project, async (worktree) => {
      const top = (await readdir(worktree.path)).filter((name) => name !== '.git');
      expect(top).toEqual(['.claude']);
      expect((await readdir(path.join(worktree.path, '.claude', 'skills'))).sort()).toEqual([SKILL]);
      expect((await readdir(path.join(worktree.path, SKILL_DIR))).sort()).toEqual([
        'SKILL.md',
        'evals',
        'helper.md',
      ]);
      expect(await readFile(path.join(worktree.path, SKILL_DIR, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
      expect(existsSync(path.join(worktree.path, 'src'))).toBe(false);
      expect(await git(worktree.path, 'status', '--porcelain')).toBe('');
      // An edit committed and reverted, as the loop does: the rest of the tree stays out and clean.
      const workspace = createGitWorkspace({ warn: () => undefined });
      await writeFile(path.join(worktree.path, SKILL_DIR, 'SKILL.md'), `${SKILL_MD}\nmore\n`);
      await workspace.commitFile(worktree.path, `${SKILL_DIR}/SKILL.md`, 'edit');
      expect(await git(worktree.path, 'show', '--stat', '--format=', 'HEAD')).toContain('SKILL.md');
      await workspace.resetToParent(worktree.path);
      expect(existsSync(path.join(worktree.path, 'src'))).toBe(false);
      expect(existsSync(path.join(worktree.path, 'README.md'))).toBe(false);
      expect(await git(worktree.path, 'status', '--porcelain')).toBe('');
      expect(await readFile(path.join(worktree.path, SKILL_DIR, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
    });
    expect(await readFile(path.join(project, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(await git(project, 'worktree', 'list', '--porcelain')).not.toContain('worktree_skill-iterate');
  });

  it('score links and [[refs]] as a full checkout does, from the base commit', async () => {
    const project = await repository();
    const full = structural(skillPath(project, SKILL));
    // The reference has something to find and something to miss in every metric that looks at files.
    expect(full.metrics.link_integrity).toMatchObject({ valid: 4, total: 8 });
    expect(full.metrics.link_integrity.broken).toEqual([
      '../../../docs/missing.md',
      'nowhere/../SKILL.md',
      '../../../README.md/',
      '../../../dangling.md',
    ]);
    expect(full.metrics.cross_reference_resolution).toMatchObject({ resolved: 3, total: 4 });
    const sparse = await inWorktree(project, async (worktree) => {
      expect(worktree.files).toBeDefined();
      // The files are not on disk, yet they are found.
      expect(existsSync(path.join(worktree.path, 'docs', 'guide.md'))).toBe(false);
      return structural(path.join(worktree.path, SKILL_DIR), worktree.files);
    });
    expect(sparse.metrics.link_integrity).toEqual(full.metrics.link_integrity);
    expect(sparse.metrics.cross_reference_resolution).toEqual(full.metrics.cross_reference_resolution);
    expect(sparse.score).toBe(full.score);
  });

  it('take a project inside a repository by its path there, whatever characters it has', async () => {
    const repo = await makeTempDir('skillclimb-sparse-mono-');
    await initRepo(repo);
    const project = path.join(repo, 'packages', 'app #1 [v2]*');
    await mkdir(project, { recursive: true });
    await addSkill(project, SKILL);
    await writeFile(path.join(repo, 'packages', 'lib.ts'), 'export {};\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'mono');
    await inWorktree(project, async (worktree) => {
      expect(worktree.prefix).toBe('packages/app #1 [v2]*');
      expect(existsSync(path.join(worktree.path, 'packages', 'app #1 [v2]*', SKILL_DIR, 'SKILL.md'))).toBe(
        true,
      );
      expect(existsSync(path.join(worktree.path, 'packages', 'lib.ts'))).toBe(false);
      expect(worktree.files!.exists(path.join(worktree.path, 'packages', 'lib.ts'))).toBe(true);
    });
  });
});

describe('readTreeFiles', () => {
  it('walks paths as the file system does: folders, files, links, and what lies outside', async () => {
    const project = await repository();
    const files = await readTreeFiles(project, 'HEAD');
    const at = (...parts: string[]) => path.join(project, ...parts);
    expect(files.exists(at('docs', 'guide.md'))).toBe(true);
    expect(files.exists(at('docs'))).toBe(true);
    expect(files.exists(project)).toBe(true);
    expect(files.exists(`${at('README.md')}/`)).toBe(false);
    expect(files.exists(at('manual', 'guide.md'))).toBe(true);
    expect(files.exists(at('dangling.md'))).toBe(false);
    expect(files.exists(`${at('nowhere')}/../README.md`)).toBe(false);
    expect(files.exists(`${at('docs')}/../README.md`)).toBe(true);
    expect(files.listDir(at('docs'))).toEqual(['guide.md']);
    expect(files.listDir(at('manual'))).toEqual(['guide.md']);
    expect(files.listDir(at('README.md'))).toEqual([]);
    // Outside the repository the disk answers, as it did before.
    const outside = await makeTempDir('skillclimb-sparse-outside-');
    await writeFile(path.join(outside, 'x.md'), 'x');
    expect(files.exists(path.join(outside, 'x.md'))).toBe(true);
    expect(files.listDir(outside)).toEqual(['x.md']);
    // Untracked files are not part of the commit (a worktree would not have them either).
    await writeFile(at('untracked.md'), 'u');
    expect(files.exists(at('untracked.md'))).toBe(false);
  });
});

describe('withWorktree', () => {
  it('removes the worktree and its branch when the work throws, and rejects with the error', async () => {
    const project = await repository();
    const home = await makeTempDir('skillclimb-throw-home-');
    const warnings: string[] = [];
    const boom = new Error('the work failed');
    let seen: Worktree | undefined;
    await expect(
      createGitWorkspace({ warn: (m) => warnings.push(m) }).withWorktree(
        { project, home, skill: SKILL, epoch: 1_700_000_001 },
        async (worktree) => {
          seen = worktree;
          expect(existsSync(path.join(worktree.path, SKILL_DIR, 'SKILL.md'))).toBe(true);
          throw boom;
        },
      ),
    ).rejects.toBe(boom);
    expect(seen).toBeDefined();
    expect(existsSync(seen!.path)).toBe(false);
    expect(await git(project, 'worktree', 'list', '--porcelain')).not.toContain(seen!.path);
    expect(await git(project, 'branch', '--list', seen!.branch)).toBe('');
    expect(warnings).toEqual([]);
  });

  it('keeps the worktree when the work called keep(), even though it throws', async () => {
    const project = await repository();
    const home = await makeTempDir('skillclimb-keep-home-');
    let seen: Worktree | undefined;
    await expect(
      createGitWorkspace({ warn: () => undefined }).withWorktree(
        { project, home, skill: SKILL, epoch: 1_700_000_002 },
        async (worktree, keep) => {
          seen = worktree;
          keep();
          throw new Error('kept for the operator');
        },
      ),
    ).rejects.toThrow('kept for the operator');
    expect(existsSync(seen!.path)).toBe(true);
    expect(await git(project, 'branch', '--list', seen!.branch)).toContain(seen!.branch);
  });
});
