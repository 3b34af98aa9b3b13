/**
 * What the dashboard shows of each skill (src/action/dashboard-model.ts), pure: tonight's results first,
 * the state branch's records for the rest, the trend over nights, and the next night's due skills.
 */
import { describe, expect, it } from 'vitest';
import { NO_ORDERS } from '../../src/action/dashboard-body.js';
import { dashboardInput, nightlyFinals, type RecordedSkill } from '../../src/action/dashboard-model.js';
import { RESULT_FILE_FORMAT, type RunFile } from '../../src/action/result-file.js';
import type { SkillResult } from '../../src/core/iterate/run-result.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';

const NOW = new Date('2026-05-24T03:00:00Z');
const HOUR = 3_600_000;

const tsv = (...nights: Array<[number, number]>) =>
  'commit\tscore\tstatus\tdescription\twall_seconds\n' +
  nights
    .map(
      ([baseline, final], i) =>
        `a${i}\t${baseline}\tbaseline\tinitial baseline\t1\nb${i}\t${final}\tkeep\tedit\t1\nc${i}\t0.1\trevert\tworse\t1\n`,
    )
    .join('');

function result(skill: string, overrides: Partial<SkillResult> = {}): SkillResult {
  return {
    skill,
    baselineScore: 0.5,
    finalScore: 0.75,
    iterations: 2,
    wallSecondsTotal: 3,
    status: 'no-improvement',
    link: undefined,
    keptEdits: [],
    linesDelta: 0,
    usage: { ...ZERO_USAGE, calls: 3, inputTokens: 100, outputTokens: 20, costUsd: 0.25 },
    rows: [{ commit: 'a', score: 0.5, status: 'baseline', description: 'initial baseline', wallSeconds: 1 }],
    ...overrides,
  };
}

function file(
  results: SkillResult[],
  extra: Partial<RunFile['run']> = {},
  rest: Partial<RunFile> = {},
): RunFile {
  return {
    format: RESULT_FILE_FORMAT,
    version: 1,
    mode: 'run',
    run: {
      startedAt: NOW,
      endedAt: new Date(NOW.getTime() + HOUR),
      partial: null,
      queue: results.map((r) => r.skill),
      results,
      excludedBySkipList: [],
      excludedByFreshness: [],
      summaryPath: undefined,
      usage: { ...ZERO_USAGE, calls: 9, inputTokens: 300, outputTokens: 60, costUsd: 0.75 },
      modelsLabel: 'offline',
      ...extra,
    },
    shipped: [],
    parked: [],
    notShipped: [],
    ...rest,
  };
}

const facts = (f: RunFile, recorded: Record<string, RecordedSkill> = {}) => ({
  file: f,
  recorded: new Map(Object.entries(recorded)),
  ticked: NO_ORDERS,
  orderNotes: [],
  freshnessWindowMs: 20 * HOUR,
  minGain: 0.005,
  now: NOW,
  runUrl: undefined,
});

describe('nightlyFinals', () => {
  it('takes the high-water mark of each night, a night starting at its baseline row', () => {
    expect(nightlyFinals([])).toEqual([]);
    expect(nightlyFinals(parseResultsTsv(tsv([0.5, 0.6], [0.6, 0.7])))).toEqual([0.6, 0.7]);
    // A night whose baseline crashed and nothing was kept has no final.
    const crashed = parseResultsTsv(`${tsv([0.5, 0.6])}x\tNULL\tbaseline\tinitial baseline\t1\n`);
    expect(nightlyFinals(crashed)).toEqual([0.6]);
  });
});

