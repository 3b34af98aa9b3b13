/**
 * The draw without the skill kept on the state branch (docs/action.md § The state branch; docs/how-it-works.md
 * § Decisions under noise, "Uplift"): the Action's first night writes `state/<skill>/uplift-without.json`
 * with the skill's results; the next night, on a fresh checkout, restores it and makes no render or grade
 * without the skill. Models are Anthropic's API served by nock; GitHub is a recording stand-in on the
 * loopback; git is real (a bare origin).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import { runPipeline } from '../../src/action/main.js';
import { parseBaselineDraws } from '../../src/core/iterate/baseline-draws-record.js';
import { parseUpliftRecord } from '../../src/core/iterate/uplift-record.js';
import { git, makeRemote, nightContext } from '../helpers/github-fixtures.js';
import { serveSkillModels } from '../helpers/nock-skill-models.js';
import { useRecordingGitHub } from '../helpers/recording-github-hooks.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';
import { recordingIo } from '../helpers/action-io.js';

const { apiUrl } = useRecordingGitHub();

const DIR = '.claude/skills/alpha';
const SKILL = {
  [`${DIR}/SKILL.md`]: '---\nname: alpha\ndescription: The alpha skill.\n---\n# alpha\n\nWrite a HEADING.\n',
  [`${DIR}/evals/evals.json`]: VALID_EVALS,
  [`${DIR}/evals/test_scenarios.json`]: VALID_SCENARIOS,
  '.gitignore': 'results.tsv\nuplift-without.json\n',
};

/** `baseUrl`: the `anthropic-base-url` input (the models' server); Anthropic's API when undefined. */
async function night(checkout: string, now: Date, baseUrl?: string) {
  nock.cleanAll();
  const bodies = serveSkillModels(
    {
      // With the skill assertion 1 passes, without it none does.
      render: ({ system }) => (system.includes('# alpha') ? 'skill|answer' : 'none|answer'),
      grade: ({ text, ids }) => (text.includes('skill|answer') ? ids.filter((id) => id === 1) : []),
      propose: () => ({
        description: 'reword',
        old_string: 'Write a HEADING.',
        new_string: 'Write a title.',
      }),
    },
    baseUrl,
  );
  const values: Partial<Record<ActionInputName, string>> = {
    'github-token': 'ghs_t',
    base: 'main',
    'anthropic-api-key': 'sk-ant-test',
    model: 'anthropic:claude-sonnet-4-5',
    'per-skill-iterations': '1',
    trials: '2',
    ...(baseUrl === undefined ? {} : { 'anthropic-base-url': baseUrl }),
  };
  const io = recordingIo(now);
  const result = await runPipeline(
    parseInputs((name) => values[name] ?? ''),
    await nightContext(checkout, { GITHUB_API_URL: apiUrl() }),
    io,
  );
  const withoutSkill = bodies.render.filter((r) => !r.system.includes('# alpha')).length;
  const baselineRenders = bodies.render.length - withoutSkill;
  return {
    result,
    withoutSkill,
    baselineRenders,
    calls: bodies.order.length,
    summary: io.summaries.join('\n'),
  };
}

describe('the draw without the skill on the state branch', () => {
  it('is saved with the skill’s state and restored on the next night, which draws no render without the skill', async () => {
    const { origin, checkout } = await makeRemote(SKILL, { checkout: 'actions' });

    const first = await night(checkout, new Date('2026-06-02T03:00:00Z'));
    expect(first.result.failure).toBeUndefined();
    expect(first.withoutSkill).toBe(1);
    const stored = git(origin, 'show', `skill-iterate-state:state/alpha/uplift-without.json`);
    const record = parseUpliftRecord(stored);
    expect(record?.pairs).toEqual([
      { scenarioId: 'scenario_1', assertionId: 1, pass: false },
      { scenarioId: 'scenario_1', assertionId: 2, pass: false },
    ]);

    // The next night's runner starts without the file: it comes from the state branch alone.
    const draws = git(origin, 'show', `skill-iterate-state:state/alpha/baseline-draws.json`);
    expect(parseBaselineDraws(draws)?.entries[0]?.draws).toHaveLength(1);
    await rm(path.join(checkout, DIR, 'evals/uplift-without.json'));
    await rm(path.join(checkout, DIR, 'evals/baseline-draws.json'));
    const second = await night(checkout, new Date('2026-06-03T03:00:00Z'));
    expect(second.result.failure).toBeUndefined();
    expect(second.withoutSkill).toBe(0);
    expect(second.baselineRenders).toBe(first.baselineRenders - 1);
    // Minus the render and grade without the skill, and the baseline's draw 1 (its render and grade),
    // which the stored draw on the branch stands in for.
    expect(second.calls).toBe(first.calls - 4);
    expect(git(origin, 'show', `skill-iterate-state:state/alpha/baseline-draws.json`)).toBe(draws);
    // Reused, not drawn again: the branch keeps the first night's record.
    expect(git(origin, 'show', `skill-iterate-state:state/alpha/uplift-without.json`)).toBe(stored);
    // The job summary says which draws are the first night's.
    expect(first.summary).not.toContain('earlier night');
    expect(second.summary).toContain(
      'trial 1 was drawn tonight, trial 2 on an earlier night (2026-06-02) and reused',
    );
    expect(second.summary).toContain('the side without the skill was drawn on an earlier night (2026-06-02)');
  }, 180_000);

  it('is drawn again when the same model is called at another server (anthropic-base-url)', async () => {
    const { origin, checkout } = await makeRemote(SKILL, { checkout: 'actions' });
    const first = await night(checkout, new Date('2026-06-02T03:00:00Z'));
    expect(first.result.failure).toBeUndefined();
    const stored = git(origin, 'show', `skill-iterate-state:state/alpha/uplift-without.json`);
    const draws = git(origin, 'show', `skill-iterate-state:state/alpha/baseline-draws.json`);

    const second = await night(checkout, new Date('2026-06-03T03:00:00Z'), 'https://llm-proxy.example.com');
    expect(second.result.failure).toBeUndefined();
    expect(second.withoutSkill).toBe(1);
    expect(second.baselineRenders).toBe(first.baselineRenders);
    expect(second.calls).toBe(first.calls);
    expect(second.summary).not.toContain('earlier night');
    // Both records replaced on the branch: new keys, drawn on the second night.
    const uplift = parseUpliftRecord(
      git(origin, 'show', `skill-iterate-state:state/alpha/uplift-without.json`),
    );
    expect(uplift?.key).not.toBe(parseUpliftRecord(stored)?.key);
    expect(uplift?.drawnAt.slice(0, 10)).toBe('2026-06-03');
    const after = parseBaselineDraws(
      git(origin, 'show', `skill-iterate-state:state/alpha/baseline-draws.json`),
    );
    expect(after?.entries[0]?.key).not.toBe(parseBaselineDraws(draws)?.entries[0]?.key);
  }, 180_000);
});
