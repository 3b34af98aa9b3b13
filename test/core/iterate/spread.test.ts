/**
 * A draw split by scenario (core/iterate/spread.ts): what each scenario's passing pairs add to the composite
 * must be exactly what the scorer adds, in both eval formats and both model-graded modes, or the noise
 * estimate would measure another quantity than the one the decisions compare.
 */
import { describe, expect, it } from 'vitest';
import {
  aggregate,
  combineScores,
  decidePairs,
  pairKey,
  planScenario,
  type Verdict,
} from '../../../src/core/iterate/absolute.js';
import { agentSkillsEvals } from '../../../src/core/iterate/agent-skills-evals.js';
import { parseEvals, type SkillEvals } from '../../../src/core/iterate/evals.js';
import { DEFAULT_WEIGHTS, type ScoreMode } from '../../../src/core/iterate/score-types.js';
import { scenarioSplitter } from '../../../src/core/iterate/spread.js';

/** The original format: two categories of unequal weight, one scenario with a vacuous pair. */
const ORIGINAL: SkillEvals = {
  evals: parseEvals(
    JSON.stringify({
      categories: [
        {
          name: 'Format',
          weight: 0.7,
          evals: [
            { id: 1, statement: 'Has a Summary heading.' },
            { id: 2, statement: 'Is short.' },
          ],
        },
        { name: 'Content', weight: 0.3, evals: [{ id: 3, statement: 'Names the failing test.' }] },
      ],
    }),
  ),
  scenarios: [
    { id: 'login', context: 'The login test flaked all day.', expected_assertions: [1, 2, 3] },
    { id: 'deploy', context: 'The deploy stalled.', expected_assertions: [1, 3] },
    { id: 'review', context: 'A review is waiting.' },
  ],
  requiredSections: undefined,
};

/** The Agent Skills format: each eval a scenario with assertions of its own, all in one category. */
const AGENT_SKILLS = agentSkillsEvals(
  {
    skill_name: 'csv-analyzer',
    evals: [
      {
        id: 1,
        prompt: 'Find the top 3 months by revenue in data/sales.csv and chart them.',
        assertions: ['The output includes a bar chart', 'The chart shows exactly 3 months'],
      },
      {
        id: 2,
        prompt: 'Clean customers.csv: some rows have missing emails.',
        assertions: ['The output states how many emails were missing'],
      },
      {
        id: 3,
        prompt: 'Summarise quarterly revenue from data/q.csv.',
        assertions: ['A table of four quarters', 'Each quarter has its revenue', 'The total is given'],
      },
    ],
  },
  new Map(),
  undefined,
);

/** A seeded draw: every model-graded pair of `evals` passes or fails. */
function drawOf(evals: SkillEvals, seed: number) {
  const plans = evals.scenarios.map((s) => planScenario(evals.evals, s, evals.format));
  let state = seed >>> 0;
  const coin = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 < 0.5;
  };
  const trial = new Map<string, Verdict>();
  for (const plan of plans)
    for (const pair of plan.modelGraded)
      trial.set(pairKey(plan.scenario.id, pair.assertion.id), { pass: coin(), reason: '' });
  const decided = decidePairs(plans, new Map(), [trial]);
  const pairs = plans.flatMap((plan) =>
    plan.pairs
      .filter((p) => p.route !== 'vacuous')
      .map((p) => ({
        scenarioId: plan.scenario.id,
        assertionId: p.assertion.id,
        pass: decided.get(pairKey(plan.scenario.id, p.assertion.id))!.pass,
      })),
  );
  return { weighted: aggregate(evals.evals, plans, decided).weighted_score, pairs };
}

const sum = (parts: ReadonlyMap<string, number>) => [...parts.values()].reduce((a, b) => a + b, 0);

describe('scenarioSplitter', () => {
  for (const [format, evals] of [
    ['original', ORIGINAL],
    ['agent-skills', AGENT_SKILLS],
  ] as const) {
    for (const mode of ['composite', 'absolute'] as ScoreMode[]) {
      it(`moves with the composite draw for draw (${format} evals, ${mode} mode)`, () => {
        const split = scenarioSplitter(evals, mode);
        const composite = (weighted: number) => combineScores(mode, 0.8, weighted, DEFAULT_WEIGHTS);
        const draws = [1, 2, 3, 4, 5, 6].map((seed) => drawOf(evals, seed));
        for (const a of draws)
          for (const b of draws) {
            const parts = [split(a.pairs), split(b.pairs)];
            expect(sum(parts[0]!) - sum(parts[1]!)).toBeCloseTo(
              composite(a.weighted) - composite(b.weighted),
              12,
            );
            expect([...parts[0]!.keys()]).toEqual(evals.scenarios.map((s) => s.id));
          }
        // The draws differ, so the check compared something.
        expect(new Set(draws.map((d) => d.weighted)).size).toBeGreaterThan(1);
      });
    }
  }

  it('gives structure-only scoring nothing to split: every part is 0', () => {
    const split = scenarioSplitter(ORIGINAL, 'structural');
    expect([...split(drawOf(ORIGINAL, 3).pairs).values()].every((v) => v === 0)).toBe(true);
  });
});
