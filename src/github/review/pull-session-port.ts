/**
 * What a loop may do on its pull request (docs/how-it-works.md § Layers and ports): the one object the App
 * hands its runner; `GitHubPullSession` (pull-session.ts) is it on GitHub, the engine's store and target
 * ports (review-store.ts, review-target.ts) are made from it.
 */
import type { DismissedWeakness } from '../../core/review/state.js';
import type { FoundRound } from '../../ports/review.js';
import type { FindingKey } from '../../core/review/finding-identity.js';
import type { CommitFixResult } from './fix-commit.js';
import type { RoundRow } from './loop-state.js';
import type { EntryRead, PullInfo, listFolderAt } from './pull-info.js';
import type { PostedReview } from './round-review.js';
import type { RoundReviewView } from './review-body.js';

export interface SessionLog {
  info(message: string): void;
  warn(message: string): void;
}

/** What the runner may do on its PR; nothing else reaches GitHub. */
export interface PullSession {
  readonly pr: PullInfo;
  readonly log: SessionLog;
  /** The run id check runs are created with (the engine's; see useRunId). */
  readonly runId: string;
  /**
   * Adopts the engine's run id when it differs from the one the App chose (a run resumed from the
   * engine's own state): the sticky state and every later check run carry it.
   */
  useRunId(runId: string): Promise<void>;
  /** The PR's head SHA now (a person may push while a loop runs). */
  currentHead(): Promise<string>;
  /** The engine's own saved state from the sticky comment (undefined when none). */
  loadReviewState(): Promise<unknown>;
  /** Saves the engine's records (state, memory, receipts) in one edit of the comment. */
  saveReviewState(review: unknown): Promise<void>;
  /** The diff between two commits (the PR's range, or what changed since the last review). */
  readCompareDiff(base: string, head: string): Promise<string>;
  /** The target port's reads: merge base and files, a path's content (bounded), a folder's entries. */
  compare(base: string, head: string): Promise<{ mergeBase: string; files: string[] }>;
  readEntry(path: string, ref: string, maxBytes: number): Promise<EntryRead>;
  listFolder(path: string, ref: string): ReturnType<typeof listFolderAt>;
  /**
   * `path` on the repository's DEFAULT branch, never the pull request's head (the reviewer skill:
   * docs/how-it-works.md § The reviewer learns), with the branch and the commit it was read at.
   */
  readOnDefaultBranch(
    path: string,
    maxBytes: number,
  ): Promise<{ branch: string; commit: string; entry: EntryRead }>;
  /** Marks a round as running on `head` (the check run goes in_progress there). */
  roundStarted(round: number, head: string): Promise<void>;
  /**
   * Round `round` of run `runId` as this App posted it (read back from its review), when this is a re-run
   * of the loop (a restart, a takeover) and the review is on the PR — with its fix commit when the head is
   * this run's fix of that round; undefined otherwise, without a read.
   */
  publishedRound(runId: string, round: number): Promise<FoundRound | undefined>;
  /** One PR review for the round, `commit_id` = `view.headSha`, inline comments where lines are in the diff. */
  postReview(view: RoundReviewView): Promise<PostedReview>;
  /**
   * Commits whole file texts onto the PR branch (`fix: auto`, never on a fork) through the Git Data API;
   * on success the new head is remembered as the App's own (its push never resumes a loop).
   */
  commitFiles(
    files: Array<{ path: string; text: string }>,
    message: string,
    expectedHead: string,
  ): Promise<CommitFixResult>;
  /** Adds or replaces the sticky log's row for `row.round` (written with the next phase change). */
  recordRound(row: RoundRow): Promise<void>;
  /** A sentence for the sticky status line and the check runs while the loop runs (e.g. why it cannot acquit). */
  note(message: string): Promise<void>;
  /** Pending instructions from `/review-loop <text>`, removed from the state: the next fix takes them. */
  takeGuidance(): Promise<string | null>;
  /**
   * Findings the maintainers dismissed: `/review-loop dismiss` answers from the sticky state, and "won't
   * fix" / "by design" replies on the App's finding threads.
   */
  dismissals(): Promise<DismissedWeakness[]>;
  /**
   * Round `round`'s findings on `head` against the App's finding threads (matched by content and place,
   * src/core/review/finding-identity.ts): a finding that stands keeps its thread — reopened if it was
   * resolved, answered only when a maintainer wrote there since the App's last word — and gets no new
   * one; a thread of an earlier round whose finding is not raised any more is resolved (addressed); a
   * dismissed finding's thread is left to the people. Returns, per finding, the thread it stands on.
   */
  followThreads(
    round: number,
    head: string,
    findings: ReadonlyArray<FindingKey & { rank: number }>,
  ): Promise<Array<StandingThread | undefined>>;
}

/** The open thread of a finding that stands: the review links it instead of opening another. */
export interface StandingThread {
  url: string;
  /** The round that opened it. */
  since: number;
}
