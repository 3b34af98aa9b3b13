/**
 * The Probot application (docs/how-it-works.md § The App). Each handler turns the payload into one of the
 * App's events and hands it to the worker's `intake` — no API call, no model call, only the shared
 * state's look-ups — so Probot's middleware answers GitHub at once; the work happens in the background
 * queue. Without `redisUrl` the shared state, the event jobs and the loop jobs are this process's; with it,
 * Redis and two BullMQ queues (events, loops) that every replica shares (src/app/coordination/).
 */
import { isErrorOfKind, messageOf } from '../core/errors.js';
import type { ApplicationFunction, Context, Logger, Probot } from 'probot';
import { secretsFromEnv } from '../core/text/redact.js';
import type { AppIdentity } from '../github/review/app-octokit.js';
import { StickyStore } from '../github/review/sticky-comment.js';
import { rebuildLoopState } from '../github/review/record-rebuild.js';
import type { AppEnvSettings } from './config.js';
import { CONFIG_FILE } from './config.js';
import { mergeConfigs, readConfigFiles } from './config-files.js';
import { SecretSet, guardOctokit } from './github-client.js';
import type { LoopRunner } from './loop-runner.js';
import type { AppLoopState } from '../github/review/loop-state.js';
import { parseLoopState, renderLoopLog } from '../github/review/loop-state.js';
import type { Intake } from './validation/event.js';
import { commandEventFrom, pullRequestEventFrom, rerequestEventFrom } from './validation/event.js';
import type { EventTools } from './worker.js';
import { ReviewLoopWorker } from './worker.js';
import { CLAIM_TTL_MS, WorkQueue } from './work-queue.js';
import { BullLoopJobs } from './coordination/bull-jobs.js';
import { BullEventJobs } from './coordination/event-jobs.js';
import { MemoryLoopJobs } from './coordination/loop-jobs.js';
import { MemoryState } from './coordination/memory-state.js';
import { RedisState } from './coordination/redis-state.js';

export interface ReviewLoopAppOptions {
  /** `APP_ID`: the App recognises its own comments, issues and check runs by it. */
  appId: number;
  settings: AppEnvSettings;
  runner: LoopRunner;
  /** Values never to post or log (model keys, the private key, the webhook secret). */
  secrets?: readonly string[];
  clock?: () => Date;
  /** `REDIS_URL`: the shared state and the loop queue in Redis, for any number of replicas. */
  redisUrl?: string | undefined;
  /** `DATA_DIR` (without Redis): where the record of running loops is kept, so a restart resumes them. */
  dataDir?: string | undefined;
  /** How long a dead replica's claims and jobs stay locked before another takes them over (`CLAIM_TTL_MS`). */
  claimTtlMs?: number | undefined;
  /** How often each replica looks for loop jobs whose replica died (BullMQ's stalled check). */
  stalledIntervalMs?: number | undefined;
  /** Told of each verified delivery that starts no work (`/metrics` counts them: src/app/monitoring.ts). */
  onIgnored?: () => void;
}

export interface ReviewLoopApp {
  app: ApplicationFunction;
  queue: WorkQueue;
  worker: ReviewLoopWorker;
}

type AnyContext = Context<'issue_comment.created' | 'pull_request' | 'check_run.rerequested'>;

type AppClient = AnyContext['octokit'];
type AppLog = Pick<Logger, 'info' | 'warn' | 'error'>;

/**
 * Every request of the client goes through the sink; every log line is redacted too; the configuration
 * is `context.config`'s reading and merging, with the files kept (an unreadable `_extends:` is said).
 */
function eventTools(
  installationId: number,
  client: AppClient,
  log: AppLog,
  repo: { owner: string; repo: string },
  secrets: SecretSet,
  identity: AppIdentity,
): EventTools {
  const clean = (message: string) => secrets.redact(message);
  return {
    installationId,
    octokit: guardOctokit(client, secrets, identity, { info: (m) => log.info(clean(m)) }),
    log: {
      info: (message) => log.info(clean(message)),
      warn: (message) => log.warn(clean(message)),
      error: (message) => log.error(clean(message)),
    },
    readConfig: async () =>
      readConfigFiles(
        await client.config.get({
          ...repo,
          path: `.github/${CONFIG_FILE}`,
          defaults: mergeConfigs,
        }),
      ),
  };
}

