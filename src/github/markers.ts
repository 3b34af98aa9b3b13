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
  /** The squash commit the Action pushed to `skill-iterate/<skill>`: the branch is the Action's while its tip is this. */
  commit: z.string().optional(),
});
export type PullRequestMarker = z.infer<typeof PullRequestMarkerSchema>;

export function formatPullRequestMarker(marker: PullRequestMarker): string {
  // `--` cannot appear inside an HTML comment; JSON of these fields never produces it except in strings.
  return `${PR_MARKER_PREFIX}${JSON.stringify(marker).replace(/--/g, '-\\u002d')}${MARKER_SUFFIX}`;
}

/**
 * The first line of a body, where the Action writes its markers. Only that line counts: model-written or
 * human text further down could carry a copy of a marker, and must not make a body the Action's.
 */
export function firstLine(body: string | null | undefined): string {
  return (body ?? '').split('\n', 1)[0]?.replace(/\r$/, '').trim() ?? '';
}

/** The marker on the first line of a PR body, or undefined when absent or unreadable (a human edited it away). */
export function parsePullRequestMarker(body: string | null | undefined): PullRequestMarker | undefined {
  const line = firstLine(body);
  if (!line.startsWith(PR_MARKER_PREFIX) || !line.endsWith(MARKER_SUFFIX)) return undefined;
  try {
    const parsed = PullRequestMarkerSchema.safeParse(
      JSON.parse(line.slice(PR_MARKER_PREFIX.length, line.length - MARKER_SUFFIX.length)),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `<!-- skillclimb:park skill=<skill> -->`: one defect-park issue per skill is found by it. */
export function parkMarker(skill: string): string {
  return `<!-- skillclimb:park skill=${skill} -->`;
}

/** Exactly the skill's marker, on the body's first line (where `buildCrashParkReport` puts it). */
export function hasParkMarker(body: string | null | undefined, skill: string): boolean {
  return firstLine(body) === parkMarker(skill);
}

/** `<!-- skillclimb:review-park pr=<n> -->`: the one defect-park issue of a pull request's review loop. */
export function reviewParkMarker(pullNumber: number): string {
  return `<!-- skillclimb:review-park pr=${pullNumber} -->`;
}

/**
 * `<!-- skillclimb:score -->` (with `project=<path>` when the project is not the repository root): the ONE
 * score comment of a pull request, found by it on the next push and edited in place.
 */
export function scoreCommentMarker(project = '.'): string {
  const where = project === '.' || project === '' ? '' : ` project=${project.replace(/--/g, '-\\u002d')}`;
  return `<!-- skillclimb:score${where} -->`;
}

/**
 * `<!-- skillclimb:dashboard … -->`: the one dashboard issue of a repository (docs/how-it-works.md § The
 * dashboard issue); the rest of the line records the standing orders the Action wrote.
 */
export const DASHBOARD_MARKER_PREFIX = '<!-- skillclimb:dashboard';
