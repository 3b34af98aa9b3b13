/**
 * `npm start`: Probot's own `run`, so the App takes Probot's standard environment — APP_ID, PRIVATE_KEY or
 * PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST, LOG_LEVEL, GHE_HOST + GHE_PROTOCOL, WEBHOOK_PROXY_URL —
 * and, without credentials, serves Probot's registration flow from `app.yml` (docs/app.md). The
 * credentials are read and checked first (src/app/credentials.ts: a key that does not parse stops the
 * start, naming the variable); once the server is up, `GET /ready` answers 200 only while GitHub accepts
 * them and the shared store (REDIS_URL) answers (src/app/readiness.ts, src/app/store-check.ts), `GET /ping`
 * answers whenever the process does, `GET /metrics` serves the monitoring figures (src/app/monitoring.ts).
 * Webhooks arrive at
 * /api/github/webhooks. A long-running process (docs/how-it-works.md § The App): the work outlives each
 * webhook's response, so SIGTERM lets running rounds save their state first.
 */
import type { Logger, ProbotOctokit, Server } from 'probot';
import { run } from 'probot';
import type { ReviewLoopApp } from './app.js';
import { appSecrets, createReviewLoopApp } from './app.js';
import { readAppEnv } from './config.js';
import { applyDotEnv, readCredentials } from './credentials.js';
import { createLoopRunner } from './engine.js';
import { appOctokit } from './github-client.js';
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
  stop(): Promise<void>;
}

export async function startApp(
  env: NodeJS.ProcessEnv = process.env,
  options: { runner?: LoopRunner; handleSignals?: boolean; cwd?: string } = {},
): Promise<StartedApp> {
  // Probot's `run` applies `.env` to the process's environment itself, but only once it runs: the
  // credentials it holds are read here first, the same way, so that they are checked before the start.
  if (env === process.env) applyDotEnv(env, options.cwd);
  const settings = readAppEnv(env);
  const credentials = readCredentials(env, options.cwd);
  if (!credentials) {
    if (env.NODE_ENV === 'production') {
      throw new EnvConfigError(
        'PRIVATE_KEY',
        'is not set (nor PRIVATE_KEY_PATH), and the registration pages do not run in production; set APP_ID and the key',
      );
    }
    // The registration pages (docs/app.md § Install it on a repository).
    const server = await startSetup(env);
    return withSignals(
      { server, app: undefined, readiness: undefined, metrics: undefined, stop: () => server.stop() },
      options,
    );
  }
  const probotEnv = { ...env, APP_ID: String(credentials.appId), PRIVATE_KEY: credentials.privateKey };
  let loaded: ReviewLoopApp | undefined;
  let readiness: Readiness | undefined;
  let log: Logger | undefined;
  const metrics = new AppMetrics();
  const processFigures = new ProcessFigures();
  const store = storeCheck(env);
  let server: Server;
  try {
    server = await run(
      (probot, appOptions) => {
        log = probot.log;
        probot.onAny((context) => metrics.deliveries.inc(context.name));
        loaded = createReviewLoopApp({
          appId: credentials.appId,
          settings,
          runner: options.runner ?? createLoopRunner(env),
          secrets: appSecrets(env, [credentials.privateKey]),
          onIgnored: () => metrics.ignored.inc(),
        });
        readiness = new Readiness(
          async () => {
            const octokit = await probot.auth();
            const { data } = await octokit.rest.apps.getAuthenticated();
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
      { env: probotEnv, Octokit: appOctokit().plugin(metrics.octokitPlugin) as typeof ProbotOctokit },
    );
  } catch (error) {
    await store.close();
    processFigures.stop();
    throw error;
  }
  if (readiness) {
    const state = await readiness.state();
    if (state.ready)
      log?.info(`GitHub accepts the App's credentials (${state.detail}); GET /ready answers 200`);
    else log?.error(`${state.detail}; GET /ready answers 503 until it does`);
    const shared = state.checks[store.name];
    if (shared?.ok) log?.info(shared.detail);
  }
  const stop = async () => {
    await loaded?.queue.close(SHUTDOWN_GRACE_MS);
    await server.stop();
    await store.close();
    processFigures.stop();
  };
  return withSignals({ server, app: loaded, readiness, metrics, stop }, options);
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
