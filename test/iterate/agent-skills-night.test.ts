/**
 * A night over a skill whose evals are a skill-creator `evals/evals.json` (issue 29 item 1): iterated,
 * kept and shipped with no test_scenarios.json and no conversion — the file is byte for byte the same
 * after the night, on disk and in the shipped commit; each eval graded on its own expectations; the eval
 * marked `"skillclimb": {"holdout": true}` never shown to the editor and scored for the confirmation. The
 * models are Anthropic's API served by nock (the real provider code runs); git is real.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Logger } from '../../src/ports/logger.js';
import { cleanupTempDirs, git, oneNightOptions, SKILL_MD, tempDir } from '../helpers/engine-fixtures.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels } from '../helpers/nock-skill-models.js';

strictNock();
afterEach(cleanupTempDirs);

const HOLDOUT_STATEMENT = 'The output has a Summary heading before the release checklist';

const EVALS = `${JSON.stringify(
  {
    skill_name: 'demo',
    evals: [
      {
        id: 1,
        prompt: 'We chased the flaky login test all day. Wrap up the session.',
        expected_output: 'A short wrap-up with a Summary heading.',
        files: ['evals/files/notes.md'],
        expectations: ['The output has a Summary heading', 'The output names the failing test'],
      },
      {
        id: 2,
        prompt: 'A quiet day: one typo fixed in the README. Wrap up the session.',
        expected_output: 'Two lines: a Summary heading and the typo fix.',
        files: [],
        expectations: ['The output has a Summary heading'],
      },
      {
        id: 3,
        prompt: 'HOLDOUT-CONTEXT: release day, the checklist is half done. Wrap up the session.',
        expected_output: 'A Summary first, then what is left of the checklist.',
        files: [],
        expectations: [HOLDOUT_STATEMENT],
        skillclimb: { holdout: true },
      },
    ],
  },
  null,
  2,
)}\n`;

async function project(): Promise<string> {
  const dir = await tempDir('skillclimb-agent-skills-');
  const skill = path.join(dir, '.claude', 'skills', 'demo');
  await mkdir(path.join(skill, 'evals', 'files'), { recursive: true });
  await writeFile(path.join(skill, 'SKILL.md'), SKILL_MD);
  await writeFile(path.join(skill, 'evals', 'evals.json'), EVALS);
  await writeFile(
    path.join(skill, 'evals', 'files', 'notes.md'),
    '- login_test.py::test_flaky_login failed 3 of 10\n',
  );
  await writeFile(path.join(dir, '.gitignore'), 'results.tsv\n.skill-iterate.lock\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

describe('a night over a skill-creator evals.json', () => {
  it('is iterated and shipped with the file untouched, each eval on its own expectations, the holdout hidden', async () => {
    const repo = await project();
    // Each render names its text, its eval and its draw; the grader's verdicts are a table over them, so
    // the baseline is noisy (eval 1's test name passes on every other draw) and the confirmation runs.
    const counts = new Map<string, number>();
    const table: Record<string, Record<string, number[][]>> = {
      base: { e1: [[2], [], [2], [], [2], []], e2: [[]], h: [[]] },
      improved: { e1: [[1, 2]], e2: [[3]], h: [[4]] },
      none: { e1: [[]], e2: [[]], h: [[]] },
    };
    const bodies = serveSkillModels({
      render: ({ system, user }) => {
        // `none`: the uplift's render without the skill.
        const variant = !system.includes('# Demo')
          ? 'none'
          : system.includes('SUMMARY')
            ? 'improved'
            : 'base';
        const scenario = user.includes('HOLDOUT-CONTEXT') ? 'h' : user.includes('flaky login') ? 'e1' : 'e2';
        const key = `${variant}|${scenario}`;
        const k = counts.get(key) ?? 0;
        counts.set(key, k + 1);
        return `${key}|draw ${k}`;
      },
      grade: ({ text, ids }) => {
        const m = /(base|improved|none)\|(e1|e2|h)\|draw (\d+)/.exec(text);
        if (!m) throw new Error('grader call without a scripted render');
        const rows = table[m[1]!]![m[2]!]!;
        const pass = rows[Math.min(Number(m[3]), rows.length - 1)]!;
        return ids.filter((id) => pass.includes(id));
      },
      propose: () => ({
        description: 'ask for a SUMMARY heading',
        old_string: '## Constraints\n',
        new_string: '## Constraints\n\n- Start with a SUMMARY heading.\n',
      }),
    });
    const info: string[] = [];
    const log: Logger = { info: (m) => info.push(m), warn: (m) => info.push(m), progress: () => undefined };
    const options = await oneNightOptions(repo);
    const before = git(repo, 'rev-parse', 'HEAD').trim();

    const run = await runIterate(options, createLocalPorts(options, { models: anthropicSkillModels(), log }));

    expect(run.results[0]?.status).toBe('shipped');
    expect(git(repo, 'rev-list', '--count', `${before}..HEAD`).trim()).toBe('1');
    // The shipped commit changed SKILL.md alone; evals.json is the same bytes on disk and in the commit.
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('.claude/skills/demo/SKILL.md');
    expect(git(repo, 'show', 'HEAD:.claude/skills/demo/evals/evals.json')).toBe(EVALS);
    expect(await readFile(path.join(repo, '.claude/skills/demo/evals/evals.json'), 'utf8')).toBe(EVALS);
    expect((await readdir(path.join(repo, '.claude/skills/demo/evals'))).sort()).toEqual([
      'baseline-draws.json', // the run's own record of the draws no selection touched, beside results.tsv
      'evals.json',
      'files',
      'results.tsv',
      'uplift-without.json', // the run's own record of the draw without the skill, beside results.tsv
    ]);
    // Training: eval 1 (2 pairs) and eval 2 (1 pair), equally weighted: the baseline's three draws pass
    // 1, 0 and 1 of 3 pairs (mean 2/9), the edit all 3.
    const rows = parseResultsTsv(
      await readFile(path.join(repo, '.claude/skills/demo/evals/results.tsv'), 'utf8'),
    );
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect(rows[0]?.score).toBeCloseTo(2 / 9, 6);
    expect(rows[1]?.score).toBeCloseTo(1, 6);
    // Each grader call is asked its own eval's ids: 1 and 2 for eval 1, 3 for eval 2, 4 for the holdout.
    const asked = new Set(bodies.grader.map((b) => /ids: ([\d, ]+)\)/.exec(b)?.[1]));
    expect([...asked].sort()).toEqual(['1, 2', '3', '4']);
    // The input file reached the render.
    expect(bodies.render.some((r) => r.user.includes('File `evals/files/notes.md`'))).toBe(true);
    // The holdout was rendered only for the confirmation (three fresh draws of each text), never shown to
    // the editor, and its pass rate is reported.
    const holdout = bodies.render.filter((r) => r.user.includes('HOLDOUT-CONTEXT'));
    expect(holdout.map((r) => (r.system.includes('SUMMARY') ? 'improved' : 'base')).sort()).toEqual([
      'base',
      'base',
      'base',
      'improved',
      'improved',
      'improved',
    ]);
    expect(await readFile(run.summaryPath!, 'utf8')).toContain(
      'Holdout scenarios (never shown to the editor): 0 of 3 -> 3 of 3 passing checks',
    );
    expect(bodies.editor.length).toBeGreaterThan(0);
    for (const body of bodies.editor) {
      expect(body).not.toContain('HOLDOUT-CONTEXT');
      expect(body).not.toContain(HOLDOUT_STATEMENT);
    }
  });
});
