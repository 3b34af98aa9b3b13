/**
 * A resumed loop continues from the step it was in (docs/how-it-works.md § The App, "A resumed loop"): a
 * round whose review a front-end published before the run's state recorded the round's end (the App
 * restarted, or its replica died, between posting the review and the round's end) is never reviewed
 * again. Its published verdict is the round's verdict — the one the pull request shows and the check
 * follows — and the run goes on from the step after the review: the fix of the findings it names, the
 * approval it gave, the wait it asked for. A round published on a head the branch has left since (its fix
 * landed, or someone pushed) is recorded as it was posted, and the next round reviews the new head.
 */
import { formatScore } from '../core/review/log.js';
import type { ReviewOutcome, RoundReport } from '../core/review/outcome.js';
import type { PublishedRound } from '../core/review/state.js';
import type { FoundRound } from '../ports/review.js';
import { ZERO_USAGE } from '../core/usage.js';
import { RoundMeter } from './calls.js';
import {
  documentRound,
  emitCommit,
  maxRoundsMessage,
  pendingOf,
  receiptFor,
  stopBeforeFix,
  terminate,
} from './document.js';
import { applyFixes } from './fix.js';
import { gatherMaterial } from './material.js';
import type { RunContext } from './start.js';
import { waitWhenFixChangedNothing } from './unchanged-head.js';

/** Round `round`'s published review, asked for once per invocation (the first round it would run). */
export async function findPublished(ctx: RunContext, round: number): Promise<FoundRound | undefined> {
  const found = await ctx.ports.published?.find(ctx.state.run_id, round, ctx.signal);
  return found && found.round === round ? found : undefined;
}

function reportOf(published: PublishedRound): RoundReport {
  return {
    round: published.round,
    head: published.head,
    score: published.score,
    verdict: published.verdict,
    positive: published.positive,
    summary: published.summary,
    weaknesses: published.weaknesses,
    memoryUpdate: '',
    raw: '',
    verifierRaw: null,
    debate: null,
    fix: null,
    seconds: 0,
    usage: { ...ZERO_USAGE },
    phase: 'reviewed',
  };
}

/** The round's own fix, which landed before the interruption (its commit is the head now). */
function landedFix(commit: { sha: string; files: string[] }): NonNullable<RoundReport['fix']> {
  return {
    summary: 'committed before the loop was interrupted',
    applied: commit.files.map((path) => ({ path })),
    rejected: [],
    commit: commit.sha,
    skipped: [],
    guidance: null,
    instructions: null,
  };
}

/**
 * Goes on with a round from its published review, on the PR's `head` now; returns the outcome when the
 * run ends or pauses, undefined to go on with the next round. No model reviews the head again.
 */
export async function resumePublished(
  ctx: RunContext,
  published: FoundRound,
  head: string,
): Promise<ReviewOutcome | undefined> {
  const { options } = ctx;
  const { round } = published;
  const report = reportOf(published);
  const meter = new RoundMeter(ctx);
  const startedAt = ctx.ports.clock();
  const verdict = `${formatScore(report.score)}, ${report.verdict}`;
  ctx.ports.log.info(
    `round ${round}'s review (${verdict}) of ${published.head.slice(0, 12)} was published before the run was interrupted: ` +
      'the round goes on from its review, which is not made again',
  );
  const finish = async (status: string, receipt?: ReturnType<typeof receiptFor>): Promise<void> => {
    report.seconds = Math.max(0, (ctx.ports.clock().getTime() - startedAt.getTime()) / 1000);
    report.usage = meter.usage;
    await documentRound(ctx, report, status, receipt);
  };
  if (published.head !== head) {
    // The branch moved on since the review (its fix landed, or a person pushed): the next round reviews it.
    const own = published.fixCommit?.sha === head ? published.fixCommit : undefined;
    if (own) report.fix = landedFix(own);
    await finish(`continuing to round ${round + 1}: the head moved on since this round's review`);
    return round >= options.maxRounds
      ? terminate(ctx, 'max-rounds', maxRoundsMessage(ctx), head, undefined)
      : undefined;
  }
  if (report.score === null) {
    const last = round >= options.maxRounds;
    await finish(
      last ? 'stopping: max rounds reached (this round had no verdict)' : `continuing to round ${round + 1}`,
    );
    return last ? terminate(ctx, 'max-rounds', maxRoundsMessage(ctx), head, undefined) : undefined;
  }
  if (report.positive) {
    if (ctx.independence.canAcquit) {
      const receipt = receiptFor(ctx, report);
      await finish('stopping: positive verdict from an independent reviewer (acquitted)', receipt);
      const message = `Acquitted in round ${round}: score ${verdict}, by ${ctx.ports.models.reviewer.id}; receipt bound to ${ctx.state.run_id}.`;
      return terminate(ctx, 'acquitted', message, head, receipt);
    }
    await finish(`stopping: positive verdict, but ${ctx.independence.sentence}`);
    const message = `Round ${round} gave a positive verdict (${verdict}), but no receipt was written. ${ctx.independence.sentence}`;
    return terminate(ctx, 'not-independent', message, head, undefined);
  }
  return fixPublished(ctx, report, meter, startedAt, finish);
}

/** The step after a review that requested changes, as the run's settings say: a fix, a wait, or the end. */
async function fixPublished(
  ctx: RunContext,
  report: RoundReport,
  meter: RoundMeter,
  startedAt: Date,
  finish: (status: string) => Promise<void>,
): Promise<ReviewOutcome | undefined> {
  const { options, state } = ctx;
  const { round, head } = report;
  const stopped = await stopBeforeFix(ctx, { ...report, round, head }, finish);
  if (stopped) return stopped;
  if (options.checkpoint) {
    // The checkpoint comes next: the loop asks it, as for a round that waited there.
    state.pending = pendingOf(report, startedAt);
    state.awaiting = 'checkpoint';
    await ctx.ports.store.writeState(state);
    return undefined;
  }
  // The fix the posted review asked for, of the findings it names (they had their check before it was posted).
  const material = await gatherMaterial(ctx, head);
  report.fix = await applyFixes(ctx, meter, round, material, {
    weaknesses: report.weaknesses,
    skipped: [],
    guidance: null,
  });
  await emitCommit(ctx, round, report);
  const unchanged = await waitWhenFixChangedNothing(ctx, report, finish);
  if (unchanged) return unchanged;
  await finish(`continuing to round ${round + 1}`);
  return undefined;
}
