/**
 * The review engine's inputs: the options of one invocation and the ports it is wired with
 * (docs/how-it-works.md § Layers and ports). The CLI and the App build both and call runReviewLoop.
 */
import type { CheckpointAnswer } from '../core/review/checkpoint.js';
import { REVIEW_BUDGETS, type ReviewBudgets } from '../core/review/material.js';
import type { VerifierLimits } from '../core/review/prompts.js';
import { STALE_AFTER_MS, type Difficulty, type FixMode, type Preset } from '../core/review/state.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type {
  Checkpoint,
  DismissalSource,
  PublishedRounds,
  FixInstructions,
  ReviewEvents,
  ReviewModels,
  ReviewStore,
  ReviewTarget,
} from '../ports/review.js';

export interface ReviewOptions {
  difficulty: Difficulty;
  /** MAX_ROUNDS (the original's default is 4). */
  maxRounds: number;
  /** auto: the executor's edits are committed each round; manual: pause for the person's fix; none: review only. */
  fix: FixMode;
  /** Ask the person after each critical review, before the fix (fix auto only). */
  checkpoint: boolean;
  preset: Preset;
  /** End the run between rounds once its estimated cost reaches this (whole run, resumed invocations included). */
  maxCostUsd?: number | undefined;
  /** The same for tokens (input + output, whole run): a budget that holds where no price is known. */
  maxTokens?: number | undefined;
  /** Globs a fix may edit beyond the files the change already touches. */
  allowGlobs?: readonly string[] | undefined;
  budgets?: Partial<ReviewBudgets> | undefined;
  verifierLimits?: Partial<VerifierLimits> | undefined;
  /** The original's 24 hours after which an in-progress state is abandoned. */
  staleAfterMs?: number | undefined;
  /**
   * `fix: manual`: the executor still proposes its fixes, reported on the round (never committed), so a
   * front-end can offer them — the App as one-click suggestions. Off by default (the CLI's manual mode
   * leaves the fix to the person).
   */
  proposeManualFixes?: boolean | undefined;
  /**
   * Which instructions the reviewer has — a repository's reviewer skill at a commit, or the built-in ones
   * (docs/how-it-works.md § The reviewer learns) — one sentence for the run's header; none: not said.
   */
  instructionsNote?: string | undefined;
}

export interface ReviewPorts {
  models: ReviewModels;
  store: ReviewStore;
  target: ReviewTarget;
  checkpoint: Checkpoint;
  log: Logger;
  clock: Clock;
  /** Aborting it stops the run between steps and in-flight calls; the state stays resumable. */
  signal?: AbortSignal | undefined;
  events?: ReviewEvents | undefined;
  /** Instructions for the next fix given outside a checkpoint (the App's guidance comments); none by default. */
  instructions?: FixInstructions | undefined;
  /** Findings the maintainers dismissed, left out of later rounds (the App's); none by default. */
  dismissals?: DismissalSource | undefined;
  /** Rounds published before the state recorded them (the App's reviews); none by default. */
  published?: PublishedRounds | undefined;
  /** 8 lowercase hex digits for a new run id (tests pin it); default: crypto random. */
  randomHex?: (() => string) | undefined;
}

/** What the caller already knows when it resumes a paused run (the App's `/review-loop skip 2`). */
export interface ResumeInput {
  checkpoint?: CheckpointAnswer | undefined;
}

export const DEFAULT_VERIFIER_LIMITS: VerifierLimits = { maxToolCalls: 20, maxToolBytes: 200_000 };
/** Files larger than this are never read whole into a fix (they are shown cut, and edits to them are refused). */
export const MAX_EDITABLE_FILE_BYTES = 1_000_000;
/** At most this many weaknesses go to one fix call. */
export const MAX_FIXES_PER_ROUND = 8;

export interface ResolvedOptions extends Required<
  Omit<ReviewOptions, 'maxCostUsd' | 'maxTokens' | 'instructionsNote'>
> {
  maxCostUsd: number | undefined;
  maxTokens: number | undefined;
  instructionsNote: string | undefined;
  budgets: ReviewBudgets;
  verifierLimits: VerifierLimits;
}

export function resolveOptions(options: ReviewOptions): ResolvedOptions {
  if (!Number.isInteger(options.maxRounds) || options.maxRounds < 1) {
    throw new Error(`max rounds must be a positive integer, got ${options.maxRounds}`);
  }
  return {
    ...options,
    maxCostUsd: options.maxCostUsd,
    maxTokens: options.maxTokens,
    instructionsNote: options.instructionsNote,
    allowGlobs: options.allowGlobs ?? [],
    budgets: { ...REVIEW_BUDGETS, ...options.budgets },
    verifierLimits: { ...DEFAULT_VERIFIER_LIMITS, ...options.verifierLimits },
    staleAfterMs: options.staleAfterMs ?? STALE_AFTER_MS,
    proposeManualFixes: options.proposeManualFixes ?? false,
  };
}

export function randomHex8(): string {
  const bytes = new Uint8Array(4);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
