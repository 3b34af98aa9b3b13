/**
 * `npm start`: Probot's own `run`, so the App takes Probot's standard environment — APP_ID, PRIVATE_KEY or
 * PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST, LOG_LEVEL, GHE_HOST + GHE_PROTOCOL — and, without
 * credentials, serves Probot's registration flow from `app.yml` (docs/app.md). Webhooks arrive at
 * /api/github/webhooks, GET /ping answers. A long-running process (docs/how-it-works.md § The App): the
 * work outlives each webhook's response, so SIGTERM lets running rounds save their state first.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'probot';
import { run } from 'probot';
import type { ReviewLoopApp } from './app.js';
import { appSecrets, createReviewLoopApp } from './app.js';
import { readAppEnv } from './config.js';
import { createLoopRunner } from './engine.js';
import { appOctokit } from './github-client.js';
import type { LoopRunner } from './loop-runner.js';

/** How long a shutdown waits for running rounds to save their state. */
const SHUTDOWN_GRACE_MS = 25_000;

export interface StartedApp {
  server: Server;
  /** Undefined in setup mode (no credentials yet): only Probot's registration pages are served. */
  app: ReviewLoopApp | undefined;
  stop(): Promise<void>;
}

/** The private key Probot reads from `PRIVATE_KEY_PATH`, for redaction (undefined when unreadable). */
function privateKeyFile(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.PRIVATE_KEY_PATH) return undefined;
  try {
    return readFileSync(env.PRIVATE_KEY_PATH, 'utf8');
  } catch {
    return undefined; // Probot names the unreadable file itself
  }
}

export async function startApp(
  env: NodeJS.ProcessEnv = process.env,
  options: { runner?: LoopRunner; handleSignals?: boolean } = {},
): Promise<StartedApp> {
  const settings = readAppEnv(env);
  let loaded: ReviewLoopApp | undefined;
  const server = await run(
    (probot, appOptions) => {
      loaded = createReviewLoopApp({
        appId: Number(env.APP_ID),
        settings,
        runner: options.runner ?? createLoopRunner(env),
        secrets: appSecrets(env, [privateKeyFile(env)]),
      });
      return loaded.app(probot, appOptions);
    },
    { env, Octokit: appOctokit() },
  );
  const stop = async () => {
    await loaded?.queue.close(SHUTDOWN_GRACE_MS);
    await server.stop();
  };
  if (options.handleSignals ?? false) {
    process.once('SIGTERM', () => {
      void stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return { server, app: loaded, stop };
}
