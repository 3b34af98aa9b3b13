import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  formatPaddedDuration,
  formatLink,
  partialLine,
  renderMorningSummary,
  summaryDate,
} from '../../../src/core/iterate/summary.js';
import { summaryFileNames, writeMorningSummary } from '../../../src/iterate/summary-file.js';
import type { RunResult, SkillResult } from '../../../src/core/iterate/run-result.js';
import { totalTokens, ZERO_USAGE, type Usage } from '../../../src/core/usage.js';
import { formatIterationLine } from '../../../src/core/iterate/progress.js';

const usage = (over: Partial<Usage> = {}): Usage => ({ ...ZERO_USAGE, ...over });

const skill = (over: Partial<SkillResult> & Pick<SkillResult, 'skill'>): SkillResult => ({
  baselineScore: 0.5,
  finalScore: 0.5,
  iterations: 12,
  wallSecondsTotal: 100,
  status: 'no-improvement',
  link: undefined,
  keptEdits: [],
  linesDelta: 0,
  usage: usage(),
  rows: [],
  ...over,
});

function realisticRun(over: Partial<RunResult> = {}): RunResult {
  return {
    // 23:30 on the 23rd in UTC; local-time rendering would put some runners on another date.
    startedAt: new Date('2026-05-23T23:30:00.250Z'),
    endedAt: new Date('2026-05-24T02:42:05.900Z'),
    partial: null,
    queue: ['api-docs', 'broken-evals', 'flaky-grader', 'session-wrap', 'user-debug'],
    results: [
      skill({
        skill: 'api-docs',
        baselineScore: 0.7,
        finalScore: 0.704,
        iterations: 12,
        wallSecondsTotal: 2710.24,
        status: 'no-improvement',
        keptEdits: [
          {
            iteration: 4,
            commit: 'ddd4444',
            description: 'trim the examples section',
            score: 0.704,
            delta: 0.004,
          },
        ],
      }),
      skill({
        skill: 'broken-evals',
        baselineScore: null,
        finalScore: null,
        iterations: 0,
        wallSecondsTotal: 0,
        status: 'skipped (invalid evals: evals/evals.json: categories.0.evals.1.id: expected integer)',
      }),
      skill({
        skill: 'flaky-grader',
        baselineScore: 0.4,
        finalScore: 0.4,
        iterations: 3,
        wallSecondsTotal: 1800,
        status: 'defect-park',
        link: '/home/op/repo/docs/skill-iterate-runs/parked-flaky-grader-1779580800.md',
      }),
      skill({
        skill: 'session-wrap',
        baselineScore: 0.62,
        finalScore: 0.81,
        iterations: 9,
        wallSecondsTotal: 3599.5,
        status: 'shipped',
        link: 'https://github.com/acme/skills/pull/42',
        keptEdits: [
          {
            iteration: 2,
            commit: 'aaa1111',
            description: "Add a '## Summary' heading | cites pair 3/scenario_1\nso the grader finds it",
            score: 0.74,
            delta: 0.12,
          },
          { iteration: 5, commit: 'bbb2222', description: 'Name the output file', score: 0.79, delta: 0.05 },
          { iteration: 8, commit: 'ccc3333', description: 'Fold two rules', score: 0.81, delta: 0.02 },
        ],
      }),
      skill({
        skill: 'user-debug',
        baselineScore: 0.9,
        finalScore: 0.9,
        iterations: 12,
        wallSecondsTotal: 640,
        status: 'shipped',
        linesDelta: -4,
        link: 'e5f6a7b',
        keptEdits: [
          {
            iteration: 7,
            commit: 'eee5555',
            description: 'Delete a duplicated paragraph',
            score: 0.9,
            delta: 0,
          },
        ],
      }),
    ],
    excludedBySkipList: [
      { skill: 'verify', source: 'embedded' },
      { skill: 'skill-evolve', source: '--skip-list extension' },
    ],
    excludedByFreshness: [{ skill: 'nightly-notes', lastRunAt: new Date('2026-05-23T22:15:04.123Z') }],
    summaryPath: undefined,
    usage: usage({
      calls: 812,
      inputTokens: 1_234_567,
      outputTokens: 89_012,
      cacheReadTokens: 400_000,
      costUsd: 7.4321,
    }),
    modelsLabel: 'editor=anthropic:claude-sonnet-4-5 render=anthropic:claude-haiku-4-5 grader=openai:gpt-5',
    ...over,
  };
}

