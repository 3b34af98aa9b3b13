import { describe, expect, it } from 'vitest';
import { markHoldouts } from '../../../src/core/iterate/evals-authoring.js';
import { parseScenarios } from '../../../src/core/iterate/evals.js';
import {
  NO_NOISE,
  clearsMargin,
  confirmationOf,
  confirmedShipGate,
  evalFindings,
  gainMargin,
  noiseReport,
  noiseSd,
  poolNoise,
  tallyDraws,
  upliftOf,
  withinTextSquares,
  worthMeasuring,
} from '../../../src/core/iterate/noise.js';
import { probeScenarios } from '../../../src/core/iterate/noise-probe.js';
import { scenarioParts } from '../../../src/core/iterate/spread.js';

const pair = (assertionId: number, scenarioId: string, pass: boolean) => ({ assertionId, scenarioId, pass });

describe('the noise estimate and the margin', () => {
  it('pools the within-text spread over every text measured more than once', () => {
    const a = poolNoise(NO_NOISE, [0, 0.5, 0]);
    expect(a.df).toBe(2);
    expect(noiseSd(a)).toBeCloseTo(Math.sqrt(1 / 12), 12);
    // One draw adds no degrees of freedom; a constant text adds them with no spread.
    expect(poolNoise(a, [0.7])).toEqual(a);
    const b = poolNoise(a, [0.5, 0.5, 0.5]);
    expect(b.df).toBe(4);
    expect(noiseSd(b)).toBeCloseTo(Math.sqrt(1 / 24), 12);
    // margin × sd × sqrt(1/3 + 1/3)
    expect(gainMargin(a, 3, 3, 1)).toBeCloseTo(Math.sqrt(1 / 12) * Math.sqrt(2 / 3), 12);
    expect(gainMargin(NO_NOISE, 3, 3, 1)).toBe(0);
  });

  it('spends trials only where they can decide something', () => {
    expect(worthMeasuring(NO_NOISE, 3, false)).toBe(true); // nothing measured twice yet
    expect(worthMeasuring(poolNoise(NO_NOISE, [0.5, 0.5, 0.5]), 3, false)).toBe(false); // exact so far
    expect(worthMeasuring(poolNoise(NO_NOISE, [0.5, 0, 0.5]), 3, false)).toBe(true);
    expect(worthMeasuring(poolNoise(NO_NOISE, [0.5, 0, 0.5]), 1, false)).toBe(false);
    expect(worthMeasuring(poolNoise(NO_NOISE, [0.5, 0, 0.5]), 3, true)).toBe(false); // structure only
    // Composites that tie while verdicts flip between the draws: not exact.
    expect(worthMeasuring(poolNoise(NO_NOISE, [0.5, 0.5, 0.5]), 3, false, true)).toBe(true);
    expect(worthMeasuring(poolNoise(NO_NOISE, [0.5, 0.5, 0.5]), 3, true, true)).toBe(false);
  });

  it('keeps only a gain above the margin, or a no-loss simplification', () => {
    const estimate = poolNoise(NO_NOISE, [0, 0.5, 0]);
    const base = { state: 1 / 6, draws: 3, stateDraws: 3, estimate, margin: 1, linesDelta: 1 };
    expect(clearsMargin({ ...base, candidate: 1 / 6 }).keep).toBe(false);
    expect(clearsMargin({ ...base, candidate: 0.3 }).keep).toBe(false);
    expect(clearsMargin({ ...base, candidate: 0.5 }).keep).toBe(true);
    expect(clearsMargin({ ...base, candidate: 1 / 6, linesDelta: -1 }).keep).toBe(true);
    expect(clearsMargin({ ...base, candidate: 0.1, linesDelta: -1 }).keep).toBe(false);
    // With no spread measured the margin is 0: any gain keeps, as in the original.
    expect(clearsMargin({ ...base, estimate: NO_NOISE, candidate: 0.17 }).keep).toBe(true);
  });
});

