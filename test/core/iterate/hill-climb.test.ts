/**
 * stepLoop, the hill-climb's pure bookkeeping (docs/how-it-works.md § The hill-climb loop): what a judged
 * baseline or iteration does to the loop's state — keep, revert, crash — and when the loop stops.
 */
import { describe, expect, it } from 'vitest';
import {
  PARK_AFTER_CRASHES,
  RADICAL_AFTER_REVERTS,
  initialLoopState,
  loopStopReason,
  stepLoop,
  type IterationRecord,
  type KeptState,
  type LoopState,
} from '../../../src/core/iterate/hill-climb.js';
import type { ResultsRow } from '../../../src/core/iterate/run-result.js';
import type { StructuralResult } from '../../../src/core/iterate/score-types.js';
import { ZERO_USAGE, type Usage } from '../../../src/core/usage.js';

const usage = (calls: number): Usage => ({ ...ZERO_USAGE, calls });

function kept(score: number, text = `text ${score}`, confirmedAllPass = false): KeptState {
  return {
    text,
    score,
    structural: { score, metrics: {} } as unknown as StructuralResult,
    absolute: null,
    confirmedAllPass,
    renders: new Map(),
  };
}

function row(status: ResultsRow['status'], score: number | null, description: string): ResultsRow {
  return { commit: status === 'crash' ? '-' : 'abc1234', score, status, description, wallSeconds: 1 };
}

function baseline(score: number): IterationRecord {
  return {
    kind: 'baseline',
    row: row('baseline', score, 'initial baseline'),
    kept: kept(score),
    usage: usage(2),
  };
}

function keep(score: number, description: string, confirmedAllPass = false): IterationRecord {
  return {
    kind: 'iteration',
    row: row('keep', score, description),
    outcome: 'keep',
    proposed: true,
    description,
    kept: kept(score, description, confirmedAllPass),
    usage: usage(3),
  };
}

function revert(description: string, proposed = true): IterationRecord {
  return {
    kind: 'iteration',
    row: row('revert', 0.4, description),
    outcome: 'revert',
    proposed,
    description,
    usage: usage(3),
  };
}

function crash(note: string): IterationRecord {
  return {
    kind: 'iteration',
    row: row('crash', null, `no edit (crash: ${note})`),
    outcome: 'crash',
    proposed: false,
    description: 'no edit',
    usage: usage(1),
  };
}

const run = (...records: IterationRecord[]): LoopState => records.reduce(stepLoop, initialLoopState());
const limits = { perSkillIterations: 12, perSkillBudgetMs: 3_600_000, maxCostUsd: undefined };
const at = { elapsedMs: 0, runUsageBefore: ZERO_USAGE, countIterations: true };

describe('stepLoop', () => {
  it('a scored baseline sets the branch tip and the baseline score; it is not an iteration', () => {
    const state = run(baseline(0.5));
    expect(state).toMatchObject({ baselineScore: 0.5, iterations: 0, consecutiveCrashes: 0 });
    expect(state.kept?.score).toBe(0.5);
    expect(state.rows).toHaveLength(1);
    expect(state.usage.calls).toBe(2);
  });

  it('a crashed baseline counts as a crash; an AMBIGUOUS one does not', () => {
    const crashed = run({
      kind: 'baseline',
      row: row('crash', null, 'initial baseline (crash)'),
      usage: usage(1),
    });
    expect(crashed).toMatchObject({
      kept: undefined,
      baselineScore: null,
      consecutiveCrashes: 1,
      iterations: 0,
    });
    const ambiguous = run({
      kind: 'baseline',
      row: row('baseline', null, 'initial baseline (AMBIGUOUS: unclear)'),
      usage: usage(1),
    });
    expect(ambiguous).toMatchObject({ kept: undefined, consecutiveCrashes: 0, iterations: 0 });
  });

  it('keep: the new tip, a kept edit with its gain over the last tip, both streaks reset', () => {
    const state = run(baseline(0.5), revert('try A'), crash('HTTP 500'), keep(0.6, 'Add a Summary heading'));
    expect(state.iterations).toBe(3);
    expect(state.kept?.text).toBe('Add a Summary heading');
    expect(state.keptEdits).toEqual([
      {
        iteration: 3,
        commit: 'abc1234',
        description: 'Add a Summary heading',
        score: 0.6,
        delta: expect.closeTo(0.1, 9),
      },
    ]);
    expect(state).toMatchObject({ consecutiveReverts: 0, consecutiveCrashes: 0, baselineScore: 0.5 });
    expect(state.rows.map((r) => r.status)).toEqual(['baseline', 'revert', 'crash', 'keep']);
    expect(state.usage.calls).toBe(2 + 3 + 1 + 3);
    // The gain is over the tip it replaced, not over the baseline.
    expect(stepLoop(state, keep(0.7, 'Name the test')).keptEdits[1]?.delta).toBeCloseTo(0.1, 9);
  });

  it('revert: the tip stays, the revert streak grows (radical mode after three), real proposals are remembered', () => {
    const state = run(baseline(0.5), revert('try A'), revert('no edit', false), revert('try B'));
    expect(state.kept?.score).toBe(0.5);
    expect(state.consecutiveReverts).toBe(RADICAL_AFTER_REVERTS);
    expect(state.revertedDescriptions).toEqual(['try A', 'try B']);
    expect(state.keptEdits).toEqual([]);
  });

  it('crash: the crash streak grows and resets the revert streak; three in a row stop the loop (park)', () => {
    const two = run(baseline(0.5), revert('try A'), crash('HTTP 500'), crash('timeout'));
    expect(two).toMatchObject({ consecutiveCrashes: 2, consecutiveReverts: 1, iterations: 3 });
    expect(loopStopReason(two, limits, at)).toBeUndefined();
    const three = stepLoop(two, crash('HTTP 529'));
    expect(three.consecutiveCrashes).toBe(PARK_AFTER_CRASHES);
    expect(loopStopReason(three, limits, at)).toBe('consecutive crashes');
    // A revert between crashes breaks the streak.
    expect(run(baseline(0.5), crash('a'), crash('b'), revert('c'), crash('d')).consecutiveCrashes).toBe(1);
  });

  it('saturation: a keep confirmed all-pass by the N=3 re-grade stays the tip through later reverts', () => {
    const saturated = run(baseline(0.9), keep(1, 'Name the failing test', true));
    expect(saturated.kept?.confirmedAllPass).toBe(true);
    const after = stepLoop(saturated, revert('Simplify the steps'));
    expect(after.kept?.confirmedAllPass).toBe(true);
    expect(after.kept?.score).toBe(1);
    // An unconfirmed keep replaces it: simplification mode is gated on the tip's own confirmation.
    expect(stepLoop(after, keep(1, 'Shorter', false)).kept?.confirmedAllPass).toBe(false);
  });

  it('the iteration cap counts judged iterations only, never the baseline', () => {
    const capped = { ...limits, perSkillIterations: 2 };
    expect(loopStopReason(run(baseline(0.5), revert('a')), capped, at)).toBeUndefined();
    expect(loopStopReason(run(baseline(0.5), revert('a'), crash('b')), capped, at)).toBe('iteration cap');
  });
});
