/**
 * When runIterate fails after it has processed skills, the caller still needs what was done (the Action's
 * job summary, outputs and state save): the partial RunResult travels on the error.
 */
import type { RunResult } from '../core/iterate/run-result.js';

const PARTIAL_RUN = Symbol.for('skillclimb.partialRun');

/** Attaches the partial run to the error it is about to rethrow; returns the same error. */
export function withPartialRun<E>(error: E, run: RunResult): E {
  if (typeof error === 'object' && error !== null) {
    Object.defineProperty(error, PARTIAL_RUN, { value: run, enumerable: false, configurable: true });
  }
  return error;
}

/** The partial RunResult attached by runIterate, if any. */
export function partialRunOf(error: unknown): RunResult | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as Record<symbol, RunResult | undefined>)[PARTIAL_RUN];
}
