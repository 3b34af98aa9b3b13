/**
 * The ports through which skill-iterate talks to the outside. The CLI wires the local implementations;
 * the GitHub Action wires GitHub-backed ones (PRs instead of a local squash-merge, issues instead of park
 * files, a kill-switch read through the API, run state kept on a state branch).
 */
import type { Usage, SkillModels } from '../llm/port.js';
import type { ScoreMode } from '../core/score-types.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** One line per iteration and per skill; silenced by --quiet. */
  progress(message: string): void;
}

export interface KeptEdit {
  iteration: number;
  commit: string;
  description: string;
  score: number;
  delta: number;
}

/** One parsed row of `results.tsv`. */
export interface ResultsRow {
  commit: string;
  score: number | null;
  status: 'baseline' | 'keep' | 'revert' | 'crash';
  description: string;
  wallSeconds: number;
}

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
}

export type ShipOutcome =
  | { status: 'shipped'; commit: string; link: string | undefined; detail?: string }
  | { status: 'skipped'; reason: string; keepWorktree: boolean };

/** Lands a SHIP decision: local squash-merge (CLI) or one squashed commit on a PR branch (Action). */
export interface Shipper {
  ship(request: ShipRequest): Promise<ShipOutcome>;
}

export interface ParkReport {
  skill: string;
  kind: 'crashes' | 'calibration';
  title: string;
  body: string;
  epoch: number;
}

export interface ParkOutcome {
  /** Issue URL or local file path. */
  location: string;
  via: 'issue' | 'file';
}

/** Files defect-park reports: a local markdown file (CLI) or a GitHub issue (Action). */
export interface Forge {
  park(report: ParkReport): Promise<ParkOutcome>;
}

/** Polled between skills only. Returns a human-readable reason when set, otherwise null. */
export interface KillSwitch {
  check(): Promise<string | null>;
}

/** When a skill last ran: `results.tsv` mtime (CLI) or a recorded time on the state branch (Action). */
export interface Freshness {
  lastRunAt(skill: string): Promise<Date | null>;
}

export interface IterateOptions {
  project: string;
  skill: string | undefined;
  queueFile: string | undefined;
  perSkillBudgetMs: number;
  perSkillIterations: number;
  /** `--skip-list` extension (the embedded list is always added). */
  skipList: string[];
  calibrate: boolean;
  dryRun: boolean;
  mode: ScoreMode;
  /** Concurrent renders/grades across scenarios (default 4). */
  concurrency: number;
  /** Hard per-iteration scoring cap (default 10 minutes). */
  iterationTimeoutMs: number;
  /** Parent folder of `worktree_skill-iterate-*` (default: the home directory; `$RUNNER_TEMP` in the Action). */
  worktreeHome: string;
  /** Stop between iterations once the run's estimated cost reaches this (undefined: no budget). */
  maxCostUsd: number | undefined;
  /**
   * SIGINT/SIGTERM during runIterate: true — the run stops, writes its partial morning summary, releases
   * the lock and rejects with RunInterrupted (exit code 128+signo); false — signals are left to the host.
   * Default (undefined): true unless the process already listens for SIGINT or SIGTERM when the run
   * starts (a host such as the GitHub Action that handles them itself).
   */
  handleSignals?: boolean;
  /**
   * The cross-night-resume window: a skill whose last run is younger than this is left out of the queue.
   * Default (undefined): the seed's 24 hours, which the CLI keeps. A nightly schedule wants less: the last
   * run is recorded when a skill finishes, so tonight's start is under 24 h after last night's finish.
   */
  freshnessWindowMs?: number;
}

export interface IteratePorts {
  models: SkillModels;
  shipper: Shipper;
  forge: Forge;
  killSwitch: KillSwitch;
  freshness: Freshness;
  log: Logger;
  now: () => Date;
  /**
   * Stops the run like a signal does (partial summary, lock released, RunInterrupted): the model calls
   * in flight are aborted and the skill in progress is recorded as interrupted.
   */
  signal?: AbortSignal;
}

export type SkillStatus =
  'shipped' | 'no-improvement' | 'defect-park' | 'calibration-park' | `skipped (${string})`;

/** The seed's SkillResult, one per processed skill (Phase 4). */
export interface SkillResult {
  skill: string;
  baselineScore: number | null;
  finalScore: number | null;
  iterations: number;
  wallSecondsTotal: number;
  status: SkillStatus;
  /** PR/issue URL, squash commit SHA, park file path, or the kept worktree of a skill that was not shipped. */
  link: string | undefined;
  keptEdits: KeptEdit[];
  linesDelta: number | undefined;
  usage: Usage;
  rows: ResultsRow[];
}

export interface Exclusion {
  skill: string;
  reason: string;
}

export interface RunResult {
  startedAt: Date;
  endedAt: Date;
  /** Set when the run stopped early (kill-switch, exception, cost budget). */
  partial: { reason: string; at: Date } | null;
  queue: string[];
  results: SkillResult[];
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; lastRunAt: Date }>;
  /** The cross-night window those exclusions used (the seed's 24 h unless the caller chose another). */
  freshnessWindowMs?: number;
  summaryPath: string | undefined;
  usage: Usage;
  modelsLabel: string;
}
