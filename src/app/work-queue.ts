/**
 * The App's work (docs/how-it-works.md § The App): a webhook handler only records and ENQUEUES — nothing
 * here starts before the current turn of the event loop ends, so the delivery is answered before any API
 * or model call. Loops are claimed per pull request (a second start while one is claimed is answered
 * "already running", never run twice, whichever replica takes the delivery) and run as jobs, at most
 * `concurrency` at once per process; an event's work (replies, reactions, state edits) runs beside them as
 * an event job — in the process that took the delivery by default, on any replica with `REDIS_URL`. The
 * claims, the seen ids and both kinds of job live in the shared state (src/app/coordination/): this
 * process's memory by default, Redis with `REDIS_URL`.
 */
import { randomUUID } from 'node:crypto';
import { messageOf } from '../core/errors.js';
import { pullKey } from '../github/review/app-octokit.js';
import type { EventJob, EventJobs, EventProcessor } from './coordination/event-jobs.js';
import { MemoryEventJobs, eventJobName } from './coordination/event-jobs.js';
import type { JobProcessor, LoopJob, LoopJobs, QueueLog } from './coordination/loop-jobs.js';
import { MemoryLoopJobs, within } from './coordination/loop-jobs.js';
import { MemoryState } from './coordination/memory-state.js';
import type { SharedState } from './coordination/shared-state.js';
import { TTL } from './coordination/shared-state.js';

export type { QueueLog } from './coordination/loop-jobs.js';

/** Why a claimed loop was aborted, so its end is recorded as a stop or a close, not a restart. */
export type EndReason = 'stop' | 'closed' | 'shutdown';

/** A claim's default TTL: a replica that dies holds its PRs this long before another takes them over. */
export const CLAIM_TTL_MS = 30_000;

export interface WorkQueueOptions {
  concurrency: number;
  log: QueueLog;
  shared?: SharedState;
  jobs?: LoopJobs;
  /** The queue of events' work (a delivery's handling): in this process by default. */
  events?: EventJobs<unknown>;
  claimTtlMs?: number;
}

interface RunningLoop {
  token: string;
  controller: AbortController;
}

export class WorkQueue {
  readonly shared: SharedState;
  readonly #jobs: LoopJobs;
  readonly #events: EventJobs<unknown>;
  readonly #log: QueueLog;
  readonly #claimTtlMs: number;
  readonly #pending = new Set<Promise<void>>();
  /** Claims this process holds (taken here, or of a loop running here): renewed until released. */
  readonly #held = new Map<string, string>();
  readonly #running = new Map<string, RunningLoop>();
  readonly #endReasons = new Map<string, EndReason>();
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;
  #closed = false;

  constructor(options: WorkQueueOptions) {
    this.#log = options.log;
    this.shared = options.shared ?? new MemoryState();
    this.#jobs = options.jobs ?? new MemoryLoopJobs({ concurrency: options.concurrency, log: options.log });
    this.#events = options.events ?? new MemoryEventJobs({ log: options.log });
    this.#claimTtlMs = options.claimTtlMs ?? CLAIM_TTL_MS;
  }

  /** Records `id` (a trigger comment, a delivery) and says whether any replica saw it before. */
  seenBefore(id: string): Promise<boolean> {
    return this.shared.mark(`seen:${id}`, TTL.seenMs);
  }

  /** Forgets `id` again (its work could not be queued). */
  forget(id: string): Promise<void> {
    return this.shared.unmark(`seen:${id}`);
  }

  isClaimed(key: string): Promise<boolean> {
    return this.shared.isClaimed(key);
  }

