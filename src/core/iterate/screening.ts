/**
 * Screening a candidate on a batch of scenarios before the rest are rendered (docs/how-it-works.md
 * § Decisions under noise, "Screening"). Pure: which scenarios go first, and whether the batch already
 * shows the candidate worse.
 */

/**
 * The share of the scenarios a screen draws first once the night has measured a spread. Under noise the
 * kept text's draw fails some check in nearly every scenario, so "the scenarios it fails" is all of them
 * and the screen saved nothing. The half where it fails the most checks is where an edit aimed at its
 * failures shows first, and where a harmful one has the most to break. On `bench:quality`'s world a third
 * came within 2 calls a night of a half at p = 0.15 and 0.3 and decided alike (docs/benchmarks.md).
 */
export const NOISY_SCREEN_SHARE = 1 / 2;

/**
 * The screening batch of a candidate, or undefined when it would be every scenario (nothing to save), there
 * are fewer than three, or the kept text has no model-graded result.
 * - With no spread measured (an exact grader as far as the night can tell): the scenarios where the kept
 *   text fails, plus the first one where it passes everything, in file order. An edit can only gain where
 *   the kept text fails, and the passing one catches an edit that breaks what works.
 * - With a spread measured (`noisy`): the `NOISY_SCREEN_SHARE` of the scenarios (rounded up) where the kept
 *   text's draw failed the most checks, file order among equals. That draw is at its lowest there, partly
 *   by luck, so the comparison on the batch leans toward letting an edit through.
 */
export function screeningBatch(
  scenarioIds: readonly string[],
  failing: ReadonlyArray<{ scenario_id: string }> | undefined,
  noisy = false,
): string[] | undefined {
  if (failing === undefined || scenarioIds.length < 3) return undefined;
  const batch = noisy ? mostFailing(scenarioIds, failing) : failingPlusOne(scenarioIds, failing);
  return batch.length === 0 || batch.length >= scenarioIds.length ? undefined : batch;
}

function failingPlusOne(
  scenarioIds: readonly string[],
  failing: ReadonlyArray<{ scenario_id: string }>,
): string[] {
  const failed = new Set(failing.map((f) => f.scenario_id));
  const passing = scenarioIds.find((id) => !failed.has(id));
  return scenarioIds.filter((id) => failed.has(id) || id === passing);
}

function mostFailing(
  scenarioIds: readonly string[],
  failing: ReadonlyArray<{ scenario_id: string }>,
): string[] {
  const failures = new Map<string, number>();
  for (const f of failing) failures.set(f.scenario_id, (failures.get(f.scenario_id) ?? 0) + 1);
  const size = Math.ceil(scenarioIds.length * NOISY_SCREEN_SHARE);
  // Array.prototype.sort is stable: equals keep their file order.
  const chosen = new Set(
    [...scenarioIds].sort((a, b) => (failures.get(b) ?? 0) - (failures.get(a) ?? 0)).slice(0, size),
  );
  return scenarioIds.filter((id) => chosen.has(id));
}

/** The candidate is worse on the batch: fewer of its (scenario, assertion) checks pass than the kept text's. */
export function screenedOut(candidatePasses: number, keptPasses: number): boolean {
  return candidatePasses < keptPasses;
}
