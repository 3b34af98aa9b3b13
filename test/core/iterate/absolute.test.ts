import { describe, expect, it } from 'vitest';
import {
  OMITTED_REASON,
  VACUOUS_REASON,
  aggregate,
  ambiguousReason,
  coerceVerdict,
  combineScores,
  decidePairs,
  majorityVote,
  pairKey,
  pairWeights,
  planScenario,
  repairGraderAnswer,
  type Verdict,
} from '../../../src/core/iterate/absolute.js';
import { parseEvals, type Scenario } from '../../../src/core/iterate/evals.js';

const EVALS = parseEvals(
  JSON.stringify({
    categories: [
      {
        name: 'Content',
        weight: 0.25,
        evals: [
          { id: 4, statement: 'Names the next step.', source: 'SKILL.md:20', defect_type: 'content' },
          { id: 2, statement: 'Mentions the test.', source: 'SKILL.md:18' },
        ],
      },
      {
        name: 'Format',
        weight: 0.75,
        evals: [
          {
            id: 3,
            statement: 'Has a Summary heading.',
            check: { type: 'regex', value: '^## Summary$', flags: 'm' },
          },
          { id: 1, statement: 'Is short.', source: 'SKILL.md:3', defect_type: 'format' },
        ],
      },
    ],
  }),
);

const scenario = (id: string, expected?: number[]): Scenario => ({
  id,
  context: `context of ${id}`,
  ...(expected ? { expected_assertions: expected } : {}),
});

describe('planScenario', () => {
  it('ids outside expected_assertions are vacuous, checks go to code, the rest to the model', () => {
    const plan = planScenario(EVALS, scenario('s1', [1, 3]));
    const routes = Object.fromEntries(plan.pairs.map((p) => [p.assertion.id, p.route]));
    expect(routes).toEqual({ 1: 'model', 2: 'vacuous', 3: 'check', 4: 'vacuous' });
    expect(plan.modelGraded.map((p) => p.assertion.id)).toEqual([1]);
  });

  it('without expected_assertions nothing is vacuous in code: every non-check assertion goes to the grader', () => {
    const plan = planScenario(EVALS, scenario('s1'));
    expect(plan.modelGraded.map((p) => p.assertion.id).sort()).toEqual([1, 2, 4]);
    expect(plan.pairs.find((p) => p.assertion.id === 3)?.route).toBe('check');
  });

  it('a scenario whose expected assertions are all checks needs no grader', () => {
    expect(planScenario(EVALS, scenario('s1', [3])).modelGraded).toEqual([]);
  });
});

describe('grader answer repairs', () => {
  it('coerces non-boolean verdicts: only "true"/"yes" (trimmed, any case) pass', () => {
    expect(coerceVerdict(true)).toBe(true);
    expect(coerceVerdict(false)).toBe(false);
    expect(coerceVerdict(' TRUE ')).toBe(true);
    expect(coerceVerdict('Yes')).toBe(true);
    expect(coerceVerdict('no')).toBe(false);
    expect(coerceVerdict('pass')).toBe(false);
    expect(coerceVerdict(1)).toBe(false);
    expect(coerceVerdict(null)).toBe(false);
    expect(coerceVerdict({ verdict: true })).toBe(false);
  });

  it('an omitted id fails with "grader omitted", an unknown id is dropped', () => {
    const repaired = repairGraderAnswer(
      {
        '1': { verdict: true, reason: 'short' },
        '99': { verdict: true, reason: 'not asked' },
        ' 2 ': { verdict: 'yes' },
      },
      [1, 2, 4],
    );
    expect([...repaired.keys()]).toEqual([1, 2, 4]);
    expect(repaired.get(1)).toEqual({ pass: true, reason: 'short' });
    expect(repaired.get(2)).toEqual({ pass: true, reason: '' });
    expect(repaired.get(4)).toEqual({ pass: false, reason: OMITTED_REASON });
    expect(repaired.has(99)).toBe(false);
  });
});

