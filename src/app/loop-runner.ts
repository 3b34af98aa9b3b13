/**
 * The ONE seam between the App and the review-loop engine (docs/how-it-works.md § The App). The App does
 * everything around a loop — webhooks, permission, configuration, the queue, the check run, the sticky
 * comment, the park issue — and hands the loop itself to a `LoopRunner`: "run this PR's loop now, from
 * this trigger, until it finishes or needs a person". The runner reaches GitHub only through the
 * `PullSession` it is given, whose methods are what the engine's store and target ports are built from.
 */
import type { ReviewStatus } from '../core/review/outcome.js';
import type { LoopSettings } from '../github/review/loop-state.js';
import type { PullSession } from '../github/review/pull-session-port.js';

/** Why the runner is called. */
export type LoopTrigger =
  /** `/review-loop [options]`: a fresh run (the previous one finished, or there was none). */
  | { kind: 'start' }
  /** A push or `/review-loop continue` while the loop waited for a manual fix; or a resume after a restart. */
  | { kind: 'continue' }
  /** An answer at the human checkpoint. */
  | {
      kind: 'answer';
      answer: { kind: 'go' } | { kind: 'skip'; items: number[] } | { kind: 'guidance'; text: string };
    }
  /** The Re-run button on the check run of `headSha` (the PR's current head). */
  | { kind: 'rerun'; headSha: string };

/** How a run of the runner ended: the engine's own statuses (core/review-outcome.ts). */
export type LoopStatus = ReviewStatus;

export interface LoopBlocker {
  title: string;
  effort: string;
}

export interface LoopOutcome {
  status: LoopStatus;
  runId: string;
  /** The head SHA the run ended on (the acquitted one, on acquittal). */
  head: string;
  /** One sentence for the person: what happened and what comes next. */
  message: string;
  rounds: number;
  lastScore: number | undefined;
  lastVerdict: string | undefined;
  /** Whether the last finished round gave a verdict (false: the reviewer gave no usable answer). */
  lastRoundScored?: boolean | undefined;
  /** On give-up: what is left, with effort estimates. */
  blockers: LoopBlocker[];
  /** Why this run could never acquit (the reviewer is not independent), said with any ending. */
  caveat?: string | undefined;
  /**
   * Which instructions the reviewer had (the repository's reviewer skill at a commit, or the built-in ones
   * and why), one sentence for the check run's summary.
   */
  instructions?: string | undefined;
}

export interface LoopRequest {
  /** The run id the App chose (and put on the check run) for a fresh run; a resumed run keeps its own. */
  runId: string;
  trigger: LoopTrigger;
  settings: LoopSettings;
  session: PullSession;
  /** Aborted by `/review-loop stop`, a closed PR, or shutdown; the runner saves its state and returns. */
  signal: AbortSignal;
}

export interface LoopRunner {
  run(request: LoopRequest): Promise<LoopOutcome>;
}
