// CONTRACT STUB — owned by the results/summary helper.
import type { Forge } from './ports.js';

/** Writes docs/skill-iterate-runs/parked-<skill>-<epoch>.md (calibration-broken-<skill>-<epoch>.md). */
export function createLocalForge(_project: string): Forge {
  throw new Error('not implemented');
}
