import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult, SkillResult } from '../../src/core/iterate/run-result.js';
import { renderJobSummary } from '../../src/action/job-summary.js';
import { buildOutputs } from '../../src/action/outputs.js';
import {
  mergeRunFiles,
  parseRunFile,
  readRunFiles,
  RESULT_FILE_FORMAT,
  writeRunFile,
  type RunFile,
} from '../../src/action/result-file.js';
import { cleanupTempDirs, ROWS, tempDir } from '../helpers/github-fixtures.js';

const usage = (calls: number, costUsd: number | null) => ({
  calls,
  inputTokens: 10 * calls,
  outputTokens: calls,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
});

function skill(name: string, status: SkillResult['status'], link?: string): SkillResult {
  return {
    skill: name,
    baselineScore: 0.75,
    finalScore: 0.875,
    iterations: 4,
    wallSecondsTotal: 606.75,
    status,
    link,
    keptEdits: [],
    linesDelta: -2,
    usage: usage(3, 0.01),
    rows: ROWS,
  };
}

function run(overrides: Partial<RunResult>): RunResult {
  return {
    startedAt: new Date('2026-05-24T02:00:00Z'),
    endedAt: new Date('2026-05-24T02:30:00Z'),
    partial: null,
    queue: [],
    results: [],
    excludedBySkipList: [],
    excludedByFreshness: [],
    summaryPath: undefined,
    usage: usage(0, null),
    modelsLabel: 'editor=anthropic:claude-sonnet-4-5',
    ...overrides,
  };
}

function file(mode: 'plan' | 'run', r: RunResult, extra: Partial<RunFile> = {}): RunFile {
  return {
    format: RESULT_FILE_FORMAT,
    version: 1,
    mode,
    run: r,
    shipped: [],
    parked: [],
    notShipped: [],
    ...extra,
  };
}

afterEach(cleanupTempDirs);

