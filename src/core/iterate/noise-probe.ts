/**
 * The baseline's noise probe (docs/how-it-works.md § Decisions under noise, "The noise"): draw 1 of the
 * baseline starts with a few scenarios only, and is completed only when they disagree with draw 0. Pure.
 */
import { planScenario } from './absolute.js';
import type { SkillEvals } from './evals.js';

/**
 * The (scenario, assertion) checks the baseline's draw 1 compares first (docs/how-it-works.md § Decisions
 * under noise, "The noise"): enough that a grader flipping 1 verdict in 10 — two independent draws then
 * disagree on 18 % of checks — shows a disagreement 9 times in 10 (0.82^12 < 0.1).
 */
export const PROBE_CHECKS = 12;

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
