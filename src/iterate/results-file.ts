// CONTRACT STUB — owned by the results/summary helper.
import type { ResultsRow } from './ports.js';

/** Appends one whole line (header first when the file is new) in a single write. */
export async function appendResultsRow(_file: string, _row: ResultsRow): Promise<void> {
  throw new Error('not implemented');
}

export async function readResultsRows(_file: string): Promise<ResultsRow[]> {
  throw new Error('not implemented');
}