describe('renderMorningSummary redaction', () => {
  it('writes a kept edit description holding a provider key redacted', () => {
    const key = 'sk-ant-api03-AbCdEf0123456789xyz';
    const run = realisticRun();
    const leaky = run.results.map((r) =>
      r.keptEdits.length > 0
        ? { ...r, keptEdits: r.keptEdits.map((e) => ({ ...e, description: `use key ${key} in examples` })) }
        : r,
    );
    const text = renderMorningSummary({ ...run, results: leaky });
    expect(text).toContain('use key &#91;redacted&#93; in examples');
    expect(text).not.toContain(key);
  });
});

describe('renderMorningSummary', () => {
  const text = renderMorningSummary(realisticRun());
  const lines = text.split('\n');

  it('opens with the H1 dated by the UTC start day', () => {
    expect(lines[0]).toBe('# skill-iterate morning summary -- 2026-05-23');
    expect(lines[1]).toBe('');
  });

  it('tallies the night in one sentence', () => {
    expect(text).toContain(
      'Processed 5 of 5 queued skills: 2 shipped, 1 no improvement, 1 defect-parked (3 consecutive crashes), 1 skipped.',
    );
  });

  it('renders one table row per skill with 2-decimal scores and a signed delta', () => {
    expect(text).toContain(
      '| skill | baseline | final | delta | iterations | wall seconds | status | link |',
    );
    expect(lines).toContain(
      '| session-wrap | 0.62 | 0.81 | +0.19 | 9 | 3599.5 | shipped | [PR #42](https://github.com/acme/skills/pull/42) |',
    );
    expect(lines).toContain('| api-docs | 0.70 | 0.70 | +0.00 | 12 | 2710.2 | no-improvement | - |');
    expect(lines).toContain('| user-debug | 0.90 | 0.90 | +0.00 | 12 | 640.0 | shipped | `e5f6a7b` |');
    expect(lines).toContain(
      '| flaky-grader | 0.40 | 0.40 | +0.00 | 3 | 1800.0 | defect-park | ' +
        '[parked-flaky-grader-1779580800.md](parked-flaky-grader-1779580800.md) |',
    );
    expect(lines).toContain(
      '| broken-evals | - | - | - | 0 | 0.0 | ' +
        'skipped (invalid evals: evals/evals.json: categories.0.evals.1.id: expected integer) | - |',
    );
  });

  it('lists the top kept edits across skills by delta, pipes and newlines made safe', () => {
    const start = lines.indexOf('## Top kept edits');
    const rows = lines.slice(start + 4, start + 9);
    expect(rows.map((r) => r.split(' | ')[0])).toEqual([
      '| session-wrap',
      '| session-wrap',
      '| session-wrap',
      '| api-docs',
      '| user-debug',
    ]);
    // Model text is inert: `#` cannot start a reference, `|` cannot add a column, `_` cannot emphasise.
    expect(rows[0]).toBe(
      "| session-wrap | 2 | [PR #42](https://github.com/acme/skills/pull/42) | +0.120 | 0.740 | Add a '#\u200D#\u200D Summary' heading &#124; cites pair 3/scenario&#95;1 so the grader finds it |",
    );
    expect(rows[3]).toContain('(not shipped: no-improvement)');
  });

  it('names plateaued skills with what skillclimb offers for them, but not parked or skipped ones', () => {
    const start = lines.indexOf('## Plateaued (delta < 0.01)');
    expect(start).toBeGreaterThan(0);
    const section = lines.slice(start, lines.indexOf('## Exclusions')).join('\n');
    expect(section).toContain(
      '- api-docs: 0.70 -> 0.70 (+0.004) -- `skillclimb iterate --skill api-docs --ignore-freshness --calibrate` or ' +
        '`skillclimb evals init api-docs --force`',
    );
    // Only commands skillclimb has.
    expect(section).not.toContain('/skill-evolve');
    expect(section).toContain('- user-debug: 0.90 -> 0.90 (+0.000)');
    expect(section).not.toContain('session-wrap');
    expect(section).not.toContain('flaky-grader');
    expect(section).not.toContain('broken-evals');
  });

  it("points a structure-only night's plateau at a night with a model, not at calibration or new evals", () => {
    const out = renderMorningSummary(
      realisticRun({
        mode: 'structural',
        command: { project: 'ws', mode: 'structural', models: { model: 'offline' } },
      }),
    );
    const section = out.slice(out.indexOf('## Plateaued'), out.indexOf('## Exclusions'));
    expect(section).toContain('It checks structure only and never reads their evals');
    expect(section).toContain(
      '- api-docs: 0.70 -> 0.70 (+0.004) -- `skillclimb iterate --skill api-docs --ignore-freshness --project ws`',
    );
    expect(section).not.toContain('--calibrate');
    expect(section).not.toContain('evals init');
    expect(section).not.toContain('offline');
  });

  it('starts every printed command the way the CLI was started (docs/cli.md § Printed commands)', () => {
    const program = "node '/opt/my tools/skillclimb/bin/skillclimb.js'";
    const out = renderMorningSummary(
      realisticRun({
        command: { program, project: 'ws', models: { model: 'offline' } },
        // Enough skills without evals to be grouped under one `evals init --all`.
        excludedOther: ['a', 'b', 'c', 'd', 'e'].map((skill) => ({
          skill,
          dir: `skills/${skill}`,
          reason: 'no evals',
          next: undefined,
        })),
      }),
    );
    expect(out).toContain(
      `- api-docs: 0.70 -> 0.70 (+0.004) -- \`${program} iterate --skill api-docs --ignore-freshness --project ws ` +
        `--calibrate --model offline\` or \`${program} evals init api-docs --force --project ws\``,
    );
    // The offline provider writes no evals: the printed evals init leaves `--model offline` out (it would
    // only fail) and says what it needs.
    expect(out).toContain(
      `run \`${program} evals init --all --project ws\` to write them (or name the skills to set up first); ` +
        'the offline provider writes no evals, so set ANTHROPIC_API_KEY or OPENAI_API_KEY first',
    );
    expect(out).toContain(
      'for a new set (review them before committing); the offline provider writes no evals, so set ' +
        'ANTHROPIC_API_KEY or OPENAI_API_KEY first.',
    );
    expect(out).not.toContain('evals init api-docs --force --project ws --model offline');
    expect(out).not.toMatch(/`skillclimb /);
  });

  it('lists exclusions with their source and last-run time', () => {
    expect(lines).toContain('- verify (skip-list: embedded)');
    expect(lines).toContain('- skill-evolve (skip-list: --skip-list extension)');
    expect(lines).toContain('- nightly-notes (last run 2026-05-23T22:15:04Z)');
  });

  it('lists every skill that was not scorable with its folder, reason and next step, and the outside hint', () => {
    const out = renderMorningSummary(
      realisticRun({
        excludedOther: [
          {
            skill: 'release-notes',
            dir: 'skills/release-notes',
            reason: 'no evals',
            next: 'run `skillclimb evals init release-notes` to write them, or iterate with --mode structural',
          },
        ],
        outsideSetting: '2 skills are outside the skills setting (.claude/skills/*) and not queued: …',
      }),
    ).split('\n');
    expect(out).toContain('Not scorable (each with what to do):');
    expect(out).toContain(
      '- release-notes (`skills/release-notes`): no evals -- run `skillclimb evals init release-notes` to write them, or iterate with --mode structural',
    );
    expect(out).toContain('Outside the skills setting:');
    expect(out).toContain('- 2 skills are outside the skills setting (.claude/skills/*) and not queued: …');
    expect(out).not.toContain('None: every skill found was queued.');
  });

  it('states why a better final score did not ship: the gain is below the minimum', () => {
    const run = realisticRun();
    const out = renderMorningSummary({
      ...run,
      results: [
        {
          ...run.results[0]!,
          status: 'no-improvement',
          detail: 'gain +0.001031 is below the minimum gain 0.005',
        },
      ],
    });
    expect(out).toContain('| no-improvement (gain +0.001031 is below the minimum gain 0.005) |');
  });

  it('calls a gain confirmed only when it cleared the margin, and counts one trial as one', () => {
    const run = realisticRun();
    const withConfirmation = (gain: number, trials: number): RunResult => ({
      ...run,
      results: [
        {
          ...run.results[0]!,
          status: 'no-improvement',
          measurement: {
            keepRule: 'noise-aware',
            confirmation: {
              trials,
              reusedBaseline: true,
              baselineScores: [0.6, 0.62, 0.58],
              finalScores: Array.from({ length: trials }, () => 0.6 + gain),
              baseline: 0.6,
              final: 0.6 + gain,
              gain,
              needed: 0.0279,
              low: gain - 0.046,
              high: gain + 0.046,
              evidence: [],
            },
            findings: [],
            statements: {},
          },
        },
      ],
    });
    const under = renderMorningSummary(withConfirmation(0.0067, 3));
    expect(under).toContain(
      '- Confirmation: a gain of +0.0067 (90 % interval -0.0393 to +0.0527), baseline 0.6000 -> final 0.6067 ' +
        "over 3 fresh trials of the final text and the baseline's 3 trials from before the loop (reused: no " +
        'selection chose them); it does not clear the margin 0.0279',
    );
    expect(under).not.toContain('Confirmed gain');
    const cleared = renderMorningSummary(withConfirmation(0.1156, 1));
    expect(cleared).toContain(
      '- Confirmed gain: +0.1156 (90 % interval +0.0696 to +0.1616), baseline 0.6000 -> final 0.7156 over ' +
        "1 fresh trial of the final text and the baseline's 3 trials",
    );
    expect(cleared).toContain('; margin to clear 0.0279');
  });

  it("says which of the baseline's trials an earlier night drew, in its lines and the night's noise line", () => {
    const run = realisticRun();
    const measured = (stored?: { draws: number; drawnAt: string }): RunResult => ({
      ...run,
      results: [
        {
          ...run.results[0]!,
          measurement: {
            keepRule: 'noise-aware',
            noise: { trials: 3, scores: [0, 0.5, 0], mean: 1 / 6, sd: 0.2887, flipping: [] },
            baselineStored: stored,
            noiseFloor: {
              flipRate: 1 / 3,
              comparisons: 6,
              minimumDetectableGain: 0.2041,
              draws: 6,
              baselineDraws: 3,
            },
            findings: [],
            statements: {},
          },
        },
      ],
    });
    const fresh = renderMorningSummary(measured());
    expect(fresh).not.toContain('earlier night');
    const out = renderMorningSummary(measured({ draws: 2, drawnAt: '2026-05-21T23:40:00.000Z' }));
    expect(out).toContain(
      '- Baseline: 3 independent trials, composite mean 0.1667, spread (sd) 0.2887, measured scenario by scenario (trials: 0.0000, 0.5000, ' +
        '0.0000); trial 1 was drawn tonight, trials 2 and 3 on an earlier night (2026-05-21) and reused: the ' +
        'SKILL.md, evals, prompts, models and model endpoints are unchanged since',
    );
    expect(out).toContain(
      "(6 pairs of draws of the same check compared; 6 fresh draws against the baseline's 3, 2 of them drawn " +
        'on an earlier night (2026-05-21))',
    );
    expect(out).toContain(
      "Some of those draws were drawn on an earlier night and reused: 2 of api-docs's 3 baseline trials (2026-05-21).",
    );
    // One stored draw with one drawn tonight after it (draw 0 and the stored one disagreed).
    const mixed = renderMorningSummary(measured({ draws: 1, drawnAt: '2026-05-21T23:40:00.000Z' }));
    expect(mixed).toContain(
      '; trials 1 and 3 were drawn tonight, trial 2 on an earlier night (2026-05-21) and reused',
    );
  });

  it("names the freshness window the run used: the seed's 24h by default, the Action's shorter one when set", () => {
    expect(text.split('\n')).toContain('Cross-night freshness (ran within the last 24h):');
    const shorter = renderMorningSummary(realisticRun({ freshnessWindowMs: 20 * 3_600_000 })).split('\n');
    expect(shorter).toContain('Cross-night freshness (ran within the last 20h):');
    expect(shorter).not.toContain('Cross-night freshness (ran within the last 24h):');
  });

  it('ends with run metadata, tokens and the estimated cost', () => {
    const run = lines.slice(lines.indexOf('## Run'));
    expect(run).toEqual([
      '## Run',
      '',
      '- Started: 2026-05-23T23:30:00Z',
      '- Ended: 2026-05-24T02:42:05Z',
      '- Duration: 3h 12m 06s',
      '- Models: editor=anthropic:claude-sonnet-4-5 render=anthropic:claude-haiku-4-5 grader=openai:gpt-5',
      '- Queue: 5 skills (api-docs, broken-evals, flaky-grader, session-wrap, user-debug)',
      // 1,234,567 + 89,012 + 400,000 + 0: cache reads count, as in the progress lines.
      '- Tokens: 1,723,579 (input 1,234,567, output 89,012, cache read 400,000, cache write 0) over 812 model calls',
      '- Estimated cost: $7.43',
      '',
    ]);
    expect(text).not.toContain('partial');
  });

  it('hides the cost when the provider reports none, and token lines when no model ran', () => {
    const noCost = renderMorningSummary(
      realisticRun({ usage: usage({ calls: 3, inputTokens: 10, outputTokens: 5 }) }),
    );
    expect(noCost).toContain(
      '- Tokens: 15 (input 10, output 5, cache read 0, cache write 0) over 3 model calls',
    );
    expect(noCost).not.toContain('Estimated cost');
    const offline = renderMorningSummary(
      realisticRun({ usage: usage(), modelsLabel: 'offline (structural scoring only)' }),
    );
    expect(offline).toContain('- Model calls: none');
    expect(offline).toContain('- Models: offline (structural scoring only)');
    expect(offline).not.toContain('Tokens:');
  });

  it('totals the same tokens as the progress lines: input, output, cache read and cache write', () => {
    const cached = usage({
      calls: 2,
      inputTokens: 100,
      outputTokens: 20,
      cacheReadTokens: 3_000,
      cacheWriteTokens: 400,
    });
    expect(totalTokens(cached)).toBe(3_520);
    expect(renderMorningSummary(realisticRun({ usage: cached })).split('\n')).toContain(
      '- Tokens: 3,520 (input 100, output 20, cache read 3,000, cache write 400) over 2 model calls',
    );
    const line = formatIterationLine({
      skill: 'session-wrap',
      iteration: 1,
      outcome: 'keep',
      score: 0.5,
      delta: 0.1,
      seconds: 1,
      usage: cached,
    });
    expect(line).toMatch(/ {2}calls 2 {2}tokens 3520$/);
  });

  it('puts the seed partial line directly under the H1 on a kill-switch stop', () => {
    const partial = renderMorningSummary(
      realisticRun({
        partial: {
          reason: 'kill-switch file present at /repo/.skill-iterate-killswitch',
          at: new Date('2026-05-24T01:02:03.456Z'),
        },
        queue: ['a', 'b', 'c'],
        results: [skill({ skill: 'a', status: 'shipped', baselineScore: 0.1, finalScore: 0.3 })],
      }),
    ).split('\n');
    expect(partial[0]).toBe('# skill-iterate morning summary -- 2026-05-23');
    expect(partial[1]).toBe('(partial -- kill-switch hit at 2026-05-24T01:02:03Z)');
    expect(partial).toContain('Processed 1 of 3 queued skills: 1 shipped. Not reached: b, c.');
    expect(partial).toContain('- Stopped early: kill-switch file present at /repo/.skill-iterate-killswitch');
  });

  it('words the other early stops in the same shape', () => {
    const at = new Date('2026-05-24T01:00:00Z');
    expect(partialLine({ reason: 'kill-switch', at })).toBe(
      '(partial -- kill-switch hit at 2026-05-24T01:00:00Z)',
    );
    expect(partialLine({ reason: 'exception: ENOSPC: no space left\non device', at })).toBe(
      '(partial -- exception at 2026-05-24T01:00:00Z: ENOSPC: no space left on device)',
    );
    expect(partialLine({ reason: 'cost budget reached ($5.00)', at })).toBe(
      '(partial -- cost budget reached at 2026-05-24T01:00:00Z)',
    );
    expect(partialLine({ reason: 'SIGTERM', at })).toBe('(partial -- SIGTERM at 2026-05-24T01:00:00Z)');
  });

  it('words an interrupt as one, whatever its reason quotes', () => {
    const at = new Date('2026-05-24T01:00:00Z');
    expect(partialLine({ reason: 'interrupted by SIGINT', at })).toBe(
      '(partial -- interrupted by SIGINT at 2026-05-24T01:00:00Z)',
    );
    expect(partialLine({ reason: 'interrupted (operator cancelled: over budget)', at })).toBe(
      '(partial -- interrupted (operator cancelled: over budget) at 2026-05-24T01:00:00Z)',
    );
  });

  it('says so when nothing was processed or excluded', () => {
    const empty = renderMorningSummary(
      realisticRun({ queue: [], results: [], excludedBySkipList: [], excludedByFreshness: [] }),
    );
    expect(empty).toContain('Processed 0 of 0 queued skills.');
    expect(empty).toContain('No skills were processed.');
    expect(empty).toContain('No edits were kept.');
    expect(empty).toContain('None: every skill found was queued.');
    expect(empty).not.toContain('## Plateaued');
  });

  it('shows at most five kept edits and says how many more there are', () => {
    const edits = Array.from({ length: 8 }, (_, i) => ({
      iteration: i + 1,
      commit: `c${i}`.padEnd(7, '0'),
      description: `edit ${i}`,
      score: 0.5 + i / 100,
      delta: i / 100,
    }));
    const many = renderMorningSummary(
      realisticRun({ results: [skill({ skill: 'x', status: 'shipped', keptEdits: edits })] }),
    );
    // The worktree commits are gone after the squash: the column names what holds the edit.
    expect(many).toContain('| x | 8 | - | +0.070 | 0.570 | edit 7 |');
    expect(many).not.toContain('c700000');
    expect(many).not.toContain('| edit 2 |');
    expect(many).toContain('3 more kept edits');
  });
});

describe('summary helpers', () => {
  it('dates by UTC', () => {
    expect(summaryDate(new Date('2026-01-01T00:30:00+02:00'))).toBe('2025-12-31');
  });

  it('formats durations', () => {
    expect(formatPaddedDuration(12_345)).toBe('12.3s');
    expect(formatPaddedDuration(245_000)).toBe('4m 05s');
    expect(formatPaddedDuration(7_392_000)).toBe('2h 03m 12s');
  });

  it('formats links by kind', () => {
    expect(formatLink(undefined)).toBe('-');
    expect(formatLink('https://github.com/a/b/issues/7')).toBe('[issue #7](https://github.com/a/b/issues/7)');
    expect(formatLink('https://example.com/x')).toBe('[link](https://example.com/x)');
    expect(formatLink('/tmp/elsewhere/report.md')).toBe('`/tmp/elsewhere/report.md`');
  });
});

describe('writeMorningSummary', () => {
  let project: string;
  beforeEach(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-summary-'));
  });
  afterEach(async () => {
    await rm(project, { recursive: true, force: true });
  });
  const runsDir = () => path.join(project, 'docs', 'skill-iterate-runs');

  it('writes docs/skill-iterate-runs/<UTC date>.md and returns its absolute path', async () => {
    const run = realisticRun();
    const written = await writeMorningSummary(project, run);
    expect(written).toBe(path.join(project, 'docs', 'skill-iterate-runs', '2026-05-23.md'));
    expect(path.isAbsolute(written)).toBe(true);
    expect(await readFile(written, 'utf8')).toBe(renderMorningSummary(run));
  });

  it('disambiguates with b, c, ... and never overwrites an existing summary', async () => {
    await mkdir(runsDir(), { recursive: true });
    await writeFile(path.join(runsDir(), '2026-05-23.md'), 'earlier run');
    await writeFile(path.join(runsDir(), '2026-05-23b.md'), 'manual stash');
    const first = await writeMorningSummary(project, realisticRun());
    const second = await writeMorningSummary(project, realisticRun());
    expect(path.basename(first)).toBe('2026-05-23c.md');
    expect(path.basename(second)).toBe('2026-05-23d.md');
    expect(await readFile(path.join(runsDir(), '2026-05-23.md'), 'utf8')).toBe('earlier run');
    expect(await readFile(path.join(runsDir(), '2026-05-23b.md'), 'utf8')).toBe('manual stash');
  });

  it('gives concurrent writers distinct files', async () => {
    const written = await Promise.all(
      Array.from({ length: 4 }, () => writeMorningSummary(project, realisticRun())),
    );
    expect(new Set(written).size).toBe(4);
    expect((await readdir(runsDir())).sort()).toEqual([
      '2026-05-23.md',
      '2026-05-23b.md',
      '2026-05-23c.md',
      '2026-05-23d.md',
    ]);
  });

  it('fails with a clear message once z is taken', async () => {
    await mkdir(runsDir(), { recursive: true });
    const names = summaryFileNames('2026-05-23');
    expect(names).toHaveLength(26);
    expect(names[1]).toBe('2026-05-23b.md');
    expect(names[25]).toBe('2026-05-23z.md');
    for (const name of names) await writeFile(path.join(runsDir(), name), 'taken');
    await expect(writeMorningSummary(project, realisticRun())).rejects.toThrow(
      /2026-05-23\.md and its b-z variants all exist/,
    );
  });
});