describe('result files', () => {
  it('round-trips through JSON with dates restored', async () => {
    const dir = await tempDir();
    const original = file(
      'run',
      run({
        queue: ['a'],
        results: [skill('a', 'shipped', 'https://x/pull/1')],
        excludedByFreshness: [{ skill: 'b', lastRunAt: new Date('2026-05-23T22:15:04Z') }],
      }),
    );
    await writeRunFile(path.join(dir, 'nested', 'r.json'), original);
    const [read] = await readRunFiles(dir);
    expect(read).toEqual(original);
    expect(read?.run.excludedByFreshness[0]?.lastRunAt).toBeInstanceOf(Date);
  });

  it("keeps a skill's measurement (noise, confirmation, findings) for the matrix summary (issue 19)", async () => {
    const dir = await tempDir();
    const measurement = {
      keepRule: 'noise-aware' as const,
      noise: { trials: 3, scores: [0, 0.5, 0], mean: 1 / 6, sd: 0.2887, flipping: [] },
      findings: [
        { assertionId: 3, kind: 'never passing' as const, evidence: 'passed 0 of 3 graded draws tonight' },
      ],
      statements: { '3': 'Names the test.' },
    };
    const original = file(
      'run',
      run({ queue: ['a'], results: [{ ...skill('a', 'no-improvement'), measurement }] }),
    );
    await writeRunFile(path.join(dir, 'r.json'), original);
    const [read] = await readRunFiles(dir);
    expect(read?.run.results[0]?.measurement).toEqual(measurement);
    expect(renderJobSummary(mergeRunFiles([read!]), undefined)).toContain(
      '#3 "Names the test.": never passing',
    );
  });

  it('keeps every exclusion and the outside-setting hint, and a merge keeps them for the summary', async () => {
    const dir = await tempDir();
    const noEvals = {
      skill: 'c',
      dir: 'skills/c',
      reason: 'no evals',
      next: 'run `skillclimb evals init c`',
    };
    const plan = file(
      'plan',
      run({ queue: ['a'], excludedOther: [noEvals], outsideSetting: '1 skill is outside' }),
    );
    await writeRunFile(path.join(dir, 'plan.json'), plan);
    await writeRunFile(
      path.join(dir, 'a.json'),
      file('run', run({ queue: ['a'], results: [skill('a', 'shipped')] })),
    );
    const files = await readRunFiles(dir);
    expect(files.find((f) => f.mode === 'plan')?.run.excludedOther).toEqual([noEvals]);
    const merged = mergeRunFiles(files);
    expect(merged.run.excludedOther).toEqual([noEvals]);
    expect(merged.run.outsideSetting).toBe('1 skill is outside');
  });

  it('names the file and the field of a broken result file', () => {
    expect(() => parseRunFile('r.json', '{nope')).toThrow(/^r\.json: not valid JSON/);
    expect(() =>
      parseRunFile(
        'r.json',
        JSON.stringify({
          format: RESULT_FILE_FORMAT,
          version: 1,
          mode: 'run',
          run: {},
          shipped: [],
          parked: [],
        }),
      ),
    ).toThrow(/^r\.json: run\.startedAt: /);
  });

  it('merges the plan and the per-skill jobs into one run in queue order', async () => {
    const plan = file(
      'plan',
      run({
        queue: ['a', 'b', 'c'],
        excludedBySkipList: [{ skill: 'verify', source: 'embedded' }],
        modelsLabel: '',
      }),
    );
    const jobB = file(
      'run',
      run({
        queue: ['b'],
        results: [skill('b', 'defect-park', 'https://x/issues/7')],
        usage: usage(5, 0.5),
        startedAt: new Date('2026-05-24T02:01:00Z'),
        endedAt: new Date('2026-05-24T03:00:00Z'),
      }),
      {
        parked: [{ skill: 'b', kind: 'crashes', location: 'https://x/issues/7', via: 'issue' }],
      },
    );
    const jobA = file(
      'run',
      run({
        queue: ['a'],
        results: [skill('a', 'shipped', 'https://x/pull/1')],
        usage: usage(2, 0.25),
        partial: { reason: 'kill-switch hit', at: new Date('2026-05-24T02:20:00Z') },
      }),
      {
        shipped: [
          { skill: 'a', pr: 1, url: 'https://x/pull/1', baseline: 0.75, final: 0.875, status: 'created' },
        ],
        notShipped: [],
      },
    );

    const merged = mergeRunFiles([jobB, plan, jobA]);

    expect(merged.run.queue).toEqual(['a', 'b', 'c']);
    expect(merged.run.results.map((r) => r.skill)).toEqual(['a', 'b']);
    expect(merged.run.usage).toMatchObject({ calls: 7, costUsd: 0.75 });
    expect(merged.run.endedAt.toISOString()).toBe('2026-05-24T03:00:00.000Z');
    expect(merged.run.partial?.reason).toBe('kill-switch hit');
    expect(merged.run.excludedBySkipList).toEqual([{ skill: 'verify', source: 'embedded' }]);
    expect(merged.shipped.map((s) => s.skill)).toEqual(['a']);
    expect(merged.parked.map((p) => p.skill)).toEqual(['b']);

    const outputs = buildOutputs(merged, { summaryPath: '/s.md', resultPath: '/r.json' });
    expect(JSON.parse(outputs.shipped)).toEqual([
      { skill: 'a', pr: 1, url: 'https://x/pull/1', baseline: 0.75, final: 0.875 },
    ]);
    expect(JSON.parse(outputs.parked)).toEqual([
      { skill: 'b', kind: 'crashes', location: 'https://x/issues/7', via: 'issue' },
    ]);
    expect(outputs['cost-usd']).toBe('0.7500');
    expect(outputs.queue).toBe('["a","b","c"]');

    const summary = renderJobSummary(merged, 'https://github.test/acme/skills/actions/runs/1');
    expect(summary).toContain('# skill-iterate morning summary');
    expect(summary).toContain('- `a`: [#1](https://x/pull/1) created, 0.750000 → 0.875000');
    expect(summary).toContain('- `b` (crashes): [issue](https://x/issues/7)');
    expect(summary).toContain('### a\n\n```mermaid\nxychart-beta');
    expect(summary).toContain('[Workflow run](https://github.test/acme/skills/actions/runs/1)');
  });

  it('reports a skill skipped because its open PR is as good in the outputs and the job summary', () => {
    const reason = 'open PR #4 already has final 0.90 >= 0.88';
    const skipped = file('run', run({ queue: ['a'], results: [skill('a', `skipped (${reason})`)] }), {
      notShipped: [{ skill: 'a', reason }],
    });

    const outputs = buildOutputs(skipped, {});
    expect(JSON.parse(outputs['not-shipped'])).toEqual([{ skill: 'a', reason }]);
    expect(JSON.parse(outputs.shipped)).toEqual([]);
    const summary = renderJobSummary(skipped, undefined);
    // The reason is shown as inert text: `#4` cannot link to (or close) an issue.
    const inert = reason.replace('#', '#\u200D').replace('>', '&gt;');
    expect(summary).toContain(`- \`a\`: ${inert}`);
    expect(summary).toContain(`skipped (${inert})`);
  });

  it('refuses to merge nothing, and ignores unrelated JSON in the artifacts folder', async () => {
    expect(() => mergeRunFiles([])).toThrow('no result files to merge');
    const dir = await tempDir();
    await writeRunFile(path.join(dir, 'other.json'), { hello: 'world' } as unknown as RunFile);
    expect(await readRunFiles(dir)).toEqual([]);
    expect(JSON.parse(await readFile(path.join(dir, 'other.json'), 'utf8'))).toEqual({ hello: 'world' });
  });
});
