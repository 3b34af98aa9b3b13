import { describe, expect, it } from 'vitest';
import {
  formatIterationLine,
  formatSkillLine,
  type IterationProgress,
} from '../../../src/core/iterate/progress.js';
import type { SkillResult } from '../../../src/core/iterate/run-result.js';
import { ZERO_USAGE } from '../../../src/core/usage.js';

const progress = (over: Partial<IterationProgress> = {}): IterationProgress => ({
  skill: 'session-wrap',
  iteration: 3,
  outcome: 'keep',
  score: 0.655,
  delta: 0.0351,
  seconds: 41.23,
  usage: ZERO_USAGE,
  ...over,
});

describe('formatIterationLine', () => {
  it('prints skill, iteration, outcome, score, signed delta and seconds', () => {
    expect(formatIterationLine(progress())).toBe(
      'session-wrap             iter 3   keep     score 0.655  delta +0.035   41.2s',
    );
  });

  it('labels the baseline and omits its delta', () => {
    const line = formatIterationLine(
      progress({ iteration: 0, outcome: 'baseline', delta: null, seconds: 30 }),
    );
    expect(line).toBe('session-wrap             baseline baseline score 0.655                 30.0s');
    expect(line).not.toContain('delta');
  });

  it('prints NULL for a crash and no delta', () => {
    const line = formatIterationLine(progress({ outcome: 'crash', score: null, delta: 0.2, seconds: 600 }));
    expect(line).toBe('session-wrap             iter 3   crash    score  NULL                600.0s');
  });

  it('signs negative deltas', () => {
    expect(formatIterationLine(progress({ outcome: 'revert', delta: -0.0124 }))).toContain('delta -0.012');
  });

  it('keeps the columns aligned across outcomes', () => {
    const lines = [
      formatIterationLine(progress({ iteration: 0, outcome: 'baseline', delta: null })),
      formatIterationLine(progress({ iteration: 12, outcome: 'revert', delta: -0.5 })),
      formatIterationLine(progress({ outcome: 'crash', score: null, delta: null })),
    ];
    expect(new Set(lines.map((l) => l.indexOf('score'))).size).toBe(1);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });

  it('adds calls, tokens and cost only when a model was called', () => {
    const usage = { ...ZERO_USAGE, calls: 21, inputTokens: 15000, outputTokens: 3000, cacheReadTokens: 344 };
    expect(formatIterationLine(progress({ usage }))).toMatch(/41\.2s {2}calls 21 {2}tokens 18344$/);
    expect(formatIterationLine(progress({ usage: { ...usage, costUsd: 0.04123 } }))).toMatch(
      /tokens 18344 {2}cost \$0\.0412$/,
    );
  });
});

describe('formatSkillLine', () => {
  const result = (over: Partial<SkillResult> = {}): SkillResult => ({
    skill: 'session-wrap',
    baselineScore: 0.62,
    finalScore: 0.81,
    iterations: 12,
    wallSecondsTotal: 1843.24,
    status: 'shipped',
    link: 'abc1234',
    keptEdits: [],
    linesDelta: 2,
    usage: ZERO_USAGE,
    rows: [],
    ...over,
  });

  it('prints status, baseline -> final with delta, iterations, wall time and link', () => {
    expect(formatSkillLine(result())).toBe(
      'session-wrap             done     shipped         0.62 -> 0.81 (+0.19)   iterations 12  1843.2s  abc1234',
    );
  });

  it('handles a skill that never scored and has no link', () => {
    const line = formatSkillLine(
      result({
        baselineScore: null,
        finalScore: null,
        iterations: 0,
        wallSecondsTotal: 0,
        status: 'skipped (invalid evals)',
        link: undefined,
      }),
    );
    expect(line).toBe(
      'session-wrap             done     skipped (invalid evals) - -> -                 iterations 0  0.0s',
    );
  });

  it('keeps a multi-line status on one line', () => {
    expect(formatSkillLine(result({ status: 'skipped (bad\nevals)' }))).not.toContain('\n');
  });
});
