/**
 * Skill files that are symbolic links: a real temporary git repository, real links, the real run. The one
 * link rule decides (src/iterate/symlinks.ts): a linked skill file is refused, a linked folder is followed
 * when it stays inside the repository and refused when it leads outside; the plan and the run decide alike,
 * nothing is read or written through a refused link, and the queue goes on.
 */
import { lstat, mkdir, readFile, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPlanPorts, createLocalPorts } from '../../src/adapters/local/ports.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import type { Logger } from '../../src/ports/logger.js';
import type { ResultsRow } from '../../src/core/iterate/run-result.js';
import { planIterate } from '../../src/iterate/plan.js';
import { SymlinkedResultsFileError, appendResultsRow } from '../../src/iterate/results-file.js';
import { runIterate } from '../../src/iterate/run.js';
import { decideSkillFolder } from '../../src/iterate/symlinks.js';
import type { EditorInput } from '../../src/ports/models.js';
import { createScriptedModels } from '../../src/llm/scripted.js';
import {
  EVALS,
  SCENARIOS,
  SKILL_MD,
  cleanupTempDirs,
  git,
  gradeByMarkers,
  makeProject,
  tempDir,
} from '../helpers/engine-fixtures.js';

afterEach(cleanupTempDirs);

const SECRET = 'AUTHORIZATION: basic c2VjcmV0LXRva2Vu';
const OUTSIDE_TEXT = 'outside file: must never be read or changed\n';

function improving(input: EditorInput) {
  if (!input.skillMd.includes('SUMMARY')) {
    return {
      description: 'add SUMMARY',
      old_string: '## Constraints\n',
      new_string: '## Constraints\n\n- SUMMARY\n',
    };
  }
  return { description: 'reword', old_string: '1. Read the notes.', new_string: '1. Read the notes!' };
}

interface Harness {
  project: string;
  home: string;
  options: IterateOptions;
  warnings: string[];
  /** Every text a model was given (render, grade and edit inputs), to prove no secret reached one. */
  seen: string[];
  run: () => ReturnType<typeof runIterate>;
}

async function harness(project: string): Promise<Harness> {
  const home = await tempDir('skillclimb-home-');
  const warnings: string[] = [];
  const seen: string[] = [];
  const log: Logger = { info: () => undefined, warn: (m) => warnings.push(m), progress: () => undefined };
  const options: IterateOptions = {
    project,
    skill: undefined,
    queueFile: undefined,
    perSkillBudgetMs: 3_600_000,
    perSkillIterations: 1,
    skipList: [],
    calibrate: false,
    dryRun: false,
    mode: 'absolute',
    concurrency: 2,
    iterationTimeoutMs: 60_000,
    worktreeHome: home,
    maxCostUsd: undefined,
  };
  const models = createScriptedModels({
    render: (i) => {
      seen.push(JSON.stringify(i));
      return i.skillMd;
    },
    grade: (i) => {
      seen.push(JSON.stringify(i));
      return gradeByMarkers(i);
    },
    propose: (i) => {
      seen.push(JSON.stringify(i));
      return improving(i);
    },
  });
  const ports = createLocalPorts(options, { models, log });
  return { project, home, options, warnings, seen, run: () => runIterate(options, ports) };
}

const skillFile = (project: string, skill: string, ...rest: string[]) =>
  path.join(project, '.claude', 'skills', skill, ...rest);

/** An outside file the link points to, with known content. */
async function outsideFile(name = 'target.md'): Promise<string> {
  const dir = await tempDir('skillclimb-outside-');
  const file = path.join(dir, name);
  await writeFile(file, OUTSIDE_TEXT);
  return file;
}

async function commitAll(project: string, message: string): Promise<void> {
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', message);
}

