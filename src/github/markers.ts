/**
 * Hidden HTML comments that let the Action find its own PRs and issues again on a later night. They are
 * invisible in the rendered Markdown and survive human edits of the visible text.
 */
import { z } from 'zod';

const PR_MARKER_PREFIX = '<!-- skillclimb:pr ';
const MARKER_SUFFIX = ' -->';

export const PullRequestMarkerSchema = z.object({
  skill: z.string(),
  baseline: z.number(),
  final: z.number(),
  iterations: z.number().int().optional(),
  run: z.string().optional(),
});
export type PullRequestMarker = z.infer<typeof PullRequestMarkerSchema>;

export function formatPullRequestMarker(marker: PullRequestMarker): string {
  // `--` cannot appear inside an HTML comment; JSON of these fields never produces it except in strings.
  return `${PR_MARKER_PREFIX}${JSON.stringify(marker).replace(/--/g, '-\\u002d')}${MARKER_SUFFIX}`;
}

/** The marker recorded in a PR body, or undefined when absent or unreadable (a human edited it away). */
export function parsePullRequestMarker(body: string | null | undefined): PullRequestMarker | undefined {
  if (!body) return undefined;
  const start = body.indexOf(PR_MARKER_PREFIX);
  if (start < 0) return undefined;
  const end = body.indexOf(MARKER_SUFFIX, start + PR_MARKER_PREFIX.length);
  if (end < 0) return undefined;
  try {
    const parsed = PullRequestMarkerSchema.safeParse(
      JSON.parse(body.slice(start + PR_MARKER_PREFIX.length, end)),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `<!-- skillclimb:park skill=<skill> -->`: one open defect-park issue per skill is found by it. */
export function parkMarker(skill: string): string {
  return `<!-- skillclimb:park skill=${skill} -->`;
}

export function hasParkMarker(body: string | null | undefined, skill: string): boolean {
  return (body ?? '').includes(parkMarker(skill));
}
