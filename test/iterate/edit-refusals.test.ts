/**
 * Edits a night refuses whatever they score (issue 29 items 2 and 3): one that breaks the Agent Skills
 * name rule, and one that deletes the skill — kept by the scores alone in a structure-only night with the
 * original's keep rule and reading, and refused here, like an edit that breaks the frontmatter. The editor
 * is Anthropic's API served by nock (the real provider code runs); git is real.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Logger } from '../../src/ports/logger.js';
import { cleanupTempDirs, git, makeProject, tempDir } from '../helpers/engine-fixtures.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels, type SkillScript } from '../helpers/nock-skill-models.js';

strictNock();
afterEach(cleanupTempDirs);

/** A real skill with one defect the structural metrics see: a fence without a language. */
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
  '1. List the pull requests merged since the last tag:',
  '',
  '```',
  'gh pr list --state merged --search "merged:>=$(git log -1 --format=%cI "$(git describe --tags --abbrev=0)")"',
  '```',
  '',
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

const FROM_NAME = RELEASE_NOTES.slice(
  RELEASE_NOTES.indexOf('name: release-notes'),
  RELEASE_NOTES.indexOf('gh pr'),
);

/** Labels the fence (a real structural gain) and, when `name` is given, renames the skill in the same edit. */
function labelFence(name?: string): SkillScript['propose'] {
  const labelled = FROM_NAME.replace('```\n', '```bash\n');
  return () => ({
    description: 'label the gh fence as bash',
    old_string: FROM_NAME,
    new_string: name === undefined ? labelled : labelled.replace('name: release-notes', `name: ${name}`),
  });
}

async function night(propose: SkillScript['propose'], options: Partial<IterateOptions> = {}) {
  const project = await makeProject([{ name: 'release-notes', skillMd: RELEASE_NOTES }]);
  const info: string[] = [];
  const log: Logger = { info: (m) => info.push(m), warn: (m) => info.push(m), progress: () => undefined };
  const bodies = serveSkillModels({
    render: () => {
      throw new Error('a structure-only night renders nothing');
    },
    grade: () => {
      throw new Error('a structure-only night grades nothing');
    },
    propose,
  });
  const full: IterateOptions = {
    project,
    skill: undefined,
    queueFile: undefined,
    perSkillBudgetMs: 3_600_000,
    perSkillIterations: 1,
    skipList: [],
    calibrate: false,
    dryRun: false,
    mode: 'structural',
    keepRule: 'original',
    concurrency: 2,
    iterationTimeoutMs: 60_000,
    worktreeHome: await tempDir('skillclimb-home-'),
    maxCostUsd: undefined,
    ...options,
  };
  const before = git(project, 'rev-parse', 'HEAD').trim();
  const run = await runIterate(full, createLocalPorts(full, { models: anthropicSkillModels(), log }));
  const rows = parseResultsTsv(
    await readFile(path.join(project, '.claude/skills/release-notes/evals/results.tsv'), 'utf8'),
  );
  const shipped = git(project, 'rev-list', '--count', `${before}..HEAD`).trim() !== '0';
  const onMain = git(project, 'show', 'HEAD:.claude/skills/release-notes/SKILL.md');
  return { run, rows, shipped, onMain, bodies };
}

describe('an edit that breaks a rule of the specification', () => {
  it('is kept and shipped without the rename (the control)', async () => {
    const n = await night(labelFence());
    expect(n.rows.map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect(n.shipped).toBe(true);
    expect(n.onMain).toContain('```bash\n');
  });

  it('is refused with the rename that breaks the name rule, naming the file and the field', async () => {
    const n = await night(labelFence('Release_Notes'));
    expect(n.bodies.editor).toHaveLength(1);
    expect(n.rows.map((r) => r.status)).toEqual(['baseline', 'revert']);
    expect(n.rows[1]?.description).toBe(
      '[structural] label the gh fence as bash (revert: breaks the Agent Skills specification: ' +
        '.claude/skills/release-notes/SKILL.md: name: "Release_Notes" may hold only lowercase letters, ' +
        'digits and hyphens; .claude/skills/release-notes/SKILL.md: name: "Release_Notes" is not the ' +
        'skill\'s folder name "release-notes")',
    );
    // The score went up: only the rule refused it.
    expect(n.rows[1]!.score!).toBeGreaterThan(n.rows[0]!.score!);
    expect(n.shipped).toBe(false);
    expect(n.run.results[0]?.status).toBe('no-improvement');
    expect(n.onMain).toBe(RELEASE_NOTES);
  });
});

describe('an edit that deletes the skill', () => {
  const emptyBody: SkillScript['propose'] = () => ({
    description: 'simplify: drop everything after the front matter',
    old_string: RELEASE_NOTES.slice(RELEASE_NOTES.indexOf('# Release notes')),
    new_string: '',
  });

  it('is never kept or shipped, even where the original’s reading scores it higher', async () => {
    const n = await night(emptyBody, { structural: { reading: 'original' } });
    expect(n.rows.map((r) => r.status)).toEqual(['baseline', 'revert']);
    // Scored higher than the real skill, with fewer lines: the original kept and shipped this.
    expect(n.rows[1]!.score!).toBeGreaterThan(n.rows[0]!.score!);
    expect(n.rows[1]?.description).toMatch(
      /^\[structural\] simplify: drop everything after the front matter \(revert: removes most of the skill: it keeps 0 of \d+ words of instructions, 0 of 6 steps \(list items\), 0 of 4 sections \(headings\)\)$/,
    );
    expect(n.shipped).toBe(false);
    expect(n.onMain).toBe(RELEASE_NOTES);
  });

  it('scores lower than the skill in skillclimb’s reading', async () => {
    const n = await night(emptyBody);
    expect(n.rows[1]!.score!).toBeLessThan(n.rows[0]!.score!);
    expect(n.rows.map((r) => r.status)).toEqual(['baseline', 'revert']);
    expect(n.shipped).toBe(false);
  });
});
