/**
 * The review loop's ports (docs/how-it-works.md § Layers and ports): the engine in src/review talks to the
 * models, the place it keeps its records, the change under review and the person only through these. The
 * CLI wires local implementations (review-stage/ files, a git checkout, a terminal prompt); the App wires
 * GitHub ones (a sticky comment, a pull request, comment commands).
 */
import type { CheckpointAnswer } from '../core/review/checkpoint.js';
import type {
  CallTrace,
  FixProposal,
  ModelCall,
  RebuttalAnswer,
  ReviewAnswer,
  RulingAnswer,
} from '../core/review/answers.js';
import type { FindingCheckAnswer } from '../core/review/finding-verification.js';
import type { FindingCheckPromptInput } from '../core/review/check-prompt.js';
import type { Independence } from '../core/review/gate.js';
import type { AcquittalReceipt } from '../core/review/log.js';
import type { BoundedText, Claims } from '../core/review/material.js';
import type { RoundReport } from '../core/review/outcome.js';
import type {
  FixPromptInput,
  RebuttalPromptInput,
  ReviewPromptInput,
  RulingPromptInput,
  VerifierLimits,
  VerifierPromptInput,
} from '../core/review/prompts.js';
import type {
  DismissedWeakness,
  ModelIdentity,
  PublishedRound,
  RankedWeakness,
  ReviewState,
  StoredState,
} from '../core/review/state.js';

export type { CheckpointAnswer } from '../core/review/checkpoint.js';
export type { ReviewOutcome, ReviewStatus, RoundReport } from '../core/review/outcome.js';

/** Prompt inputs without the marker: the adapter draws a fresh one per call. */
type WithoutMarker<T> = Omit<T, 'marker'>;

/**
 * Read-only tools over the reviewed head for the nightmare verifier. Each returns the text the model sees
 * (a refusal or a budget message included): the engine bounds calls and bytes and confines paths.
 */
export interface ReadOnlyTools {
  readonly limits: VerifierLimits;
  readFile(path: string): Promise<string>;
  listFolder(path: string): Promise<string>;
  searchText(query: string, folder?: string): Promise<string>;
}

/**
 * The review loop's two model roles. Contract:
 * - every call honours `signal` (an abort rejects promptly with the signal's reason);
 * - an answer that cannot be read into its schema rejects with `UnusableAnswerError` (raw text, usage and
 *   trace attached) — the engine decides retry vs unavailable;
 * - any other rejection is a model or transport failure.
 */
export interface ReviewModels {
  readonly reviewer: ModelIdentity;
  readonly executor: ModelIdentity;
  /** Phase A: the reviewer's assessment. */
  review(input: WithoutMarker<ReviewPromptInput>, signal: AbortSignal): Promise<ModelCall<ReviewAnswer>>;
  /** Phase B.6: the executor's rebuttal of up to three weaknesses. */
  rebut(input: WithoutMarker<RebuttalPromptInput>, signal: AbortSignal): Promise<ModelCall<RebuttalAnswer>>;
  /** Phase B.6: the reviewer's ruling on the rebuttal. */
  rule(input: WithoutMarker<RulingPromptInput>, signal: AbortSignal): Promise<ModelCall<RulingAnswer>>;
  /**
   * Phase C: the executor's `{path, old_string, new_string}` edits — and, when the input names findings
   * to check, its check of each against the code first (docs/how-it-works.md § Approval under noise).
   */
  proposeFix(input: WithoutMarker<FixPromptInput>, signal: AbortSignal): Promise<ModelCall<FixProposal>>;
  /**
   * Before a round's findings are posted: a fresh call of the reviewer's model says, for each finding,
   * whether the code at the head shows it (docs/how-it-works.md § Approval under noise).
   */
  checkFindings(
    input: WithoutMarker<FindingCheckPromptInput>,
    signal: AbortSignal,
  ): Promise<ModelCall<FindingCheckAnswer>>;
  /** Nightmare: a fresh reviewer (the reviewer's model) with read-only tools. */
  verify(
    input: WithoutMarker<VerifierPromptInput>,
    tools: ReadOnlyTools,
    signal: AbortSignal,
  ): Promise<ModelCall<ReviewAnswer>>;
}

/**
 * Where a run's records live: REVIEW_STATE.json, REVIEWER_MEMORY.md, AUTO_REVIEW.md, ACQUITTAL_LOG.jsonl
 * and `.aris/traces/` on a checkout; a sticky comment and reviews on a pull request.
 */
export interface ReviewStore {
  /** Where the state lives, for messages: `review-stage/REVIEW_STATE.json`, `the status comment of #12`. */
  readonly location: string;
  /** The state, or undefined when there is none; a state that cannot be read rejects with a clear error. */
  readState(): Promise<StoredState | undefined>;
  /** Overwrites the state (the original: only the latest round's state matters). */
  writeState(state: ReviewState): Promise<void>;
  /** A stale state (in progress, older than 24 h) is deleted before the fresh run. */
  deleteState(): Promise<void>;
  /** The whole memory file ('' when there is none). */
  readMemory(): Promise<string>;
  appendMemory(text: string): Promise<void>;
  /** Appends to the round log (AUTO_REVIEW.md). */
  appendLog(text: string): Promise<void>;
  /** Appends ONE whole receipt line; never rewrites earlier lines. */
  appendReceipt(receipt: AcquittalReceipt): Promise<void>;
  readReceipts(): Promise<Array<Partial<AcquittalReceipt>>>;
  /** Makes the run's trace folder and returns its id (`auto-review-loop/2026-11-30_run01`). */
  createTraceFolder(now: Date): Promise<string>;
  /** Saves one call's request (never headers or keys), raw response and meta under the trace folder. */
  writeTrace(traceId: string, name: string, trace: CallTrace): Promise<void>;
}

