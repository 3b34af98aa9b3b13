// CONTRACT STUB — owned by the results/summary helper.
import type { ResultsRow } from '../iterate/ports.js';

export const RESULTS_HEADER = 'commit\tscore\tstatus\tdescription\twall_seconds';

/** One line, no trailing newline: score with 6 decimals or NULL, wall with 3, tabs/newlines → spaces. */
export function formatResultsRow(_row: ResultsRow): string {
  throw new Error('not implemented');
}

export function parseResultsTsv(_text: string): ResultsRow[] {
  throw new Error('not implemented');
}