describe('majorityVote', () => {
  const t = (pass: boolean, reason = pass ? 'ok' : 'bad'): Verdict => ({ pass, reason });
  it('a strict majority decides', () => {
    expect(majorityVote([t(true), t(false, 'first no'), t(true)]).pass).toBe(true);
    expect(majorityVote([t(false, 'first no'), t(true), t(false, 'second no')])).toEqual({
      pass: false,
      reason: 'first no',
    });
  });
  it('ties fail', () => {
    expect(majorityVote([t(true), t(false, 'tie')])).toEqual({ pass: false, reason: 'tie' });
    expect(majorityVote([t(true), t(true), t(false), t(false)]).pass).toBe(false);
  });
  it('one trial is its own verdict', () => {
    expect(majorityVote([t(true)]).pass).toBe(true);
    expect(majorityVote([t(false)]).pass).toBe(false);
  });
});

describe('decidePairs + aggregate', () => {
  // s1 expects [1, 3, 4]; s2 expects [2, 3]; s0 expects everything.
  const plans = [
    planScenario(EVALS, scenario('s1', [1, 3, 4])),
    planScenario(EVALS, scenario('s2', [2, 3])),
    planScenario(EVALS, scenario('s0', [1, 2, 3, 4])),
  ];
  const renders = new Map([
    ['s1', '## Summary\nshort'],
    ['s2', 'no heading here'],
    ['s0', '## Summary\n'],
  ]);
  const trial = new Map<string, Verdict>([
    [pairKey('s1', 1), { pass: false, reason: 'too long' }],
    [pairKey('s1', 4), { pass: true, reason: 'names it' }],
    [pairKey('s2', 2), { pass: true, reason: 'mentions' }],
    [pairKey('s0', 1), { pass: true, reason: 'short' }],
    [pairKey('s0', 2), { pass: false, reason: 'no test' }],
    // s0/4 deliberately missing → omitted
  ]);
  const decided = decidePairs(plans, renders, [trial]);
  const result = aggregate(EVALS, plans, decided);

  it('decides vacuous and check pairs in code', () => {
    expect(decided.get(pairKey('s1', 2))).toEqual({ pass: true, reason: VACUOUS_REASON });
    expect(decided.get(pairKey('s1', 3))?.pass).toBe(true);
    expect(decided.get(pairKey('s2', 3))?.pass).toBe(false);
    expect(decided.get(pairKey('s0', 4))).toEqual({ pass: false, reason: OMITTED_REASON });
  });

  it('category scores count vacuous pairs as passing graded pairs; weighted = Σ weight × score', () => {
    // Format (0.75): s1/1 F, s1/3 T, s2/1 vac T, s2/3 F, s0/1 T, s0/3 T → 4/6
    // Content (0.25): s1/2 vac T, s1/4 T, s2/2 T, s2/4 vac T, s0/2 F, s0/4 F → 4/6
    const byName = Object.fromEntries(result.categories.map((c) => [c.name, c]));
    expect(byName.Format).toMatchObject({ passed: 4, total: 6 });
    expect(byName.Content).toMatchObject({ passed: 4, total: 6 });
    expect(result.weighted_score).toBeCloseTo(0.75 * (4 / 6) + 0.25 * (4 / 6), 12);
    expect(result.passed).toBe(8);
    expect(result.total).toBe(12);
  });

  it('failed_assertions are sorted by (−category_weight, assertion_id, scenario_id) with all eight fields', () => {
    expect(result.failed_assertions.map((f) => [f.assertion_id, f.scenario_id])).toEqual([
      [1, 's1'],
      [3, 's2'],
      [2, 's0'],
      [4, 's0'],
    ]);
    expect(result.failed_assertions[0]).toEqual({
      assertion_id: 1,
      scenario_id: 's1',
      category_name: 'Format',
      category_weight: 0.75,
      statement: 'Is short.',
      source: 'SKILL.md:3',
      defect_type: 'format',
      grader_reason: 'too long',
    });
    expect(result.failed_assertions[2]).toMatchObject({ source: 'SKILL.md:18', defect_type: 'unspecified' });
  });

  it('passing_pairs are sorted by (assertion_id, scenario_id)', () => {
    expect(result.passing_pairs).toEqual([
      { assertion_id: 1, scenario_id: 's0' },
      { assertion_id: 1, scenario_id: 's2' },
      { assertion_id: 2, scenario_id: 's1' },
      { assertion_id: 2, scenario_id: 's2' },
      { assertion_id: 3, scenario_id: 's0' },
      { assertion_id: 3, scenario_id: 's1' },
      { assertion_id: 4, scenario_id: 's1' },
      { assertion_id: 4, scenario_id: 's2' },
    ]);
  });

  it('collapses trials per pair by majority vote, then computes ONE score (not a mean of trial scores)', () => {
    const one = [planScenario(EVALS, scenario('s', [1, 2]))];
    const r = new Map([['s', 'x']]);
    // pair 1: T F T → T; pair 2: F F T → F. Trial scores would be 1.0, 0.5... the vote is what counts.
    const trials = [
      new Map([
        [pairKey('s', 1), { pass: true, reason: '' }],
        [pairKey('s', 2), { pass: false, reason: 'a' }],
      ]),
      new Map([
        [pairKey('s', 1), { pass: false, reason: 'b' }],
        [pairKey('s', 2), { pass: false, reason: 'c' }],
      ]),
      new Map([
        [pairKey('s', 1), { pass: true, reason: '' }],
        [pairKey('s', 2), { pass: true, reason: '' }],
      ]),
    ];
    const res = aggregate(EVALS, one, decidePairs(one, r, trials));
    // Format: 1 T, 3 vac T → 2/2; Content: 2 F, 4 vac T → 1/2.
    expect(res.weighted_score).toBeCloseTo(0.75 * 1 + 0.25 * 0.5, 12);
    expect(res.failed_assertions.map((f) => [f.assertion_id, f.grader_reason])).toEqual([[2, 'a']]);
  });

  it('leaves an empty category out of the weighting and renormalises the others', () => {
    const evals = parseEvals(
      JSON.stringify({
        categories: [
          { name: 'Empty', weight: 0.5, evals: [] },
          { name: 'Real', weight: 0.5, evals: [{ id: 1, statement: 's' }] },
        ],
      }),
    );
    const p = [planScenario(evals, scenario('a', [1])), planScenario(evals, scenario('b', [1]))];
    const verdicts = new Map([
      [pairKey('a', 1), { pass: true, reason: '' }],
      [pairKey('b', 1), { pass: false, reason: 'no' }],
    ]);
    const res = aggregate(evals, p, decidePairs(p, new Map(), [verdicts]));
    expect(res.weighted_score).toBeCloseTo(0.5, 12);
    expect(res.categories[0]).toMatchObject({ name: 'Empty', total: 0, score: 1 });
  });

  it('renormalises weights that do not sum to 1 so the score stays in [0, 1]', () => {
    const evals = parseEvals(
      JSON.stringify({
        categories: [
          { name: 'A', weight: 2, evals: [{ id: 1, statement: 's' }] },
          { name: 'B', weight: 1, evals: [{ id: 2, statement: 't' }] },
        ],
      }),
    );
    const p = [planScenario(evals, scenario('a', [1, 2]))];
    const verdicts = new Map([
      [pairKey('a', 1), { pass: true, reason: '' }],
      [pairKey('a', 2), { pass: false, reason: '' }],
    ]);
    expect(aggregate(evals, p, decidePairs(p, new Map(), [verdicts])).weighted_score).toBeCloseTo(2 / 3, 12);
  });
});

