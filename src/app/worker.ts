/**
 * What the App does with each event (docs/how-it-works.md § The App). `intake` is the only part that runs
 * inside a webhook handler: it records and enqueues, without any API call (only the shared state's
 * look-ups and the event job's add). The handlers the event job runs — on-command.ts, on-pull-request.ts —
 * and the loop turn they start (loop-turn.ts) do everything else after the delivery was answered; with
 * Redis on whichever replica takes the job, and again on another when that one dies.
 */
import { pullKey, repoOf } from '../github/review/app-octokit.js';
import type { EventJob } from './coordination/event-jobs.js';
import { eventJobName } from './coordination/event-jobs.js';
import { runLoopJob } from './loop-turn.js';
import { onCommand } from './on-command.js';
import { onClosed, onPush, onRerequest } from './on-pull-request.js';
import type { AppEvent } from './validation/event.js';
import type { EventTools, WorkerDeps } from './worker-context.js';
import { WorkerContext } from './worker-context.js';
import type { WorkQueue } from './work-queue.js';

export type { EventLog, EventTools, WorkerDeps } from './worker-context.js';

export class ReviewLoopWorker {
  readonly #ctx: WorkerContext;

  constructor(deps: WorkerDeps) {
    this.#ctx = new WorkerContext(deps);
  }

  /** Starts running loop jobs (and resumes the ones a restart interrupted) and event jobs. */
  start(): void {
    this.#ctx.deps.queue.start(
      (job, run) => runLoopJob(this.#ctx, job, run),
      (job, run) => this.runEvent(job, { rerun: run.rerun, tools: run.local as EventTools | undefined }),
    );
  }

  /**
   * Runs an event job: with the delivery's tools in the process that took it (no Redis), else with a
   * client built from its installation. `rerun`: the replica that ran it first died, so the handler looks
   * at how far that run got before doing anything (on-command.ts, on-pull-request.ts).
   */
  async runEvent(job: EventJob, run: { rerun: boolean; tools?: EventTools | undefined }): Promise<void> {
    const ctx = this.#ctx;
    const { event } = job;
    const tools =
      run.tools ??
      (await ctx.deps.toolsFor(
        job.installationId,
        repoOf(event.kind === 'rerequest' ? event.repo : event.pr),
      ));
    if (run.rerun) tools.log.info(`${eventJobName(event)}: taken over from a replica that stopped`);
    switch (event.kind) {
      case 'command':
        return onCommand(ctx, event, tools, { rerun: run.rerun });
      case 'push':
        return onPush(ctx, event, tools, { rerun: run.rerun });
      case 'closed':
        return onClosed(ctx, event, tools, { rerun: run.rerun });
      case 'rerequest':
        return onRerequest(ctx, event, tools, { rerun: run.rerun });
    }
  }

  /**
   * Runs inside the webhook handler: no GitHub or model call, only the shared state's look-ups (memory,
   * or one Redis round-trip each), so the delivery is answered at once — or, when Redis does not answer,
   * the error reaches Probot, which answers 5xx (GitHub records the delivery as failed).
   */
  async intake(event: AppEvent, tools: EventTools): Promise<void> {
    const ctx = this.#ctx;
    const { queue } = ctx.deps;
    switch (event.kind) {
      case 'command': {
        if (await queue.seenBefore(`comment:${event.commentId}`)) {
          tools.log.info(`comment ${event.commentId} was already handled (redelivery); ignored`);
          return;
        }
        // No claim here: only a command from a permitted user may claim the PR's loop (on-command.ts).
        await enqueueOrForget(
          queue,
          `comment:${event.commentId}`,
          { installationId: tools.installationId, event },
          tools,
        );
        return;
      }
      case 'push': {
        const key = pullKey(event.pr);
        // The running loop reviews a newer head in its next round; once it ends, the push is looked at.
        if (await queue.isClaimed(key)) await ctx.deferPush(event, tools);
        else await queue.enqueue({ installationId: tools.installationId, event }, tools);
        return;
      }
      case 'closed': {
        const key = pullKey(event.pr);
        if (await queue.abort(key, 'the pull request was closed', 'closed')) return;
        await queue.enqueue({ installationId: tools.installationId, event }, tools);
        return;
      }
      case 'rerequest':
        if (await queue.seenBefore(`delivery:${event.delivery}`)) return;
        await enqueueOrForget(
          queue,
          `delivery:${event.delivery}`,
          { installationId: tools.installationId, event },
          tools,
        );
        return;
    }
  }
}

/**
 * Queues the job; when that fails (Redis went away between the two round-trips) the id is forgotten
 * again, so the redelivery GitHub can make of the failed delivery is not taken for a copy.
 */
async function enqueueOrForget(
  queue: WorkQueue,
  seen: string,
  job: EventJob,
  tools: EventTools,
): Promise<void> {
  try {
    await queue.enqueue(job, tools);
  } catch (error) {
    await queue.forget(seen).catch(() => undefined);
    throw error;
  }
}
