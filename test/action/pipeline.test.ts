/**
 * The nightly pipeline (src/action/main.ts) around the engine: what survives when the engine throws after
 * some skills were done (its partial run), and the `kill-switch` input at launch, in plan and in dry-run.
 * The engine is injected; GitHub is nock at https://api.github.test; git is real (a bare origin).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { ActionContext } from '../../src/action/context.js';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { PipelineEngine } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { redactOutputs } from '../../src/action/secrets.js';
import { RESULT_FILE_FORMAT, writeRunFile, type RunFile } from '../../src/action/result-file.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import type { IteratePorts } from '../../src/ports/iterate.js';
import type { RunResult, SkillResult } from '../../src/core/iterate/run-result.js';
import { withPartialRun } from '../../src/iterate/run-error.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import {
  actionsCheckout,
  cleanupTempDirs,
  git,
  GITHUB_API as API,
  makeRemote,
  nightContext,
} from '../helpers/github-fixtures.js';
import { nightSkillFiles, recordingIo } from '../helpers/action-io.js';
import { looseNock } from '../helpers/nock-frame.js';
import { reportPlan } from '../helpers/pipeline-engines.js';

const NOW = new Date('2026-05-24T03:00:00Z');
const RESULTS_TSV =
  'commit\tscore\tstatus\tdescription\twall_seconds\n' +
  'aaaaaaa\t0.500000\tbaseline\tinitial baseline\t1.000\n' +
  'bbbbbbb\t0.600000\tkeep\tlabel the fence\t2.000\n';

async function night(): Promise<{ origin: string; checkout: string; ctx: ActionContext }> {
  // The checkout actions/checkout makes by default: depth 1, only `main`.
  const { origin, checkout } = await makeRemote(
    { ...nightSkillFiles('alpha'), ...nightSkillFiles('beta') },
    { earlierCommits: 1, checkout: 'actions' },
  );
  const ctx = await nightContext(checkout);
  return { origin, checkout, ctx };
}

/** `base` is given, so the default-branch lookup is not one of the requests. */
function inputs(values: Partial<Record<ActionInputName, string>> = {}) {
  return parseInputs(
    (name) =>
      ({ 'github-token': 'ghs_t', base: 'main', 'state-branch': 'skill-iterate-state', ...values })[name] ??
      '',
  );
}

/** Every GitHub request, answered 404 (no kill-switch file, no variable). */
function recordGitHub(): string[] {
  const requests: string[] = [];
  nock(API)
    .persist()
    .get(/.*/)
    .reply((uri) => (requests.push(`GET ${uri}`), [404, { message: 'Not Found' }]))
    .post(/.*/)
    .reply((uri) => (requests.push(`POST ${uri}`), [404, { message: 'Not Found' }]))
    .patch(/.*/)
    .reply((uri) => (requests.push(`PATCH ${uri}`), [404, { message: 'Not Found' }]));
  return requests;
}

function skillResult(skill: string): SkillResult {
  return {
    skill,
    baselineScore: 0.5,
    finalScore: 0.6,
    iterations: 1,
    wallSecondsTotal: 3,
    status: 'no-improvement',
    link: undefined,
    keptEdits: [],
    linesDelta: 0,
    usage: { ...ZERO_USAGE },
    rows: [
      { commit: 'aaaaaaa', score: 0.5, status: 'baseline', description: 'initial baseline', wallSeconds: 1 },
      { commit: 'bbbbbbb', score: 0.6, status: 'keep', description: 'label the fence', wallSeconds: 2 },
    ],
  };
}

/** An engine that finishes `alpha` (rows on disk, summary written), then throws with its partial run. */
function engineThatThrowsAfterAlpha(calls: IterateOptions[]): PipelineEngine {
  return {
    async runIterate(options: IterateOptions, ports: IteratePorts): Promise<RunResult> {
      calls.push(options);
      await ports.killSwitch.check(); // the launch poll
      await reportPlan(options, ports);
      await writeFile(path.join(options.project, '.claude/skills/alpha/evals/results.tsv'), RESULTS_TSV);
      const summaryPath = path.join(options.project, 'docs/skill-iterate-runs/2026-05-24-0300.md');
      const run: RunResult = {
        startedAt: NOW,
        endedAt: NOW,
        partial: { reason: 'exception: disk full', at: NOW },
        queue: ['alpha', 'beta'],
        results: [skillResult('alpha')],
        excludedBySkipList: [],
        excludedByFreshness: [],
        summaryPath,
        usage: { ...ZERO_USAGE },
        modelsLabel: ports.models.label,
      };
      throw withPartialRun(new Error('disk full'), run);
    },
  };
}