describe('combineScores', () => {
  it('composite = w.structural·structural + w.absolute·weighted', () => {
    expect(combineScores('composite', 0.5, 0.9, { structural: 0.4, absolute: 0.6 })).toBeCloseTo(0.74, 12);
    expect(combineScores('composite', 0.5, 0.9, { structural: 0.5, absolute: 0.5 })).toBeCloseTo(0.7, 12);
  });
  it('single-axis modes return that axis', () => {
    expect(combineScores('structural', 0.5, 0.9, { structural: 0.4, absolute: 0.6 })).toBe(0.5);
    expect(combineScores('absolute', 0.5, 0.9, { structural: 0.4, absolute: 0.6 })).toBe(0.9);
    expect(combineScores('structural', 0.5, null, { structural: 0.4, absolute: 0.6 })).toBe(0.5);
    expect(() => combineScores('absolute', 0.5, null, { structural: 0.4, absolute: 0.6 })).toThrow();
  });
});

describe('ambiguousReason', () => {
  it('recognises the sentinel after trimming and returns the reason', () => {
    expect(ambiguousReason('  AMBIGUOUS: no notes were given\n')).toBe('no notes were given');
    expect(ambiguousReason('AMBIGUOUS:')).toBe('(no reason given)');
    expect(ambiguousReason('The output mentions AMBIGUOUS: later')).toBeUndefined();
    expect(ambiguousReason('ambiguous: lower case')).toBeUndefined();
  });
});

