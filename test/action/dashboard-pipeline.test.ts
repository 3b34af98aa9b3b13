/**
 * The dashboard issue through the Action's pipeline (src/action/main.ts): `mode: run` nights with an
 * injected engine that plans with the real queue (so the orders' effect on skip-list and freshness is
 * the real one), `mode: summarize` jobs, a dry run, and `dashboard: false`. GitHub is nock at the HTTP
 * layer (an in-memory issues API with edit history and permissions); git is real (a bare origin).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parseOrders, writtenState } from '../../src/action/dashboard-body.js';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { PipelineEngine } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { RESULT_FILE_FORMAT, writeRunFile, type RunFile } from '../../src/action/result-file.js';
import type { RunResult, SkillResult } from '../../src/core/iterate/run-result.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { planIterate } from '../../src/iterate/plan.js';
import { fakeIssues, type FakeIssues } from '../helpers/dashboard-github.js';
import {
  cleanupTempDirs,
  git,
  GITHUB_API as API,
  makeRemote,
  nightContext,
} from '../helpers/github-fixtures.js';
import { looseNock } from '../helpers/nock-frame.js';
import { releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { nightSkillFiles, recordingIo } from '../helpers/action-io.js';

const NOW = new Date('2026-05-24T03:00:00Z');

async function repository() {
  const { origin, checkout } = await makeRemote(
    {
      ...nightSkillFiles('alpha'),
      ...nightSkillFiles('beta'),
      '.claude/skills/gamma/SKILL.md': '---\nname: gamma\ndescription: no evals yet\n---\n# gamma\n',
    },
    { checkout: 'actions' },
  );
  return { origin, checkout, ctx: await nightContext(checkout) };
}

/** A long freshness window: a skill that ran stays fresh over the nights of a test. */
function inputs(values: Partial<Record<ActionInputName, string>> = {}) {
  return parseInputs(
    (name) =>
      ({
        'github-token': 'ghs_t',
        base: 'main',
        'state-branch': 'skill-iterate-state',
        'freshness-hours': '100',
        ...values,
      })[name] ?? '',
  );
}

/** The issues API, and 404 for everything else (no kill-switch file, no variable). */
function github(): FakeIssues {
  const fake = fakeIssues(API);
  nock(API).persist().get(/.*/).reply(404, { message: 'Not Found' });
  return fake;
}

const HEADER = 'commit\tscore\tstatus\tdescription\twall_seconds\n';
/** One night's rows (a baseline and a keep), told apart by the night's date. */
const nightRows = (night: Date, final: number) => {
  const tag = night.toISOString().slice(5, 10).replace('-', '');
  return (
    `a${tag}aa\t0.500000\tbaseline\tinitial baseline\t1.000\n` +
    `b${tag}bb\t${final.toFixed(6)}\tkeep\tlabel the fence\t2.000\n`
  );
};

function result(skill: string, final: number): SkillResult {
  return {
    skill,
    baselineScore: 0.5,
    finalScore: final,
    iterations: 1,
    wallSecondsTotal: 3,
    status: 'no-improvement',
    link: undefined,
    keptEdits: [],
    linesDelta: 0,
    usage: { ...ZERO_USAGE, calls: 4, inputTokens: 1000, outputTokens: 200 },
    rows: [
      { commit: 'aaaaaaa', score: 0.5, status: 'baseline', description: 'initial baseline', wallSeconds: 1 },
      { commit: 'bbbbbbb', score: final, status: 'keep', description: 'label the fence', wallSeconds: 2 },
    ],
    measurement: {
      keepRule: 'noise-aware',
      findings: [{ assertionId: 2, kind: 'flaky', evidence: 'verdict changed' }],
      statements: {},
      uplift: {
        with: { passes: 6, total: 8 },
        without: { passes: 2, total: 8 },
        uplift: 0.5,
        measurable: true,
        perAssertion: [],
      },
    },
  };
}

