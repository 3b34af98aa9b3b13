/** The shapes model answers must have before the engine uses them, and the error for one that does not. */
import { z } from 'zod';
import type { Usage } from './usage.js';
import { SkillclimbError } from './errors.js';

/** Step A's edit, applied by Step B. */
export const EditProposalSchema = z.object({
  description: z.string().min(1),
  old_string: z.string().min(1),
  new_string: z.string(),
});
export type EditProposal = z.infer<typeof EditProposalSchema>;

/**
 * The grader's answer before the engine's repairs (docs/how-it-works.md § Scoring: omitted id → false, unknown id → dropped,
 * non-boolean verdict → "true"/"yes" true, anything else false). Deliberately lenient.
 */
export const GraderAnswerSchema = z.object({
  verdicts: z.record(z.string(), z.object({ verdict: z.unknown(), reason: z.string().optional() }).loose()),
});
export type GraderAnswer = z.infer<typeof GraderAnswerSchema>;

/**
 * A model answered, but not in the expected shape (garbled JSON, missing fields). `usage`: what the call
 * that produced the unusable answer cost, when the provider reported it (an unusable answer is still paid).
 */
export class ModelOutputError extends SkillclimbError {
  readonly kind = 'model';
  constructor(
    readonly role: 'editor' | 'render' | 'grader' | 'reviewer' | 'executor' | 'author',
    message: string,
    readonly raw?: string,
    readonly usage?: Usage,
  ) {
    super(`${role} answer unusable: ${message}`);
    this.name = 'ModelOutputError';
  }
}
