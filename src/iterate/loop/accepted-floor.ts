/**
 * The accepted-findings floor of the loop's keep decision, on re-measured evidence (docs/how-it-works.md
 * § The nightly engine improves the reviewer): a reviewer skill's edit that catches fewer of the team's
 * accepted findings than the kept text on their one draw each is not blocked on that draw alone — one
 * accepted finding's assertion fails on one draw with the render's and the grader's noise, and a strict
 * one-draw floor threw away most good edits of a skill with many accepted findings. Only the scenarios of
 * the lost findings are drawn again, with draw numbers of their own, one draw at a time until each is
 * decided (core/iterate/feedback-evidence.ts `acceptedRecheck`); the edit is blocked when a finding is lost
 * on the re-measurement too. An edit that removed the instruction behind a finding misses it in most
 * fresh draws and stays blocked. The ship gate's floor draws the findings the confirmation shows lost the
 * same way (`recheckAccepted`, from confirmation.ts).
 */
import type { Scenario } from '../../core/iterate/evals.js';
import type { KeptState } from '../../core/iterate/hill-climb.js';
import {
  ACCEPTED_RECHECK_DRAWS,
  acceptedPassCounts,
  acceptedRecheck,
  acceptedScenariosLost,
  type RaisedTally,
} from '../../core/iterate/feedback-evidence.js';
import { inertInline } from '../../core/text/untrusted-text.js';
import type { Usage } from '../../core/usage.js';
import type { ScoredText } from '../saturation.js';
import type { LoopContext } from './context.js';
import { drawUntilDecided } from './raised-draws.js';

/**
 * The floor's draw numbers start here: past every draw a score of the whole evals takes (the noise-aware
 * re-measure, the confirmation), so a re-check's renders are neither reused by those scores nor theirs by
 * it (the render cache is per text, scenario and draw).
 */
const RECHECK_FIRST_DRAW = 10_000;

/**
 * Why the candidate `newText` (scored once in `scored`) is not kept for the accepted findings, or undefined
 * when it keeps them. `spend` is told the re-draws' usage.
 */
export async function acceptedFloor(
  loop: LoopContext,
  kept: KeptState,
  newText: string,
  scored: ScoredText,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<string | undefined> {
  const after = scored.score.absolute;
  if (!kept.absolute || !after || scored.score.status !== 'ok') return undefined;
  const lost = acceptedScenariosLost(loop.training.scenarios, kept.absolute, after);
  if (lost.length === 0) return undefined;
  const counts = acceptedPassCounts(loop.training.scenarios, kept.absolute, after)!;
  const oneDraw =
    `catches fewer of the team's accepted findings: ${counts.before.passes} of ${counts.before.total} → ` +
    `${counts.after.passes} of ${counts.after.total} passing`;
  const recheck = await recheckAccepted(loop, newText, lost, RECHECK_FIRST_DRAW, signal, spend);
  if ('failed' in recheck) return `${oneDraw}; the re-measure of those findings failed (${recheck.failed})`;
  if (recheck.lost.length === 0) return undefined;
  return `${oneDraw}, and misses them again when re-measured: ${lostTitles(recheck.lost).join(', ')}`;
}

/** A lost accepted finding's fresh draws. */
interface Rechecked extends RaisedTally {
  scenario: Scenario;
}

/** One line per finding, "SQL built from user input (raised in 1 of 4 fresh draws)" (titles inert: they come from a review). */
export function lostTitles(lost: readonly Rechecked[]): string[] {
  return lost.map(
    (r) =>
      `${inertInline(r.scenario.feedback?.title ?? r.scenario.id, 120)} (raised in ${r.raised} of ` +
      `${r.raised + r.missed} fresh draws)`,
  );
}

/**
 * Fresh draws of `text` on the accepted findings' `scenarios` alone, numbered from `firstDraw`, one draw
 * at a time until each finding is decided (`acceptedRecheck`): the findings missed in most of them, or why
 * the draws failed.
 */
export async function recheckAccepted(
  loop: LoopContext,
  text: string,
  scenarios: readonly Scenario[],
  firstDraw: number,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<{ lost: Rechecked[] } | { failed: string }> {
  const tally = await drawUntilDecided(
    loop,
    text,
    loop.input.evals,
    scenarios,
    { first: firstDraw, max: ACCEPTED_RECHECK_DRAWS, look: acceptedRecheck },
    signal,
    spend,
  );
  if ('failed' in tally) return tally;
  const lost = scenarios.filter((s) => acceptedRecheck(tally.get(s.id)!) === 'lost');
  return { lost: lost.map((scenario) => ({ scenario, ...tally.get(scenario.id)! })) };
}
