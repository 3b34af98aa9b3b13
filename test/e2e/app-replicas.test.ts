/**
 * Two `npm start` processes on one real `redis-server` (docs/how-it-works.md § The App, "Shared state and
 * takeover"): replica A takes a signed `/review-loop` delivery and its loop reaches the reviewer's model
 * call; A is then killed with SIGKILL. Replica B, started afterwards on the same Redis, takes the loop over
 * once A's claim expires (CLAIM_TTL_MS), resumes it from the PR's sticky state (its own model call), and
 * ends it — the check run is concluded, not left `in_progress`. A fake GitHub Enterprise Server and a
 * model server on loopback stand in for GitHub and the providers.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, PRIVATE_KEY, REPO_PATH, commentPayload } from '../helpers/app-fixtures.js';
import {
  answeringGitHub,
  compileApp,
  freePort,
  pullRequestRoutes,
  sign,
  startChild,
  stopChild,
  waitFor,
} from '../helpers/app-child.js';
import { closeServer, listenOnLoopback, readBody } from '../helpers/local-http.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';

const SECRET = 'webhook-secret-for-the-replicas';

let compiled: Awaited<ReturnType<typeof compileApp>>;
let github: Awaited<ReturnType<typeof answeringGitHub>>;
let redis: RedisProcess;
let models: http.Server;
let modelOrigin: string;
const modelCalls: Array<{ at: number; res: ServerResponse }> = [];
const children: Array<ReturnType<typeof startChild>> = [];

/** Holds every model request until `answerAll`, then answers 401 (a refused key: no retry, the loop ends). */
function answerAll(): void {
  for (const call of modelCalls) {
    if (call.res.writableEnded || call.res.destroyed) continue;
    call.res
      .writeHead(401, { 'content-type': 'application/json' })
      .end('{"error":{"message":"invalid key for the test"}}');
  }
}

async function replica(): Promise<{ origin: string; started: ReturnType<typeof startChild> }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = startChild(compiled.main, compiled.dir, {
    APP_ID: String(APP_ID),
    PRIVATE_KEY,
    WEBHOOK_SECRET: SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GHE_HOST: github.host,
    GHE_PROTOCOL: 'http',
    REDIS_URL: redis.url,
    CLAIM_TTL_MS: '1000',
    REVIEW_LOOP_REVIEWER_MODEL: 'openai:gpt-5',
    REVIEW_LOOP_EXECUTOR_MODEL: 'anthropic:claude-sonnet-4-5',
    OPENAI_API_KEY: 'sk-openai-replica-test',
    OPENAI_BASE_URL: `${modelOrigin}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-replica-test',
    ANTHROPIC_BASE_URL: modelOrigin,
  });
  children.push(started);
  await waitFor(
    async () => ((await fetch(`${origin}/ready`)).ok ? true : undefined),
    30_000,
    `the replica to answer /ready (output: ${started.output()})`,
  );
  return { origin, started };
}

beforeAll(async () => {
  compiled = await compileApp();
  github = await answeringGitHub(pullRequestRoutes());
  redis = await startRedis();
  models = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(() => modelCalls.push({ at: Date.now(), res }));
  });
  modelOrigin = await listenOnLoopback(models);
}, 120_000);

afterAll(async () => {
  answerAll();
  for (const { child } of children) await stopChild(child);
  models.closeAllConnections();
  await closeServer(models);
  await github?.close();
  await redis?.stop();
  await compiled?.remove();
});

const checkUpdates = () =>
  github.requests
    .filter((r) => r.method === 'PATCH' && /\/check-runs\/\d+$/.test(r.url))
    .map((r) => JSON.parse(r.body) as { status?: string; conclusion?: string });

describe('two `npm start` replicas on one Redis', () => {
  it('a replica killed with SIGKILL mid-round: the other takes the loop over and ends it, the check concluded', async () => {
    const a = await replica();
    const body = JSON.stringify(commentPayload({ body: '/review-loop', commentId: 301 }));
    const answer = await fetch(`${a.origin}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'replica-delivery-1',
        'x-hub-signature-256': sign(SECRET, body),
      },
      body,
    });
    expect(answer.status).toBeLessThan(300);
    await waitFor(() => (modelCalls.length >= 1 ? true : undefined), 30_000, "replica A's model call");

    a.started.child.kill('SIGKILL');
    await new Promise<void>((resolve) => a.started.child.once('exit', () => resolve()));
    const killedAt = Date.now();
    await replica();
    await waitFor(
      () => (modelCalls.length >= 2 ? true : undefined),
      30_000,
      "replica B's model call for the loop it took over",
    );
    expect(modelCalls[1]!.at).toBeGreaterThan(killedAt);
    answerAll();

    const concluded = await waitFor(
      () => checkUpdates().find((update) => update.status === 'completed'),
      30_000,
      'the check run to be concluded',
    );
    expect(concluded.conclusion).toBe('failure');
    const created = github.requests.filter(
      (r) => r.method === 'POST' && r.url.startsWith(`/api/v3${REPO_PATH}/check-runs`),
    );
    expect(created).toHaveLength(1); // B moved A's check on, it did not make a second one
    expect(modelCalls).toHaveLength(2);
  }, 90_000);
});