/** A delivery's tools: its installation's client and its log. */
function toolsOf(context: AnyContext, secrets: SecretSet, identity: AppIdentity): EventTools {
  const installationId = (context.payload as { installation?: { id?: number } }).installation?.id ?? 0;
  return eventTools(installationId, context.octokit, context.log, context.repo(), secrets, identity);
}

/**
 * The tools of an installation without a delivery (a loop job on any replica, a resumed loop): its
 * client from Probot (`probot.auth`), behind the same sink, and the App's log.
 */
async function installationTools(
  probot: Probot,
  installationId: number,
  repo: { owner: string; repo: string },
  secrets: SecretSet,
  identity: AppIdentity,
): Promise<EventTools> {
  const client = await probot.auth(installationId);
  return eventTools(installationId, client, probot.log, repo, secrets, identity);
}

/** Environment variables whose values are credentials, whatever the value looks like (an Azure or LiteLLM key). */
const SECRET_NAME = /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;

/**
 * The secrets of the App's own environment, for redaction by exact value: every variable named like a
 * credential (the model keys, `WEBHOOK_SECRET`, `PRIVATE_KEY`), and each line of the private key (a model
 * may quote one line of it).
 */
export function appSecrets(env: NodeJS.ProcessEnv, extra: readonly (string | undefined)[] = []): string[] {
  const named = Object.entries(env)
    .filter(([name]) => SECRET_NAME.test(name))
    .map(([, value]) => value);
  const keys = [env.PRIVATE_KEY, ...extra].flatMap((key) =>
    (key ?? '')
      .replace(/\\n/g, '\n')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length >= 16 && !line.startsWith('-----')),
  );
  const values = [...secretsFromEnv(env), ...named, ...extra, ...keys]
    .map((value) => value?.trim())
    .filter((value): value is string => Boolean(value) && (value?.length ?? 0) >= 8);
  return [...new Set(values)];
}

/** GitHub sends webhook payloads of at most 25 MB: a larger body is refused 413 before it is read. */
const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

/**
 * Wraps Probot's webhook middleware (which `npm start`'s server asks the Probot instance for) so that a
 * delivery whose `Content-Length` is over GitHub's limit gets 413, not a 500 after buffering it.
 */
function refuseOversized(probot: Probot): void {
  const make = probot.getNodeMiddleware.bind(probot);
  probot.getNodeMiddleware = async (options) => {
    const middleware = await make(options);
    const guarded: typeof middleware = async (request, response, next) => {
      if (Number(request.headers['content-length'] ?? 0) > MAX_DELIVERY_BYTES) {
        probot.log.warn(
          `refused a ${request.headers['content-length']}-byte request to ${request.url}: over 25 MB`,
        );
        response
          .writeHead(413, { 'content-type': 'application/json', connection: 'close' })
          .end(JSON.stringify({ error: 'payload too large' }));
        request.resume();
        return true;
      }
      return middleware(request, response, next);
    };
    return guarded;
  };
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
  log.error = wrapped;
}

