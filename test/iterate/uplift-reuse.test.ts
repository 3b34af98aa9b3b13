/**
 * The draw without the skill kept between nights (docs/how-it-works.md § Decisions under noise, "Uplift"):
 * two `skillclimb iterate` nights on one checkout, models served by nock at Anthropic's API (the real
 * provider code runs), real git. The second night reuses the first night's draw without the skill while the
 * evals and models are unchanged, and draws again when they changed or the record cannot be read.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Logger } from '../../src/ports/logger.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels } from '../helpers/nock-skill-models.js';
import {
  cleanupTempDirs,
  EVALS,
  git,
  makeProject,
  oneNightOptions,
  SCENARIOS,
} from '../helpers/engine-fixtures.js';

strictNock();
afterEach(cleanupTempDirs);

const TWO_SCENARIOS = {
  ...SCENARIOS,
  scenarios: [
    { id: 's1', context: 'CTX-s1: the flaky login test.', expected_assertions: [1, 2] },
    { id: 's2', context: 'CTX-s2: the slow build.', expected_assertions: [1, 2] },
  ],
};

/** With the skill: s1 passes 1 and 2, s2 passes 1 (3 of 4). Without it: s1 passes 2 only (1 of 4). */
const PASSING: Record<string, number[]> = {
  'skill|s1': [1, 2],
  'skill|s2': [1],
  'none|s1': [2],
  'none|s2': [],
};

const RECORD = '.claude/skills/demo/evals/uplift-without.json';

/** `baseUrl`: the models' server (ANTHROPIC_BASE_URL), Anthropic's API when undefined. */
async function night(project: string, options: Partial<IterateOptions> = {}, baseUrl?: string) {
  const info: string[] = [];
  const warnings: string[] = [];
  // Each night its own model server: the calls counted are this night's.
  nock.cleanAll();
  const log: Logger = { info: (m) => info.push(m), warn: (m) => warnings.push(m), progress: () => undefined };
  const bodies = serveSkillModels(
    {
      render: ({ system, user }) =>
        `${system.includes('# Demo') ? 'skill' : 'none'}|${/CTX-(s\d)/.exec(user)?.[1] ?? '?'}|rendered`,
      grade: ({ text, ids }) => {
        const key = /(skill|none)\|(s\d)\|rendered/.exec(text);
        if (!key) throw new Error('grader call without a scripted render');
        return ids.filter((id) => PASSING[`${key[1]}|${key[2]}`]!.includes(id));
      },
      propose: () => {
        throw new Error('no editor call expected');
      },
    },
    baseUrl,
  );
  const full = await oneNightOptions(project, { perSkillIterations: 0, ignoreFreshness: true, ...options });
  const models = anthropicSkillModels(baseUrl);
  const run = await runIterate(full, createLocalPorts(full, { models, log }));
  const summary = run.summaryPath ? await readFile(run.summaryPath, 'utf8') : '';
  const withoutSkill = {
    renders: bodies.render.filter((r) => !r.system.includes('# Demo')).length,
    grades: bodies.grader.filter((g) => g.includes('none|')).length,
  };
  return { run, summary, bodies, withoutSkill, info, warnings };
}

const UPLIFT =
  /Uplift: pass rate with the skill 75\.0 % \(\d+ of \d+\) minus without it 25\.0 % \(1 of 4\) = \+50\.00 points/;

async function recordOf(project: string): Promise<{ key: string; drawn_at: string; pairs: unknown[] }> {
  return JSON.parse(await readFile(path.join(project, RECORD), 'utf8')) as {
    key: string;
    drawn_at: string;
    pairs: unknown[];
  };
}

