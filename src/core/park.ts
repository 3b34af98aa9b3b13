// CONTRACT STUB — owned by the results/summary helper.
import type { ParkReport } from '../iterate/ports.js';

export interface CrashParkInput {
  skill: string;
  crashCount: number;
  /** Descriptions of the last three iterations. */
  lastDescriptions: string[];
  worktreePath: string;
  resultsTsv: string;
  epoch: number;
}

/** The seed's defect-park issue: title `skill-iterate: <skill> parked after N consecutive crashes` + body. */
export function buildCrashParkReport(_input: CrashParkInput): ParkReport {
  throw new Error('not implemented');
}

export interface CalibrationParkInput {
  skill: string;
  catchRate: number;
  /** The whole calibration result, shown in the body as JSON. */
  result: unknown;
  epoch: number;
}

export function buildCalibrationParkReport(_input: CalibrationParkInput): ParkReport {
  throw new Error('not implemented');
}