describe('a skill whose files are symbolic links', () => {
  it('SKILL.md linked to .git/config: skipped with the reason, the token never reaches a model, others run', async () => {
    const project = await makeProject([{ name: 'good-one' }, { name: 'linked' }]);
    git(project, 'config', 'http.https://github.com/.extraheader', SECRET);
    const gitConfig = await readFile(path.join(project, '.git', 'config'), 'utf8');
    const link = skillFile(project, 'linked', 'SKILL.md');
    await rm(link);
    await symlink('../../../.git/config', link);
    await commitAll(project, 'link SKILL.md');
    const h = await harness(project);

    const run = await h.run();

    expect(run.queue).toEqual(['good-one']);
    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['good-one', 'shipped']]);
    expect(run.excludedOther).toEqual([
      {
        skill: 'linked',
        dir: '.claude/skills/linked',
        reason: 'symlink: .claude/skills/linked/SKILL.md is a symbolic link',
        next: 'replace the link by the files themselves',
      },
    ]);
    expect(h.seen.length).toBeGreaterThan(0);
    expect(h.seen.join('\n')).not.toContain('c2VjcmV0LXRva2Vu');
    expect(await readFile(path.join(project, '.git', 'config'), 'utf8')).toBe(gitConfig);
    expect(await readdir(h.home)).toEqual([]);
  });

  it('SKILL.md linked to a file outside the repository: the file is untouched and the skill skipped', async () => {
    const project = await makeProject([{ name: 'linked' }, { name: 'plain' }]);
    const target = await outsideFile();
    await rm(skillFile(project, 'linked', 'SKILL.md'));
    await symlink(target, skillFile(project, 'linked', 'SKILL.md'));
    await commitAll(project, 'link SKILL.md');
    const h = await harness(project);

    const run = await h.run();

    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['plain', 'shipped']]);
    expect(run.excludedOther?.map((e) => [e.skill, e.reason])).toEqual([
      ['linked', 'symlink: .claude/skills/linked/SKILL.md is a symbolic link'],
    ]);
    expect(await readFile(target, 'utf8')).toBe(OUTSIDE_TEXT);
    expect(h.seen.join('\n')).not.toContain('outside file');
  });

  it('a link committed in the repository but replaced in the checkout is caught in the worktree', async () => {
    const project = await makeProject([{ name: 'linked' }]);
    const target = await outsideFile();
    const skillMd = skillFile(project, 'linked', 'SKILL.md');
    await rm(skillMd);
    await symlink(target, skillMd);
    await commitAll(project, 'link SKILL.md');
    // The checkout holds a regular file again (uncommitted); the worktree is made from the commit.
    await rm(skillMd);
    await writeFile(skillMd, SKILL_MD);
    const h = await harness(project);

    const run = await h.run();

    expect(run.results.map((r) => r.status)).toEqual(['skipped (symlink: .claude/skills/linked/SKILL.md)']);
    expect(h.warnings.some((w) => w.includes('in the worktree'))).toBe(true);
    expect(await readFile(target, 'utf8')).toBe(OUTSIDE_TEXT);
    expect(h.seen).toEqual([]);
    expect(await readdir(h.home)).toEqual([]);
  });

  it('results.tsv linked to an outside file: skipped, and nothing is appended to the file', async () => {
    const project = await makeProject([{ name: 'demo' }, { name: 'good-one' }]);
    const target = await outsideFile('results.tsv');
    // Old enough that the freshness filter (which reads the mtime) does not leave the skill out.
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    await utimes(target, lastWeek, lastWeek);
    await symlink(target, skillFile(project, 'demo', 'evals', 'results.tsv'));
    const h = await harness(project);

    const run = await h.run();

    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['good-one', 'shipped']]);
    expect(run.excludedOther?.map((e) => [e.skill, e.reason])).toEqual([
      ['demo', 'symlink: .claude/skills/demo/evals/results.tsv is a symbolic link'],
    ]);
    expect(await readFile(target, 'utf8')).toBe(OUTSIDE_TEXT);
  });

  it('an eval file linked elsewhere: skipped before the evals are read', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    const target = await outsideFile('evals.json');
    await writeFile(target, JSON.stringify({ ...EVALS, skill: 'demo' }));
    const evalsJson = skillFile(project, 'demo', 'evals', 'evals.json');
    await rm(evalsJson);
    await symlink(target, evalsJson);
    const h = await harness(project);

    const run = await h.run();

    expect(run.queue).toEqual([]);
    expect(run.excludedOther?.map((e) => e.reason)).toEqual([
      'symlink: .claude/skills/demo/evals/evals.json is a symbolic link',
    ]);
    expect(h.seen).toEqual([]);
  });

  it('a skill folder linked to a folder outside the checkout: skipped, naming the linked folder', async () => {
    const project = await makeProject([{ name: 'good-one' }]);
    const outside = await tempDir('skillclimb-outside-skill-');
    await mkdir(path.join(outside, 'evals'), { recursive: true });
    await writeFile(path.join(outside, 'SKILL.md'), OUTSIDE_TEXT);
    await writeFile(path.join(outside, 'evals', 'evals.json'), JSON.stringify({ ...EVALS, skill: 'away' }));
    await writeFile(
      path.join(outside, 'evals', 'test_scenarios.json'),
      JSON.stringify({ ...SCENARIOS, skill: 'away' }),
    );
    await symlink(outside, skillFile(project, 'away'));
    const h = await harness(project);

    const run = await h.run();

    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['good-one', 'shipped']]);
    expect(run.excludedOther?.map((e) => [e.skill, e.reason])).toEqual([
      ['away', `symlink: .claude/skills/away leads outside the repository (to ${outside})`],
    ]);
    expect(await readFile(path.join(outside, 'SKILL.md'), 'utf8')).toBe(OUTSIDE_TEXT);
    expect(await readdir(path.join(outside, 'evals'))).toEqual(['evals.json', 'test_scenarios.json']);
  });

  it('a dry run and a real run take the same decision on every link', async () => {
    const project = await makeProject([{ name: 'linked' }, { name: 'plain' }]);
    const target = await outsideFile();
    await rm(skillFile(project, 'linked', 'SKILL.md'));
    await symlink(target, skillFile(project, 'linked', 'SKILL.md'));
    const outside = await tempDir('skillclimb-outside-skill-');
    await writeFile(path.join(outside, 'SKILL.md'), OUTSIDE_TEXT);
    await symlink(outside, skillFile(project, 'away'));
    const h = await harness(project);
    const log: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };

    const plan = await planIterate(
      { ...h.options, dryRun: true },
      { ...createLocalPlanPorts(project, { log }), freshness: { lastRunAt: async () => null } },
    );
    const run = await h.run();
    expect(plan.queue).toEqual(['plain']);
    expect(run.queue).toEqual(plan.queue);
    expect(run.excludedOther).toEqual(plan.excludedOther);
    expect(plan.excludedOther.map((e) => e.skill)).toEqual(['away', 'linked']);
  });

  it('a symlinked skills root inside the repository is followed and the squash commits the real path', async () => {
    const project = await makeProject([]);
    await mkdir(path.join(project, 'skills', 'demo', 'evals'), { recursive: true });
    await writeFile(path.join(project, 'skills', 'demo', 'SKILL.md'), SKILL_MD);
    await writeFile(path.join(project, 'skills', 'demo', 'evals', 'evals.json'), JSON.stringify(EVALS));
    await writeFile(
      path.join(project, 'skills', 'demo', 'evals', 'test_scenarios.json'),
      JSON.stringify(SCENARIOS),
    );
    await mkdir(path.join(project, '.claude'), { recursive: true });
    await symlink('../skills', path.join(project, '.claude', 'skills'));
    await commitAll(project, 'skills behind a linked root');
    const h = await harness(project);

    const run = await h.run();

    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['demo', 'shipped']]);
    expect(git(project, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('skills/demo/SKILL.md');
    expect(await readFile(path.join(project, 'skills', 'demo', 'SKILL.md'), 'utf8')).toContain('SUMMARY');
    // results.tsv went to the real folder too, never through the link as a separate file.
    expect((await lstat(path.join(project, '.claude', 'skills'))).isSymbolicLink()).toBe(true);
    expect(await readdir(path.join(project, 'skills', 'demo', 'evals'))).toContain('results.tsv');
  });
});

