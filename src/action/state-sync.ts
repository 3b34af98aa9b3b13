/**
 * What the Action writes to the state branch for each skill: the checkout's whole results.tsv, a last-run
 * record (when it ran, the scores, and at the end the status and PR/issue link) and the draw without the
 * skill the night kept (`uplift-without.json`, docs/how-it-works.md § Decisions under noise, "Uplift") and the
 * baseline's draws it kept (`baseline-draws.json`, § Baseline).
 */
import { parseResultsTsv } from '../core/iterate/results-tsv.js';
import type { SkillResult } from '../core/iterate/run-result.js';
import { latestRunRows } from '../github/action/score-chart.js';
import type { LastRunRecord } from '../github/action/state-files.js';
import { resultsTsvPath } from '../core/iterate/skill-layout.js';
import {
  RECORD_FILES,
  readIfExists,
  type StateStore,
  type StateUpdate,
} from '../github/action/state-store.js';

/** Baseline and high-water mark of the latest run in a results.tsv text. */
export function scoresFromResults(text: string): {
  baseline: number | null;
  final: number | null;
  iterations: number;
} {
  const rows = latestRunRows(parseResultsTsv(text));
  let baseline: number | null = null;
  let final: number | null = null;
  for (const row of rows) {
    if (row.status === 'baseline') baseline = final = row.score;
    else if (row.status === 'keep' && row.score !== null) final = row.score;
  }
  return { baseline, final, iterations: Math.max(0, rows.length - 1) };
}

export interface StateSyncContext {
  project: string;
  /** Each skill's folder relative to the project (from the skills setting). */
  dirs: Readonly<Record<string, string>>;
  store: StateStore;
  runId: string | undefined;
  runUrl: string | undefined;
}

/**
 * Updates for the skills whose results.tsv differs from the state branch (mid-run: after each skill), or,
 * with `results`, also for every skill the run reported (the end of the run: status and link).
 */
export async function collectStateUpdates(
  ctx: StateSyncContext,
  skills: readonly string[],
  now: Date,
  results?: readonly SkillResult[],
): Promise<StateUpdate[]> {
  const updates: StateUpdate[] = [];
  for (const skill of new Set([...skills, ...(results ?? []).map((r) => r.skill)])) {
    const dir = ctx.dirs[skill];
    const location = dir === undefined ? undefined : { name: skill, dir };
    const resultsTsv = location && (await readIfExists(resultsTsvPath(ctx.project, location)));
    const recorded = ctx.store.snapshot.skills.get(skill);
    const changed = resultsTsv !== undefined && resultsTsv !== recorded?.resultsTsv;
    // Only a record is carried; the engine replaces anything else in the checkout when it draws again.
    const carried: Record<string, string> = {};
    for (const record of RECORD_FILES) {
      const text = location && (await readIfExists(record.pathIn(ctx.project, location)));
      if (text !== undefined && text !== recorded?.[record.field] && record.isRecord(text))
        carried[record.name] = text;
    }
    const recordsChanged = Object.keys(carried).length > 0;
    const files = recordsChanged ? { files: carried } : {};
    const result = results?.find((r) => r.skill === skill && r.rows.length > 0);
    const link = recordedLink(result?.link);
    const statusChanged =
      result !== undefined && (recorded?.lastRun?.status !== result.status || recorded.lastRun.link !== link);
    if (!changed && !statusChanged) {
      if (recordsChanged) updates.push({ skill, resultsTsv: undefined, lastRun: undefined, ...files });
      continue;
    }
    const fromRows = resultsTsv
      ? scoresFromResults(resultsTsv)
      : { baseline: null, final: null, iterations: 0 };
    // The end-of-run save must not move last_run_at past the time the skill's rows were saved.
    const lastRunAt = changed || !recorded?.lastRun ? now.toISOString() : recorded.lastRun.last_run_at;
    const lastRun: LastRunRecord = {
      skill,
      last_run_at: lastRunAt,
      final_score: result?.finalScore ?? fromRows.final,
      baseline_score: result?.baselineScore ?? fromRows.baseline,
      iterations: result?.iterations ?? fromRows.iterations,
      ...(result ? { status: result.status } : {}),
      ...(link ? { link } : {}),
      ...qualityOf(result),
      ...(ctx.runId ? { run_id: ctx.runId } : {}),
      ...(ctx.runUrl ? { run_url: ctx.runUrl } : {}),
    };
    updates.push({ skill, resultsTsv, lastRun, ...files });
  }
  return updates;
}

/** What the dashboard shows of a skill the next night does not run: confirmed score, uplift, findings. */
function qualityOf(result: SkillResult | undefined): Partial<LastRunRecord> {
  const m = result?.measurement;
  if (!m) return {};
  return {
    ...(m.confirmation ? { confirmed_score: m.confirmation.final } : {}),
    ...(m.uplift ? { uplift: { value: m.uplift.uplift, measurable: m.uplift.measurable } } : {}),
    findings: m.findings.map((f) => ({ kind: f.kind, assertion: f.assertionId })),
  };
}

/**
 * Only a web address is kept: a path (a kept worktree) points into the runner's temporary folder, which is
 * gone when the next night reads the record.
 */
function recordedLink(link: string | undefined): string | undefined {
  return link && /^https?:\/\//.test(link) ? link : undefined;
}
