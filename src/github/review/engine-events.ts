/**
 * The engine's progress as the pull request shows it (docs/how-it-works.md § The App): each reviewed round
 * becomes one PR review on its SHA — a finding that stands from an earlier round linked to the thread it
 * has, never given another — each finished round a row of the sticky log, and the check run follows the
 * rounds. An acquitting round's review waits for Phase E, so it can carry the receipt the engine wrote —
 * bound to the acquitted head. The model's raw answers go to the App's log, never into a review.
 */
import type { Independence } from '../../core/review/gate.js';
import type { AcquittalReceipt } from '../../core/review/log.js';
import type { ReviewOutcome, RoundReport } from '../../core/review/outcome.js';
import type { FixMode } from '../../core/review/state.js';
import type { ReviewEvent, ReviewEvents, ReviewStore } from '../../ports/review.js';
import type { Decision, DebateView, RoundReviewView } from './review-body.js';
import { totalTokens } from '../../core/usage.js';
import { counted } from '../../core/text/counted.js';
import { formatScore } from '../../core/review/log.js';
import { whyFixChangedNothing } from '../../core/review/unchanged-fix.js';
import { clip } from '../../core/text/untrusted-text.js';
import type { GitHubReviewTarget } from './review-target.js';
import type { RoundRow } from './loop-state.js';
import type { PullSession, StandingThread } from './pull-session-port.js';

/** Weakness titles a sticky row shows (the review has them all). */
const ROW_WEAKNESSES = 3;
/** The row quotes 120 characters of a title (renderLoopLog); more is never shown. */
const ROW_TITLE = 120;
/** Characters of a model's raw answer the log line keeps. */
const RAW_IN_LOG = 20_000;

export interface RoundContext {
  runId: string;
  maxRounds: number;
  reviewerModel: string;
  independence: Independence | undefined;
  /** The PR's page: locations in the review link into its diff. */
  pullUrl?: string | undefined;
  receipt?: AcquittalReceipt | undefined;
  /** Per weakness of the report (same order): the thread an earlier round opened for it, if it stands. */
  threads?: ReadonlyArray<StandingThread | undefined> | undefined;
}

/** Why a round is "not yet", in a reviewer's plain words (the engine's own sentence stays in the logs). */
function gateNote(report: RoundReport, independence: Independence | undefined): string | undefined {
  if (report.score === null) {
    return 'The reviewer gave no usable answer twice, so this round has no verdict; it still counts toward the rounds.';
  }
  if (!report.positive || independence?.canAcquit) return undefined;
  return independence?.relation === 'same'
    ? 'The reviewer passed the change, but it cannot approve it: the reviewer and the executor are models of the same family, so the review is not independent.'
    : 'The reviewer passed the change, but it cannot approve it: a model family is unknown, so the review cannot be shown to be independent.';
}

function decision(report: RoundReport, independence: Independence | undefined): Decision {
  if (report.score === null) return 'not yet';
  if (report.positive) return independence?.canAcquit ? 'approved' : 'not yet';
  return 'changes requested';
}

function debateView(report: RoundReport): DebateView | null {
  const record = report.debate;
  if (!record) return null;
  const entries = record.rebuttals.map((r) => {
    const ruling = record.rulings.find((x) => x.weakness === r.weakness);
    return {
      weakness: r.weakness,
      title: report.weaknesses.find((w) => w.rank === r.weakness)?.title ?? '(unknown weakness)',
      stance: r.stance,
      argument: r.argument,
      evidence: r.evidence,
      ruling: ruling
        ? { ruling: ruling.ruling, reason: ruling.reason, required: ruling.required }
        : undefined,
    };
  });
  return { entries, resolved: record.resolved, transcript: entries.length ? undefined : record.transcript };
}

