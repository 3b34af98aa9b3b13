/**
 * A PR's loop as a serialisable job (docs/how-it-works.md § The App, "Shared state and takeover"): the
 * installation, the pull request, the run's settings and id, the trigger and the claim's token — enough
 * for any replica to build the installation's client and run the loop from the PR's sticky state. Two
 * queues, one interface: in this process (no `REDIS_URL`; the running and waiting loops are also
 * recorded in a file of the data directory so a restart resumes them) and BullMQ on Redis (the queue
 * itself holds them; a job whose replica died is re-run by another once its lock expires).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STALE_AFTER_MS } from '../../core/review/state.js';
import type { PullInfo } from '../../github/review/pull-info.js';
import type { AppLoopState, LoopSettings } from '../../github/review/loop-state.js';
import type { LoopTrigger } from '../loop-runner.js';

export interface LoopJob {
  installationId: number;
  pr: PullInfo;
  settings: LoopSettings;
  runId: string;
  trigger: LoopTrigger;
  /** The token of the PR's claim: the job renews it while it runs, and takes it back when re-run. */
  token: string;
  /** How many times the loop was handed on (a shutdown mid-round); part of the job's id. */
  handoffs: number;
  /** When the loop was queued (ISO time): a record older than the stale limit is not resumed. */
  queuedAt: string;
  /** The sticky state as the loop's start wrote it; a re-run reads the PR's current one instead. */
  state?: AppLoopState | undefined;
}

/** How a job is being run: `rerun` when it ran before (a replica died, a restart resumed it). */
export interface JobRun {
  rerun: boolean;
}

export type JobProcessor = (job: LoopJob, run: JobRun) => Promise<void>;

export interface LoopJobs {
  add(job: LoopJob): Promise<void>;
  /** Starts running jobs (and, after a restart, the ones recorded as running or waiting). */
  start(process: JobProcessor): void;
  counts(): Promise<{ running: number; waiting: number }>;
  /** Resolves when no job of this queue is running or waiting. */
  idle(): Promise<void>;
  /** Stops taking jobs; waits up to `ms` for the running ones (already asked to stop). */
  close(ms: number): Promise<boolean>;
}

export interface QueueLog {
  info(message: string): void;
  error(message: string, error: unknown): void;
}

/** Waits up to `ms` for `work`; false when time ran out. */
export async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([work.then(() => true as const), timeout]);
  clearTimeout(timer);
  return done;
}

const RECORD_FILE = 'running-loops.json';

/** The loops of this process: at most `concurrency` at once, the rest in arrival order. */
export class MemoryLoopJobs implements LoopJobs {
  readonly #concurrency: number;
  readonly #log: QueueLog;
  readonly #dataDir: string | undefined;
  readonly #waiting: Array<{ job: LoopJob; rerun: boolean }> = [];
  readonly #running = new Map<string, LoopJob>();
  readonly #pending = new Set<Promise<void>>();
  #process: JobProcessor | undefined;
  #closed = false;
  #recordFailed = false;

  /** `dataDir`: where the record of running and waiting loops is kept (none: not recorded). */
  constructor(options: { concurrency: number; log: QueueLog; dataDir?: string | undefined }) {
    this.#concurrency = Math.max(1, options.concurrency);
    this.#log = options.log;
    this.#dataDir = options.dataDir;
  }

  async add(job: LoopJob): Promise<void> {
    this.#waiting.push({ job, rerun: false });
    this.#record();
    this.#pump();
  }

  start(process: JobProcessor): void {
    this.#process = process;
    for (const job of this.#recorded()) {
      this.#log.info(
        `resuming the loop on ${job.pr.pr.owner}/${job.pr.pr.repo}#${job.pr.pr.number} that was running before the restart`,
      );
      this.#waiting.push({ job: { ...job, state: undefined }, rerun: true });
    }
    this.#pump();
  }

  async counts(): Promise<{ running: number; waiting: number }> {
    return { running: this.#running.size, waiting: this.#waiting.length };
  }

  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async close(ms: number): Promise<boolean> {
    this.#closed = true;
    return within(ms, this.idle());
  }

  #pump(): void {
    const process = this.#process;
    if (!process || this.#closed) return;
    while (this.#running.size < this.#concurrency && this.#waiting.length > 0) {
      const { job, rerun } = this.#waiting.shift()!;
      const id = `${job.token}.${job.handoffs}`;
      this.#running.set(id, job);
      // After the current turn: the webhook that queued it is answered first.
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => process(job, { rerun }))
        .catch((error: unknown) => this.#log.error(`loop job ${id} failed`, error))
        .finally(() => {
          this.#running.delete(id);
          this.#pending.delete(run);
          // A loop a shutdown interrupted was handed on as a waiting job, which stays recorded.
          this.#record();
          this.#pump();
        });
      this.#pending.add(run);
    }
  }

  #file(): string | undefined {
    return this.#dataDir === undefined ? undefined : join(this.#dataDir, RECORD_FILE);
  }

  /** Written at every change: the running loops and the waiting ones, each as its job. */
  #record(): void {
    const file = this.#file();
    if (!file) return;
    try {
      mkdirSync(this.#dataDir!, { recursive: true });
      const jobs = [...this.#running.values(), ...this.#waiting.map((w) => w.job)].map((job) => ({
        ...job,
        state: undefined,
      }));
      writeFileSync(`${file}.tmp`, `${JSON.stringify({ version: 1, jobs }, null, 1)}\n`);
      renameSync(`${file}.tmp`, file);
      this.#recordFailed = false;
    } catch (error) {
      // Said once per run of failures (a read-only folder fails at every change).
      if (!this.#recordFailed) {
        this.#log.error(
          `could not record the running loops in ${file} (set DATA_DIR to a writable folder; a restart will not resume them)`,
          error,
        );
      }
      this.#recordFailed = true;
    }
  }

  /** The loops recorded by the previous process, younger than the stale limit. */
  #recorded(): LoopJob[] {
    const file = this.#file();
    if (!file) return [];
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = JSON.parse(text) as { version?: number; jobs?: LoopJob[] };
      if (parsed.version !== 1 || !Array.isArray(parsed.jobs)) throw new Error('not a version 1 record');
      const now = Date.now();
      // One job per claim: the last one recorded (a hand-off follows the job it continues).
      const byToken = new Map(parsed.jobs.map((job) => [job.token, job]));
      return [...byToken.values()].filter((job) => now - Date.parse(job.queuedAt) < STALE_AFTER_MS);
    } catch (error) {
      this.#log.error(`ignored ${file}: it is not the App's record of running loops`, error);
      return [];
    }
  }
}
