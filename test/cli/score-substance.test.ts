/**
 * `skillclimb score` on what issue 29 found (items 2 and 3): a pull request that empties a skill fails
 * `score --base` in every mode — structural, structural in the original's reading (where the emptied file
 * scores higher), and composite with Anthropic's API served by nock — and `score` lists each rule of the
 * Agent Skills specification the SKILL.md breaks, with its file and field. Git is real.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scoreCommand, type ScoreCommandOptions } from '../../src/cli/commands/score.js';
import type { CliIo } from '../../src/cli/io.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels } from '../helpers/nock-skill-models.js';

strictNock();

const RELEASE_NOTES = [
  '---',
  'name: release-notes',
  'description: Writes the release notes of a tagged version from the merged pull requests since the last tag.',
  '---',
  '# Release notes',
  '',
  'Write the notes for the people who install the package, not for the people who wrote the changes.',
  'Group the changes by what a user notices; leave out refactors and test-only changes.',
  '',
  '## Steps',
  '',
  '1. List the pull requests merged since the last tag with `gh pr list --state merged`.',
  '2. Sort each one into Added, Changed, Fixed or Removed by what it does for a user.',
  '3. Write one line per change, in the imperative, with the pull request number at the end.',
  '4. Put breaking changes first, under their own heading, with what a user must do.',
  '',
  '## Constraints',
  '',
  '- Never invent a change that no merged pull request made.',
  '- Keep each line under one hundred characters.',
  '',
  '## Limitations',
  '',
  'The notes cover merged pull requests only: direct pushes to the default branch are not listed.',
  '',
].join('\n');

const EVALS = {
  skill_name: 'release-notes',
  evals: [
    {
      id: 1,
      prompt:
        'Three pull requests were merged since v1.2.0: #41 adds --json, #42 fixes a crash, #43 renames a flag.',
      expected_output: 'Release notes grouped into Added, Fixed and Changed, the breaking rename first.',
      files: [],
      expectations: [
        'The notes list the breaking rename first',
        'Each line ends with its pull request number',
      ],
    },
  ],
};

let root: string;
let skillDir: string;
let io: CliIo & { stdout: string; stderr: string };

const sh = (...args: string[]) =>
  execFileSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-score-substance-'));
  skillDir = path.join(root, '.claude', 'skills', 'release-notes');
  await mkdir(path.join(skillDir, 'evals'), { recursive: true });
  await writeFile(path.join(skillDir, 'SKILL.md'), RELEASE_NOTES);
  await writeFile(path.join(skillDir, 'evals', 'evals.json'), `${JSON.stringify(EVALS, null, 2)}\n`);
  const state = { stdout: '', stderr: '' };
  io = {
    get stdout() {
      return state.stdout;
    },
    get stderr() {
      return state.stderr;
    },
    out: (t) => void (state.stdout += t),
    err: (t) => void (state.stderr += t),
    env: {},
    cwd: root,
    exitCode: 0,
  };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function commit(): void {
  sh('init', '--quiet', '--initial-branch=main');
  sh('add', '-A');
  sh('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '--quiet', '-m', 'base');
}

async function run(args: string[], options: ScoreCommandOptions = {}): Promise<void> {
  await scoreCommand(io, options).parseAsync(args, { from: 'user' });
}

/** The pull request of the issue: the front matter kept, everything under it deleted. */
const EMPTIED = RELEASE_NOTES.slice(0, RELEASE_NOTES.indexOf('# Release notes'));

