/** Real temporary git repositories holding skills, for the git, loop and run tests. */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GraderInput } from '../../src/ports/models.js';
import { tempDirs } from './temp-dirs.js';
import type { IterateOptions } from '../../src/iterate/options.js';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
}

const temp = tempDirs('skillclimb-engine-', { resolveLinks: false });

export const tempDir = temp.make;
export const cleanupTempDirs = temp.removeAll;

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

/** The scripted grader of EVALS: assertion 1 passes when the render says SUMMARY, assertion 2 when it says TEST-NAME. */
export function gradeByMarkers(input: GraderInput) {
  const markers: Record<number, string> = { 1: 'SUMMARY', 2: 'TEST-NAME' };
  return {
    verdicts: Object.fromEntries(
      input.assertions.map((a) => [
        String(a.id),
        { verdict: input.output.includes(markers[a.id] ?? '\u0000'), reason: `marker for ${a.id}` },
      ]),
    ),
  };
}

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

/**
 * `skillclimb iterate`'s options for a one-iteration night on `project` in absolute mode, each field as the
 * CLI would set it, the worktrees under a fresh temporary home; `extra` replaces any of them.
 */
export async function oneNightOptions(
  project: string,
  extra: Partial<IterateOptions> = {},
): Promise<IterateOptions> {
  return {
    project,
    skill: undefined,
    queueFile: undefined,
    perSkillBudgetMs: 3_600_000,
    perSkillIterations: 1,
    skipList: [],
    calibrate: false,
    dryRun: false,
    mode: 'absolute',
    concurrency: 4,
    iterationTimeoutMs: 60_000,
    worktreeHome: await tempDir('skillclimb-home-'),
    maxCostUsd: undefined,
    ...extra,
  };
}