/** An engine that plans with the real queue and "runs" each queued skill (rows on disk, a result). */
function planningEngine(calls: Array<{ options: IterateOptions; queue: string[] }>): PipelineEngine {
  return {
    async runIterate(options, ports): Promise<RunResult> {
      const plan = await planIterate(options, ports);
      await ports.events?.emit({ type: 'plan-ready', plan });
      calls.push({ options, queue: plan.queue });
      const results = [];
      for (const skill of plan.queue) {
        // The engine appends a night to the history the Action restored from the state branch.
        const file = path.join(options.project, `.claude/skills/${skill}/evals/results.tsv`);
        const before = await readFile(file, 'utf8').catch(() => HEADER);
        await writeFile(file, `${before}${nightRows(ports.now(), 0.625)}`);
        results.push(result(skill, 0.625));
      }
      return {
        startedAt: ports.now(),
        endedAt: ports.now(),
        partial: null,
        queue: plan.queue,
        results,
        excludedBySkipList: plan.excludedBySkipList,
        excludedByFreshness: plan.excludedByFreshness,
        excludedOther: plan.excludedOther,
        summaryPath: undefined,
        usage: results.reduce((u, r) => ({ ...u, calls: u.calls + r.usage.calls }), { ...ZERO_USAGE }),
        modelsLabel: 'offline',
      };
    },
  };
}

/** Ticks the box of `name` in `kind`'s section, as a click on GitHub does. */
const tick = (kind: string, name: string) => (body: string) => {
  const start = body.indexOf(`<!-- skillclimb:orders ${kind} -->`);
  const line = body.indexOf(`- [ ] \`${name}\``, start);
  expect(line, `${kind} ${name}`).toBeGreaterThan(start);
  return `${body.slice(0, line)}- [x]${body.slice(line + 5)}`;
};
const untick = (kind: string, name: string) => (body: string) => {
  const start = body.indexOf(`<!-- skillclimb:orders ${kind} -->`);
  const line = body.indexOf(`- [x] \`${name}\``, start);
  expect(line, `${kind} ${name}`).toBeGreaterThan(start);
  return `${body.slice(0, line)}- [ ]${body.slice(line + 5)}`;
};

const creates = (fake: FakeIssues) => fake.requests.filter((r) => r === 'POST /repos/acme/skills/issues');

looseNock(cleanupTempDirs);