looseNock(cleanupTempDirs);

describe('the engine throws after some skills were done', () => {
  it('keeps them in the job summary, the outputs and the state branch, and still fails the job', async () => {
    recordGitHub();
    const { origin, ctx } = await night();
    const io = recordingIo();
    const calls: IterateOptions[] = [];

    const result = await runPipeline(inputs(), ctx, io, engineThatThrowsAfterAlpha(calls));

    expect(calls).toHaveLength(1);
    expect(result.failure).toBe('disk full');
    expect(result.outputs['summary-path']).toBe(
      path.join(ctx.workspace, 'docs/skill-iterate-runs/2026-05-24-0300.md'),
    );
    expect(JSON.parse(result.outputs.queue)).toEqual(['alpha', 'beta']);
    expect(io.summaries).toHaveLength(1);
    expect(io.summaries[0]).toMatch(/\| alpha \|/);
    expect(io.summaries[0]).toContain('exception: disk full');
    const lastRun = JSON.parse(
      git(origin, 'show', 'skill-iterate-state:state/alpha/last-run.json'),
    ) as Record<string, unknown>;
    expect(lastRun).toMatchObject({
      skill: 'alpha',
      status: 'no-improvement',
      final_score: 0.6,
      run_id: '77',
    });
    expect(git(origin, 'show', 'skill-iterate-state:state/alpha/results.tsv')).toBe(RESULTS_TSV.trimEnd());
  });

  it("falls back to an empty run (the engine's planned queue) when the error carries no partial run", async () => {
    recordGitHub();
    const { ctx } = await night();
    const io = recordingIo();
    const engine: PipelineEngine = {
      runIterate: async (options, ports) => {
        await reportPlan(options, ports);
        throw new Error('lock held');
      },
    };

    const result = await runPipeline(inputs(), ctx, io, engine);

    expect(result.failure).toBe('lock held');
    expect(result.outputs['summary-path']).toBe('');
    expect(JSON.parse(result.outputs.queue)).toEqual(['alpha', 'beta']);
    expect(io.summaries[0]).toContain('exception: lock held');
  });
});

describe('the kill-switch input', () => {
  it('stops the night at launch, before any model, GitHub request or push', async () => {
    const requests = recordGitHub();
    const { origin, ctx } = await night();
    const refs = git(origin, 'for-each-ref');
    const io = recordingIo();
    const calls: IterateOptions[] = [];

    const result = await runPipeline(
      inputs({ 'kill-switch': 'true' }),
      ctx,
      io,
      engineThatThrowsAfterAlpha(calls),
    );

    expect(result.failure).toBeUndefined();
    expect(calls).toEqual([]);
    expect(requests).toEqual([]);
    expect(git(origin, 'for-each-ref')).toBe(refs);
    expect(io.log.warnings).toEqual(['input kill-switch=true: skill-iterate did not start']);
    expect(io.summaries[0]).toContain('input kill-switch=true');
    expect(JSON.parse(result.outputs.shipped)).toEqual([]);
  });

  it('lets the night run when it is empty or false', async () => {
    for (const value of ['', 'false', '0']) {
      recordGitHub();
      const { ctx } = await night();
      const calls: IterateOptions[] = [];
      const result = await runPipeline(
        inputs({ 'kill-switch': value }),
        ctx,
        recordingIo(),
        engineThatThrowsAfterAlpha(calls),
      );
      expect(calls, value).toHaveLength(1);
      expect(result.failure).toBe('disk full');
      nock.cleanAll();
    }
  });

  it('empties the plan of a matrix and is reported by a dry run', async () => {
    const requests = recordGitHub();
    const { ctx } = await night();

    const plan = await runPipeline(inputs({ mode: 'plan', 'kill-switch': '1' }), ctx, recordingIo());
    expect(JSON.parse(plan.outputs.queue)).toEqual([]);

    const io = recordingIo();
    const dry = await runPipeline(inputs({ 'dry-run': 'true', 'kill-switch': 'yes' }), ctx, io);
    expect(JSON.parse(dry.outputs.queue)).toEqual(['alpha', 'beta']);
    expect(io.log.warnings).toEqual(['input kill-switch=yes: a real run would not start']);
    expect(requests).toEqual([]);
  });
});

