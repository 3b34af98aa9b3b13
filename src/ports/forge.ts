/** Files defect-park reports: a GitHub issue (Action, App) or a local markdown file (CLI). */
import type { ParkReport } from '../core/iterate/park.js';

export interface ParkOutcome {
  /** Issue URL or local file path. */
  location: string;
  via: 'issue' | 'file';
}

export interface Forge {
  park(report: ParkReport): Promise<ParkOutcome>;
}
