/** Real temporary git repositories holding skills, for the git, loop and run tests. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
}

const made: string[] = [];

export async function tempDir(prefix = 'skillclimb-engine-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export async function cleanupTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export const SKILL_MD = [
  '---',
  'name: demo',
  'description: A demo skill for the engine tests.',
  '---',
  '# Demo',
  '',
  '## Steps',
  '',
  '1. Read the notes.',
  '2. Write the summary.',
  '',
  '## Constraints',
  '',
  '- Keep it short.',
  '',
].join('\n');

export const EVALS = {
  skill: 'demo',
  version: '2.0',
  categories: [
    {
      name: 'Format',
      weight: 0.5,
      evals: [
        {
          id: 1,
          statement: 'The output has a Summary heading.',
          source: 'SKILL.md:7',
          defect_type: 'format',
        },
      ],
    },
    {
      name: 'Content',
      weight: 0.5,
      evals: [
        {
          id: 2,
          statement: 'The output names the failing test.',
          source: 'SKILL.md:9',
          defect_type: 'content',
        },
      ],
    },
  ],
};

export const SCENARIOS = {
  skill: 'demo',
  version: '1.0',
  scenarios: [
    {
      id: 'scenario_1',
      name: 'Flaky login',
      context: 'We chased the flaky login test all day.',
      expected_assertions: [1, 2],
    },
  ],
};

export interface SkillFixture {
  name: string;
  skillMd?: string;
  evals?: unknown;
  scenarios?: unknown;
  /** Raw evals.json text (overrides `evals`), e.g. to make it invalid. */
  evalsText?: string;
}

/** `git init -b main` + one commit holding the given skills under `.claude/skills/`. */
export async function makeProject(skills: SkillFixture[] = [{ name: 'demo' }]): Promise<string> {
  const project = await tempDir('skillclimb-project-');
  for (const skill of skills) {
    const dir = path.join(project, '.claude', 'skills', skill.name);
    await mkdir(path.join(dir, 'evals'), { recursive: true });
    await writeFile(
      path.join(dir, 'SKILL.md'),
      skill.skillMd ?? SKILL_MD.replace('name: demo', `name: ${skill.name}`),
    );
    await writeFile(
      path.join(dir, 'evals', 'evals.json'),
      skill.evalsText ?? JSON.stringify(skill.evals ?? { ...EVALS, skill: skill.name }, null, 2),
    );
    await writeFile(
      path.join(dir, 'evals', 'test_scenarios.json'),
      JSON.stringify(skill.scenarios ?? { ...SCENARIOS, skill: skill.name }, null, 2),
    );
  }
  await writeFile(path.join(project, '.gitignore'), 'results.tsv\n.skill-iterate.lock\n');
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'initial');
  return project;
}
