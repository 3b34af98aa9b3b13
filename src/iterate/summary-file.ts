// CONTRACT STUB — owned by the results/summary helper.
import type { RunResult } from './ports.js';

/** Writes docs/skill-iterate-runs/YYYY-MM-DD[b-z].md under the project; returns the path written. */
export async function writeMorningSummary(_project: string, _run: RunResult): Promise<string> {
  throw new Error('not implemented');
}
