/**
 * Phase E and termination (docs/how-it-works.md § Review state, memory and receipts): the round's section
 * in the log, the state overwritten, and — for an acquitting round — one receipt line appended and read
 * back, since only a receipt bound to this run's id counts for this run's stop decision. At the end: state
 * `completed`, the final summary, the remaining blockers with effort estimates, the method description.
 */
import {
  formatScore,
  formatCost,
  renderFinalSummary,
  renderMethodDescription,
  renderRoundSection,
  type AcquittalReceipt,
} from '../core/review/log.js';
import type { ReviewOutcome, ReviewStatus, RoundReport } from '../core/review/outcome.js';
import type { PendingRound, RankedWeakness, RoundSummary } from '../core/review/state.js';
import { counted } from '../core/text/counted.js';
import { addUsage, totalTokens } from '../core/usage.js';
import type { RunContext } from './start.js';

function actionsOf(report: RoundReport): string[] {
  const actions: string[] = [];
  if (report.debate) {
    const accepted = report.debate.resolved.map((n) => `#${n}`).join(', ');
    actions.push(
      `Debate: ${report.debate.rebuttals.length} rebuttal(s), ${report.debate.rulings.length} ruling(s); resolved: ${accepted || 'none'}`,
    );
  }
  const fix = report.fix;
  if (fix) {
    if (fix.skipped.length)
      actions.push(`Skipped at the checkpoint: ${fix.skipped.map((n) => `#${n}`).join(', ')}`);
    if (fix.guidance) actions.push(`Guidance from the checkpoint: ${fix.guidance.replace(/\s+/g, ' ')}`);
    if (fix.instructions) actions.push(`Instructions for the fix: ${fix.instructions.replace(/\s+/g, ' ')}`);
    if (fix.summary) actions.push(`Executor’s summary: ${fix.summary.replace(/\s+/g, ' ')}`);
    const proposed = fix.proposed ?? [];
    const files = [...new Set(proposed.map((c) => c.path))];
    actions.push(
      proposed.length
        ? `Proposed ${proposed.length} change(s) to ${files.join(', ')} for the person to apply (not committed)`
        : fix.applied.length
          ? `Edited ${fix.applied.map((a) => a.path).join(', ')}${fix.commit ? ` (commit ${fix.commit.slice(0, 12)})` : ''}`
          : 'No edit applied',
    );
    for (const r of fix.rejected) actions.push(`Refused edit to ${r.path}: ${r.reason}`);
  }
  return actions;
}

export function summaryOf(report: RoundReport): RoundSummary {
  return {
    round: report.round,
    head: report.head,
    score: report.score,
    verdict: report.verdict,
    positive: report.positive,
    seconds: report.seconds,
    usage: report.usage,
    weaknesses: report.weaknesses,
    commit: report.fix?.commit ?? null,
  };
}

export function progressLine(report: RoundReport, maxRounds: number): string {
  const verdict = report.verdict === 'unavailable' ? 'REVIEW_UNAVAILABLE' : report.verdict;
  return (
    `round ${report.round}/${maxRounds}: score ${formatScore(report.score)}, ${verdict} — ` +
    `${report.seconds.toFixed(1)} s, ${totalTokens(report.usage).toLocaleString('en-US')} tokens, ${formatCost(report.usage.costUsd)}`
  );
}

/** Phase E: log section, state, and (acquitting rounds) the receipt, read back to be sure it counts. */
export async function documentRound(
  ctx: RunContext,
  report: RoundReport,
  status: string,
  receipt: AcquittalReceipt | undefined,
): Promise<void> {
  const { store, clock, log } = ctx.ports;
  const now = clock();
  report.phase = 'complete';
  await store.appendLog(
    renderRoundSection({
      round: report.round,
      timestamp: now.toISOString(),
      head: report.head,
      score: report.score,
      verdict: report.verdict,
      summary: report.summary,
      weaknesses: report.weaknesses,
      raw: report.raw,
      verifierRaw: report.verifierRaw,
      debate: report.debate?.transcript ?? null,
      actions: actionsOf(report),
      results: [
        ...(report.fix?.commit ? [`New head after the fixes: ${report.fix.commit}`] : []),
        ...(report.fix && !report.fix.commit ? ['The head did not change this round'] : []),
      ],
      status,
      usage: report.usage,
      seconds: report.seconds,
    }),
  );
  const state = ctx.state;
  state.round = report.round;
  state.last_score = report.score;
  state.last_verdict = report.verdict === 'unavailable' ? 'REVIEW_UNAVAILABLE' : report.verdict;
  if (report.score !== null) state.reviewed_head = report.head;
  state.history = [...state.history.filter((r) => r.round !== report.round), summaryOf(report)];
  state.usage = addUsage(state.usage, report.usage);
  state.pending = null;
  state.awaiting = null;
  state.timestamp = now.toISOString();
  await store.writeState(state);
  if (receipt !== undefined) {
    await store.appendReceipt(receipt);
    const receipts = await store.readReceipts();
    if (!receipts.some((r) => r.run_id === receipt.run_id && r.round === receipt.round)) {
      throw new Error(
        `the acquittal receipt of ${receipt.run_id} round ${receipt.round} was not found after writing it`,
      );
    }
  }
  if (!ctx.reports.includes(report)) ctx.reports.push(report);
  log.progress(progressLine(report, ctx.options.maxRounds));
  await ctx.ports.events?.emit({ type: 'round-finished', report });
}

/** The remaining weaknesses of the last round that produced a verdict. */
export function blockersOf(history: readonly RoundSummary[]): RankedWeakness[] {
  const last = [...history].reverse().find((r) => r.score !== null);
  return last ? last.weaknesses.filter((w) => !w.resolved_by_debate) : [];
}

export function buildOutcome(
  ctx: RunContext,
  status: ReviewStatus,
  message: string,
  head: string,
  extra: Partial<Pick<ReviewOutcome, 'receipt' | 'awaiting' | 'blockers'>> = {},
): ReviewOutcome {
  const { models } = ctx.ports;
  return {
    status,
    runId: ctx.state.run_id,
    traceId: ctx.state.trace_id,
    resumed: ctx.resumed,
    message,
    reviewer: models.reviewer,
    executor: models.executor,
    independence: ctx.independence,
    base: ctx.base,
    head,
    rounds: ctx.state.history,
    reports: ctx.reports,
    usage: ctx.state.usage,
    invocationUsage: ctx.invocationUsage,
    blockers: extra.blockers ?? [],
    receipt: extra.receipt ?? null,
    awaiting: extra.awaiting ?? null,
  };
}

/** Termination: state completed, final summary, blockers (without acquittal), method description. */
export async function terminate(
  ctx: RunContext,
  status: Exclude<ReviewStatus, 'interrupted' | 'awaiting-fix' | 'awaiting-checkpoint'>,
  message: string,
  head: string,
  receipt: AcquittalReceipt | undefined,
): Promise<ReviewOutcome> {
  const { store, clock, models, target } = ctx.ports;
  const now = clock();
  const state = ctx.state;
  state.status = 'completed';
  state.outcome = status;
  state.awaiting = null;
  state.pending = null;
  state.timestamp = now.toISOString();
  await store.writeState(state);
  const blockers = status === 'acquitted' ? undefined : blockersOf(state.history);
  const files = await target.filesUnderReview(ctx.base, head).catch(() => []);
  await store.appendLog(
    renderFinalSummary({
      runId: state.run_id,
      endedAt: now.toISOString(),
      status,
      sentence: message,
      maxRounds: ctx.options.maxRounds,
      history: state.history,
      usage: state.usage,
      independence: ctx.independence,
      receipt,
      blockers,
    }) +
      '\n' +
      renderMethodDescription({
        target: target.label,
        range: `${ctx.base.slice(0, 12)}..${head.slice(0, 12)}`,
        changedFiles: files.length,
        claimsSource: ctx.claims.source,
        reviewer: models.reviewer,
        executor: models.executor,
        difficulty: ctx.options.difficulty,
        preset: ctx.options.preset,
        fix: ctx.options.fix,
      }),
  );
  ctx.ports.log.info(message);
  return buildOutcome(ctx, status, message, head, { receipt: receipt ?? null, blockers: blockers ?? [] });
}

/** The rounds ran out: the last score and the blockers left. */
export function maxRoundsMessage(ctx: RunContext): string {
  const blockers = blockersOf(ctx.state.history).length;
  return (
    `No acquittal after ${counted(ctx.state.history.length, 'round')} (max ${ctx.options.maxRounds}; last score ` +
    `${formatScore(ctx.state.last_score)}, ${ctx.state.last_verdict ?? 'no verdict'}): ${counted(blockers, 'blocker')} ${blockers === 1 ? 'remains' : 'remain'}.`
  );
}

/**
 * The steps after a review that requested changes where no fix is made (docs/how-it-works.md § Review
 * rounds): review only (`fix: none`), the last round (nothing would review a fix), or a wait for the
 * person's own fix (`fix: manual`). Undefined: a fix comes next. A fresh round and a resumed one
 * (src/review/published.ts) end the same way.
 */
export async function stopBeforeFix(
  ctx: RunContext,
  round: { round: number; head: string; score: number | null; verdict: string },
  finish: (status: string) => Promise<void>,
): Promise<ReviewOutcome | undefined> {
  const { options, state } = ctx;
  const { head } = round;
  const scored = `${formatScore(round.score)} (${round.verdict})`;
  if (options.fix === 'none') {
    await finish('stopping: review only (fix: none)');
    const message = `Review only: round ${round.round} scored ${scored}; not acquitted.`;
    return terminate(ctx, 'reviewed', message, head, undefined);
  }
  if (round.round >= options.maxRounds) {
    await finish('stopping: max rounds reached (no fix after the last review: nothing would review it)');
    return terminate(ctx, 'max-rounds', maxRoundsMessage(ctx), head, undefined);
  }
  if (options.fix === 'manual') {
    await finish(`waiting for your fix; round ${round.round + 1} reviews the new head`);
    state.awaiting = 'fix';
    await ctx.ports.store.writeState(state);
    const message = `Round ${round.round} scored ${scored}: commit your fix, then run the review again for round ${round.round + 1}.`;
    ctx.ports.log.info(message);
    return buildOutcome(ctx, 'awaiting-fix', message, head, {
      awaiting: { kind: 'fix', round: round.round, head },
    });
  }
  return undefined;
}

/** The receipt of an acquitting round (a positive verdict only). */
export function receiptFor(ctx: RunContext, report: RoundReport): AcquittalReceipt {
  const { reviewer, executor } = ctx.ports.models;
  if (report.verdict !== 'ready' && report.verdict !== 'almost')
    throw new Error('only a positive verdict acquits');
  return {
    run_id: ctx.state.run_id,
    round: report.round,
    backend: reviewer.id.slice(0, reviewer.id.indexOf(':')) || reviewer.id,
    effort: 'high-rigor',
    verdict: report.verdict,
    score: report.score ?? 0,
    trace_id: ctx.state.trace_id ?? '',
    timestamp: ctx.ports.clock().toISOString(),
    difficulty: ctx.options.difficulty,
    reviewer_model: reviewer.id,
    reviewer_family: reviewer.family,
    executor_model: executor.id,
    executor_family: executor.family,
    family_relation: 'different',
    head: report.head,
  };
}

/** The fix's commit, announced to the front-end. */
export async function emitCommit(ctx: RunContext, round: number, report: RoundReport): Promise<void> {
  if (report.fix?.commit) {
    await ctx.ports.events?.emit({
      type: 'fix-committed',
      round,
      head: report.fix.commit,
      files: report.fix.applied.map((f) => f.path),
    });
  }
}

/** A reviewed round as the state keeps it while it waits at the checkpoint. */
export function pendingOf(report: RoundReport, startedAt: Date): PendingRound {
  return {
    round: report.round,
    head: report.head,
    score: report.score,
    verdict: report.verdict,
    summary: report.summary,
    raw: report.raw,
    verifier_raw: report.verifierRaw,
    memory_update: report.memoryUpdate,
    weaknesses: report.weaknesses,
    debate: report.debate?.transcript ?? null,
    seconds: report.seconds,
    usage: report.usage,
    started_at: startedAt.toISOString(),
  };
}
