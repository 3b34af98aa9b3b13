/**
 * The ports the skill-iterate engine is wired with. The CLI wires the local adapters
 * (src/adapters/local/ports.ts); the GitHub Action wires GitHub-backed ones (PRs instead of a local
 * squash-merge, issues instead of park files, a kill-switch read through the API, run state on a branch).
 */
import type { QueuePlan } from '../core/iterate/queue-plan.js';
import type { RunResult, SkillResult } from '../core/iterate/run-result.js';
import type { Clock } from './clock.js';
import type { Forge } from './forge.js';
import type { Freshness } from './freshness.js';
import type { GitWorkspace } from './git.js';
import type { KillSwitch } from './kill-switch.js';
import type { Leftovers } from './leftovers.js';
import type { RunLock } from './lock.js';
import type { Logger } from './logger.js';
import type { NotStartedRecord } from './not-started.js';
import type { SkillModels } from './models.js';
import type { Shipper } from './shipper.js';
import type { RecordFiles } from './night-records.js';

/** What the pre-flight and the queue need: the plan of a run (docs/how-it-works.md § Pre-flight). */
export interface PlanPorts {
  log: Logger;
  now: Clock;
  killSwitch: KillSwitch;
  freshness: Freshness;
  /**
   * The skills a night budget left unstarted, run first by the next night (docs/how-it-works.md § Caps and
   * budgets). Without it nothing is carried from one night to the next.
   */
  notStarted?: NotStartedRecord;
  lock: RunLock;
  git: Pick<GitWorkspace, 'orphanWorktrees' | 'repositoryRoot' | 'ignoredPaths'>;
  /** What an interrupted earlier run left (the CLI's local ship); cleaned before anything is decided. */
  leftovers?: Leftovers;
}

/**
 * A run's progress as it happens, for a front-end that reports it (the Action's log groups and state saves),
 * modelled on the review engine's events (src/ports/review.ts).
 */
export type IterateEvent =
  /** After the pre-flight: the queue the run will drain, with every skill left out and why. */
  | { type: 'plan-ready'; plan: QueuePlan }
  /** Queue entry `index` starts: the kill-switch and the budget let it. */
  | { type: 'skill-started'; index: number; skill: string }
  /** Queue entry `index` is done, with its result (a stop during a skill ends the run without this event). */
  | { type: 'skill-finished'; index: number; skill: string; result: SkillResult }
  /**
   * The run is over, stopped early or not: what it did, as it returns it (or attaches to the error it
   * rejects with), after the morning summary was written (an empty queue writes none). A pre-flight halt
   * comes before any event.
   */
  | { type: 'run-finished'; run: RunResult };

/** Optional progress hooks; the engine awaits each before it goes on. */
export interface IterateEvents {
  emit(event: IterateEvent): void | Promise<void>;
}

export interface IteratePorts extends PlanPorts {
  models: SkillModels;
  shipper: Shipper;
  forge: Forge;
  git: GitWorkspace;
  /**
   * Stops the run (a front-end's SIGINT, a caller's deadline): the model calls in flight are aborted, the
   * skill in progress is recorded as interrupted, the partial summary is written, the lock released, and
   * the run rejects with RunInterrupted.
   */
  signal?: AbortSignal;
  /**
   * The exact secrets in use (model keys, tokens), from the front-end's environment: results.tsv rows and
   * the morning summary are redacted with them, not by token shape alone (docs/how-it-works.md § Untrusted
   * text and secrets). The engine never reads the environment itself.
   */
  secrets?: readonly string[];
  events?: IterateEvents;
  /**
   * The draw without the skill kept from one night to the next (docs/how-it-works.md § Decisions under
   * noise, "Uplift"). Without it every night draws it again.
   */
  upliftRecords?: RecordFiles;
  /**
   * The baseline's extra draws kept from one night to the next (docs/how-it-works.md § Baseline). Without
   * it every night draws them again.
   */
  baselineDraws?: RecordFiles;
}
