import { z } from 'zod';
import type { Scenario } from '../core/evals.js';
import type { FailedAssertion, PassingPair, StructuralResult } from '../core/score-types.js';

/** Token usage of one or more model calls. `costUsd` is null when no price is known for the model. */
export interface Usage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number | null;
}

export const ZERO_USAGE: Usage = Object.freeze({
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: null,
});

/**
 * Every token the calls processed: uncached input, output, and the cache reads and writes (cached input is
 * still input the model read). The one definition behind progress lines and the morning summary.
 */
export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd === null && b.costUsd === null ? null : (a.costUsd ?? 0) + (b.costUsd ?? 0),
  };
}

export interface ModelReply<T> {
  value: T;
  usage: Usage;
}

/** Step A's edit, applied by Step B. */
export const EditProposalSchema = z.object({
  description: z.string().min(1),
  old_string: z.string().min(1),
  new_string: z.string(),
});
export type EditProposal = z.infer<typeof EditProposalSchema>;

/**
 * The grader's answer before the engine's repairs (DESIGN.md: omitted id → false, unknown id → dropped,
 * non-boolean verdict → "true"/"yes" true, anything else false). Deliberately lenient.
 */
export const GraderAnswerSchema = z.object({
  verdicts: z.record(z.string(), z.object({ verdict: z.unknown(), reason: z.string().optional() }).loose()),
});
export type GraderAnswer = z.infer<typeof GraderAnswerSchema>;

export type EditorMode = 'targeted' | 'simplification';

export interface EditorInput {
  skillName: string;
  skillMd: string;
  mode: EditorMode;
  /** 3+ consecutive reverts: invite a larger restructure (targeted) or a more aggressive simplification. */
  radical: boolean;
  /** failed_assertions[0] in targeted mode. */
  topFailure: FailedAssertion | undefined;
  /** failed_assertions[1:] (shown compact). */
  otherFailures: FailedAssertion[];
  passingPairs: PassingPair[];
  /** An excerpt of the render that failed topFailure, when there is one. */
  failingRenderExcerpt: string | undefined;
  /** Descriptions of edits already reverted for this skill in this run, so they are not proposed again. */
  revertedDescriptions: string[];
  /** The latest structural metrics (the offline editor aims at the weakest one). */
  structural: StructuralResult;
}

export interface RenderInput {
  skillName: string;
  skillMd: string;
  scenario: Scenario;
}

export interface GraderInput {
  skillName: string;
  scenario: Scenario;
  /** The render being graded: untrusted text, quoted as data in the prompt. */
  output: string;
  /** Only the assertions that need a model (not vacuous, no `check`). */
  assertions: Array<{ id: number; statement: string; category: string }>;
  trial: number;
}

/**
 * The one interface the engine calls for its three roles. Implementations: `offline` (src/llm/offline.ts),
 * the scripted double (src/llm/scripted.ts), and the real providers (src/llm/providers.ts).
 *
 * Contract:
 * - every call honours `signal` (an abort rejects promptly with the signal's reason);
 * - `propose` / `grade` resolve with a value already validated by the schemas above, or reject with
 *   `ModelOutputError` when the answer cannot be parsed into that shape (the engine decides revert vs crash);
 * - any other rejection is a model/transport failure (a crash in the seed's taxonomy).
 */
export interface SkillModels {
  /** One line for logs, e.g. "offline (structural scoring only)" or "editor=anthropic:… render=… grader=…". */
  readonly label: string;
  /** True for `offline`: no render, no grade; scoring falls back to structural-only. */
  readonly structuralOnly: boolean;
  /** Part of the render-cache key. */
  readonly renderModelId: string;
  propose(input: EditorInput, signal: AbortSignal): Promise<ModelReply<EditProposal>>;
  render(input: RenderInput, signal: AbortSignal): Promise<ModelReply<string>>;
  grade(input: GraderInput, signal: AbortSignal): Promise<ModelReply<GraderAnswer>>;
}

/** A model answered, but not in the expected shape (garbled JSON, missing fields). */
export class ModelOutputError extends Error {
  constructor(
    readonly role: 'editor' | 'render' | 'grader',
    message: string,
    readonly raw?: string,
  ) {
    super(`${role} answer unusable: ${message}`);
    this.name = 'ModelOutputError';
  }
}
