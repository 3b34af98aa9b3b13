/**
 * What one invocation of the review loop returns (docs/how-it-works.md § Review rounds): enough for a
 * front-end to print progress and exit (the CLI) or to render reviews, a check run and a status comment
 * (the App) without reading the store again.
 */
import type { AcquittalReceipt } from './log.js';
import type { Independence } from './gate.js';
import type { ModelIdentity, RankedWeakness, RoundSummary } from './state.js';
import type { Rebuttal, Ruling } from './answers.js';
import type { Usage } from '../usage.js';
import type { ProposedChange } from './proposed-changes.js';

/**
 * How the invocation ended. Terminal (state `completed`): acquitted, max-rounds, stopped, not-independent
 * (a positive verdict from a reviewer that cannot acquit), budget, reviewed (`--fix none`: one review, no
 * acquittal). Paused (state `in_progress`, resumable): awaiting-fix, awaiting-checkpoint, interrupted.
 */
export type ReviewStatus =
  | 'acquitted'
  | 'max-rounds'
  | 'stopped'
  | 'not-independent'
  | 'budget'
  | 'reviewed'
  | 'interrupted'
  | 'awaiting-fix'
  | 'awaiting-checkpoint';

export interface DebateRecord {
  rebuttals: Rebuttal[];
  rulings: Ruling[];
  /** Ranks of the weaknesses an accepted rebuttal resolved. */
  resolved: number[];
  /** The transcript as written to AUTO_REVIEW.md. */
  transcript: string;
}

export interface RejectedEdit {
  path: string;
  reason: string;
}

export interface FixReport {
  /** The executor's own summary (for the log; never shown to the reviewer). */
  summary: string;
  applied: Array<{ path: string }>;
  rejected: RejectedEdit[];
  /** The commit made (fix auto), or null when nothing was applied. */
  commit: string | null;
  /** Weakness ranks the checkpoint skipped. */
  skipped: number[];
  /** Free text answered at the checkpoint. */
  guidance: string | null;
  /** Instructions taken for this fix from outside the checkpoint (the App's guidance comments). */
  instructions: string | null;
  /** Manual mode in the App: the executor's fixes as changed lines, proposed and never committed. */
  proposed?: ProposedChange[] | undefined;
  /** Why no edit was made at all, when none was proposed (refused edits are in `rejected`). */
  noEdit?: 'nothing-to-fix' | 'no-usable-answer' | 'none-proposed' | undefined;
}

/** One round as this invocation saw it, raw answers included. */
export interface RoundReport {
  round: number;
  head: string;
  score: number | null;
  verdict: RoundSummary['verdict'];
  positive: boolean;
  summary: string;
  weaknesses: RankedWeakness[];
  memoryUpdate: string;
  raw: string;
  verifierRaw: string | null;
  debate: DebateRecord | null;
  fix: FixReport | null;
  seconds: number;
  usage: Usage;
  /**
   * `reviewed`: the verdict is known, fixes not yet made; `awaiting-checkpoint`: paused for the person;
   * `complete`: Phase E wrote it to the log and the state.
   */
  phase: 'reviewed' | 'awaiting-checkpoint' | 'complete';
}

export interface ReviewOutcome {
  status: ReviewStatus;
  runId: string;
  /** The run's trace folder relative to `.aris/traces/`, once a call was traced. */
  traceId: string | null;
  /** This invocation continued a run in progress. */
  resumed: boolean;
  /** One sentence for the person: what happened and what comes next. */
  message: string;
  reviewer: ModelIdentity;
  executor: ModelIdentity;
  independence: Independence;
  base: string;
  head: string;
  /** Every finished round of the run, earlier invocations included. */
  rounds: RoundSummary[];
  /** The rounds this invocation ran, with raw answers. */
  reports: RoundReport[];
  /** Whole run, and this invocation alone. */
  usage: Usage;
  invocationUsage: Usage;
  /** When the run ended without acquittal: the remaining weaknesses, each with its effort estimate. */
  blockers: RankedWeakness[];
  receipt: AcquittalReceipt | null;
  awaiting: {
    kind: 'fix' | 'checkpoint';
    round: number;
    head: string;
    /**
     * Why the loop waits for a fix instead of reviewing: the head is the one `round` reviewed, either
     * because that round's own fix changed nothing (`fix`, see unchanged-fix.ts) or because no commit
     * came since (`no-commit`). A head is never reviewed twice.
     */
    unchanged?: 'fix' | 'no-commit' | undefined;
  } | null;
}