describe('decideSkillFolder', () => {
  it('follows a folder linked inside the repository to its real path', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    const roots = { project, repository: project };
    expect(await decideSkillFolder(roots, '.claude/skills/demo')).toEqual({
      ok: true,
      dir: '.claude/skills/demo',
    });
    await symlink('demo', skillFile(project, 'alias'));
    expect((await lstat(skillFile(project, 'alias'))).isSymbolicLink()).toBe(true);
    expect(await decideSkillFolder(roots, '.claude/skills/alias')).toEqual({
      ok: true,
      dir: '.claude/skills/demo',
    });
    // In a worktree the committed path must be real: a linked folder is refused there.
    expect(await decideSkillFolder({ ...roots, followLinks: false }, '.claude/skills/alias')).toMatchObject({
      ok: false,
      link: '.claude/skills/alias',
    });
  });

  it('refuses a link nested in an evals sub-folder, naming it', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    await mkdir(skillFile(project, 'demo', 'evals', 'fixtures'));
    await symlink('/etc/hostname', skillFile(project, 'demo', 'evals', 'fixtures', 'input.txt'));
    expect(await decideSkillFolder({ project, repository: project }, '.claude/skills/demo')).toEqual({
      ok: false,
      reason: 'symlink: .claude/skills/demo/evals/fixtures/input.txt is a symbolic link',
      link: '.claude/skills/demo/evals/fixtures/input.txt',
    });
  });
});

describe('appendResultsRow and links', () => {
  const row: ResultsRow = {
    commit: 'abc1234',
    score: 0.5,
    status: 'baseline',
    description: 'x',
    wallSeconds: 1,
  };

  it('refuses to append through a linked results.tsv and leaves the target unchanged', async () => {
    const dir = await tempDir('skillclimb-results-');
    const target = await outsideFile('results.tsv');
    const file = path.join(dir, 'results.tsv');
    await symlink(target, file);
    await expect(appendResultsRow(file, row)).rejects.toBeInstanceOf(SymlinkedResultsFileError);
    await expect(appendResultsRow(file, row)).rejects.toThrow(/results\.tsv must be a regular file/);
    expect(await readFile(target, 'utf8')).toBe(OUTSIDE_TEXT);
  });

  it('refuses a dangling link instead of creating its target', async () => {
    const dir = await tempDir('skillclimb-results-');
    const target = path.join(await tempDir('skillclimb-outside-'), 'created.tsv');
    const file = path.join(dir, 'results.tsv');
    await symlink(target, file);
    await expect(appendResultsRow(file, row)).rejects.toBeInstanceOf(SymlinkedResultsFileError);
    await expect(lstat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a linked evals folder', async () => {
    const dir = await tempDir('skillclimb-results-');
    const outside = await tempDir('skillclimb-outside-');
    await symlink(outside, path.join(dir, 'evals'));
    await expect(appendResultsRow(path.join(dir, 'evals', 'results.tsv'), row)).rejects.toBeInstanceOf(
      SymlinkedResultsFileError,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it('still appends to a regular file', async () => {
    const dir = await tempDir('skillclimb-results-');
    const file = path.join(dir, 'results.tsv');
    await appendResultsRow(file, row);
    await appendResultsRow(file, row);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(3);
  });
});
