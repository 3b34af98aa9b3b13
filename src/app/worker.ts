/**
 * What the App does with each event (docs/how-it-works.md § The App). `intake` is the only part that runs
 * inside a webhook handler: it records and enqueues, without any API call (only the shared state's
 * look-ups). The
 * handlers it enqueues — on-command.ts, on-pull-request.ts — and the loop turn they start (loop-turn.ts)
 * do everything else after the delivery was answered.
 */
import { pullKey } from '../github/app-octokit.js';
import { runLoopJob } from './loop-turn.js';
import { onCommand } from './on-command.js';
import { onClosed, onPush, onRerequest } from './on-pull-request.js';
import type { AppEvent } from './validation/event.js';
import type { EventTools, WorkerDeps } from './worker-context.js';
import { WorkerContext } from './worker-context.js';

export type { EventLog, EventTools, WorkerDeps } from './worker-context.js';

export class ReviewLoopWorker {
  readonly #ctx: WorkerContext;

  constructor(deps: WorkerDeps) {
    this.#ctx = new WorkerContext(deps);
    this.#ctx.onDeferredPush = (event, tools) => onPush(this.#ctx, event, tools);
  }

  /** Starts running loop jobs (and resumes the ones a restart interrupted). */
  start(): void {
    this.#ctx.deps.queue.start((job, run) => runLoopJob(this.#ctx, job, run));
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
        const key = pullKey(event.pr);
        if (await queue.seenBefore(`comment:${event.commentId}`)) {
          tools.log.info(`comment ${event.commentId} was already handled (redelivery); ignored`);
          return;
        }
        // No claim here: only a command from a permitted user may claim the PR's loop (on-command.ts).
        queue.task(`command on ${key}`, () => onCommand(ctx, event, tools));
        return;
      }
      case 'push': {
        const key = pullKey(event.pr);
        // The running loop reviews a newer head in its next round; once it ends, the push is looked at.
        if (await queue.isClaimed(key)) await ctx.deferPush(event, tools);
        else queue.task(`push on ${key}`, () => onPush(ctx, event, tools));
        return;
      }
      case 'closed': {
        const key = pullKey(event.pr);
        if (await queue.abort(key, 'the pull request was closed', 'closed')) return;
        queue.task(`close of ${key}`, () => onClosed(ctx, event, tools));
        return;
      }
      case 'rerequest':
        if (await queue.seenBefore(`delivery:${event.delivery}`)) return;
        queue.task(`re-run of check ${event.checkRunId}`, () => onRerequest(ctx, event, tools));
        return;
    }
  }
}