describe('the dashboard issue of mode: run', () => {
  it('is created on the first night and updated in place on the next, never duplicated', async () => {
    const fake = github();
    const { ctx } = await repository();
    const calls: Array<{ options: IterateOptions; queue: string[] }> = [];

    const night1 = await runPipeline(inputs(), ctx, recordingIo(), planningEngine(calls));
    expect(night1.failure).toBeUndefined();
    expect(calls[0]?.queue).toEqual(['alpha', 'beta']);
    expect(fake.open()).toHaveLength(1);
    const [issue] = fake.open();
    expect(issue).toMatchObject({ title: 'skillclimb dashboard', labels: ['skill-iterate'] });
    expect(issue!.body).toContain('2 skills run, 0 shipped, 0 parked; 8 model calls');
    expect(issue!.body).toMatch(
      /\| `alpha` \| 0\.6250\* \| {2}\| \+0\.5000 \| no improvement \| flaky: #\u200D2 \|/,
    );
    expect(issue!.body).toContain('| `gamma` | – |  | – | excluded: no evals; next: run');

    const night2 = await runPipeline(
      inputs(),
      ctx,
      recordingIo(new Date('2026-05-25T03:00:00Z')),
      planningEngine(calls),
    );
    expect(night2.failure).toBeUndefined();
    expect(calls[1]?.queue).toEqual([]);
    expect(fake.open().map((i) => i.number)).toEqual([issue!.number]);
    expect(creates(fake)).toHaveLength(1);
    const body = fake.open()[0]!.body;
    expect(body).toContain('Last night: 2026-05-25 03:00 UTC');
    // What the state branch recorded of the first night: the composite, the uplift, the findings, the freshness.
    expect(body).toMatch(
      /\| `alpha` \| 0\.6250\* \| {2}\| \+0\.5000 \| fresh until 2026-05-28 07:00 UTC \| flaky: #\u200D2 \|/,
    );
  });

  it('honours each checkbox on the next night, clears the one-off boxes and keeps the skip', async () => {
    const fake = github();
    fake.permissions = { maintainer: 'write' };
    const { ctx } = await repository();
    const calls: Array<{ options: IterateOptions; queue: string[] }> = [];
    await runPipeline(inputs(), ctx, recordingIo(), planningEngine(calls));
    const number = fake.open()[0]!.number;

    fake.editAsPerson(number, 'maintainer', (b) =>
      // A note of the maintainer's own below the marker line changes nothing the parser reads.
      tick(
        'evals-init',
        'gamma',
      )(tick('skip', 'beta')(tick('run', 'alpha')(b))).replace('\n', '\nOur note: - [x] `beta`\n'),
    );
    const io = recordingIo(new Date('2026-05-25T03:00:00Z'));
    await runPipeline(inputs(), ctx, io, planningEngine(calls));

    // alpha ran although fresh; beta was skipped by the order (it would have been fresh anyway).
    expect(calls[1]?.queue).toEqual(['alpha']);
    expect(calls[1]?.options.skipList).toContain('beta');
    const body = fake.open()[0]!.body;
    expect(parseOrders(body)).toEqual({ run: [], skip: ['beta'], 'evals-init': [] });
    expect(writtenState(body)).toEqual({ run: [], skip: ['beta'], 'evals-init': [] });
    expect(body).toContain('- Ran `alpha` as ordered (freshness ignored); the box is cleared.');
    expect(body).toMatch(/- Evals init for `gamma` failed \(.*model.*\); the box is cleared\./);
    expect(body).toContain('| `beta` | 0.6250* |  | +0.5000 | skipped (dashboard order, until unchecked) |');
    // Two nights of alpha on the state branch: a trend.
    expect(body).toContain('| `alpha` | 0.6250* | ▄▄ | +0.5000 | no improvement |');
    expect(io.log.infos).toContain(`dashboard #${number} orders: run alpha; skip beta; evals-init gamma`);

    // The skip stands on the third night without anyone touching the issue; unticked, it ends.
    const night4 = new Date('2026-05-29T03:00:00Z');
    await runPipeline(inputs(), ctx, recordingIo(new Date('2026-05-26T03:00:00Z')), planningEngine(calls));
    expect(calls[2]?.options.skipList).toContain('beta');
    fake.editAsPerson(number, 'maintainer', untick('skip', 'beta'));
    await runPipeline(inputs(), ctx, recordingIo(night4), planningEngine(calls));
    expect(calls[3]?.options.skipList).not.toContain('beta');
    expect(calls[3]?.queue).toEqual(['beta']);
    expect(writtenState(fake.open()[0]!.body)).toEqual({ run: [], skip: [], 'evals-init': [] });
    expect(creates(fake)).toHaveLength(1);
  });

  it('opens the evals-init pull request a "re-run evals init" box orders, and links it', async () => {
    // The author model (served by nock) writes gamma's eval files; the night itself stays offline.
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: JSON.stringify(validAnswer()) }], {
          input_tokens: 1500,
          output_tokens: 700,
        }),
      );
    let opened: Record<string, unknown> = {};
    nock(API)
      .get('/repos/acme/skills/pulls')
      .query(true)
      .reply(200, [])
      .post('/repos/acme/skills/pulls', (body: Record<string, unknown>) => ((opened = body), true))
      .reply(201, { number: 31, html_url: 'https://github.test/acme/skills/pull/31' })
      .post('/repos/acme/skills/issues/31/labels')
      .reply(200, []);
    const fake = github();
    fake.permissions = { maintainer: 'admin' };
    const { origin, checkout } = await makeRemote(
      {
        ...nightSkillFiles('alpha'),
        '.claude/skills/gamma/SKILL.md': releaseNotesSkill('gamma'),
        'skillclimb.config.json': JSON.stringify({
          models: { default: 'offline', author: 'anthropic:claude-haiku-4-5' },
        }),
      },
      { checkout: 'actions' },
    );
    const ctx = await nightContext(checkout, { ANTHROPIC_API_KEY: 'sk-ant-dashboard-test' });
    await runPipeline(inputs(), ctx, recordingIo(), planningEngine([]));
    const number = fake.open()[0]!.number;

    fake.editAsPerson(number, 'maintainer', tick('evals-init', 'gamma'));
    await runPipeline(inputs(), ctx, recordingIo(new Date('2026-05-25T03:00:00Z')), planningEngine([]));

    expect(opened).toMatchObject({ head: 'skillclimb/evals-init', base: 'main' });
    expect(
      git(origin, 'show', '--name-only', '--format=', 'skillclimb/evals-init').split('\n').sort(),
    ).toEqual(['.claude/skills/gamma/evals/evals.json', '.claude/skills/gamma/evals/test_scenarios.json']);
    const body = fake.open()[0]!.body;
    expect(body).toContain(
      '- Re-ran evals init for `gamma` as ordered: [pull request](https://github.test/acme/skills/pull/31); the box is cleared.',
    );
    expect(parseOrders(body)['evals-init']).toEqual([]);
  });

  it('ignores a checkbox ticked by a read-only user, and says so on the dashboard', async () => {
    const fake = github();
    fake.permissions = { reader: 'read' };
    const { ctx } = await repository();
    const calls: Array<{ options: IterateOptions; queue: string[] }> = [];
    await runPipeline(inputs(), ctx, recordingIo(), planningEngine(calls));
    const number = fake.open()[0]!.number;

    fake.editAsPerson(number, 'reader', (b) => tick('skip', 'alpha')(tick('run', 'beta')(b)));
    const io = recordingIo(new Date('2026-05-25T03:00:00Z'));
    await runPipeline(inputs(), ctx, io, planningEngine(calls));

    expect(calls[1]?.queue).toEqual([]);
    expect(calls[1]?.options.skipList).not.toContain('alpha');
    const body = fake.open()[0]!.body;
    expect(parseOrders(body)).toEqual({ run: [], skip: [], 'evals-init': [] });
    const note =
      'Changed checkboxes were ignored: the issue was edited by reader, without write access to the repository. ' +
      'Someone with write access can tick them again.';
    expect(body).toContain(`- ${note}`);
    expect(io.log.warnings).toContain(`dashboard: ${note}`);
    expect(fake.requests).toContain('GET /repos/acme/skills/collaborators/reader/permission');
  });

  it('is neither read nor written with dashboard: false, nor by a matrix job (one skill)', async () => {
    const fake = github();
    const { ctx } = await repository();
    await runPipeline(inputs({ dashboard: 'false' }), ctx, recordingIo(), planningEngine([]));
    expect(fake.requests.filter((r) => r.includes('/issues') || r.includes('graphql'))).toEqual([]);
    await runPipeline(inputs({ skill: 'alpha' }), ctx, recordingIo(), planningEngine([]));
    expect(fake.requests.filter((r) => r.includes('/issues'))).toEqual(['GET /repos/acme/skills/issues']);
    expect(fake.issues).toEqual([]);
  });
});