describe('the noise estimate, scenario by scenario (issue 28: the unit the noise lives in)', () => {
  // Two scenarios of one check each, a pass worth 0.25 of the composite: three draws whose flips cancel.
  const weightOf = () => 0.25;
  const draws = [
    [pair(1, 's1', true), pair(1, 's2', false)],
    [pair(1, 's1', false), pair(1, 's2', true)],
    [pair(1, 's1', true), pair(1, 's2', false)],
  ];
  const parts = draws.map((d) => scenarioParts(d, weightOf));
  const composites = [0.25, 0.25, 0.25];

  it("splits a draw's composite into what each scenario's passing pairs add", () => {
    expect([...scenarioParts(draws[1]!, weightOf)]).toEqual([
      ['s1', 0],
      ['s2', 0.25],
    ]);
    const weighted = scenarioParts([pair(1, 'a', true), pair(2, 'a', true), pair(3, 'b', true)], (s, a) =>
      s === 'a' ? a / 10 : 0.5,
    );
    expect(Object.fromEntries(weighted)).toEqual({ a: 0.30000000000000004, b: 0.5 });
  });

  it("sums the scenarios' spreads: composites that tie while scenarios flip measure a spread", () => {
    // s1: .25, 0, .25 and s2: 0, .25, 0 — each a sum of squares of 1/24; the composites' is 0.
    expect(withinTextSquares(composites)).toBe(0);
    expect(withinTextSquares(composites, parts)).toBeCloseTo(2 / 24, 12);
    const estimate = poolNoise(NO_NOISE, composites, parts);
    expect(estimate.df).toBe(2);
    expect(noiseSd(estimate)).toBeCloseTo(Math.sqrt(1 / 24), 12);
    expect(noiseReport(composites, tallyDraws(draws), parts).sd).toBeCloseTo(Math.sqrt(1 / 24), 12);
    expect(noiseReport(composites, tallyDraws(draws)).sd).toBe(0);
  });

  it("equals the composites' spread when one scenario carries all of it", () => {
    const one = [[pair(1, 's1', true)], [pair(1, 's1', false)], [pair(1, 's1', true)]];
    const oneParts = one.map((d) => scenarioParts(d, weightOf));
    expect(withinTextSquares([0.25, 0, 0.25], oneParts)).toBeCloseTo(withinTextSquares([0.25, 0, 0.25]), 12);
  });

  it("falls back to the composites' spread when a draw's parts are missing or cover other scenarios", () => {
    const composite = [0.25, 0, 0.25];
    expect(withinTextSquares(composite, [parts[0], undefined, parts[2]])).toBeCloseTo(1 / 24, 12);
    expect(withinTextSquares(composite, parts.slice(0, 2))).toBeCloseTo(1 / 24, 12);
    const other = [parts[0]!, new Map([['s3', 0]]), parts[2]!];
    expect(withinTextSquares(composite, other)).toBeCloseTo(1 / 24, 12);
    expect(poolNoise(NO_NOISE, [0.5], [parts[0]])).toEqual(NO_NOISE);
  });
});

describe('tallies, confirmation and findings', () => {
  it('counts passes and the pairs whose verdict changed between draws', () => {
    const t = tallyDraws([
      [pair(1, 's1', true), pair(1, 's2', false), pair(2, 's1', true)],
      [pair(1, 's1', false), pair(1, 's2', false), pair(2, 's1', true)],
    ]);
    expect(t).toEqual([
      // Assertion 1: two checks compared once each, one of them disagreeing (s1 passed, then failed).
      {
        assertionId: 1,
        passes: 1,
        total: 4,
        repeatedPairs: 2,
        flippedPairs: 1,
        comparisons: 2,
        disagreements: 1,
      },
      {
        assertionId: 2,
        passes: 2,
        total: 2,
        repeatedPairs: 1,
        flippedPairs: 0,
        comparisons: 1,
        disagreements: 0,
      },
    ]);
  });

  it('confirms with an interval, lists changed pass rates, and a holdout drop blocks the ship', () => {
    const before = tallyDraws([[pair(1, 's1', false)], [pair(1, 's1', false)], [pair(1, 's1', true)]]);
    const after = tallyDraws([[pair(1, 's1', true)], [pair(1, 's1', true)], [pair(1, 's1', true)]]);
    const estimate = poolNoise(poolNoise(NO_NOISE, [0, 0, 0.5]), [0.5, 0.5, 1]);
    const c = confirmationOf({
      baselineScores: [0, 0, 0.5],
      finalScores: [0.5, 0.5, 1],
      baselineTallies: before,
      finalTallies: after,
      holdoutBefore: tallyDraws([[pair(1, 'h', true)]]),
      holdoutAfter: tallyDraws([[pair(1, 'h', false)]]),
      estimate,
      margin: 1,
    });
    expect(c.gain).toBeCloseTo(0.5, 12);
    expect(c.low).toBeLessThan(c.gain);
    expect(c.high - c.gain).toBeCloseTo(c.gain - c.low, 12);
    expect(c.evidence).toEqual([
      { assertionId: 1, before: { passes: 1, total: 3 }, after: { passes: 3, total: 3 } },
    ]);
    const lines = { linesBaseline: 10, linesFinal: 12, minGain: 0.005 };
    expect(confirmedShipGate({ confirmation: c, ...lines })).toEqual({
      decision: 'no-improvement',
      detail: 'holdout pass rate dropped: 1 of 1 → 0 of 1',
    });
    const noHoldout = { ...c, holdout: undefined };
    expect(confirmedShipGate({ confirmation: noHoldout, ...lines }).decision).toBe('ship');
    const flat = { ...noHoldout, final: c.baseline, gain: 0 };
    expect(confirmedShipGate({ confirmation: flat, ...lines }).decision).toBe('no-improvement');
    // The simplicity bias on confirmed scores: no loss and fewer lines ships.
    expect(confirmedShipGate({ confirmation: flat, ...lines, linesFinal: 9 }).decision).toBe('ship');
  });

  it('finds non-discriminating, flaky and never-passing assertions', () => {
    const withSkill = tallyDraws([
      [pair(1, 's', true), pair(2, 's', true), pair(3, 's', false), pair(4, 's', true)],
      [pair(1, 's', true), pair(2, 's', true), pair(3, 's', false), pair(4, 's', false)],
    ]);
    const withoutSkill = tallyDraws([
      [pair(1, 's', false), pair(2, 's', true), pair(3, 's', false), pair(4, 's', false)],
    ]);
    const uplift = upliftOf({ withSkill, withoutSkill, withRates: [0.75, 0.5], margin: 1 });
    expect(uplift.uplift).toBeCloseTo(5 / 8 - 1 / 4, 12);
    expect(evalFindings({ night: withSkill, uplift }).map((f) => [f.assertionId, f.kind])).toEqual([
      [2, 'not discriminating'],
      [3, 'never passing'],
      [4, 'flaky'],
    ]);
    const none = upliftOf({ withSkill, withoutSkill: withSkill, withRates: [0.75, 0.5], margin: 1 });
    expect(none.measurable).toBe(false);
  });
});

