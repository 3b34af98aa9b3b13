/**
 * The baseline's noise probe (docs/how-it-works.md § Decisions under noise, "The noise"): draw 1 of the
 * baseline starts with a few scenarios only, and is completed only when they disagree with draw 0; and the
 * final text's check of the scenarios its claimed gain rests on, on a night that measured no spread. Pure.
 */
import { pairKey, planScenario } from './absolute.js';
import type { SkillEvals } from './evals.js';
import type { PairVerdict } from './noise.js';
import type { AbsoluteResult } from './score-types.js';

/**
 * The (scenario, assertion) checks the baseline's draw 1 compares first (docs/how-it-works.md § Decisions
 * under noise, "The noise"): a grader flipping 1 verdict in 10 — two independent draws then disagree on
 * 18 % of checks — shows a disagreement 7 times in 10 (0.82^6 = 0.30), one flipping 3 in 20 more than 8
 * times in 10. A probe that agreed by chance costs the loop its re-measures, not the ship's trust: what
 * such a night ships is checked first (the final text's check, `gainScenarios`). Half of the 12 checks it
 * took before the check existed, which pays for the check at p = 0 (docs/benchmarks.md).
 */
export const PROBE_CHECKS = 6;

/**
 * The noise probe: the scenarios (in file order) that draw 1 renders first, the fewest whose model-graded
 * checks reach `PROBE_CHECKS`. Undefined when that takes every scenario (draw 1 is then whole at once).
 */
export function probeScenarios(evals: SkillEvals, checks = PROBE_CHECKS): string[] | undefined {
  const ids: string[] = [];
  let covered = 0;
  for (const scenario of evals.scenarios) {
    if (covered >= checks) break;
    ids.push(scenario.id);
    covered += planScenario(evals.evals, scenario, evals.format).modelGraded.length;
  }
  return covered >= checks && ids.length < evals.scenarios.length ? ids : undefined;
}

/**
 * How many scenarios the final text's check draws again: one, so that a night of a grader that never flips
 * pays one render and one grade per shipping skill (docs/benchmarks.md, "The final text's check").
 */
export const CHECK_SCENARIOS = 1;

/**
 * The final text's check (docs/how-it-works.md § Decisions under noise, "The confirmation"): on a night
 * whose measurements showed no spread, the scenarios where the final text's scored draw passed a check that
 * the baseline's draw 0 failed carry its claimed gain; checks that went the other way only make the gain
 * smaller. They come fewest such checks first (file order among equals), so the check takes the first
 * `CHECK_SCENARIOS`: a gain resting on one check of a scenario is the likeliest to be one flipped verdict,
 * while a real edit tends to move several checks of a scenario together.
 */
export function gainScenarios(evals: SkillEvals, before: AbsoluteResult, after: AbsoluteResult): string[] {
  const passedBefore = new Set(before.passing_pairs.map((p) => pairKey(p.scenario_id, p.assertion_id)));
  const gained = new Map<string, number>();
  for (const p of after.passing_pairs) {
    if (passedBefore.has(pairKey(p.scenario_id, p.assertion_id))) continue;
    gained.set(p.scenario_id, (gained.get(p.scenario_id) ?? 0) + 1);
  }
  return evals.scenarios
    .filter((s) => gained.has(s.id))
    .sort((a, b) => gained.get(a.id)! - gained.get(b.id)!)
    .map((s) => s.id);
}

/** `drawn`'s checks with the verdicts the scored draw `scored` gave them (what the check compares with). */
export function verdictsOf(scored: AbsoluteResult, drawn: readonly PairVerdict[]): PairVerdict[] {
  const passed = new Set(scored.passing_pairs.map((p) => pairKey(p.scenario_id, p.assertion_id)));
  return drawn.map((p) => ({
    assertionId: p.assertionId,
    scenarioId: p.scenarioId,
    pass: passed.has(pairKey(p.scenarioId, p.assertionId)),
  }));
}
