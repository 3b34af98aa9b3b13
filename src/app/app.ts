/**
 * The Probot application (docs/how-it-works.md § The App). Each handler turns the payload into one of the
 * App's events and hands it to the worker's `intake` — synchronous, no API call, no model call — so
 * Probot's middleware answers GitHub at once; the work happens in the background queue.
 */
import type { ApplicationFunction, Context, Logger, Probot } from 'probot';
import { redactSecrets, secretsFromEnv } from '../core/text/redact.js';
import type { AppIdentity } from '../github/app-octokit.js';
import { StickyStore } from '../github/sticky-comment.js';
import type { AppEnvSettings } from './config.js';
import { CONFIG_FILE } from './config.js';
import type { LoopRunner } from './loop-runner.js';
import type { AppLoopState } from './loop-state.js';
import { parseLoopState } from './loop-state.js';
import type { Intake } from './validation/event.js';
import { commandEventFrom, pullRequestEventFrom, rerequestEventFrom } from './validation/event.js';
import type { EventTools } from './worker.js';
import { ReviewLoopWorker } from './worker.js';
import { WorkQueue } from './work-queue.js';

export interface ReviewLoopAppOptions {
  /** `APP_ID`: the App recognises its own comments, issues and check runs by it. */
  appId: number;
  settings: AppEnvSettings;
  runner: LoopRunner;
  /** Values never to post or log (model keys, the private key, the webhook secret). */
  secrets?: readonly string[];
  clock?: () => Date;
}

export interface ReviewLoopApp {
  app: ApplicationFunction;
  queue: WorkQueue;
  worker: ReviewLoopWorker;
}

type AnyContext = Context<'issue_comment.created' | 'pull_request' | 'check_run.rerequested'>;

function toolsOf(context: AnyContext): EventTools {
  return {
    octokit: context.octokit,
    log: {
      info: (message) => context.log.info(message),
      warn: (message) => context.log.warn(message),
      error: (message) => context.log.error(message),
    },
    readConfig: () => context.config(CONFIG_FILE),
  };
}

/** The secrets of the App's own environment, for redaction. */
export function appSecrets(env: NodeJS.ProcessEnv): string[] {
  return [...secretsFromEnv(env), env.PRIVATE_KEY, env.WEBHOOK_SECRET].filter((value): value is string =>
    Boolean(value?.trim()),
  );
}

/** Deliveries already warned about, so Probot's two reports of one bad signature make one line. */
const WARNED_LIMIT = 100;

function deliveryOf(error: unknown): string | undefined {
  const id = (error as { event?: { id?: unknown } } | undefined)?.event?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A delivery whose signature does not match WEBHOOK_SECRET becomes ONE warning line naming the delivery
 * and the fix, without the payload or a stack trace: Probot logs it twice at error level, the second time
 * with the whole event, so its logger's `error` is wrapped for that one case (docs/app.md § Secrets and logs).
 */
export function quietBadSignatures(log: Logger): void {
  const warned = new Set<string>();
  const error = log.error.bind(log) as (...args: unknown[]) => void;
  const wrapped = (...args: unknown[]) => {
    const first = args[0];
    const inner = first instanceof AggregateError ? (first.errors[0] as unknown) : first;
    if (!(inner instanceof Error) || !/signature does not match/i.test(inner.message)) {
      error(...args);
      return;
    }
    const id = deliveryOf(inner) ?? deliveryOf(first) ?? 'without an id';
    if (warned.has(id)) return;
    warned.add(id);
    if (warned.size > WARNED_LIMIT) warned.delete(warned.values().next().value as string);
    log.warn(
      `webhook delivery ${id} refused: its signature does not match WEBHOOK_SECRET (the App's webhook secret on GitHub must be the same value)`,
    );
  };
  log.error = wrapped as unknown as Logger['error'];
}

export function createReviewLoopApp(options: ReviewLoopAppOptions): ReviewLoopApp {
  const identity: AppIdentity = { appId: options.appId };
  const clock = options.clock ?? (() => new Date());
  let queueLog: ((message: string, error: unknown) => void) | undefined;
  const queue = new WorkQueue({
    concurrency: options.settings.concurrency,
    log: { error: (message, error) => queueLog?.(message, error) },
  });
  const worker = new ReviewLoopWorker({
    identity,
    env: options.settings,
    runner: options.runner,
    queue,
    store: new StickyStore<AppLoopState>(identity, parseLoopState),
    clock,
    secrets: options.secrets ?? [],
  });

  const app: ApplicationFunction = (probot: Probot) => {
    const secrets = options.secrets ?? [];
    quietBadSignatures(probot.log);
    queueLog = (message, error) =>
      probot.log.error(
        {
          err: redactSecrets(
            error instanceof Error ? `${error.name}: ${error.message}` : String(error),
            secrets,
          ),
        },
        message,
      );

    const enqueue = (context: AnyContext, event: Intake) => {
      if (event.kind === 'ignored') {
        context.log.debug(`ignored: ${event.reason}`);
        return;
      }
      worker.intake(event, toolsOf(context));
    };

    probot.on('issue_comment.created', (context) => {
      enqueue(context, commandEventFrom(context.payload, context.id, identity));
    });
    probot.on(['pull_request.synchronize', 'pull_request.closed'], (context) => {
      enqueue(context, pullRequestEventFrom(context.payload, context.id));
    });
    probot.on('check_run.rerequested', (context) => {
      enqueue(context, rerequestEventFrom(context.payload, context.id, identity));
    });
  };

  return { app, queue, worker };
}