describe('the draw without the skill across nights', () => {
  it('a second night with the stored record makes no render or grade without the skill and reports the same uplift', async () => {
    const project = await makeProject([{ name: 'demo', scenarios: TWO_SCENARIOS }]);
    const first = await night(project);
    expect(first.withoutSkill).toEqual({ renders: 2, grades: 2 });
    expect(first.summary).toMatch(UPLIFT);
    expect(first.summary).not.toContain('earlier night');
    const record = await recordOf(project);
    expect(record.pairs).toEqual([
      { scenario: 's1', assertion: 1, pass: false },
      { scenario: 's1', assertion: 2, pass: true },
      { scenario: 's2', assertion: 1, pass: false },
      { scenario: 's2', assertion: 2, pass: false },
    ]);
    // Verdicts only: no render text, no grader reason.
    expect(JSON.stringify(record)).not.toMatch(/rendered|scripted/);

    const second = await night(project);
    expect(second.withoutSkill).toEqual({ renders: 0, grades: 0 });
    // Every call of the first night but the two renders and two grades without the skill, and the
    // baseline's draw 1 (two renders, two grades), whose stored draw stands in for it
    // (test/iterate/baseline-reuse.test.ts).
    expect(second.bodies.order.length).toBe(first.bodies.order.length - 8);
    expect(second.run.results[0]?.usage.calls).toBe(first.run.results[0]!.usage.calls - 8);
    expect(second.summary).toMatch(UPLIFT);
    expect(second.summary).toContain(
      `the side without the skill was drawn on an earlier night (${record.drawn_at.slice(0, 10)}) and reused`,
    );
    expect(
      second.info.some((m) => m.includes(`the draw without the skill from ${record.drawn_at} is reused`)),
    ).toBe(true);
    // The record is kept as it was.
    expect(await recordOf(project)).toEqual(record);
  });

  it('a changed assertion makes the night draw again and replace the record', async () => {
    const project = await makeProject([{ name: 'demo', scenarios: TWO_SCENARIOS }]);
    await night(project);
    const before = await recordOf(project);
    const evals = structuredClone(EVALS);
    evals.categories[1]!.evals[0]!.statement = 'The output names the failing test and its file.';
    await writeFile(
      path.join(project, '.claude/skills/demo/evals/evals.json'),
      JSON.stringify(evals, null, 2),
    );
    git(project, 'commit', '-qam', 'reword assertion 2');

    const second = await night(project);
    expect(second.withoutSkill).toEqual({ renders: 2, grades: 2 });
    expect(second.summary).toMatch(UPLIFT);
    expect(second.summary).not.toContain('earlier night');
    expect(second.info.some((m) => m.includes('does not match'))).toBe(true);
    const after = await recordOf(project);
    expect(after.key).not.toBe(before.key);
    expect(after.pairs).toEqual(before.pairs);
  });

  it('the same model id at another server draws again and replaces the record; at the same server it reuses', async () => {
    const project = await makeProject([{ name: 'demo', scenarios: TWO_SCENARIOS }]);
    const first = await night(project, {}, 'https://llm-a.example.com');
    expect(first.withoutSkill).toEqual({ renders: 2, grades: 2 });
    const before = await recordOf(project);

    const other = await night(project, {}, 'https://llm-b.example.com');
    expect(other.withoutSkill).toEqual({ renders: 2, grades: 2 });
    expect(other.summary).toMatch(UPLIFT);
    expect(other.summary).not.toContain('earlier night');
    expect(other.info.some((m) => m.includes('does not match'))).toBe(true);
    const after = await recordOf(project);
    expect(after.key).not.toBe(before.key);
    expect(after.pairs).toEqual(before.pairs);

    // The same server again, its URL written another way: reused.
    const same = await night(project, {}, 'https://LLM-B.example.com:443/');
    expect(same.withoutSkill).toEqual({ renders: 0, grades: 0 });
    expect(same.summary).toContain('the side without the skill was drawn on an earlier night');
    expect(await recordOf(project)).toEqual(after);
  });

  it('an unreadable record is ignored with a warning naming the file, drawn again and replaced', async () => {
    const project = await makeProject([{ name: 'demo', scenarios: TWO_SCENARIOS }]);
    await night(project);
    const file = path.join(project, RECORD);
    const good = await recordOf(project);
    await writeFile(file, '{"version": 1, "key": "truncat');

    const second = await night(project);
    expect(second.warnings).toEqual([expect.stringContaining(`demo: ${file} is not a record`)]);
    expect(second.withoutSkill).toEqual({ renders: 2, grades: 2 });
    expect(second.summary).toMatch(UPLIFT);
    expect(second.run.results[0]?.status).toBe('no-improvement');
    const replaced = await recordOf(project);
    expect(replaced.key).toBe(good.key);
    expect(replaced.pairs).toEqual(good.pairs);
  });
});
