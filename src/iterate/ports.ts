/**
 * The engine's own inputs: the options of one run and the ports it is wired with. The CLI wires the local
 * adapters; the GitHub Action wires GitHub-backed ones (PRs instead of a local squash-merge, issues instead
 * of park files, a kill-switch read through the API, run state kept on a state branch).
 */
import type { ScoreMode } from '../core/score-types.js';
import type { Forge } from '../ports/forge.js';
import type { Freshness } from '../ports/freshness.js';
import type { KillSwitch } from '../ports/kill-switch.js';
import type { Logger } from '../ports/logger.js';
import type { SkillModels } from '../ports/models.js';
import type { Shipper } from '../ports/shipper.js';

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
