/**
 * Screening a candidate on a batch of scenarios before the rest are rendered (docs/how-it-works.md
 * § Decisions under noise, "Screening"). Pure: which scenarios go first, and whether the batch already
 * shows the candidate worse.
 */

/**
 * The share of the scenarios a screen draws first when the kept text's draw fails something nearly
 * everywhere: under a measured spread (a noisy grader fails some check of nearly every scenario in any one
 * draw, so "the scenarios it fails" is all of them and the screen saved nothing), and wherever its draw
 * fails some check in every scenario. The third where it fails the most checks is where an edit aimed at
 * its failures shows first, and where a harmful one has the most to break. On `bench:quality`'s world a
 * third took 12 calls a night fewer than a half at p = 0.15 and 2 fewer at p = 0.3, and the nights kept,
 * shipped and gained alike within one skill (docs/benchmarks.md).
 */
export const MOST_FAILING_SHARE = 1 / 3;

/**
 * The fewest scenarios such a batch holds: one scenario's checks are too few to call an edit worse on
 * under noise, so three to five scenarios screen on two. A choice, not a measurement: `bench:quality`'s
 * skills have six scenarios, where a third is two anyway.
 */
export const MOST_FAILING_MIN = 2;

/**
 * The screening batch of a candidate, or undefined when it would be every scenario (nothing to save), there
 * are fewer than three, or the kept text has no model-graded result.
 * - With no spread measured (an exact grader as far as the night can tell): the scenarios where the kept
 *   text fails, plus the first one where it passes everything, in file order. An edit can only gain where
 *   the kept text fails, and the passing one catches an edit that breaks what works.
 * - With a spread measured (`noisy`), or when the kept text's draw fails some check in every scenario (the
 *   batch above would be all of them): the `MOST_FAILING_SHARE` of the scenarios (rounded up, at least
 *   `MOST_FAILING_MIN`) where the kept text's draw failed the most checks, file order among equals. That
 *   draw is at its lowest there, partly by luck, so the comparison on the batch leans toward letting an
 *   edit through. The second case is a noisy night's first iteration, scored before its spread is
 *   measured; a night whose noise probe agreed by chance; and a skill that truly fails something in every
 *   scenario (docs/how-it-works.md § Decisions under noise, "Screening").
 */
export function screeningBatch(
  scenarioIds: readonly string[],
  failing: ReadonlyArray<{ scenario_id: string }> | undefined,
  noisy = false,
): string[] | undefined {
  if (failing === undefined || scenarioIds.length < 3) return undefined;
  const exact = noisy ? undefined : failingPlusOne(scenarioIds, failing);
  const batch =
    exact !== undefined && exact.length < scenarioIds.length ? exact : mostFailing(scenarioIds, failing);
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
  const size = Math.max(MOST_FAILING_MIN, Math.ceil(scenarioIds.length * MOST_FAILING_SHARE));
  // Array.prototype.sort is stable: equals keep their file order.
  const chosen = new Set(
    [...scenarioIds].sort((a, b) => (failures.get(b) ?? 0) - (failures.get(a) ?? 0)).slice(0, size),
  );
  return scenarioIds.filter((id) => chosen.has(id));
}

/**
 * The candidate is screened out on the batch: fewer of its (scenario, assertion) checks pass there than the
 * kept text's, or, with `tiesOut`, no more of them. Ties go out where the grader is noisy enough that a
 * promising edit is re-drawn before it is kept (`redrawsPayOff`, a measured flip rate of 32 % or more): the
 * batch is where the kept text's draw came out lowest, partly by luck, and at that noise an edit no better
 * than that low draw is rarely truly better (on `bench:quality` at p = 0.3 screening ties out lost none of
 * the 45 real gains), while scoring it whole and re-drawing it costs up to three draws. Under that flip
 * rate a tie goes on, as it did: one draw of the rest often shows a real gain there (docs/how-it-works.md
 * § Decisions under noise, "Screening"; docs/benchmarks.md has both measured).
 */
export function screenedOut(candidatePasses: number, keptPasses: number, tiesOut = false): boolean {
  return tiesOut ? candidatePasses <= keptPasses : candidatePasses < keptPasses;
}
