/**
 * The shapes of the review loop's model answers (docs/how-it-works.md § Review rounds): the reviewer's
 * assessment, the executor's rebuttals and fix proposals, the reviewer's rulings. Each has a zod schema
 * (what the engine trusts) and a JSON schema (what strict structured-output providers are sent: every
 * property required, optional ones nullable, no numeric bounds — those are checked here instead).
 */
import { z } from 'zod';
import type { Usage } from '../usage.js';
import { SkillclimbError } from '../errors.js';

export const VERDICTS = ['ready', 'almost', 'not ready'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const SEVERITIES = ['critical', 'major', 'minor'] as const;

/** The reviewer's estimate of the work a minimum fix takes; rendered in words at give-up. */
export const EFFORTS = ['trivial', 'small', 'medium', 'large'] as const;
export type Effort = (typeof EFFORTS)[number];

/** `Not Ready`, `not_ready`, `not-ready` → `not ready`; anything else is left for the enum to refuse. */
function normalizeWords(value: unknown): unknown {
  return typeof value === 'string'
    ? value
        .trim()
        .toLowerCase()
        .replace(/[\s_-]+/g, ' ')
    : value;
}

const nullableText = z
  .string()
  .nullish()
  .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim()));

export const WeaknessSchema = z.object({
  title: z.string().trim().min(1),
  severity: z.preprocess(normalizeWords, z.enum(SEVERITIES)).catch('major'),
  detail: z.string().default(''),
  minimum_fix: z.string().trim().min(1),
  effort: z.preprocess(normalizeWords, z.enum(EFFORTS)).catch('medium'),
  file: nullableText,
  line: z
    .number()
    .int()
    .positive()
    .nullish()
    .catch(null)
    .transform((v) => v ?? null),
});

export const ReviewAnswerSchema = z.object({
  score: z.number().min(1).max(10),
  verdict: z.preprocess(normalizeWords, z.enum(VERDICTS)),
  summary: z.string().default(''),
  weaknesses: z.array(WeaknessSchema),
  memory_update: z.string().default(''),
});
export type ReviewAnswer = z.infer<typeof ReviewAnswerSchema>;

export const STANCES = ['accept', 'partially accept', 'reject'] as const;

export const RebuttalSchema = z.object({
  weakness: z.number().int().positive(),
  stance: z.preprocess(normalizeWords, z.enum(STANCES)),
  argument: z.string().default(''),
  evidence: z.string().default(''),
});
export type Rebuttal = z.infer<typeof RebuttalSchema>;

export const RebuttalAnswerSchema = z.object({ rebuttals: z.array(RebuttalSchema) });
export type RebuttalAnswer = z.infer<typeof RebuttalAnswerSchema>;

export const RULINGS = ['accepted', 'partially accepted', 'rejected'] as const;

export const RulingSchema = z.object({
  weakness: z.number().int().positive(),
  ruling: z.preprocess(normalizeWords, z.enum(RULINGS)),
  reason: z.string().default(''),
  required: nullableText,
});
export type Ruling = z.infer<typeof RulingSchema>;

export const RulingAnswerSchema = z.object({ rulings: z.array(RulingSchema) });
export type RulingAnswer = z.infer<typeof RulingAnswerSchema>;

export const FileEditSchema = z.object({
  path: z.string().min(1),
  old_string: z.string().min(1),
  new_string: z.string(),
});
export type FileEdit = z.infer<typeof FileEditSchema>;

/** The executor's check of a finding it was asked to check before fixing (§ Approval under noise). */
export const FixCheckSchema = z.object({
  finding: z.number().int().positive(),
  holds: z.boolean(),
  evidence: z.string().default(''),
});

export const FixProposalSchema = z.object({
  summary: z.string().default(''),
  edits: z.array(FileEditSchema),
  /** Present when the fix prompt asked for checks; a finding it does not mention stands. */
  checks: z.array(FixCheckSchema).default([]),
});
export type FixProposal = z.infer<typeof FixProposalSchema>;

/** A model call's record for the trace folder: the request (never headers or keys), the raw answer, meta. */
export interface CallTrace {
  request: Record<string, unknown>;
  /** The model's answer as received (redacted of credential shapes). */
  response: string;
  meta: Record<string, unknown>;
}

/** One model call's validated answer, with its raw text, usage and trace. */
export interface ModelCall<T> {
  value: T;
  raw: string;
  usage: Usage;
  trace: CallTrace;
}

/**
 * The answer could not be read into its schema (garbled JSON, missing fields, out-of-range score). It
 * still cost tokens and is still evidence: `raw`, `usage` and `trace` travel with it.
 */
export class UnusableAnswerError extends SkillclimbError {
  readonly kind = 'model';
  constructor(
    readonly role: 'reviewer' | 'executor',
    detail: string,
    readonly raw: string,
    readonly usage: Usage,
    readonly trace: CallTrace,
  ) {
    super(`${role} answer unusable: ${detail}`);
    this.name = 'UnusableAnswerError';
  }
}

/** `path.to.field: message` for the first zod issue. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}