export function roundReviewView(report: RoundReport, context: RoundContext): RoundReviewView {
  return {
    runId: context.runId,
    round: report.round,
    maxRounds: context.maxRounds,
    headSha: report.head,
    reviewerModel: context.reviewerModel,
    pullUrl: context.pullUrl,
    score: report.score,
    verdict: report.verdict,
    decision: decision(report, context.independence),
    // An unavailable round's summary is the engine's diagnosis; the note says it in plain words.
    summary: report.score === null ? undefined : report.summary,
    weaknesses: report.weaknesses.map((w, i) => ({
      rank: w.rank,
      title: w.title,
      severity: w.severity,
      detail: w.detail,
      minimumFix: w.minimum_fix,
      effort: w.effort,
      path: w.file ?? undefined,
      line: w.line ?? undefined,
      resolved: w.resolved_by_debate,
      thread: context.threads?.[i],
    })),
    debate: debateView(report),
    gateNote: gateNote(report, context.independence),
    proposed: report.fix?.proposed,
    seconds: report.seconds,
    usage: {
      calls: report.usage.calls,
      tokens: totalTokens(report.usage),
      costUsd: report.usage.costUsd,
    },
    receipt: context.receipt ? { ...context.receipt, head_sha: report.head } : undefined,
    // Read back by a resumed loop: the round goes on from this review (pull-session.ts publishedRound).
    record: {
      round: report.round,
      head: report.head,
      score: report.score,
      verdict: report.verdict,
      positive: report.positive,
      summary: report.summary,
      weaknesses: report.weaknesses,
    },
  };
}

/** What happened after the review, in a few plain words (the sticky log quotes it). */
export function roundAction(
  report: RoundReport,
  fix: FixMode,
  independence: Independence | undefined,
  last = false,
): string {
  if (report.score === null) return 'no verdict';
  if (report.positive) return independence?.canAcquit ? 'approved' : 'passed, but not independent';
  const parts: string[] = [];
  if (report.debate) {
    const resolved = report.debate.resolved.map((n) => `${n}`).join(', ');
    parts.push(`debate resolved ${resolved || 'none'}`);
  }
  if (report.fix?.proposed) {
    const files = [...new Set(report.fix.proposed.map((c) => c.path))];
    parts.push(
      files.length > 0
        ? `suggested ${counted(report.fix.proposed.length, 'change')} to ${files.join(', ')}`
        : 'no fix to suggest',
    );
  } else if (report.fix) {
    const { applied, rejected, commit } = report.fix;
    parts.push(
      applied.length > 0
        ? `fixed ${applied.map((a) => a.path).join(', ')}${commit ? ` in ${commit.slice(0, 7)}` : ''}`
        : 'no edit applied',
    );
    if (rejected.length > 0) parts.push(`${counted(rejected.length, 'edit')} refused`);
  } else if (report.phase === 'complete') {
    parts.push(fix === 'manual' && !last ? 'waiting for a fix' : 'no fix');
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
  last = false,
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
    action: roundAction(report, fix, independence, last),
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
        if (!event.independence.canAcquit) {
          session.log.info(event.independence.sentence);
          await session.note(notIndependentNote(event.independence));
        }
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
          roundRow(
            report,
            this.#fix,
            this.#independence,
            this.#reviews.get(report.round) ?? null,
            report.round >= this.#maxRounds,
          ),
        );
        return;
      }
    }
  }

  async #post(report: RoundReport, receipt: AcquittalReceipt | undefined): Promise<void> {
    const session = this.#session;
    // The raw answers are the log's: every field that matters is in the review, in words.
    session.log.info(`round ${report.round}: the reviewer's answer: ${clip(report.raw, RAW_IN_LOG)}`);
    if (report.verifierRaw?.trim()) {
      session.log.info(
        `round ${report.round}: the verifier's answer: ${clip(report.verifierRaw, RAW_IN_LOG)}`,
      );
    }
    // Threads of earlier rounds follow this verdict first: addressed findings are resolved, a standing one
    // keeps its thread (and the review links it instead of opening another).
    let threads: Array<StandingThread | undefined> | undefined;
    if (report.score !== null) {
      const open = report.weaknesses.filter((w) => !w.resolved_by_debate);
      const standing = await session.followThreads(report.round, report.head, open);
      threads = report.weaknesses.map((w) => standing[open.indexOf(w)]);
    }
    const posted = await session.postReview(
      roundReviewView(report, {
        runId: session.runId,
        maxRounds: this.#maxRounds,
        reviewerModel: this.#reviewerModel,
        independence: this.#independence,
        pullUrl: session.pr.url,
        receipt,
        threads,
      }),
    );
    this.#reviews.set(report.round, posted.url);
    await session.recordRound(
      roundRow(report, this.#fix, this.#independence, posted.url, report.round >= this.#maxRounds),
    );
  }
}