describe('the dashboard issue of mode: summarize and a dry run', () => {
  function runFile(skill: string, mode: 'plan' | 'run' = 'run'): RunFile {
    const results = mode === 'run' ? [result(skill, 0.75)] : [];
    return {
      format: RESULT_FILE_FORMAT,
      version: 1,
      mode,
      run: {
        startedAt: NOW,
        endedAt: NOW,
        partial: null,
        queue: mode === 'plan' ? ['alpha', 'beta'] : [skill],
        results,
        excludedBySkipList: [],
        excludedByFreshness: [],
        summaryPath: undefined,
        usage: { ...ZERO_USAGE },
        modelsLabel: 'offline',
      },
      shipped: [],
      parked: [],
      notShipped: [],
    };
  }

  it('leaves ONE dashboard when two matrix summaries write at the same time', async () => {
    const fake = github();
    const { ctx } = await repository();
    const dir = path.join(ctx.runnerTemp, 'artifacts');
    await writeRunFile(path.join(dir, 'plan', 'plan.json'), runFile('', 'plan'));
    await writeRunFile(path.join(dir, 'alpha', 'result.json'), runFile('alpha'));
    await writeRunFile(path.join(dir, 'beta', 'result.json'), runFile('beta'));
    const summarize = inputs({ mode: 'summarize', 'results-dir': dir });

    const [first, second] = await Promise.all([
      runPipeline(summarize, ctx, recordingIo()),
      runPipeline(summarize, ctx, recordingIo()),
    ]);
    expect(first.failure).toBeUndefined();
    expect(second.failure).toBeUndefined();
    const open = fake.open();
    expect(open).toHaveLength(1);
    expect(open[0]!.number).toBe(Math.min(...fake.issues.map((i) => i.number)));
    expect(open[0]!.body).toContain('| `alpha` | 0.7500* |');
    expect(open[0]!.body).toContain('| `beta` | 0.7500* |');
    expect(
      fake.issues.filter((i) => i.state === 'closed').every((i) => i.state_reason === 'not_planned'),
    ).toBe(true);

    // The next night's summary updates that one.
    await runPipeline(summarize, ctx, recordingIo());
    expect(fake.open().map((i) => i.number)).toEqual([open[0]!.number]);
    expect(creates(fake).length).toBe(fake.issues.length);
  });

  it('a dry run shows the body it would write in the job summary and calls no GitHub API', async () => {
    const fake = github();
    const { ctx } = await repository();
    const io = recordingIo();
    await runPipeline(inputs({ 'dry-run': 'true' }), ctx, io);
    expect(fake.requests).toEqual([]);
    const shown = io.summaries.join('\n');
    expect(shown).toContain('## The dashboard issue it would write (a dry run writes nothing)');
    expect(shown).toContain('<!-- skillclimb:dashboard -->');
    expect(shown).toContain('## Skills (3)');
    expect(io.log.infos).toContain(
      'dashboard: not written (a dry run writes nothing); the body it would write is in the job summary',
    );
  });
});