describe('dashboardInput', () => {
  it("gives each skill tonight's status: the PR and its gain, the park issue, the ship failure, a plateau", () => {
    const input = dashboardInput(
      facts(
        file(
          [
            result('shipped', { status: 'shipped' }),
            result('parked', { status: 'defect-park', link: 'https://github.test/acme/skills/issues/7' }),
            result('unshipped', { status: 'shipped' }),
            result('flat'),
          ],
          {},
          {
            shipped: [
              {
                skill: 'shipped',
                pr: 12,
                url: 'https://github.test/acme/skills/pull/12',
                baseline: 0.5,
                final: 0.75,
                status: 'created',
              },
            ],
            notShipped: [{ skill: 'unshipped', reason: 'the base moved' }],
          },
        ),
        { flat: { resultsTsv: tsv([0.5, 0.7], [0.7, 0.7], [0.7, 0.702]), lastRun: undefined } },
      ),
    );
    const status = (skill: string) => input.skills.find((s) => s.skill === skill)?.status;
    expect(status('shipped')).toEqual({
      kind: 'shipped',
      pr: 12,
      url: 'https://github.test/acme/skills/pull/12',
      gain: 0.25,
    });
    expect(status('parked')).toEqual({
      kind: 'parked',
      parkKind: 'crashes',
      url: 'https://github.test/acme/skills/issues/7',
    });
    expect(status('unshipped')).toEqual({ kind: 'not-shipped', reason: 'the base moved' });
    expect(status('flat')).toEqual({ kind: 'plateau', nights: 3 });
    expect(input.skills.find((s) => s.skill === 'flat')?.trend).toEqual([0.7, 0.7, 0.702]);
    expect(input.totals).toEqual({
      ran: 4,
      shipped: 1,
      parked: 0,
      calls: 9,
      tokens: 360,
      costUsd: 0.75,
      partial: undefined,
      // Issue 28 item 4: the night's spend over its two shipped skills.
      economics: [
        expect.stringMatching(/^Price: 4\.5 calls, 180 tokens, \$0\.3750 per shipped skill \(2 shipped\); /),
      ],
    });
  });

  it('shows a skill that did not run tonight from its record: confirmed score, uplift, findings, freshness', () => {
    const lastRunAt = new Date(NOW.getTime() - 2 * HOUR);
    const input = dashboardInput(
      facts(file([], { excludedByFreshness: [{ skill: 'quiet', lastRunAt }], notRequested: ['old'] }), {
        quiet: {
          resultsTsv: tsv([0.5, 0.6], [0.6, 0.65]),
          lastRun: {
            skill: 'quiet',
            last_run_at: lastRunAt.toISOString(),
            final_score: 0.65,
            confirmed_score: 0.64,
            uplift: { value: 0.3, measurable: true },
            findings: [
              { kind: 'flaky', assertion: 4 },
              { kind: 'flaky', assertion: 2 },
            ],
          },
        },
        old: {
          resultsTsv: undefined,
          lastRun: { skill: 'old', last_run_at: '2026-05-01T00:00:00Z', final_score: 0.4 },
        },
      }),
    );
    expect(input.skills.find((s) => s.skill === 'quiet')).toEqual({
      skill: 'quiet',
      composite: 0.64,
      confirmed: true,
      trend: [0.6, 0.65],
      uplift: { value: 0.3, measurable: true },
      findings: [{ kind: 'flaky', assertions: [2, 4] }],
      status: { kind: 'fresh', until: new Date(lastRunAt.getTime() + 20 * HOUR) },
    });
    expect(input.skills.find((s) => s.skill === 'old')).toMatchObject({
      composite: 0.4,
      confirmed: false,
      status: { kind: 'not-run' },
    });
    // quiet ran 2 h before this night: 22 h before the next, past the 20 h window; old never ran recently.
    expect(input.nextNight).toEqual({ due: ['old', 'quiet'], assumedHours: 24 });
  });

  it('leaves excluded and skipped-by-order skills out of the next night', () => {
    const input = dashboardInput({
      ...facts(
        file([], {
          excludedBySkipList: [
            { skill: 'held', source: '--skip-list extension' },
            { skill: 'verify', source: 'embedded' },
          ],
          excludedOther: [
            { skill: 'new', dir: '.claude/skills/new', reason: 'no evals', next: 'write them' },
          ],
        }),
      ),
      ticked: { ...NO_ORDERS, skip: ['held'] },
    });
    expect(input.skills.map((s) => [s.skill, s.status.kind])).toEqual([
      ['held', 'skipped-by-order'],
      ['new', 'excluded'],
      ['verify', 'excluded'],
    ]);
    expect(input.nextNight.due).toEqual([]);
  });
});
