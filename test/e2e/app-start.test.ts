/**
 * What an installer reads when `npm start` cannot run the App as asked (docs/app.md § Troubleshooting):
 * the `npm start` entry (src/app/main.ts → Probot's `run`) in a child process, its stdout and stderr
 * read whole. Without a key outside production the log names PRIVATE_KEY before the registration pages
 * come up; a port in use is one message; without WEBHOOK_SECRET the start stops with one message naming
 * it; and every failed readiness probe is one log line, stack-free, naming the cause — here a GitHub
 * (GHE_HOST) that refuses the connection.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, PRIVATE_KEY } from '../helpers/app-fixtures.js';
import { compileApp, freePort, startChild, stopChild, waitFor } from '../helpers/app-child.js';
import { closeServer, listenOnLoopback } from '../helpers/local-http.js';

let compiled: Awaited<ReturnType<typeof compileApp>>;
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  compiled = await compileApp();
}, 60_000);

afterEach(async () => {
  for (const child of children.splice(0)) await stopChild(child);
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await compiled?.remove();
});

function start(cwd: string, env: Record<string, string>) {
  const started = startChild(compiled.main, cwd, env);
  children.push(started.child);
  return started;
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const lines = (output: string) => output.split('\n').filter((line) => line.trim() !== '');
/** A stack trace, as pino writes one in JSON (a non-empty `stack`) or Node prints one (`    at …` frames). */
const STACK = /"stack":"[^"]|\n\s+at |\\n\s+at /;

describe('`npm start` tells the installer what is wrong, once', () => {
  it('without a key outside production, the log names PRIVATE_KEY before the registration pages come up', async () => {
    // A folder of its own: Probot reads app.yml and package.json from the working directory.
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-app-nokey-'));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const root = path.resolve(import.meta.dirname, '..', '..');
    await copyFile(path.join(root, 'app.yml'), path.join(cwd, 'app.yml'));
    await copyFile(path.join(root, 'package.json'), path.join(cwd, 'package.json'));
    const port = await freePort();
    const setup = start(cwd, {
      APP_ID: String(APP_ID),
      PORT: String(port),
      HOST: '127.0.0.1',
      NO_SMEE_SETUP: 'true',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    await waitFor(
      async () => ((await fetch(`http://127.0.0.1:${port}/probot`)).ok ? true : undefined),
      30_000,
      `the registration page (output: ${setup.output()})`,
    );
    const messages = lines(setup.output()).map((line) => (JSON.parse(line) as { msg: string }).msg);
    const named = messages.findIndex((msg) =>
      msg.startsWith('PRIVATE_KEY is not set (nor PRIVATE_KEY_PATH)'),
    );
    expect(named).toBe(0);
    expect(messages[named]).toBe(
      `PRIVATE_KEY is not set (nor PRIVATE_KEY_PATH): serving the registration pages at http://127.0.0.1:${port}/probot instead of the App. To run the App, set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH) and WEBHOOK_SECRET (docs/app.md § Environment)`,
    );
    expect(messages.findIndex((msg) => msg.startsWith('Listening on'))).toBeGreaterThan(named);
  }, 60_000);

  it('a port in use is one message naming PORT, without a stack trace', async () => {
    const occupant = http.createServer((_req, res) => res.end('someone else'));
    const origin = await listenOnLoopback(occupant);
    cleanups.push(() => closeServer(occupant));
    const port = new URL(origin).port;
    const app = start(compiled.dir, {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      WEBHOOK_SECRET: 'webhook-secret-for-the-test',
      PORT: port,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      REVIEW_LOOP_RECOVERY_MINUTES: '0',
    });
    expect(await exited(app.child)).toBe(1);
    const output = app.output();
    expect(lines(output).filter((line) => line.includes(port))).toEqual([
      `review-loop App did not start: PORT: port ${port} on 127.0.0.1 is in use by another process; stop that process or set PORT to a free port`,
    ]);
    expect(output).not.toMatch(STACK);
    expect(output).not.toMatch(/EADDRINUSE/);
  }, 60_000);

  it('without WEBHOOK_SECRET, the App with credentials does not start: one message naming it', async () => {
    const port = await freePort();
    const app = start(compiled.dir, {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    expect(await exited(app.child)).toBe(1);
    expect(lines(app.output())).toEqual([
      expect.stringMatching(/^review-loop App did not start: WEBHOOK_SECRET: is not set, so no delivery/),
    ]);
    expect(
      await fetch(`http://127.0.0.1:${port}/ready`).then(
        () => 'answered',
        () => 'nothing',
      ),
    ).toBe('nothing');
  }, 60_000);

  it('each failed readiness probe is one log line, stack-free, naming the refused connection', async () => {
    const nobody = await freePort();
    const port = await freePort();
    const app = start(compiled.dir, {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      WEBHOOK_SECRET: 'webhook-secret-for-the-test',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      GHE_HOST: `127.0.0.1:${nobody}`,
      GHE_PROTOCOL: 'http',
      REVIEW_LOOP_RECOVERY_MINUTES: '0',
    });
    // the start-up check's line says what `/ready` will answer
    const startup = await waitFor(
      () => lines(app.output()).find((line) => line.includes('GET /ready answers 503 until it does')),
      30_000,
      `the start-up check (output: ${app.output()})`,
    );
    expect(startup).not.toMatch(STACK);
    // the start's last line (the shared-state check's) may reach the pipe after the check's: count from it
    await waitFor(
      () => lines(app.output()).find((line) => line.includes('memory: the queue and the claims')),
      5_000,
      `the shared-state line (output: ${app.output()})`,
    );
    const before = lines(app.output()).length;
    const reasons: string[] = [];
    for (let probe = 0; probe < 3; probe++) {
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(res.status).toBe(503);
      reasons.push(((await res.json()) as { reason: string }).reason);
    }
    const cause = `http://127.0.0.1:${nobody}: the connection was refused (nothing listens there) (connect ECONNREFUSED 127.0.0.1:${nobody})`;
    expect(reasons).toEqual(
      Array(3).fill(`GitHub could not be reached to ask whether the App's credentials work: ${cause}`),
    );
    await waitFor(
      () => (lines(app.output()).length >= before + 3 ? true : undefined),
      5_000,
      `three probe lines (output: ${app.output()})`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const probeLines = lines(app.output()).slice(before);
    expect(probeLines).toHaveLength(3);
    for (const line of probeLines) {
      const entry = JSON.parse(line) as { msg: string; err?: { message?: string } };
      expect(entry.msg).toMatch(/^GET \/ready 503 - \d+ms$/);
      expect(entry.err?.message).toContain(cause);
      expect(line).not.toMatch(STACK);
    }
    // the start-up check is GitHub's only request: the probes within the minute reuse its answer
    expect(app.output()).not.toMatch(/HTTP 500/);
  }, 60_000);
});
