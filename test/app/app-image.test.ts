/**
 * The Docker image's runtime folder holds everything the App needs at run time, and none of the test and
 * lint tools (Dockerfile; docs/app.md § Deploy). scripts/lib/app-runtime.mjs — what the Dockerfile's build
 * stage runs — copies the traced files of the compiled App into a folder under the system's temporary
 * folder, where no node_modules of the repository can stand in for a missing file, and the App is started
 * from there as the container starts it: `node build/app/main.js`. Without credentials it serves `/ping`
 * and the registration pages (Probot's setup modules, its static files, `app.yml`); with them, as in the
 * image (NODE_ENV=production), on a real loopback `redis-server`, `/ready` answers 200 once Redis answered,
 * and a `/review-loop` goes through the BullMQ queue to the reviewer's model call (the provider's package
 * is imported only then). GitHub and the model are loopback servers. The sources are compiled file by
 * file with esbuild (test/helpers/app-child.ts), as tsc compiles them into build/ for the image, but in
 * about a second.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyAppRuntime } from '../../scripts/lib/app-runtime.mjs';
import { APP_ID, PRIVATE_KEY, REPO_PATH, commentPayload } from '../helpers/app-fixtures.js';
import {
  answeringGitHub,
  compileApp,
  freePort,
  pullRequestRoutes,
  sign,
  startChild,
  stopChild,
} from '../helpers/app-child.js';
import { closeServer, listenOnLoopback, readBody } from '../helpers/local-http.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SECRET = 'test-secret';

let compiled: Awaited<ReturnType<typeof compileApp>>;
let runtime: string;
let files: string[];
let redis: RedisProcess;
let github: Awaited<ReturnType<typeof answeringGitHub>>;
let models: http.Server;
let modelOrigin: string;
const modelCalls: string[] = [];
const children: Array<ReturnType<typeof startChild>> = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  compiled = await compileApp();
  runtime = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-image-'));
  files = await copyAppRuntime({ root: ROOT, outdir: runtime, buildDir: compiled.dir });
  redis = await startRedis();
  github = await answeringGitHub(pullRequestRoutes());
  // Every model request is refused as a wrong key would be (no retry), so the loop ends at once.
  models = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(() => {
      modelCalls.push(req.url ?? '');
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":{"message":"invalid key for the test"}}');
    });
  });
  modelOrigin = await listenOnLoopback(models);
}, 120_000);

afterEach(async () => {
  for (const { child } of children.splice(0)) await stopChild(child);
});

afterAll(async () => {
  models?.closeAllConnections();
  if (models) await closeServer(models);
  await github?.close();
  await redis?.stop();
  await compiled?.remove();
  if (runtime) await rm(runtime, { recursive: true, force: true });
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

/** The App started from the runtime folder as the image's CMD starts it, with the environment given. */
async function startImageApp(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-image-data-'));
  dataDirs.push(dataDir);
  const started = startChild(path.join(runtime, 'build', 'app', 'main.js'), runtime, {
    PORT: String(port),
    HOST: '127.0.0.1',
    WEBHOOK_SECRET: SECRET,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...env,
  });
  children.push(started);
  return { origin: `http://127.0.0.1:${port}`, ...started };
}

type ImageApp = Awaited<ReturnType<typeof startImageApp>>;

/**
 * Polls `probe` until it gives a value; fails at once, with the App's output, when the App exited (a
 * module missing from the folder stops it at its start), or after 30 s.
 */
