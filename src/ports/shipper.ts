/** Lands a SHIP decision: the local squash-merge (CLI) or one squashed commit on a PR branch (Action). */
import type { KeptEdit, ResultsRow, SkillMeasurement } from '../core/iterate/run-result.js';
import type { Usage } from '../core/usage.js';

/** Everything a shipper needs to land (or not) one skill's improvement. */
export interface ShipRequest {
  skill: string;
  /** `<project>`: the checkout the run operates on. */
  project: string;
  /** Path of the skill folder relative to the project, e.g. `.claude/skills/session-wrap`. */
  skillPath: string;
  worktreePath: string;
  /** `skill-iterate/<skill>-<epoch>`: the per-run branch holding one commit per kept edit. */
  branch: string;
  /** The base branch name (e.g. `main`) and the commit the worktree was created from. */
  baseBranch: string;
  baseCommit: string;
  baselineScore: number;
  finalScore: number;
  iterations: number;
  linesBaseline: number;
  linesFinal: number;
  /** `skill-iterate: <skill>: baseline N.NN -> final N.NN over K iterations (lines_delta=<+/-N>)`. */
  message: string;
  keptEdits: KeptEdit[];
  rows: ResultsRow[];
  usage: Usage;
  /**
   * Noise, confirmation (with the evidence table and the holdout) and eval-quality findings; when a
   * confirmation ran, `baselineScore` and `finalScore` are its confirmed means.
   */
  measurement?: SkillMeasurement | undefined;
}

export type ShipOutcome =
  | { status: 'shipped'; commit: string; link: string | undefined; detail?: string }
  | { status: 'skipped'; reason: string; keepWorktree: boolean };

/** Lands a SHIP decision: local squash-merge (CLI) or one squashed commit on a PR branch (Action). */
export interface Shipper {
  ship(request: ShipRequest): Promise<ShipOutcome>;
}
