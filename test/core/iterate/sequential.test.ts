import { describe, expect, it } from 'vitest';
import {
  flipRate,
  minimumDetectableGain,
  redrawsPayOff,
  REDRAW_FLIP_RATE,
  sequentialLook,
} from '../../../src/core/iterate/sequential.js';
import { tallyDraws } from '../../../src/core/iterate/noise.js';

const base = { se: 0.1, margin: 1, minGain: 0, planned: 3, max: 3 };

describe('sequentialLook (issue 28)', () => {
  it('stops early only when clearly above the margin or not above the state at all', () => {
    // Before the planned draws: clear needs margin + 1 standard errors.
    expect(sequentialLook({ ...base, gain: 0.21, draws: 2 })).toBe('clear');
    expect(sequentialLook({ ...base, gain: 0.15, draws: 2 })).toBe('continue');
    expect(sequentialLook({ ...base, gain: 0, draws: 2 })).toBe('not-better');
    expect(sequentialLook({ ...base, gain: -0.05, draws: 2 })).toBe('not-better');
  });

  it('decides on the margin at the last draw, and extends a close call when draws remain', () => {
    expect(sequentialLook({ ...base, gain: 0.11, draws: 3 })).toBe('clear');
    expect(sequentialLook({ ...base, gain: 0.09, draws: 3 })).toBe('not-better');
    const extendable = { ...base, max: 6 };
    expect(sequentialLook({ ...extendable, gain: 0.09, draws: 3 })).toBe('continue');
    expect(sequentialLook({ ...extendable, gain: 0.04, draws: 3 })).toBe('not-better');
    expect(sequentialLook({ ...extendable, gain: 0.09, draws: 6 })).toBe('not-better');
  });

  it('holds the minimum gain and keeps the simplicity bias at the end only', () => {
    expect(sequentialLook({ ...base, minGain: 0.5, gain: 0.4, draws: 3 })).toBe('not-better');
    expect(sequentialLook({ ...base, gain: 0, draws: 2, simpler: true })).toBe('continue');
    expect(sequentialLook({ ...base, gain: 0, draws: 3, simpler: true })).toBe('clear');
    expect(sequentialLook({ ...base, se: 0, gain: 0.01, draws: 1 })).toBe('clear');
    expect(sequentialLook({ ...base, se: 0, gain: 0, draws: 1 })).toBe('not-better');
  });
});

describe('the noise said in numbers (issue 28 item 3)', () => {
  it('the minimum detectable gain is the margin in composite units, or the minimum gain when larger', () => {
    // sd .06, 6 fresh draws against the baseline's 3: .06 * sqrt(1/6 + 1/3) = .0424.
    expect(
      minimumDetectableGain({ sd: 0.06, draws: 6, stateDraws: 3, margin: 1, minGain: 0.005 }),
    ).toBeCloseTo(0.0424, 4);
    expect(minimumDetectableGain({ sd: 0, draws: 6, stateDraws: 3, margin: 1, minGain: 0.005 })).toBe(0.005);
  });

  it('the flip rate is the share of two draws of the same check that disagree', () => {
    const pair = (assertionId: number, scenarioId: string, pass: boolean) => ({
      assertionId,
      scenarioId,
      pass,
    });
    // s1 passes 2 of 3 draws: 2 of its 3 comparisons disagree; s2 always fails: 0 of 3.
    const t = tallyDraws([
      [pair(1, 's1', true), pair(1, 's2', false)],
      [pair(1, 's1', false), pair(1, 's2', false)],
      [pair(1, 's1', true), pair(1, 's2', false)],
    ]);
    expect(flipRate(t)).toBeCloseTo(2 / 6, 9);
    expect(flipRate([])).toBeNaN();
  });
});

describe('re-draws of a promising edit, by the measured flip rate (issue 28)', () => {
  it('pay off from a grader wrong about 1 verdict in 5 (two draws disagreeing 32 % of the time)', () => {
    // 2p(1 - p) at p = 0.2.
    expect(REDRAW_FLIP_RATE).toBeCloseTo(2 * 0.2 * 0.8, 9);
    expect(redrawsPayOff(0.42)).toBe(true);
    expect(redrawsPayOff(0.32)).toBe(true);
    expect(redrawsPayOff(0.3199)).toBe(false);
    expect(redrawsPayOff(0.255)).toBe(false);
    expect(redrawsPayOff(0)).toBe(false);
  });

  it('pay off when nothing was drawn twice yet (no rate measured): the safe side', () => {
    expect(redrawsPayOff(Number.NaN)).toBe(true);
  });
});