async function until<T>(
  app: ImageApp,
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { exitCode, signalCode } = app.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(
        `the App exited (${exitCode ?? signalCode}) before ${what}; its output:\n${app.output()}`,
      );
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; the App's output:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const packagesIn = (list: string[]) =>
  new Set(list.flatMap((file) => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []));

describe("the image's runtime folder (scripts/lib/app-runtime.mjs)", () => {
  it('lies where no node_modules of the repository is reachable', () => {
    for (let dir = path.dirname(runtime); ; dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, 'node_modules')), dir).toBe(false);
      if (path.dirname(dir) === dir) break;
    }
  });

  it("holds the App's modules and packages, and none of the build, test and lint tools", () => {
    expect(files).toContain('build/app/main.js');
    expect(files).toContain('package.json');
    expect(files).toContain('app.yml');
    expect(files.filter((file) => /^build\/(cli|action)\//.test(file))).toEqual([]);
    expect(files.filter((file) => path.basename(file).startsWith('.env'))).toEqual([]);
    const packages = packagesIn(files);
    for (const needed of [
      'probot',
      'bullmq',
      'ioredis',
      'pino',
      'ai',
      '@ai-sdk/anthropic',
      '@ai-sdk/openai',
      '@ai-sdk/openai-compatible',
    ])
      expect(packages, needed).toContain(needed);
    for (const tool of [
      'vitest',
      'eslint',
      'typescript',
      'typescript-eslint',
      'nock',
      'esbuild',
      '@vercel/nft',
      'prettier',
      'knip',
      'dependency-cruiser',
      'fast-check',
      '@octokit/webhooks-examples',
      '@types/node',
    ])
      expect(packages, tool).not.toContain(tool);
  });

  it('without credentials: /ping answers, the registration pages come up, /ready is not served', async () => {
    const app = await startImageApp({ REDIS_URL: redis.url, NO_SMEE_SETUP: 'true' });
    const ping = await until(
      app,
      async () => {
        const answer = await fetch(`${app.origin}/ping`);
        return answer.ok ? answer.text() : undefined;
      },
      '/ping to answer',
    );
    expect(ping).toBe('PONG');
    const page = await fetch(`${app.origin}/probot`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('skillclimb review-loop'); // the name in app.yml
    expect((await fetch(`${app.origin}/probot/static/primer.css`)).status).toBe(200);
    expect((await fetch(`${app.origin}/ready`)).status).toBe(404);
    expect(app.output()).not.toMatch(/Cannot find|ERR_MODULE_NOT_FOUND/);
  }, 60_000);

  it('with credentials, as the image runs it: /ready answers 200 once Redis answered, and a /review-loop reaches the model', async () => {
    const app = await startImageApp({
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      NODE_ENV: 'production',
      GHE_HOST: github.host,
      GHE_PROTOCOL: 'http',
      REDIS_URL: redis.url,
      REVIEW_LOOP_RECOVERY_MINUTES: '0',
      REVIEW_LOOP_REVIEWER_MODEL: 'openai:gpt-5',
      REVIEW_LOOP_EXECUTOR_MODEL: 'anthropic:claude-sonnet-4-5',
      OPENAI_API_KEY: 'sk-openai-image-test',
      OPENAI_BASE_URL: `${modelOrigin}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-image-test',
      ANTHROPIC_BASE_URL: modelOrigin,
    });
    const ready = await until(
      app,
      async () => {
        const answer = await fetch(`${app.origin}/ready`);
        return answer.ok
          ? ((await answer.json()) as { ready: boolean; checks: Record<string, string> })
          : undefined;
      },
      '/ready to answer 200',
    );
    expect(ready.ready).toBe(true);
    expect(ready.checks.store).toBe(`redis at 127.0.0.1:${redis.port}: answered PONG to PING`);
    expect(await (await fetch(`${app.origin}/ping`)).text()).toBe('PONG');

    const body = JSON.stringify(commentPayload({ body: '/review-loop', commentId: 501 }));
    const answer = await fetch(`${app.origin}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'image-delivery-1',
        'x-hub-signature-256': sign(SECRET, body),
      },
      body,
    });
    expect(answer.status).toBeLessThan(300);
    await until(app, () => (modelCalls.length > 0 ? true : undefined), "the reviewer's model call");
    expect(modelCalls[0]).toMatch(/^\/v1\//);
    // The refused key ends the loop: its check run is concluded through GitHub.
    await until(
      app,
      () =>
        github.requests.find(
          (r) =>
            r.method === 'PATCH' &&
            r.url.startsWith(`/api/v3${REPO_PATH}/check-runs/`) &&
            (JSON.parse(r.body) as { status?: string }).status === 'completed',
        ),
      'the check run to be concluded',
    );
    expect(app.output()).not.toMatch(/Cannot find|ERR_MODULE_NOT_FOUND/);
    // SIGTERM, the image's STOPSIGNAL: a clean stop.
    await stopChild(app.child);
    expect(app.child.exitCode).toBe(0);
  }, 90_000);
});
