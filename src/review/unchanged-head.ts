/**
 * A head is reviewed once (docs/how-it-works.md § Review rounds): when a round's own fix changed nothing
 * — every edit refused, none proposed, or the commit did not land — the next round would review the very
 * head this one reviewed, so the loop waits for a fix instead and says why, each refused edit with the
 * rule that refused it. A call that finds no commit since the round that waits is answered the same way.
 */
import type { ReviewOutcome, RoundReport } from '../core/review/outcome.js';
import { whyFixChangedNothing } from '../core/review/unchanged-fix.js';
import { buildOutcome } from './document.js';
import type { RunContext } from './start.js';

/**
 * After Phase C: when the fix made no commit, Phase E is written with why, the state waits for a fix and
 * the outcome says so; undefined when the fix moved the head (the next round reviews it).
 */
export async function waitWhenFixChangedNothing(
  ctx: RunContext,
  report: RoundReport,
  finish: (status: string) => Promise<void>,
): Promise<ReviewOutcome | undefined> {
  const fix = report.fix;
  if (!fix || fix.commit) return undefined;
  // A verdict withheld with no finding at all (an approval the confirmation could not confirm) asked for
  // no change: that head's verdict is unsettled, not reviewed, so the next round reviews it again.
  if (fix.noEdit === 'nothing-to-fix' && report.weaknesses.length === 0) return undefined;
  const next = report.round + 1;
  const why = whyFixChangedNothing(fix);
  await finish(
    `waiting for a fix: this round's fix changed nothing (${why}), so round ${next} waits for a new commit`,
  );
  ctx.state.awaiting = 'fix';
  await ctx.ports.store.writeState(ctx.state);
  const message =
    `Round ${report.round}'s fix changed nothing: ${why}. ${report.head.slice(0, 12)} was reviewed already, so it ` +
    `is not reviewed again: commit a fix, then run the review again for round ${next}.`;
  ctx.ports.log.warn(message);
  return buildOutcome(ctx, 'awaiting-fix', message, report.head, {
    awaiting: { kind: 'fix', round: report.round, head: report.head, unchanged: 'fix' },
  });
}

/**
 * Before a round: a run that waits for a fix on the head it reviewed last, with no commit since, reviews
 * nothing and calls no model (the person's commit, or the App's push, comes first).
 */
export async function waitForNewCommit(ctx: RunContext, head: string): Promise<ReviewOutcome | undefined> {
  const { state } = ctx;
  if (state.awaiting !== 'fix' || head !== state.reviewed_head) return undefined;
  const message = `No new commit since round ${state.round} reviewed ${head.slice(0, 12)}: commit your fix, then run the review again for round ${state.round + 1}.`;
  ctx.ports.log.info(message);
  await ctx.ports.store.writeState(state);
  return buildOutcome(ctx, 'awaiting-fix', message, head, {
    awaiting: { kind: 'fix', round: state.round, head, unchanged: 'no-commit' },
  });
}