describe('pairWeights (the noise estimate splits a draw by scenario with them)', () => {
  const passed = (weights: Map<string, number>, decided: ReadonlyMap<string, Verdict>) =>
    [...decided].reduce((sum, [key, v]) => sum + (v.pass ? (weights.get(key) ?? 0) : 0), 0);

  it("a draw's passing pairs add up to its weighted score, vacuous and check pairs included", () => {
    const plans = [
      planScenario(EVALS, scenario('s1', [1, 3, 4])),
      planScenario(EVALS, scenario('s2', [2, 3])),
      planScenario(EVALS, scenario('s0', [1, 2, 3, 4])),
    ];
    const renders = new Map([
      ['s1', '## Summary'],
      ['s2', 'none'],
      ['s0', '## Summary'],
    ]);
    const weights = pairWeights(EVALS, plans);
    // Format (0.75) has 6 pairs, Content (0.25) 6: a pass is worth 0.125 or 1/24.
    expect(weights.get(pairKey('s1', 1))).toBeCloseTo(0.125, 12);
    expect(weights.get(pairKey('s2', 4))).toBeCloseTo(1 / 24, 12);
    for (const verdicts of [
      [true, false, true, false],
      [false, false, false, false],
      [true, true, true, true],
    ]) {
      const trial = new Map<string, Verdict>();
      for (const plan of plans)
        for (const [i, id] of [1, 2, 3, 4].entries())
          trial.set(pairKey(plan.scenario.id, id), { pass: verdicts[i]!, reason: '' });
      const decided = decidePairs(plans, renders, [trial]);
      expect(passed(weights, decided)).toBeCloseTo(aggregate(EVALS, plans, decided).weighted_score, 12);
    }
  });

  it('renormalises as aggregate does: an empty category left out, weights not summing to 1 divided by their sum', () => {
    const evals = parseEvals(
      JSON.stringify({
        categories: [
          { name: 'Empty', weight: 0.5, evals: [] },
          { name: 'A', weight: 2, evals: [{ id: 1, statement: 's' }] },
          { name: 'B', weight: 1, evals: [{ id: 2, statement: 't' }] },
        ],
      }),
    );
    const p = [planScenario(evals, scenario('a', [1, 2])), planScenario(evals, scenario('b', [1, 2]))];
    const weights = pairWeights(evals, p);
    expect(weights.get(pairKey('a', 1))).toBeCloseTo(2 / 2 / 3, 12);
    expect(weights.get(pairKey('b', 2))).toBeCloseTo(1 / 2 / 3, 12);
    const decided = decidePairs(p, new Map(), [
      new Map([
        [pairKey('a', 1), { pass: true, reason: '' }],
        [pairKey('b', 2), { pass: true, reason: '' }],
        [pairKey('a', 2), { pass: false, reason: '' }],
        [pairKey('b', 1), { pass: false, reason: '' }],
      ]),
    ]);
    expect(passed(weights, decided)).toBeCloseTo(aggregate(evals, p, decided).weighted_score, 12);
  });
});