export interface FolderEntry {
  name: string;
  kind: 'file' | 'folder' | 'symlink' | 'other';
}

export interface SearchHit {
  path: string;
  line: number;
  text: string;
}

export type FileRead =
  | { kind: 'file'; text: string; bytes: number; truncated: boolean }
  | { kind: 'missing' }
  | { kind: 'symlink' }
  | { kind: 'folder' }
  | { kind: 'binary'; bytes: number };

export interface CommitResult {
  /** The new head (unchanged when every file was refused). */
  head: string;
  /** Files refused at write time (e.g. a symlink on disk), with the reason. */
  refused: Array<{ path: string; reason: string }>;
}

/** What is under review: a local branch, a pull request. Ids are commit SHAs. */
export interface ReviewTarget {
  /** For logs and the round log: `branch feature-x in /path`, `pull request #12`. */
  readonly label: string;
  claims(): Promise<Claims>;
  /** The base the change is measured from (the merge base) and the current head. */
  resolve(): Promise<{ base: string; head: string }>;
  /** Files the change under review touches between base and head: the allow-list's starting point. */
  filesUnderReview(base: string, head: string): Promise<string[]>;
  /** The diff between two commits, within what is under review, cut to `budget` characters. */
  diff(from: string, to: string, budget: number): Promise<BoundedText>;
  /** Files that differ between two commits, within what is under review. */
  changedFiles(from: string, to: string): Promise<string[]>;
  readFile(path: string, at: string, maxBytes: number): Promise<FileRead>;
  /** Entries of a folder at a commit ('' is the root); undefined when there is no such folder. */
  listFolder(path: string, at: string): Promise<FolderEntry[] | undefined>;
  /** Lines containing `query` (a fixed string) at a commit, optionally under a folder. */
  searchText(query: string, at: string, options: { folder?: string; maxHits: number }): Promise<SearchHit[]>;
  /** Writes whole new file texts as one commit on the reviewed branch. */
  commitFiles(files: Array<{ path: string; text: string }>, message: string): Promise<CommitResult>;
}

export interface CheckpointQuestion {
  round: number;
  maxRounds: number;
  score: number | null;
  verdict: string;
  /** The fixes on offer, numbered by rank (what `skip N` refers to). */
  weaknesses: RankedWeakness[];
}

/**
 * Instructions for the next fix that arrive outside a checkpoint (the App's `/review-loop <text>` while no
 * checkpoint waits). The engine takes them once, in the next Phase C that has something to fix, and
 * quotes them to the executor as the person's instructions (untrusted data, like the checkpoint's).
 */
export interface FixInstructions {
  /** The pending instructions, removed from the source; null when there are none. */
  take(signal: AbortSignal): Promise<string | null>;
}

/**
 * Findings the maintainers dismissed (the App: `/review-loop dismiss <n>`, or a "won't fix" / "by design"
 * reply on the finding's thread). The engine asks before each review, records new ones in the reviewer's
 * memory with their reason, and leaves matching findings out of later rounds.
 */
export interface DismissalSource {
  list(signal: AbortSignal): Promise<DismissedWeakness[]>;
}

/** The human checkpoint: a terminal prompt (CLI) or a comment command (App, which answers `wait` first). */
/**
 * The rounds a front-end published before the run's state recorded them (the App: its reviews on the pull
 * request). A run asks once, for the first round of an invocation: a round whose review is out already is
 * not reviewed again, it goes on from the step after its review (docs/how-it-works.md § The App).
 */
export interface PublishedRounds {
  /** Round `round` of run `runId` as published, or undefined (none, or nothing to look at). */
  find(runId: string, round: number, signal: AbortSignal): Promise<FoundRound | undefined>;
}

/** A published round, with the commit of its own fix when that landed before the interruption. */
export type FoundRound = PublishedRound & {
  /** The round's fix commit, the branch's head now (made by this run after the review). */
  fixCommit?: { sha: string; files: string[] } | undefined;
};

export interface Checkpoint {
  ask(question: CheckpointQuestion, signal: AbortSignal): Promise<CheckpointAnswer>;
}

export type ReviewEvent =
  | { type: 'run-started'; runId: string; resumed: boolean; round: number; independence: Independence }
  | { type: 'round-started'; round: number; head: string }
  /** After Phase B (and the debate): the verdict is known; fixes have not started. */
  | { type: 'round-reviewed'; report: RoundReport }
  | { type: 'fix-committed'; round: number; head: string; files: string[] }
  /** After Phase E: the round is documented and the state written. */
  | { type: 'round-finished'; report: RoundReport };

/** Optional progress hooks (the CLI prints lines; the App posts reviews and updates its check run). */
export interface ReviewEvents {
  emit(event: ReviewEvent): void | Promise<void>;
}
