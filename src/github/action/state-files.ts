/**
 * The state branch's file formats (pure): `state/<skill>/results.tsv`, `state/<skill>/last-run.json`,
 * `state/<skill>/uplift-without.json` (the draw without the skill, core/iterate/uplift-record.ts) and
 * `state/<skill>/baseline-draws.json` (the baseline's draws, core/iterate/baseline-draws-record.ts).
 */
import { z } from 'zod';
import { RESULTS_HEADER } from '../../core/iterate/results-tsv.js';

export const STATE_DIR = 'state';
/** The orphan branch that keeps the run state between nights, unless the `state-branch` input names another. */
export const DEFAULT_STATE_BRANCH = 'skill-iterate-state';
export const LAST_RUN_FILE = 'last-run.json';
/**
 * `state/not-started.json`: the skills a night budget kept from starting, which the next night runs first
 * (docs/how-it-works.md § Caps and budgets). Absent when there are none.
 */
export const NOT_STARTED_PATH = 'state/not-started.json';

/** The record's skills; anything unreadable is no record (the queue keeps its usual order). */
export function parseNotStarted(text: string): string[] {
  try {
    const parsed = z.object({ not_started: z.array(z.string()) }).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.not_started : [];
  } catch {
    return [];
  }
}

export function formatNotStarted(skills: readonly string[]): string {
  return `${JSON.stringify({ not_started: skills }, null, 2)}\n`;
}

export const LastRunRecordSchema = z
  .object({
    skill: z.string(),
    /** ISO 8601: the freshness filter reads this instead of a checkout mtime. */
    last_run_at: z.iso.datetime({ offset: true }),
    final_score: z.number().nullable(),
    baseline_score: z.number().nullable().optional(),
    status: z.string().optional(),
    link: z.string().optional(),
    iterations: z.number().int().optional(),
    run_id: z.string().optional(),
    run_url: z.string().optional(),
    /** The ship gate's re-measured final, when it ran (the dashboard's "last confirmed composite"). */
    confirmed_score: z.number().nullable().optional(),
    /** Pass rate with the skill minus without it, when the night measured it. */
    uplift: z.object({ value: z.number(), measurable: z.boolean() }).optional(),
    /** The night's eval-quality findings: assertion ids per kind (docs/how-it-works.md § The dashboard issue). */
    findings: z
      .array(
        z.object({ kind: z.enum(['not discriminating', 'flaky', 'never passing']), assertion: z.number() }),
      )
      .optional(),
  })
  .loose();
export type LastRunRecord = z.infer<typeof LastRunRecordSchema>;

/** How the Action's shipper begins the reason of a ship whose push failed (src/github/action/shipper.ts). */
export const PUSH_FAILED = 'push of ';

/**
 * Whether a recorded status is a ship whose push failed: such a night does not make the skill fresh, so
 * the next night runs it again and ships it.
 */
export function isPendingShipStatus(status: string | undefined): boolean {
  return status?.startsWith(`skipped (${PUSH_FAILED}`) === true;
}

/** `state/<skill>/<file>` → [skill, file], or undefined for anything else on the branch. */
export function parseStatePath(filePath: string): [string, string] | undefined {
  const match = /^state\/([^/]+)\/([^/]+)$/.exec(filePath);
  return match?.[1] && match[2] ? [match[1], match[2]] : undefined;
}

export function parseLastRun(text: string): LastRunRecord | undefined {
  try {
    const parsed = LastRunRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function formatLastRun(record: LastRunRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

const rowLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/**
 * Row-level union of two `results.tsv` texts: `primary`'s rows in order, then `other`'s rows it lacks. Rows
 * are append-only and carry a commit and timings, so equal lines are the same row; nothing recorded is lost.
 */
export function mergeResultsTsv(primary: string, other: string): string {
  if (!other.trim()) return primary;
  if (!primary.trim() || other.startsWith(primary)) return other;
  if (primary.startsWith(other)) return primary;
  const lines = rowLines(primary);
  const seen = new Set(lines);
  for (const line of rowLines(other)) {
    if (line === RESULTS_HEADER || seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}
