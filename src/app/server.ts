/**
 * `npm start`: Probot's own `run`, so the App takes Probot's standard environment — APP_ID, PRIVATE_KEY or
 * PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST, LOG_LEVEL, GHE_HOST + GHE_PROTOCOL, WEBHOOK_PROXY_URL —
 * and, without a key (outside production), says so in the log and serves Probot's registration flow from
 * `app.yml` (docs/app.md). The credentials are read and checked first (src/app/credentials.ts: a key that
 * does not parse, or a missing WEBHOOK_SECRET, stops the start, naming the variable), and so is the port
 * (one message when it is taken, not Probot's error with a stack); once the server is up, `GET /ready`
 * answers 200 only while GitHub accepts them and the shared store (REDIS_URL) answers
 * (src/app/readiness.ts, src/app/store-check.ts), `GET /ping` answers whenever the process does,
 * `GET /metrics` serves the monitoring figures (src/app/monitoring.ts). Webhooks arrive at
 * /api/github/webhooks. A long-running process (docs/how-it-works.md § The App): the work outlives each
 * webhook's response, so SIGTERM lets running rounds save their state first and hands them on: with
 * `REDIS_URL` to the shared queue, without it to the record in `DATA_DIR`, which the next start resumes.
 */
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import type { Logger, Probot, ProbotOctokit, Server } from 'probot';
import { run } from 'probot';
import { redactSecrets } from '../core/text/redact.js';
import type { ReviewLoopApp } from './app.js';
import { appSecrets, createReviewLoopApp } from './app.js';
import { resolve } from 'node:path';
import { readAppEnv, readScaleEnv } from './config.js';
import { applyDotEnv, readCredentials } from './credentials.js';
import { createLoopRunner } from './engine.js';
import { DeliveryRecovery, recoveryIntervalFromEnv } from './delivery-recovery.js';
import { appOctokit } from './github-client.js';
import { MemoryOnceGuard, RedisOnceGuard } from './once-guard.js';
import { MemoryWritePacer, RedisWritePacer } from './write-pacer.js';
import type { LoopRunner } from './loop-runner.js';
import { AppMetrics, ProcessFigures, metricsHandler } from './monitoring.js';
import { Readiness } from './readiness.js';
import { storeCheck } from './store-check.js';
import { startSetup } from './setup.js';
import { EnvConfigError } from './config.js';

/** How long a shutdown waits for running rounds to save their state. */
const SHUTDOWN_GRACE_MS = 25_000;

export interface StartedApp {
  server: Server;
  /** Undefined in setup mode (no credentials yet): only Probot's registration pages are served. */
  app: ReviewLoopApp | undefined;
  /** Undefined in setup mode. */
  readiness: Readiness | undefined;
  /** The counters behind `GET /metrics`; undefined in setup mode. */
  metrics: AppMetrics | undefined;
  /** Missed deliveries recovered from GitHub (src/app/delivery-recovery.ts); undefined in setup mode or when turned off. */
  recovery?: DeliveryRecovery | undefined;
  stop(): Promise<void>;
}

