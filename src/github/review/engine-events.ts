/**
 * The engine's progress as the pull request shows it (docs/how-it-works.md § The App): each reviewed round
 * becomes one PR review on its SHA, each finished round a row of the sticky log, and the check run follows
 * the rounds. An acquitting round's review waits for Phase E, so it can carry the receipt the engine
 * wrote — bound to the acquitted head.
 */
import type { Independence } from '../../core/review/gate.js';
import type { AcquittalReceipt } from '../../core/review/log.js';
import type { RoundReport } from '../../core/review/outcome.js';
import type { FixMode } from '../../core/review/state.js';
import type { ReviewEvent, ReviewEvents, ReviewStore } from '../../ports/review.js';
import type { RoundReviewView } from '../review-body.js';
import type { GitHubReviewTarget } from './review-target.js';
import type { RoundRow } from './loop-state.js';
import type { PullSession } from './pull-session.js';

/** Weakness titles a sticky row shows (the review has them all). */
const ROW_WEAKNESSES = 3;
/** The row quotes 120 characters of a title (renderLoopLog); more is never shown. */
const ROW_TITLE = 120;

export interface RoundContext {
  runId: string;
  maxRounds: number;
  reviewerModel: string;
  independence: Independence | undefined;
  receipt?: AcquittalReceipt | undefined;
}

function gateNote(report: RoundReport, independence: Independence | undefined): string | undefined {
  if (report.score === null) {
    return 'The reviewer gave no usable answer twice (REVIEW_UNAVAILABLE); the round counts toward the rounds.';
  }
  if (!report.positive) return undefined;
  if (independence?.canAcquit) {
    return `Acquitted: a positive verdict from a reviewer of another model family (${independence.sentence})`;
  }
  return independence?.sentence;
}

export function roundReviewView(report: RoundReport, context: RoundContext): RoundReviewView {
  return {
    runId: context.runId,
    round: report.round,
    maxRounds: context.maxRounds,
    headSha: report.head,
    reviewerModel: context.reviewerModel,
    score: report.score,
    verdict: report.verdict,
    weaknesses: report.weaknesses.map((w) => ({
      title: w.title,
      minimumFix: w.minimum_fix,
      effort: w.effort,
      path: w.file ?? undefined,
      line: w.line ?? undefined,
      resolved: w.resolved_by_debate,
    })),
    memoryUpdate: report.memoryUpdate,
    raw: report.raw,
    verifierRaw: report.verifierRaw,
    debate: report.debate?.transcript ?? null,
    gateNote: gateNote(report, context.independence),
    receipt: context.receipt ? { ...context.receipt, head_sha: report.head } : undefined,
  };
}

/** What happened after the review, in a few plain words (the sticky log quotes it). */
export function roundAction(
  report: RoundReport,
  fix: FixMode,
  independence: Independence | undefined,
): string {
  if (report.score === null) return 'no verdict';
  if (report.positive) return independence?.canAcquit ? 'acquitted' : 'positive, but not independent';
  const parts: string[] = [];
  if (report.debate) {
    const resolved = report.debate.resolved.map((n) => `${n}`).join(', ');
    parts.push(`debate resolved ${resolved || 'none'}`);
  }
  if (report.fix) {
    const { applied, rejected, commit } = report.fix;
    parts.push(
      applied.length > 0
        ? `fixed ${applied.map((a) => a.path).join(', ')}${commit ? ` in ${commit.slice(0, 7)}` : ''}`
        : 'no edit applied',
    );
    if (rejected.length > 0) parts.push(`${rejected.length} edit(s) refused`);
  } else if (report.phase === 'complete') {
    parts.push(fix === 'manual' ? 'waiting for a fix' : 'no fix');
  } else {
    parts.push('reviewed');
  }
  return parts.join('; ');
}

export function roundRow(
  report: RoundReport,
  fix: FixMode,
  independence: Independence | undefined,
  reviewUrl: string | null,
): RoundRow {
  return {
    round: report.round,
    head: report.head,
    score: report.score,
    verdict: report.verdict,
    weaknesses: report.weaknesses
      .filter((w) => !w.resolved_by_debate)
      .slice(0, ROW_WEAKNESSES)
      // Cut as the row shows it: a title is model text of any length, and the rows live in the sticky state.
      .map((w) => (w.title.length > ROW_TITLE ? `${w.title.slice(0, ROW_TITLE)}…` : w.title)),
    action: roundAction(report, fix, independence),
    reviewUrl,
  };
}

/** The engine's events → reviews, sticky rows and check-run moves on the pull request. */
export class PullRequestEvents implements ReviewEvents {
  readonly #session: PullSession;
  readonly #target: GitHubReviewTarget;
  readonly #store: ReviewStore;
  readonly #maxRounds: number;
  readonly #fix: FixMode;
  readonly #reviewerModel: string;
  #independence: Independence | undefined;
  /** Review URLs by round, so the row written at Phase E links the review posted before it. */
  readonly #reviews = new Map<number, string>();

  constructor(options: {
    session: PullSession;
    target: GitHubReviewTarget;
    store: ReviewStore;
    maxRounds: number;
    fix: FixMode;
    reviewerModel: string;
  }) {
    this.#session = options.session;
    this.#target = options.target;
    this.#store = options.store;
    this.#maxRounds = options.maxRounds;
    this.#fix = options.fix;
    this.#reviewerModel = options.reviewerModel;
  }

  async emit(event: ReviewEvent): Promise<void> {
    const session = this.#session;
    switch (event.type) {
      case 'run-started': {
        this.#independence = event.independence;
        if (event.runId !== session.runId) {
          await session.useRunId(event.runId);
          // The check already running was created under the App's id: it is stamped again.
          await session.roundStarted(event.round, this.#target.head);
        }
        if (!event.independence.canAcquit) await session.note(event.independence.sentence);
        return;
      }
      case 'round-started':
        await session.roundStarted(event.round, event.head);
        return;
      case 'round-reviewed': {
        const { report } = event;
        // An acquitting round is posted at Phase E, with the receipt the engine wrote there.
        if (report.positive && this.#independence?.canAcquit) return;
        await this.#post(report, undefined);
        return;
      }
      case 'fix-committed':
        session.log.info(
          `round ${event.round}: committed fixes to ${event.files.join(', ')} (${event.head.slice(0, 7)})`,
        );
        return;
      case 'round-finished': {
        const { report } = event;
        // Only the acquitting round waited for Phase E; any other was posted when it was reviewed (maybe
        // by an earlier call, e.g. before a checkpoint).
        if (report.positive && this.#independence?.canAcquit) {
          const receipts = await this.#store.readReceipts();
          const receipt = receipts.find((r) => r.run_id === session.runId && r.round === report.round);
          await this.#post(report, receipt as AcquittalReceipt | undefined);
        }
        await session.recordRound(
          roundRow(report, this.#fix, this.#independence, this.#reviews.get(report.round) ?? null),
        );
        return;
      }
    }
  }

  async #post(report: RoundReport, receipt: AcquittalReceipt | undefined): Promise<void> {
    const posted = await this.#session.postReview(
      roundReviewView(report, {
        runId: this.#session.runId,
        maxRounds: this.#maxRounds,
        reviewerModel: this.#reviewerModel,
        independence: this.#independence,
        receipt,
      }),
    );
    this.#reviews.set(report.round, posted.url);
    await this.#session.recordRound(roundRow(report, this.#fix, this.#independence, posted.url));
  }
}
