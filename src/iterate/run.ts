// CONTRACT STUB — owned by the loop/orchestrator helper.
import type { IterateOptions, IteratePorts, RunResult } from './ports.js';

/** Phases 0–4 of skill-iterate for a non-dry run. Throws PreflightHalt for pre-flight halts. */
export async function runIterate(_options: IterateOptions, _ports: IteratePorts): Promise<RunResult> {
  throw new Error('not implemented');
}