describe('a pull request that empties a skill', () => {
  it('fails score --base HEAD --mode structural, saying why', async () => {
    commit();
    await writeFile(path.join(skillDir, 'SKILL.md'), EMPTIED);
    await run(['--base', 'HEAD', '--mode', 'structural', '--json']);
    expect(io.stderr).toBe('');
    const doc = JSON.parse(io.stdout);
    expect(doc.regressions).toEqual(['release-notes']);
    expect(doc.skills[0]).toMatchObject({ verdict: 'regression', change: 'changed' });
    expect(doc.skills[0].reason).toMatch(
      /^the head removes most of the skill: it keeps 0 of \d+ words of instructions, 0 of 6 steps \(list items\), 0 of 4 sections \(headings\)$/,
    );
    expect(io.exitCode).toBe(1);
  });

  it('fails it in the original reading too, where the emptied file scores higher', async () => {
    await writeFile(
      path.join(root, 'skillclimb.config.json'),
      JSON.stringify({ structural: { reading: 'original' } }),
    );
    commit();
    // The file emptied entirely: every metric of the original's reading is vacuously 1.0.
    await writeFile(path.join(skillDir, 'SKILL.md'), '');
    await run(['--base', 'HEAD', '--mode', 'structural']);
    // The scores alone said "improvement" (issue 29: 0.8561 -> 1.0000); the verdict is a regression.
    const line = io.stdout.split('\n').find((l) => l.startsWith('release-notes'));
    expect(line).toMatch(
      /^release-notes \(\.claude\/skills\/release-notes, changed\): 0\.\d{4} -> 1\.0000 \(\+0\.\d{4}\): regression -- the head removes most of the skill: it keeps 0 of \d+ words/,
    );
    expect(io.exitCode).toBe(1);
  });

  it('fails a composite check whose renders pass as often without the instructions', async () => {
    await writeFile(
      path.join(root, 'skillclimb.config.json'),
      JSON.stringify({ structural: { reading: 'original' }, trials: 2 }),
    );
    commit();
    await writeFile(path.join(skillDir, 'SKILL.md'), '');
    // A grader that passes every expectation whatever the render: the skill's text cannot matter to it.
    const bodies = serveSkillModels({
      render: () => '## Breaking\n- Rename --out to --output (#43)\n## Added\n- --json (#41)',
      grade: ({ ids }) => ids,
      propose: () => {
        throw new Error('score never edits');
      },
    });
    await run(['--base', 'HEAD', '--json'], { createModels: () => anthropicSkillModels() });
    expect(io.stderr).toBe('');
    const doc = JSON.parse(io.stdout);
    expect(doc.scoring).toBe('composite');
    expect(doc.skills[0].verdict).toBe('regression');
    expect(doc.skills[0].reason).toMatch(/^the head removes most of the skill/);
    expect(doc.skills[0].difference.gain).toBeGreaterThan(0);
    expect(bodies.render.length).toBeGreaterThan(0);
    expect(io.exitCode).toBe(1);
  });

  it('passes a pull request that rewords the skill and keeps its substance', async () => {
    commit();
    await writeFile(
      path.join(skillDir, 'SKILL.md'),
      RELEASE_NOTES.replace('Never invent a change', 'Never add a change'),
    );
    await run(['--base', 'HEAD', '--mode', 'structural', '--json']);
    expect(JSON.parse(io.stdout).regressions).toEqual([]);
    expect(io.exitCode).toBe(0);
  });

  it('fails one that breaks a rule of the specification the skill kept', async () => {
    commit();
    await writeFile(
      path.join(skillDir, 'SKILL.md'),
      RELEASE_NOTES.replace('name: release-notes', 'name: Release Notes'),
    );
    await run(['--base', 'HEAD', '--mode', 'structural', '--json']);
    const doc = JSON.parse(io.stdout);
    expect(doc.skills[0].verdict).toBe('regression');
    expect(doc.skills[0].reason).toContain(
      'the head breaks the Agent Skills specification: .claude/skills/release-notes/SKILL.md: name: "Release Notes" may hold only lowercase letters, digits and hyphens',
    );
    expect(io.exitCode).toBe(1);
  });
});

describe('score lists the specification’s rules a SKILL.md breaks', () => {
  const BROKEN = RELEASE_NOTES.replace('name: release-notes', 'name: Release--Notes').replace(
    '---\n# Release',
    'version: 2\n---\n# Release',
  );

  it('in the report, each with its file and field', async () => {
    await writeFile(path.join(skillDir, 'SKILL.md'), BROKEN);
    await run(['.claude/skills/release-notes', '--mode', 'structural']);
    expect(io.exitCode).toBe(0);
    const file = '.claude/skills/release-notes/SKILL.md';
    expect(io.stdout).toContain(
      [
        '',
        'specification: 4 rules of the Agent Skills specification broken',
        `  ${file}: name: "Release--Notes" may hold only lowercase letters, digits and hyphens`,
        `  ${file}: name: "Release--Notes" may not start or end with a hyphen or hold two in a row`,
        `  ${file}: name: "Release--Notes" is not the skill's folder name "release-notes"`,
        `  ${file}: version: not a field of the specification (line 4; it knows name, description, license, ` +
          'compatibility, metadata, allowed-tools; put your own under metadata)',
        '',
      ].join('\n'),
    );
  });

  it('in --json, and says so when there is none', async () => {
    await writeFile(path.join(skillDir, 'SKILL.md'), BROKEN);
    await run(['.claude/skills/release-notes', '--mode', 'structural', '--json']);
    const doc = JSON.parse(io.stdout);
    expect(doc.specification.map((v: { field: string; rule: string }) => `${v.field}/${v.rule}`)).toEqual([
      'name/characters',
      'name/hyphens',
      'name/folder',
      'version/unknown-field',
    ]);
    expect(doc.specification[0].file).toBe('.claude/skills/release-notes/SKILL.md');
    await writeFile(path.join(skillDir, 'SKILL.md'), RELEASE_NOTES);
    io.exitCode = 0;
    const before = io.stdout.length;
    await run(['.claude/skills/release-notes', '--mode', 'structural']);
    expect(io.stdout.slice(before)).toContain('specification: SKILL.md follows the Agent Skills rules');
  });

  it('shows the substance line of a short skill, whose score it scales', async () => {
    await writeFile(
      path.join(skillDir, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Writes release notes.\n---\n# Release notes\nList the merged pull requests.\n',
    );
    await run(['.claude/skills/release-notes', '--mode', 'structural', '--json']);
    const doc = JSON.parse(io.stdout);
    expect(doc.structural.substance).toEqual({ words: 7, needed: 100, factor: 0.07 });
    expect(doc.structural.score).toBeLessThan(0.1);
  });
});