// eslint-disable-next-line max-lines-per-function -- the Probot handlers registered in one place over the same worker and identity; not yet split (issue 30 item 3)
export function createReviewLoopApp(options: ReviewLoopAppOptions): ReviewLoopApp {
  const identity: AppIdentity = { appId: options.appId };
  const secrets = new SecretSet(options.secrets ?? []);
  const clock = options.clock ?? (() => new Date());
  let queueLog: ((message: string, error: unknown) => void) | undefined;
  let queueInfo: ((message: string) => void) | undefined;
  let probotOf: Probot | undefined;
  const log = {
    info: (message: string) => queueInfo?.(secrets.redact(message)),
    error: (message: string, error: unknown) => queueLog?.(message, error),
  };
  const claimTtlMs = options.claimTtlMs ?? CLAIM_TTL_MS;
  const shared = options.redisUrl
    ? new RedisState({
        url: options.redisUrl,
        // One App's keys apart from another's on a shared Redis.
        prefix: `skillclimb:app:${options.appId}:`,
        lockTtlMs: Math.max(claimTtlMs, 10_000),
      })
    : new MemoryState();
  const jobs = options.redisUrl
    ? new BullLoopJobs({
        url: options.redisUrl,
        queueName: `review-loop-${options.appId}`,
        concurrency: options.settings.concurrency,
        log,
        lockDurationMs: claimTtlMs,
        stalledIntervalMs: options.stalledIntervalMs ?? claimTtlMs,
      })
    : new MemoryLoopJobs({ concurrency: options.settings.concurrency, log, dataDir: options.dataDir });
  // A delivery's work: a durable job beside the loop queue with Redis (it survives the replica that took
  // the delivery), a task of this process without.
  const events = options.redisUrl
    ? new BullEventJobs({
        url: options.redisUrl,
        queueName: `review-loop-events-${options.appId}`,
        // Short jobs (a reply, a reaction, a state edit), unbounded in one process: more than the loops.
        concurrency: Math.max(16, 4 * options.settings.concurrency),
        log,
        lockDurationMs: claimTtlMs,
        stalledIntervalMs: options.stalledIntervalMs ?? claimTtlMs,
      })
    : undefined;
  const queue = new WorkQueue({
    concurrency: options.settings.concurrency,
    log,
    shared,
    jobs,
    events,
    claimTtlMs,
  });
  const worker = new ReviewLoopWorker({
    identity,
    env: options.settings,
    runner: options.runner,
    queue,
    store: new StickyStore<AppLoopState>(
      identity,
      parseLoopState,
      (key, work) => shared.withLock(key, work),
      // A record that cannot be read is rebuilt from what the App posted, never replaced by an empty one.
      {
        rebuild: ({ octokit, pr, problem }) => rebuildLoopState(octokit, pr, identity, problem, clock()),
        render: (state) => renderLoopLog(state),
      },
    ),
    clock,
    secrets: secrets.values,
    toolsFor: (installationId, repo) => {
      if (!probotOf) throw new Error('the App is not loaded into Probot yet');
      return installationTools(probotOf, installationId, repo, secrets, identity);
    },
  });

  const app: ApplicationFunction = (probot: Probot) => {
    refuseOversized(probot);
    quietBadSignatures(probot.log);
    probotOf = probot;
    queueLog = (message, error) =>
      probot.log.error(
        { err: secrets.redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) },
        secrets.redact(message),
      );
    queueInfo = (message) => probot.log.info(message);
    worker.start();

    /**
     * A signed delivery that lacks a field the App reads (no `comment`, no `repository`, no
     * `installation`…) is answered 2xx and ignored with one log line, never a 500.
     */
    const enqueue = async (context: AnyContext, decide: () => Intake) => {
      let event: Intake;
      try {
        event = (context.payload as { installation?: { id?: number } }).installation?.id
          ? decide()
          : { kind: 'ignored', reason: 'no installation' };
      } catch (error) {
        const detail = messageOf(error);
        context.log.warn(
          `ignored delivery ${context.id} (${context.name}): a field is missing (${secrets.redact(detail)})`,
        );
        options.onIgnored?.();
        return;
      }
      if (event.kind === 'ignored') {
        context.log.debug(`ignored: ${event.reason}`);
        options.onIgnored?.();
        return;
      }
      try {
        await worker.intake(event, toolsOf(context, secrets, identity));
      } catch (error) {
        // Thrown on to Probot, which answers 5xx: GitHub records the delivery as failed (it can be
        // redelivered), and the line says why.
        if (isErrorOfKind(error, 'store')) {
          context.log.error(`delivery ${context.id} (${context.name}) not taken: ${error.message}`);
        }
        throw error;
      }
    };

    probot.on('issue_comment.created', (context) =>
      enqueue(context, () => commandEventFrom(context.payload, context.id, identity)),
    );
    probot.on(['pull_request.synchronize', 'pull_request.closed'], (context) =>
      enqueue(context, () => pullRequestEventFrom(context.payload, context.id)),
    );
    probot.on('check_run.rerequested', (context) =>
      enqueue(context, () => rerequestEventFrom(context.payload, context.id, identity)),
    );
  };

  return { app, queue, worker };
}