// eslint-disable-next-line max-lines-per-function -- the start-up sequence in the order it must happen (config, store, queue, server, shutdown hooks); not yet split (issue 30 item 3)
export async function startApp(
  env: NodeJS.ProcessEnv = process.env,
  options: { runner?: LoopRunner; handleSignals?: boolean; cwd?: string } = {},
): Promise<StartedApp> {
  // Probot's `run` applies `.env` to the process's environment itself, but only once it runs: the
  // credentials it holds are read here first, the same way, so that they are checked before the start.
  if (env === process.env) applyDotEnv(env, options.cwd);
  const settings = readAppEnv(env);
  const scale = readScaleEnv(env, (path) => resolve(options.cwd ?? process.cwd(), path));
  const credentials = readCredentials(env, options.cwd);
  const host = env.HOST || 'localhost';
  const port = Number(env.PORT) || 3000;
  if (!credentials) {
    if (env.NODE_ENV === 'production') {
      throw new EnvConfigError(
        'PRIVATE_KEY',
        'is not set (nor PRIVATE_KEY_PATH), and the registration pages do not run in production; set APP_ID, the key and WEBHOOK_SECRET',
      );
    }
    await portIsFree(host, port);
    // The registration pages (docs/app.md § Install it on a repository), said first: an operator who
    // meant to run the App sees which variable is missing before Probot's "Listening on" line.
    const server = await startSetup(env, {
      before: (log) =>
        log.warn(
          `PRIVATE_KEY is not set (nor PRIVATE_KEY_PATH): serving the registration pages at http://${host}:${port}/probot instead of the App. To run the App, set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET (docs/app.md § Environment)`,
        ),
    });
    return withSignals(
      { server, app: undefined, readiness: undefined, metrics: undefined, stop: () => server.stop() },
      options,
    );
  }
  await portIsFree(host, port);
  const probotEnv = {
    ...env,
    APP_ID: String(credentials.appId),
    PRIVATE_KEY: credentials.privateKey,
    WEBHOOK_SECRET: credentials.webhookSecret,
  };
  const recoveryInterval = recoveryIntervalFromEnv(env);
  // A REDIS_URL that is no Redis URL stops the start here, naming the variable.
  const store = storeCheck(env);
  // With REDIS_URL, the write pacer's budget and the recovery's once-guard are shared by every replica
  // (docs/how-it-works.md § The App); Probot builds its own connection from the same URL for its throttling.
  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 }) : undefined;
  const secrets = [credentials.privateKey, redisPassword(env.REDIS_URL), ...appSecrets(env)];
  let log: Logger | undefined;
  let redisDown = false;
  redis?.on('error', (error: Error) => {
    if (!redisDown)
      log?.warn(
        redactSecrets(
          `REDIS_URL: ${error.message}; until it answers, writes are paced by Probot's throttling only and missed deliveries are not asked for`,
          secrets,
        ),
      );
    redisDown = true;
  });
  redis?.on('ready', () => (redisDown = false));
  const pacer = redis ? new RedisWritePacer(redis) : new MemoryWritePacer();
  let loaded: ReviewLoopApp | undefined;
  let readiness: Readiness | undefined;
  let appProbot: Probot | undefined;
  const metrics = new AppMetrics();
  const processFigures = new ProcessFigures();
  const server = await run(
    (probot, appOptions) => {
      log = probot.log;
      appProbot = probot;
      probot.onAny((context) => metrics.deliveries.inc(context.name));
      loaded = createReviewLoopApp({
        appId: credentials.appId,
        settings,
        runner: options.runner ?? createLoopRunner(env),
        secrets: appSecrets(env, [credentials.privateKey]),
        redisUrl: scale.redisUrl,
        dataDir: scale.dataDir,
        claimTtlMs: scale.claimTtlMs,
        onIgnored: () => metrics.ignored.inc(),
      });
      readiness = new Readiness(
        async () => {
          const octokit = await probot.auth();
          // No retries: a probe answers at once (a load balancer waits seconds, not the 14 s of three
          // retries), and the next probe asks again.
          const { data } = await octokit.rest.apps.getAuthenticated({ request: { retries: 0 } });
          return data?.slug ?? String(credentials.appId);
        },
        { checks: [store] },
      );
      appOptions.addHandler(readiness.handler);
      appOptions.addHandler(
        metricsHandler({ metrics, process: processFigures, queue: () => loaded?.queue, log: probot.log }),
      );
      return loaded.app(probot, appOptions);
    },
    // Every client Probot builds counts its writes for /metrics.
    {
      env: probotEnv,
      Octokit: appOctokit({ pacer }).plugin(metrics.octokitPlugin) as typeof ProbotOctokit,
    },
  ).catch(async (error: unknown) => {
    redis?.disconnect();
    await store.close();
    processFigures.stop();
    throw error;
  });
  if (readiness) {
    const state = await readiness.state();
    if (state.ready)
      log?.info(`GitHub accepts the App's credentials (${state.detail}); GET /ready answers 200`);
    else log?.error(`${state.detail}; GET /ready answers 503 until it does`);
    const shared = state.checks[store.name];
    if (shared?.ok) log?.info(shared.detail);
  }
  const recovery = startRecovery(appProbot, log, recoveryInterval, redis, secrets);
  const stop = async () => {
    await recovery?.stop();
    await loaded?.queue.close(SHUTDOWN_GRACE_MS);
    await server.stop();
    redis?.disconnect();
    await store.close();
    processFigures.stop();
  };
  return withSignals({ server, app: loaded, readiness, metrics, recovery, stop }, options);
}

/**
 * Missed deliveries (docs/app.md § Missed deliveries): the first pass once the server is up, then one
 * every `intervalMs`; with Redis, each failed delivery is redelivered by one replica only.
 */
function startRecovery(
  probot: Probot | undefined,
  log: Logger | undefined,
  intervalMs: number | undefined,
  redis: Redis | undefined,
  secrets: readonly (string | undefined)[],
): DeliveryRecovery | undefined {
  if (!probot || intervalMs === undefined) return undefined;
  const clean = (message: string) => redactSecrets(message, secrets);
  const recovery = new DeliveryRecovery({
    octokit: () => probot.auth(),
    guard: redis ? new RedisOnceGuard(redis, 'skillclimb:recovery:') : new MemoryOnceGuard(),
    log: {
      info: (message) => log?.info(clean(message)),
      warn: (message) => log?.warn(clean(message)),
      debug: (message) => log?.debug(clean(message)),
    },
    intervalMs,
  });
  void recovery.start();
  return recovery;
}

/**
 * Stops the start with one message naming PORT when another process listens on it: Probot would log the
 * listen error with its stack, and the start would fail with a second message saying the same.
 */
async function portIsFree(host: string, port: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((done, fail) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        fail(
          new EnvConfigError(
            'PORT',
            `port ${port} on ${host} is in use by another process; stop that process or set PORT to a free port`,
          ),
        );
      } else done(); // anything else (a HOST not on this machine, say): Probot's listen reports it
    });
    probe.listen({ host, port }, () => probe.close(() => done()));
  });
}

/** The password in a `redis://user:password@host` URL, to keep out of the logs. */
function redisPassword(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM stops the App (running rounds save their state first), when asked for. */
function withSignals(started: StartedApp, options: { handleSignals?: boolean }): StartedApp {
  if (options.handleSignals ?? false) {
    process.once('SIGTERM', () => {
      void started.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return started;
}