/** Why the run can never approve, in plain words (the engine's sentence, with its terms, is logged). */
export function notIndependentNote(independence: Independence): string {
  return independence.relation === 'same'
    ? 'This loop cannot approve the change: the reviewer and the executor are models of the same family, so the review is not independent.'
    : 'This loop cannot approve the change: a model family is unknown, so the review cannot be shown to be independent.';
}

/**
 * The outcome in a reviewer's words for the PR (the sticky status and the check): the engine's message
 * speaks the original's terms, which stay in the logs and the CLI's files.
 */
export function pullMessage(outcome: ReviewOutcome): string {
  const scored = [...outcome.rounds, ...outcome.reports].filter((r) => r.score !== null);
  const last = scored.at(-1);
  const verdict = last ? `${formatScore(last.score)}, ${last.verdict}` : 'no verdict';
  const rounds = counted(outcome.rounds.length, 'round');
  const blockers = outcome.blockers.length;
  switch (outcome.status) {
    case 'acquitted':
      // The status line says "Approved" and the check adds the verdict: this names where and by whom.
      return `Reviewed in round ${last?.round ?? outcome.rounds.length} by ${outcome.reviewer.id}.`;
    case 'max-rounds':
      // What the last round said decides the sentence: a round without a verdict requested nothing.
      if (outcome.rounds.at(-1)?.score === null) {
        return `The rounds ran out after ${rounds}; the last round had no verdict.`;
      }
      return `The rounds ran out after ${rounds} with changes still requested: ${counted(blockers, 'blocker')} ${blockers === 1 ? 'remains' : 'remain'}.`;
    case 'budget':
      return `${outcome.message.replace(/; not acquitted\.$/, '')}: the loop ended with changes still requested.`;
    case 'reviewed':
      return `Reviewed only (fix: none): ${verdict}.`;
    case 'not-independent':
      return `Round ${last?.round ?? outcome.rounds.length} passed it (${verdict}). ${notIndependentNote(outcome.independence)}`;
    case 'stopped':
      return outcome.message.replace(/; not acquitted\.$/, '.');
    case 'awaiting-fix': {
      const round = outcome.awaiting?.round ?? outcome.rounds.length;
      const unchanged = unchangedHead(outcome, round);
      if (unchanged) return unchanged;
      return `Round ${round} requested changes: apply the suggested changes or push your own, and round ${round + 1} reviews them.`;
    }
    case 'awaiting-checkpoint':
      // The status line lists the answers; the engine's message would list them again.
      return `Round ${outcome.awaiting?.round ?? outcome.rounds.length + 1} requested changes; the fix waits for your answer.`;
    default:
      return outcome.message;
  }
}

/** A path a model wrote, shown only when it looks like one (it lands in Markdown: the check's summary). */
function shownPath(path: string): string {
  return /^[\w.@+-]+(?:\/[\w.@+-]+)*$/.test(path) && path.length <= 200 ? `\`${path}\`` : 'a path it named';
}

/**
 * Why a loop waits on a head it reviewed already, in plain words: its own fix changed nothing (each
 * refused edit with the rule that refused it), or no commit came since. Undefined for a plain wait.
 */
function unchangedHead(outcome: ReviewOutcome, round: number): string | undefined {
  const head = `\`${(outcome.awaiting?.head ?? outcome.head).slice(0, 7)}\``;
  const next = `Push a fix and round ${round + 1} reviews it, or comment \`/review-loop stop\`.`;
  if (outcome.awaiting?.unchanged === 'no-commit') {
    return `No new commit since round ${round} reviewed ${head}, so it is not reviewed again. ${next}`;
  }
  const fix = outcome.reports.find((r) => r.round === round)?.fix;
  if (outcome.awaiting?.unchanged !== 'fix' || !fix) return undefined;
  return `Round ${round}'s fix changed nothing: ${whyFixChangedNothing(fix, shownPath)}. ${head} was reviewed already, so it is not reviewed again. ${next}`;
}
