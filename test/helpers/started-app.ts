/**
 * A started App for the tests of its operator endpoints (`/ready`, `/metrics`): `startApp` — Probot's
 * `run` — in this process on a free loopback port, with a scripted runner; and readers of what those
 * endpoints answer. Each test file that sets REDIS_URL keeps to itself: Octokit's throttling keeps its
 * limiters (and their Redis connection) per process, so an App started later in the same process would
 * inherit a connection to a Redis that is gone.
 */
import nock from 'nock';
import { startApp, type StartedApp } from '../../src/app/server.js';
import { API, APP_ID, PRIVATE_KEY, outcome, scriptedRunner } from './app-fixtures.js';
import { freePort } from './app-child.js';

export const WEBHOOK_SECRET = 'webhook-secret-for-the-test';

/** GitHub accepts the App's credentials (asked once: the answer is kept for a minute). */
export function nockGetApp() {
  return nock(API).get('/app').reply(200, { id: APP_ID, slug: 'skillclimb-review-loop' });
}

export async function startOnLoopback(
  extra: Record<string, string> = {},
): Promise<{ started: StartedApp; origin: string }> {
  const port = await freePort();
  const { runner } = scriptedRunner(async () => outcome());
  const started = await startApp(
    {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
      NODE_ENV: 'production',
      // No recovery pass of missed deliveries: these tests are about the endpoints.
      REVIEW_LOOP_RECOVERY_MINUTES: '0',
      ...extra,
    },
    { runner },
  );
  return { started, origin: `http://127.0.0.1:${port}` };
}

export interface ReadyBody {
  ready: boolean;
  app?: string;
  reason?: string;
  checks?: Record<string, string>;
}

export async function readyState(origin: string): Promise<{ status: number; body: ReadyBody }> {
  const response = await fetch(`${origin}/ready`);
  return { status: response.status, body: (await response.json()) as ReadyBody };
}

/** The value of one sample line of a scrape: `name` or `name{label="x"}`; undefined when absent. */
export function metricSample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
