/**
 * The real server: the `npm start` entry (src/app/main.ts → Probot's `run`) in a child process on a free
 * port, configured only by Probot's environment. A signed delivery is answered 2xx while the work it
 * causes is still pending (the fake GitHub holds every answer); a bad signature gets 4xx.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, PRIVATE_KEY, commentPayload } from './helpers/app-fixtures.js';
import {
  compileApp,
  freePort,
  holdingGitHub,
  sign,
  startChild,
  stopChild,
  waitFor,
} from './helpers/app-child.js';

const SECRET = 'webhook-secret-for-the-test';

let compiled: Awaited<ReturnType<typeof compileApp>>;
let github: Awaited<ReturnType<typeof holdingGitHub>>;
let started: ReturnType<typeof startChild>;
let origin: string;

beforeAll(async () => {
  compiled = await compileApp();
  github = await holdingGitHub();
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
  });
  await waitFor(
    async () => ((await fetch(`${origin}/ping`)).ok ? true : undefined),
    30_000,
    `the App to answer /ping (output: ${started.output()})`,
  );
}, 120_000);

afterAll(async () => {
  github?.releaseAll();
  if (started) await stopChild(started.child);
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
  it('answers GET /ping', async () => {
    const res = await fetch(`${origin}/ping`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('PONG');
  });

  it('answers a signed /review-loop delivery 2xx while the work it causes is still pending', async () => {
    const body = JSON.stringify(commentPayload({ body: '/review-loop' }));
    const before = github.held.length;
    const res = await deliver(body, sign(SECRET, body));
    const ackedAt = Date.now();
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    // The background work reaches GitHub (GHE_HOST) after the answer, and is still held there.
    const first = await waitFor(() => github.held[before], 10_000, 'the background work to call GitHub');
    expect(first.url).toBe('/api/v3/app/installations/1/access_tokens');
    expect(github.answered()).toBe(0);
    expect(first.at).toBeGreaterThanOrEqual(ackedAt - 1000);
  });

  it('refuses a delivery with a bad signature with 4xx and starts no work', async () => {
    const body = JSON.stringify(commentPayload({ body: '/review-loop', commentId: 202 }));
    const before = github.held.length;
    const res = await deliver(body, sign('not-the-secret', body));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(github.held.length).toBe(before);
  });
});

describe('`npm start` without credentials', () => {
  it("serves Probot's registration flow with the manifest from app.yml", async () => {
    // A folder of its own: Probot reads app.yml, package.json and .env from the working directory.
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-app-setup-'));
    const root = path.resolve(import.meta.dirname, '..');
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
      const manifest = page.replace(/&quot;/g, '"');
      expect(manifest).toContain('"name":"skillclimb review-loop"');
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