describe('annotations for skipped and parked skills (summarize)', () => {
  it('warns once per skipped, not-shipped or parked skill, and not for a shipped one', async () => {
    const { ctx } = await night();
    const results: SkillResult[] = [
      { ...skillResult('alpha'), status: 'skipped (invalid evals: evals.json: categories: expected array)' },
      { ...skillResult('beta'), status: 'defect-park', link: 'https://github.test/acme/skills/issues/7' },
      { ...skillResult('delta'), status: 'skipped (open PR #41 already has final 1.00 >= 0.60)' },
      { ...skillResult('gamma'), status: 'calibration-park' },
      { ...skillResult('omega'), status: 'shipped', link: 'https://github.test/acme/skills/pull/9' },
    ];
    const file: RunFile = {
      format: RESULT_FILE_FORMAT,
      version: 1,
      mode: 'run',
      run: {
        startedAt: NOW,
        endedAt: NOW,
        partial: null,
        queue: results.map((r) => r.skill),
        results,
        excludedBySkipList: [],
        excludedByFreshness: [],
        summaryPath: undefined,
        usage: { ...ZERO_USAGE },
        modelsLabel: 'offline',
      },
      shipped: [],
      parked: [
        {
          skill: 'beta',
          kind: 'crashes',
          location: 'https://github.test/acme/skills/issues/7',
          via: 'issue',
        },
      ],
      notShipped: [{ skill: 'delta', reason: 'open PR #41 already has final 1.00 >= 0.60' }],
    };
    const dir = path.join(ctx.runnerTemp, 'artifacts');
    await writeRunFile(path.join(dir, 'job', 'result.json'), file);
    const io = recordingIo();

    // The dashboard has tests of its own (test/action/dashboard-pipeline.test.ts).
    const result = await runPipeline(
      inputs({ mode: 'summarize', 'results-dir': dir, dashboard: 'false' }),
      ctx,
      io,
    );

    expect(result.failure).toBeUndefined();
    expect(io.log.warnings).toEqual([
      'delta: not shipped: open PR #41 already has final 1.00 >= 0.60',
      'alpha: skipped (invalid evals: evals.json: categories: expected array)',
      'beta: defect-park → https://github.test/acme/skills/issues/7',
      'gamma: calibration-park',
    ]);
  });
});

/** An engine that records its options and finishes with `results` (no skill is really run). */
function recordingEngine(calls: IterateOptions[], results: SkillResult[] = []): PipelineEngine {
  return {
    runIterate: async (options, ports) => {
      calls.push(options);
      await reportPlan(options, ports);
      return {
        startedAt: NOW,
        endedAt: NOW,
        partial: null,
        queue: results.map((r) => r.skill),
        results,
        excludedBySkipList: [],
        excludedByFreshness: [],
        summaryPath: undefined,
        usage: { ...ZERO_USAGE },
        modelsLabel: 'offline',
      };
    },
  };
}

describe('the triggering event', () => {
  it('refuses pull_request_target with the PR head checked out, before any request, push or engine call', async () => {
    const requests = recordGitHub();
    const { origin, checkout } = await night();
    const ctx = await nightContext(checkout, {
      GITHUB_EVENT_NAME: 'pull_request_target',
      GITHUB_HEAD_REF: 'attacker/patch',
    });
    const refs = git(origin, 'for-each-ref');
    const calls: IterateOptions[] = [];

    for (const mode of ['run', 'plan'])
      await expect(runPipeline(inputs({ mode }), ctx, recordingIo(), recordingEngine(calls))).rejects.toThrow(
        /^refusing to run in a pull-request context \(event pull_request_target, GITHUB_HEAD_REF attacker\/patch\).*allow-events: pull_request_target/,
      );
    expect(calls).toEqual([]);
    expect(requests).toEqual([]);
    expect(git(origin, 'for-each-ref')).toBe(refs);
  });

  it('refuses other events, naming the event and the opt-in, and runs when allow-events lists it', async () => {
    recordGitHub();
    const { checkout } = await night();
    const push = await nightContext(checkout, { GITHUB_EVENT_NAME: 'push' });
    const calls: IterateOptions[] = [];

    await expect(runPipeline(inputs(), push, recordingIo(), recordingEngine(calls))).rejects.toThrow(
      'refusing to run on the push event: skill-iterate runs on schedule and workflow_dispatch only',
    );
    expect(calls).toHaveLength(0);
    await runPipeline(inputs({ 'allow-events': 'push' }), push, recordingIo(), recordingEngine(calls));
    expect(calls).toHaveLength(1);
  });

  it('runs on schedule, workflow_dispatch and locally (no event), and refuses a head ref on any of them', async () => {
    for (const event of ['schedule', 'workflow_dispatch', '']) {
      recordGitHub();
      const { checkout } = await night();
      const calls: IterateOptions[] = [];
      const ctx = await nightContext(checkout, { GITHUB_EVENT_NAME: event });
      await runPipeline(inputs(), ctx, recordingIo(), recordingEngine(calls));
      expect(calls, event).toHaveLength(1);
      const withHead = await nightContext(checkout, { GITHUB_EVENT_NAME: event, GITHUB_HEAD_REF: 'x' });
      await expect(runPipeline(inputs(), withHead, recordingIo(), recordingEngine(calls))).rejects.toThrow(
        /pull-request context/,
      );
      nock.cleanAll();
    }
  });
});

