/**
 * Step G (docs/how-it-works.md § One iteration (steps A–H)): the results.tsv row of a judged attempt —
 * the baseline or an iteration — goes to disk, then the ledger takes the attempt, then the progress line.
 * The row is on disk before any git side effect of its outcome.
 */
import type { IterationRecord } from '../../core/iterate/hill-climb.js';
import { formatIterationLine } from '../../core/iterate/progress.js';
import { withModeMarker } from '../../core/iterate/results-tsv.js';
import type { ResultsRow } from '../../core/iterate/run-result.js';
import { addUsage } from '../../core/usage.js';
import { appendResultsRow } from '../results-file.js';
import type { LoopContext } from './context.js';

export function rowOf(
  commit: string,
  score: number | null,
  status: ResultsRow['status'],
  description: string,
  wallSeconds: number,
): ResultsRow {
  return { commit, score, status, description, wallSeconds };
}

export function secondsBetween(a: Date, b: Date): number {
  return (b.getTime() - a.getTime()) / 1000;
}

/**
 * Records one judged attempt. The row's description carries the mode marker (results-tsv.ts
 * withModeMarker); `reason` is what the terminal line says about a revert or a crash.
 */
export async function recordAttempt(
  loop: LoopContext,
  record: IterationRecord,
  iteration: number,
  delta: number | null,
  reason?: string,
): Promise<void> {
  const { input, ledger } = loop;
  // The spend counts even when the row cannot be written (the caller keeps it through onUsage).
  input.onUsage?.(addUsage(ledger.state.usage, record.usage));
  const marked: IterationRecord = {
    ...record,
    row: { ...record.row, description: withModeMarker(record.row.description, input.options.mode) },
  };
  await appendResultsRow(input.resultsFile, marked.row, input.secrets);
  ledger.recorded(marked);
  const { row } = marked;
  input.log.progress(
    formatIterationLine({
      skill: input.skill,
      iteration,
      outcome: row.status,
      score: row.score,
      delta,
      seconds: row.wallSeconds,
      usage: record.usage,
      ...(reason === undefined ? {} : { reason }),
      ...(input.nameWidth === undefined ? {} : { width: input.nameWidth }),
    }),
  );
}
