/**
 * The end of one skill's climb (docs/how-it-works.md § Shipping): the ship gate on the loop's scores and line
 * counts, the confirmation's decision when one ran (§ Decisions under noise), then the shipper with the
 * worktree in its hands.
 */
import { acceptedFindingsLost } from '../core/iterate/feedback-evidence.js';
import { countNewlines } from '../core/iterate/lines.js';
import { confirmedShipGate } from '../core/iterate/noise.js';
import type { SkillResult } from '../core/iterate/run-result.js';
import { DEFAULT_MIN_GAIN, belowMinimumGain, shipGate, shipMessage } from '../core/iterate/ship-gate.js';
import type { SkillLocation } from '../core/iterate/skill-layout.js';
import type { KeepWorktree, Worktree } from '../ports/git.js';
import type { ShipRequest } from '../ports/shipper.js';
import type { SkillLoopResult } from './loop/types.js';
import { fromLoop, type SkillContext } from './skill-context.js';

/** The ship gate on line counts as `wc -l` gives them at the base commit and at the final tip. */
export async function shipIfBetter(
  location: SkillLocation,
  loop: SkillLoopResult,
  loopScores: { baselineScore: number; finalScore: number },
  baselineText: string,
  worktree: Worktree,
  keep: KeepWorktree,
  ctx: SkillContext,
): Promise<SkillResult> {
  const { ports, project } = ctx;
  const skill = location.name;
  let scores = loopScores;
  const linesBaseline = countNewlines(baselineText);
  const linesFinal = countNewlines(loop.finalText);
  const linesDelta = linesFinal - linesBaseline;
  const gate = { ...loopScores, linesBaseline, linesFinal, minGain: ctx.options.minGain };
  if (shipGate(gate) === 'no-improvement') {
    const detail = belowMinimumGain(gate);
    if (detail) ports.log.info(`${skill}: not shipped: ${detail}`);
    return fromLoop(skill, loop, 'no-improvement', { linesDelta, detail });
  }
  // The noise-aware rule ships on the confirmation's scores (docs/how-it-works.md § Decisions under noise).
  const { confirmation, confirmationFailure } = loop.measurement;
  if (confirmationFailure !== undefined) {
    const detail = `not confirmed: ${confirmationFailure}`;
    ports.log.info(`${skill}: not shipped: ${detail}`);
    return fromLoop(skill, loop, 'no-improvement', { linesDelta, detail });
  }
  if (confirmation) {
    const confirmed = confirmedShipGate({
      confirmation,
      linesBaseline,
      linesFinal,
      minGain: ctx.options.minGain ?? DEFAULT_MIN_GAIN,
    });
    scores = { baselineScore: confirmation.baseline, finalScore: confirmation.final };
    if (confirmed.decision === 'no-improvement') {
      ports.log.info(`${skill}: not shipped: ${confirmed.detail ?? 'not confirmed'}`);
      return fromLoop(skill, loop, 'no-improvement', { linesDelta, detail: confirmed.detail, ...scores });
    }
  }
  // The team's accepted findings are a floor for a reviewer skill (§ The nightly engine improves the reviewer).
  const lost = acceptedFindingsLost(loop.measurement.feedback, confirmation?.acceptedRecheck);
  if (lost !== undefined) {
    const detail = `not shipped: ${lost}`;
    ports.log.info(`${skill}: ${detail}`);
    return fromLoop(skill, loop, 'no-improvement', { linesDelta, detail: lost, ...scores });
  }
  const request: ShipRequest = {
    measurement: loop.measurement,
    skill,
    project,
    skillPath: location.dir,
    worktreePath: worktree.path,
    branch: worktree.branch,
    baseBranch: worktree.baseBranch,
    baseCommit: worktree.baseCommit,
    ...scores,
    iterations: loop.iterations,
    linesBaseline,
    linesFinal,
    message: shipMessage({ skill, ...scores, iterations: loop.iterations, linesDelta }),
    keptEdits: loop.keptEdits,
    rows: loop.rows,
    usage: ctx.spent,
  };
  // The shipper owns the worktree from here: it removes it when it ships; a failure leaves it in place.
  keep();
  const outcome = await ports.shipper.ship(request);
  if (outcome.status === 'shipped') {
    return fromLoop(skill, loop, 'shipped', { linesDelta, link: outcome.link ?? outcome.commit, ...scores });
  }
  if (outcome.keepWorktree) {
    // A skip that needs a person (a dirty base) points the operator to the preserved worktree.
    ports.log.warn(`${skill}: not shipped (${outcome.reason}); worktree kept at ${worktree.path}`);
    return fromLoop(skill, loop, `skipped (${outcome.reason})`, {
      linesDelta,
      link: worktree.path,
      ...scores,
    });
  }
  keep(false);
  return fromLoop(skill, loop, `skipped (${outcome.reason})`, { linesDelta, ...scores });
}