describe('holdout scenarios in the eval files', () => {
  it('reads "holdout": true, and refuses a file where every scenario is one', () => {
    const text = (holdouts: boolean[]) =>
      JSON.stringify({
        scenarios: holdouts.map((h, i) => ({ id: `s${i}`, context: 'c', ...(h ? { holdout: true } : {}) })),
      });
    expect(parseScenarios(text([false, true]), undefined).map((s) => s.holdout)).toEqual([undefined, true]);
    expect(() => parseScenarios(text([true, true]), undefined)).toThrow(/every scenario is a holdout/);
  });

  it('evals init marks the last scenarios holdout when it writes three or more, two always stay visible', () => {
    const files = (n: number) => ({
      evals: {},
      scenarios: { scenarios: Array.from({ length: n }, (_, i) => ({ id: `scenario_${i + 1}` })) },
    });
    const marks = (n: number, count: number) =>
      (markHoldouts(files(n), count).scenarios!.scenarios as Array<{ holdout?: boolean }>).map(
        (s) => s.holdout === true,
      );
    expect(marks(2, 1)).toEqual([false, false]);
    expect(marks(3, 1)).toEqual([false, false, true]);
    expect(marks(3, 0)).toEqual([false, false, false]);
    expect(marks(4, 5)).toEqual([false, false, true, true]);
    expect(markHoldouts({ evals: {}, scenarios: undefined }, 1).scenarios).toBeUndefined();
  });
});

describe("the baseline's noise probe (issue 28)", () => {
  const evals = (perScenario: number[]) => ({
    evals: {
      skill: 'demo',
      version: '1',
      categories: [
        {
          name: 'All',
          weight: 1,
          evals: [1, 2, 3, 4, 5, 6].map((id) => ({ id, statement: `A${id}`, source: 'x', defect_type: 'x' })),
        },
      ],
    },
    scenarios: perScenario.map((n, i) => ({
      id: `s${i + 1}`,
      name: `S${i + 1}`,
      context: 'c',
      expected_assertions: [1, 2, 3, 4, 5, 6].slice(0, n),
    })),
    requiredSections: undefined,
  });

  it('takes the fewest scenarios in file order whose model-graded checks reach 6', () => {
    // A vacuous pair is no model-graded check: 2 + 2 + 2 = 6.
    expect(probeScenarios(evals([2, 2, 2, 6, 6]))).toEqual(['s1', 's2', 's3']);
    expect(probeScenarios(evals([6, 6, 6, 6, 6, 6]))).toEqual(['s1']);
  });

  it('is undefined when it would take every scenario (draw 1 is then whole at once)', () => {
    expect(probeScenarios(evals([3, 3]))).toBeUndefined();
    expect(probeScenarios(evals([2, 2, 1]))).toBeUndefined();
  });
});