  /** Claims `key`'s loop; its token, or undefined when it is already claimed (a loop runs or is about to). */
  async claim(key: string): Promise<string | undefined> {
    if (this.#closed) return undefined;
    const token = randomUUID();
    if (!(await this.shared.claim(key, token, this.#claimTtlMs))) return undefined;
    // A stop asked of the previous loop that never reached it must not stop this one.
    await this.shared.take(`abort:${key}`);
    this.#held.set(key, token);
    this.#renewSoon();
    return token;
  }

  /**
   * A re-run's claim (its first run's replica died): a claim that replica held expires by its TTL, so the
   * re-run waits for it — up to twice the TTL — rather than take a loop that never started for a running one.
   */
  async claimPatiently(key: string): Promise<string | undefined> {
    const deadline = Date.now() + 2 * this.#claimTtlMs;
    for (;;) {
      const token = await this.claim(key);
      if (token || this.#closed || Date.now() >= deadline) return token;
      await new Promise((resolve) => setTimeout(resolve, Math.max(50, Math.floor(this.#claimTtlMs / 4))));
    }
  }

  async release(key: string, token: string): Promise<void> {
    if (this.#held.get(key) === token) this.#held.delete(key);
    await this.shared.release(key, token);
  }

  /**
   * Asks the loop claimed for `key` to stop (stop, closed PR); false when none is claimed. A loop running
   * here is aborted at once; one on another replica when that replica next renews its claim.
   */
  async abort(key: string, reason: string, end: EndReason): Promise<boolean> {
    const running = this.#running.get(key);
    if (running) {
      this.#endReasons.set(key, end);
      running.controller.abort(new Error(reason));
      return true;
    }
    if (!(await this.shared.isClaimed(key))) return false;
    await this.shared.put(`abort:${key}`, JSON.stringify({ reason, end }), TTL.valueMs);
    return true;
  }

  /** Why `key`'s loop was aborted (once: the value is removed). */
  takeEndReason(key: string): EndReason | undefined {
    const reason = this.#endReasons.get(key);
    this.#endReasons.delete(key);
    return reason;
  }

  /** Runs `work` in the background, after the current turn (so after the webhook is answered). */
  task(name: string, work: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.#log.error(`${name} failed`, error));
    this.#pending.add(run);
    void run.finally(() => this.#pending.delete(run));
  }

  /**
   * Queues an event's work (a command, a push, a close, a re-run request): with Redis a durable job any
   * replica runs, in this process a task with the delivery's `local` tools. One Redis round-trip.
   */
  enqueue(job: EventJob, local?: unknown): Promise<void> {
    return this.#events.add(job, local);
  }

  /** Queues a claimed loop; any replica may run it (the claim's token goes with it). */
  async submit(
    job: Omit<LoopJob, 'handoffs' | 'queuedAt'> & Partial<Pick<LoopJob, 'handoffs'>>,
  ): Promise<void> {
    await this.#jobs.add({ handoffs: 0, queuedAt: new Date().toISOString(), ...job });
  }

  /**
   * Hands an interrupted loop on (a shutdown mid-round): the same claim, queued again, so another replica
   * — or this one after its restart — continues it from the PR's state.
   */
  async handOff(job: LoopJob): Promise<void> {
    await this.#jobs.add({
      ...job,
      handoffs: job.handoffs + 1,
      trigger: { kind: 'continue' },
      state: undefined,
    });
  }

  /**
   * Starts running loop jobs with `work`, which gets an abort signal for the loop. A job runs only while it
   * holds its PR's claim (it takes it back when re-run; when another loop holds it, the job is dropped).
   */
  start(
    work: (job: LoopJob, run: { rerun: boolean; signal: AbortSignal }) => Promise<void>,
    events?: EventProcessor<unknown>,
  ): void {
    if (events) {
      this.#events.start(async (job, run) => {
        try {
          await events(job, run);
        } catch (error) {
          this.#log.error(`${eventJobName(job.event)} failed`, error);
        }
      });
    }
    const process: JobProcessor = async (job, { rerun }) => {
      const key = pullKey(job.pr.pr);
      if (!(await this.shared.claim(key, job.token, this.#claimTtlMs))) {
        this.#log.info(`${key}: another loop holds the claim; this job (${job.runId}) is dropped`);
        return;
      }
      const controller = new AbortController();
      if (this.#closed) controller.abort(new Error('the App is shutting down'));
      this.#held.set(key, job.token);
      this.#running.set(key, { token: job.token, controller });
      this.#renewSoon();
      // A reason left by an abort that came as the previous loop ended belongs to no loop.
      this.#endReasons.delete(key);
      try {
        // A stop or a close asked while the job waited: the loop starts aborted and records it.
        await this.#takeAbort(key, controller).catch(() => undefined);
        await work(job, { rerun, signal: controller.signal });
      } finally {
        if (this.#running.get(key)?.token === job.token) this.#running.delete(key);
      }
    };
    this.#jobs.start(process);
  }

  /** Running loops and waiting jobs (across replicas with Redis), and claimed PRs. */
  async snapshot(): Promise<{ running: number; waiting: number; claimed: number }> {
    const [counts, claimed] = await Promise.all([this.#jobs.counts(), this.shared.claimedCount()]);
    return { ...counts, claimed };
  }

  /** Whether the shared store answers (in memory: always). */
  ping(): Promise<{ ok: boolean; detail: string }> {
    return this.shared.ping();
  }

  /** Resolves when every task and loop started so far (and any they started) has ended. */
  async idle(): Promise<void> {
    for (;;) {
      while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
      // An event may queue a loop, and a loop's end may queue an event (a push that waited for it).
      await this.#events.idle();
      await this.#jobs.idle();
      await this.#events.idle();
      const loops = await this.#jobs.counts().catch(() => ({ running: 0, waiting: 0 }));
      if (this.#pending.size === 0 && loops.running + loops.waiting === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops taking claims and aborts the running loops (they save their state and hand on); waits up to `ms`. */
  async close(ms: number): Promise<boolean> {
    this.#closed = true;
    for (const [key, running] of this.#running) {
      this.#endReasons.set(key, 'shutdown');
      running.controller.abort(new Error('the App is shutting down'));
    }
    // The queue stops taking jobs at once: a loop handed on now waits for the next start, or another replica.
    const [tasks, jobs, events] = await Promise.all([
      within(
        ms,
        (async () => {
          while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
        })(),
      ),
      this.#jobs.close(ms),
      this.#events.close(ms),
    ]);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.shared.close();
    return tasks && jobs && events;
  }

  /** Stops renewing and drops the connections without saving anything, as a killed process would. */
  async abandon(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#held.clear();
    const jobs = this.#jobs as LoopJobs & { abandon?: () => Promise<void> };
    await jobs.abandon?.();
    await this.#events.abandon();
    await this.shared.close();
  }

  async #takeAbort(key: string, controller: AbortController): Promise<void> {
    const asked = await this.shared.take(`abort:${key}`);
    if (!asked) return;
    const { reason, end } = JSON.parse(asked) as { reason: string; end: EndReason };
    this.#endReasons.set(key, end);
    controller.abort(new Error(reason));
  }

  #renewSoon(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.#renew().finally(() => {
          if (this.#held.size > 0) this.#renewSoon();
        });
      },
      Math.max(50, Math.floor(this.#claimTtlMs / 3)),
    );
    this.#timer.unref();
  }

  /** Renews every claim held here; a loop running here is stopped when asked from another replica. */
  async #renew(): Promise<void> {
    if (this.#renewing) return;
    this.#renewing = true;
    try {
      for (const [key, token] of [...this.#held]) {
        const running = this.#running.get(key);
        if (this.#held.get(key) !== token) continue;
        if (!(await this.shared.claim(key, token, this.#claimTtlMs))) {
          this.#held.delete(key);
          if (running?.token === token) {
            running.controller.abort(new Error('another loop took over this pull request'));
          }
          continue;
        }
        // Released while this renewal was under way: the renewal must not bring the claim back.
        if (this.#held.get(key) !== token) {
          await this.shared.release(key, token);
          continue;
        }
        if (running) await this.#takeAbort(key, running.controller);
      }
    } catch (error) {
      // Redis is away: the loops go on, and the claims are renewed again once it answers.
      this.#log.info(`could not renew the loops' claims: ${messageOf(error)}`);
    } finally {
      this.#renewing = false;
    }
  }
}