describe('freshness-hours', () => {
  it('hands the engine a 20-hour freshness window by default, and the input when given', async () => {
    recordGitHub();
    const { ctx } = await night();
    const calls: IterateOptions[] = [];
    await runPipeline(inputs(), ctx, recordingIo(), recordingEngine(calls));
    await runPipeline(inputs({ 'freshness-hours': '6' }), ctx, recordingIo(), recordingEngine(calls));
    expect(calls.map((c) => c.freshnessWindowMs)).toEqual([20 * 3_600_000, 6 * 3_600_000]);
  });
});

describe('the state-branch input', () => {
  it('refuses the base branch and the default branch', async () => {
    recordGitHub();
    const { origin, ctx } = await night();
    const refs = git(origin, 'for-each-ref');
    await expect(runPipeline(inputs({ 'state-branch': 'main' }), ctx, recordingIo())).rejects.toThrow(
      'input state-branch: main is the base branch',
    );
    git(origin, 'branch', 'release', 'main');
    await expect(
      runPipeline(inputs({ 'state-branch': 'main', base: 'release' }), ctx, recordingIo()),
    ).rejects.toThrow("input state-branch: main is the repository's default branch");
    expect(git(origin, 'for-each-ref', '--format=%(refname)')).toBe(
      refs
        .split('\n')
        .map((line) => line.split('\t')[1])
        .concat('refs/heads/release')
        .sort()
        .join('\n'),
    );
    expect(git(origin, 'log', '-1', '--format=%s', 'main')).toBe('initial');
  });

  it('refuses an existing branch whose history the Action did not create', async () => {
    recordGitHub();
    const { origin, ctx } = await night();
    git(origin, 'branch', 'notes', 'main'); // real history: roots at "earlier 1"
    const calls: IterateOptions[] = [];
    await expect(
      runPipeline(inputs({ 'state-branch': 'notes' }), ctx, recordingIo(), recordingEngine(calls)),
    ).rejects.toThrow(
      /^input state-branch: notes exists on origin and is not a state branch the Action created/,
    );
    expect(calls).toEqual([]);
    expect(git(origin, 'rev-parse', 'notes')).toBe(git(origin, 'rev-parse', 'main'));
  });

  it('accepts the state branch an earlier night created, from a fresh depth-1 checkout', async () => {
    recordGitHub();
    const { origin, ctx } = await night();
    await runPipeline(inputs(), ctx, recordingIo(), engineThatThrowsAfterAlpha([]));
    expect(Number(git(origin, 'rev-list', '--count', 'skill-iterate-state'))).toBeGreaterThan(1);
    const again = await nightContext(
      actionsCheckout(origin, path.join(path.dirname(ctx.workspace), 'checkout-2')),
    );
    const calls: IterateOptions[] = [];
    await runPipeline(inputs(), again, recordingIo(), recordingEngine(calls));
    expect(calls).toHaveLength(1);
  });
});

describe('redaction of outputs and the result file', () => {
  it('writes no token or key into the result file or the outputs', async () => {
    recordGitHub();
    const { ctx } = await night();
    const token = 'plain-token-value-0123456789';
    const leaky: SkillResult = {
      ...skillResult('alpha'),
      status: `skipped (error: HTTP 401 token ${token})`,
    };
    const result = await runPipeline(
      inputs({ 'github-token': token }),
      ctx,
      recordingIo(),
      recordingEngine([], [leaky]),
    );
    const text = await readFile(result.outputs['result-path'], 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain('HTTP 401 token [redacted]');
    expect(
      redactOutputs({ ...result.outputs, parked: JSON.stringify([{ location: `x ${token}` }]) }, [token])
        .parked,
    ).toBe('[{"location":"x [redacted]"}]');
  });
});
