/**
 * A delivery's work as a job (docs/how-it-works.md § The App, "Shared state and takeover"): the event the
 * webhook handler made (plain JSON: ids, strings, numbers — no class instance, Date or function) and the
 * installation it came from, enough for any replica to build the installation's client and run the
 * event's handler. Two queues, one interface: this process (no `REDIS_URL`: the handler runs after the
 * current turn with the delivery's own client, as a task) and BullMQ on Redis (the job survives the
 * replica that took the delivery: another one re-runs it once its lock expires).
 */
import type { AppEvent } from '../validation/event.js';
import type { BullLoopJobsOptions } from './bull-jobs.js';
import { BullJobs } from './bull-jobs.js';
import type { JobRun, QueueLog } from './loop-jobs.js';
import { within } from './loop-jobs.js';

export interface EventJob {
  installationId: number;
  event: AppEvent;
}

/** How an event job is run: `local` is what the delivery's process handed along (never serialised). */
export interface EventRun<L> extends JobRun {
  local: L | undefined;
}

export type EventProcessor<L> = (job: EventJob, run: EventRun<L>) => Promise<void>;

export interface EventJobs<L> {
  /** Queues the job (one Redis round-trip with Redis); `local` goes with it only in this process. */
  add(job: EventJob, local?: L): Promise<void>;
  start(process: EventProcessor<L>): void;
  /** Resolves when no event job of this queue is running or waiting. */
  idle(): Promise<void>;
  close(ms: number): Promise<boolean>;
  /** Drops the connections without finishing anything (a killed replica); in memory, nothing to drop. */
  abandon(): Promise<void>;
}

/** A short name for an event job, for log lines and job ids. */
export function eventJobName(event: AppEvent): string {
  switch (event.kind) {
    case 'command':
      return `command ${event.commentId} on ${event.pr.owner}/${event.pr.repo}#${event.pr.number}`;
    case 'push':
      return `push of ${event.headSha.slice(0, 7)} on ${event.pr.owner}/${event.pr.repo}#${event.pr.number}`;
    case 'closed':
      return `close of ${event.pr.owner}/${event.pr.repo}#${event.pr.number}`;
    case 'rerequest':
      return `re-run of check ${event.checkRunId}`;
  }
}

/** In this process: each job runs after the current turn (so after the webhook is answered), as today. */
export class MemoryEventJobs<L> implements EventJobs<L> {
  readonly #log: QueueLog;
  readonly #pending = new Set<Promise<void>>();
  readonly #early: Array<{ job: EventJob; local: L | undefined }> = [];
  #process: EventProcessor<L> | undefined;

  constructor(options: { log: QueueLog }) {
    this.#log = options.log;
  }

  async add(job: EventJob, local?: L): Promise<void> {
    if (this.#process) this.#run(this.#process, job, local);
    else this.#early.push({ job, local });
  }

  start(process: EventProcessor<L>): void {
    this.#process = process;
    for (const { job, local } of this.#early.splice(0)) this.#run(process, job, local);
  }

  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async close(ms: number): Promise<boolean> {
    return within(ms, this.idle());
  }

  async abandon(): Promise<void> {}

  #run(process: EventProcessor<L>, job: EventJob, local: L | undefined): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => process(job, { rerun: false, local }))
      .catch((error: unknown) => this.#log.error(`${eventJobName(job.event)} failed`, error));
    this.#pending.add(run);
    void run.finally(() => this.#pending.delete(run));
  }
}

/**
 * On the BullMQ queue beside the loop queue: the job's id is the delivery's, so copies of one delivery
 * queue one job; attempts 1, since a handler that failed answered on the PR (a re-run comes only from a
 * replica's death, through BullMQ's stalled-job check).
 */
export class BullEventJobs<L> extends BullJobs<EventJob> implements EventJobs<L> {
  constructor(options: BullLoopJobsOptions & { queueName: string }) {
    super({
      ...options,
      jobName: 'event',
      jobId: (job) => `${job.event.kind}.${job.event.delivery}`,
      what: 'the event queue',
    });
  }

  override async add(job: EventJob): Promise<void> {
    await super.add(job);
  }

  override start(process: EventProcessor<L>): void {
    super.start((job, run) => process(job, { ...run, local: undefined }));
  }
}
