/**
 * The real server: the `npm start` entry (src/app/main.ts → Probot's `run`) in a child process on a free
 * port, configured only by Probot's environment plus the model settings. A signed `/review-loop` delivery
 * is answered 2xx; the background work then goes through a fake GitHub Enterprise Server (GHE_HOST) to the
 * review engine's first model call, which a loopback model server (OPENAI_BASE_URL, ANTHROPIC_BASE_URL)
 * holds — so the answer provably came while the model request it caused was still pending. A bad
 * signature gets 4xx and starts nothing.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, PRIVATE_KEY, REPO_PATH, commentPayload } from '../helpers/app-fixtures.js';
import {
  answeringGitHub,
  compileApp,
  freePort,
  holdingModelServer,
  sign,
  pullRequestRoutes,
  startChild,
  stopChild,
  waitFor,
} from '../helpers/app-child.js';

const SECRET = 'webhook-secret-for-the-test';

let compiled: Awaited<ReturnType<typeof compileApp>>;
let github: Awaited<ReturnType<typeof answeringGitHub>>;
let models: Awaited<ReturnType<typeof holdingModelServer>>;
let started: ReturnType<typeof startChild>;
let origin: string;

beforeAll(async () => {
  compiled = await compileApp();
  github = await answeringGitHub(pullRequestRoutes());
  models = await holdingModelServer();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  started = startChild(compiled.main, compiled.dir, {
    APP_ID: String(APP_ID),
    PRIVATE_KEY,
    WEBHOOK_SECRET: SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GHE_HOST: github.host,
    GHE_PROTOCOL: 'http',
    REVIEW_LOOP_REVIEWER_MODEL: 'openai:gpt-5',
    REVIEW_LOOP_EXECUTOR_MODEL: 'anthropic:claude-sonnet-4-5',
    OPENAI_API_KEY: 'sk-openai-server-test',
    OPENAI_BASE_URL: `${models.origin}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-server-test',
    ANTHROPIC_BASE_URL: models.origin,
  });
  await waitFor(
    async () => ((await fetch(`${origin}/ready`)).ok ? true : undefined),
    30_000,
    `the App to answer /ready (output: ${started.output()})`,
  );
}, 120_000);

afterAll(async () => {
  models?.release();
  if (started) await stopChild(started.child);
  await models?.close();
  await github?.close();
  await compiled?.remove();
});

async function deliver(body: string, signature: string) {
  return fetch(`${origin}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': `delivery-${Math.random()}`,
      'x-hub-signature-256': signature,
    },
    body,
  });
}

describe('the App as `npm start` runs it', () => {
  it('answers GET /ping, and GET /ready once GitHub accepted the credentials at start-up', async () => {
    const res = await fetch(`${origin}/ping`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('PONG');
    const ready = await fetch(`${origin}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      ready: true,
      app: 'skillclimb-review-loop',
      checks: { store: expect.stringMatching(/^memory: /) as unknown },
    });
    // checked before the server said it was up, with the App's JWT
    expect(github.requests[0]?.url).toBe('/api/v3/app');
  });

  it('answers a signed /review-loop delivery 2xx while the model request it causes is still pending', async () => {
    const body = JSON.stringify(commentPayload({ body: '/review-loop' }));
    const earlier = github.requests.length;
    const res = await deliver(body, sign(SECRET, body));
    const ackedAt = Date.now();
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    // In the background: GitHub (the token first), then the engine's first model call — held.
    const call = await waitFor(
      () => models.held[0],
      20_000,
      `the reviewer call (output: ${started.output()})`,
    );
    expect(call.url).toBe('/v1/responses');
    expect(JSON.parse(call.body)).toMatchObject({ model: 'gpt-5' });
    // Both times are Date.now() in this process (the fakes run here), so no clock skew: the App's first
    // GitHub call and its model call come after the answer, with no slack (measured ≈200 ms after it).
    expect(call.at).toBeGreaterThanOrEqual(ackedAt);
    expect(models.answered()).toBe(0);
    // The missed-delivery pass at start-up (GET /app/hook/deliveries) may land meanwhile: it is not the delivery's.
    const caused = github.requests.slice(earlier).filter((r) => !r.url.startsWith('/api/v3/app/hook/'));
    expect(caused[0]?.url).toBe('/api/v3/app/installations/1/access_tokens');
    expect(caused[0]!.at).toBeGreaterThanOrEqual(ackedAt);
    expect(github.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toContain(
      `POST /api/v3${REPO_PATH}/check-runs`,
    );
  });

  it('refuses a delivery with a bad signature with 4xx and starts no work', async () => {
    const body = JSON.stringify(commentPayload({ body: '/review-loop', commentId: 202 }));
    const before = github.requests.length;
    const res = await deliver(body, sign('not-the-secret', body));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(github.requests.length).toBe(before);
    // one warning line for the operator: the delivery and the fix, no payload, no stack trace
    const lines = started
      .output()
      .split('\n')
      .filter((line) => /signature/i.test(line));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      msg: expect.stringMatching(
        /^webhook delivery delivery-\S+ refused: its signature does not match WEBHOOK_SECRET/,
      ),
    });
    expect(started.output()).not.toContain('"commentId"');
    expect(started.output()).not.toMatch(/\n\s+at /);
  });
});

describe('`npm start` without credentials', () => {
  it("serves Probot's registration flow with the manifest from app.yml", async () => {
    // A folder of its own: Probot reads app.yml, package.json and .env from the working directory.
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-app-setup-'));
    const root = path.resolve(import.meta.dirname, '..', '..');
    await copyFile(path.join(root, 'app.yml'), path.join(cwd, 'app.yml'));
    await copyFile(path.join(root, 'package.json'), path.join(cwd, 'package.json'));
    const port = await freePort();
    const setup = startChild(compiled.main, cwd, {
      PORT: String(port),
      HOST: '127.0.0.1',
      NO_SMEE_SETUP: 'true',
      LOG_LEVEL: 'warn',
    });
    try {
      const page = await waitFor(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/probot`);
          return res.ok ? res.text() : undefined;
        },
        30_000,
        `the registration page (output: ${setup.output()})`,
      );
      const manifest = page.replace(/&#34;/g, '"').replace(/&#39;/g, "'");
      expect(manifest).toContain('"name":"skillclimb review-loop"');
      // the page shows the App's own name and description (app.yml), not the npm package's
      expect(page).toContain('<h1>skillclimb review-loop</h1>');
      expect(page).toContain('Runs model review loops on pull requests');
      expect(page).not.toContain('Hill-climb agent skills');
      // the webhook points at the App's webhook path, and the page says what to set once registered
      expect(manifest).toContain(`"hook_attributes":{"url":"http://127.0.0.1:${port}/api/github/webhooks"}`);
      expect(page).toContain('https://&lt;your host&gt;/api/github/webhooks');
      expect(page).toContain('must be unique on GitHub');
      expect(page).toContain('GH_ORG');
      expect(manifest).toContain(
        '"default_permissions":{"pull_requests":"write","issues":"write","checks":"write","contents":"write","metadata":"read"}',
      );
      expect(manifest).toContain('"default_events":["issue_comment","pull_request","check_run"]');
    } finally {
      await stopChild(setup.child);
      await rm(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
