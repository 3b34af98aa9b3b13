/**
 * Jobs on a BullMQ queue in Redis (`REDIS_URL`), used twice: the loop jobs and the event jobs (a
 * delivery's work). Every replica runs a Worker with the App's concurrency; BullMQ's job lock (renewed
 * while the job runs) and stalled-job check re-queue a job whose replica died, and another replica runs
 * it as a re-run (docs/how-it-works.md § The App, "Shared state and takeover").
 */
import { DelayedError, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobProcessor, JobRun, LoopJob, LoopJobs, QueueLog } from './loop-jobs.js';
import { within } from './loop-jobs.js';

export interface BullLoopJobsOptions {
  url: string;
  concurrency: number;
  log: QueueLog;
  /** How long a dead replica's job stays locked before another may take it over. */
  lockDurationMs?: number;
  /** How often each replica looks for jobs whose lock expired. */
  stalledIntervalMs?: number;
  /** The queue's name (one per App on a shared Redis). */
  queueName?: string;
  /** BullMQ's key prefix. */
  prefix?: string;
}

/** What a typed queue needs beyond the connection: its job's name and id, and what its errors are called. */
export interface BullJobsOptions<T> extends BullLoopJobsOptions {
  queueName: string;
  jobName: string;
  /** The job's id: adding a job whose id is queued or running already adds nothing. */
  jobId(data: T): string;
  /** What the queue is, as its problems are logged ("the loop queue"). */
  what: string;
}

export class BullJobs<T> {
  readonly #options: BullJobsOptions<T>;
  readonly #queue: Queue<T>;
  readonly #producer: Redis;
  #worker: Worker<T> | undefined;
  #workerConnection: Redis | undefined;
  readonly #local = new Set<Promise<void>>();
  #closing = false;

  constructor(options: BullJobsOptions<T>) {
    this.#options = options;
    // Adding a job fails fast when Redis does not answer: the webhook gets a 5xx, not a long wait.
    this.#producer = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      commandTimeout: 2_000,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    });
    this.#producer.on('error', () => undefined);
    this.#queue = new Queue<T>(options.queueName, {
      connection: this.#producer,
      prefix: options.prefix ?? 'skillclimb-bull',
    });
    this.#queue.on('error', () => undefined);
  }

  async add(job: T): Promise<void> {
    // BullMQ refuses a custom id with a colon.
    const jobId = this.#options.jobId(job).replaceAll(':', '_');
    await (this.#queue as Queue).add(this.#options.jobName, job, {
      jobId,
      removeOnComplete: true,
      removeOnFail: 1000,
      attempts: 1,
    });
  }

  start(process: (job: T, run: JobRun) => Promise<void>): void {
    // BullMQ's blocking connection waits for Redis as long as it takes (it must not give up on commands).
    this.#workerConnection = new Redis(this.#options.url, {
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    });
    this.#workerConnection.on('error', () => undefined);
    this.#worker = new Worker<T>(
      this.#options.queueName,
      async (job, token) => {
        if (this.#closing) {
          // Fetched while this replica shuts down (its own loop handed on, say): back to the queue, for
          // another replica or this one's next start, not failed.
          await job.moveToDelayed(Date.now() + 100, token);
          throw new DelayedError();
        }
        const rerun = job.attemptsStarted > 1 || job.stalledCounter > 0;
        const run = process(job.data, { rerun });
        this.#local.add(run);
        try {
          await run;
        } finally {
          this.#local.delete(run);
        }
      },
      {
        connection: this.#workerConnection,
        prefix: this.#options.prefix ?? 'skillclimb-bull',
        concurrency: Math.max(1, this.#options.concurrency),
        lockDuration: this.#options.lockDurationMs ?? 30_000,
        stalledInterval: this.#options.stalledIntervalMs ?? 30_000,
        // A job is re-queued each time its replica dies; the loop itself decides whether to go on.
        maxStalledCount: 10,
      },
    );
    let lastProblem = '';
    this.#worker.on('error', (error) => {
      // Said once per kind of problem (a Redis outage repeats its error every reconnection attempt).
      if (error.message === lastProblem) return;
      lastProblem = error.message;
      this.#options.log.error(`${this.#options.what} reported a problem`, error);
    });
  }

  async counts(): Promise<{ running: number; waiting: number }> {
    const counts = await this.#queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
    return {
      running: counts.active ?? 0,
      waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
    };
  }

  async idle(): Promise<void> {
    for (;;) {
      while (this.#local.size > 0) await Promise.allSettled([...this.#local]);
      try {
        const { running, waiting } = await this.counts();
        if (running + waiting === 0 && this.#local.size === 0) return;
      } catch {
        // Redis is away: wait for it as the worker does.
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async close(ms: number): Promise<boolean> {
    this.#closing = true;
    // The worker takes no new job from now on and waits for its running ones (already asked to stop).
    const done = await within(ms, this.#worker?.close() ?? Promise.resolve());
    await within(2_000, this.#queue.close());
    this.#workerConnection?.disconnect();
    this.#producer.disconnect();
    return done;
  }

  /** Drops every connection at once, without finishing or saving anything: what a killed replica leaves. */
  async abandon(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#workerConnection?.disconnect();
    this.#producer.disconnect();
    await within(1_000, worker?.close(true) ?? Promise.resolve());
    this.#local.clear();
  }
}

/** The loop jobs: one id per claim and hand-off, so a job queued twice runs once. */
export class BullLoopJobs extends BullJobs<LoopJob> implements LoopJobs {
  constructor(options: BullLoopJobsOptions) {
    super({
      ...options,
      queueName: options.queueName ?? 'review-loop',
      jobName: 'loop',
      jobId: (job) => `${job.token}.${job.handoffs}`,
      what: 'the loop queue',
    });
  }

  override start(process: JobProcessor): void {
    super.start(process);
  }
}
