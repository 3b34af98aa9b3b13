// CONTRACT STUB — owned by the results/summary helper.
import type { RunResult } from '../iterate/ports.js';

/** The Phase 4 morning summary as Markdown (pure). */
export function renderMorningSummary(_run: RunResult): string {
  throw new Error('not implemented');
}
