/**
 * The reviewer's instructions as an Agent Skills skill in the repository (docs/how-it-works.md § The
 * reviewer learns): where it lives by default, and the record a team's answer to a finding leaves on the
 * eval it becomes. Shared by the App (which reviews with the skill and writes the evals), the CLI and the
 * nightly engine (which improves the skill like any other).
 */
import { z } from 'zod';

/** The skill's folder when `.github/review-loop.yml` names none; the spec wants `name` = the folder's name. */
export const REVIEWER_SKILL_NAME = 'review-loop-reviewer';
export const DEFAULT_REVIEWER_SKILL_DIR = `.github/skills/${REVIEWER_SKILL_NAME}`;

export const FEEDBACK_KINDS = ['dismissed', 'accepted'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

/**
 * Where an eval written from review feedback came from, kept in the eval's `skillclimb.feedback` field:
 * `dismissed` asserts the review does not raise the finding again, `accepted` that it still raises it.
 */
export const ReviewFeedbackSchema = z
  .object({
    kind: z.enum(FEEDBACK_KINDS),
    /** The finding's title as the reviewer wrote it. */
    title: z.string().min(1),
    file: z.string().min(1).optional(),
    line: z.int().positive().optional(),
    /** The pull request the finding was raised on. */
    pr: z.int().positive(),
    /** The team's reason (a dismissal's words, a reply), when there was one. */
    reason: z.string().optional(),
    /** The login whose answer made it count (always a user with write access). */
    by: z.string().min(1).optional(),
  })
  .loose();
export type ReviewFeedback = z.infer<typeof ReviewFeedbackSchema>;
