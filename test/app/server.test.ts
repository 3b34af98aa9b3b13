/**
 * Start-up that fails loudly (docs/app.md § Deploy): `startApp` — Probot's `run` — in this process on a
 * free port, GitHub intercepted by nock. The private key is read in every form it reaches the App in
 * (the quoted `.env` line Probot writes, as `docker run --env-file` passes it on; `\n` escapes; base64; a
 * file through PRIVATE_KEY_PATH) or refused with the variable's name and the fix; `GET /ready` says
 * whether GitHub accepts the credentials, checked with the App's own JWT, while `/ping` stays the
 * liveness probe.
 */
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalisePrivateKey, readCredentials } from '../../src/app/credentials.js';
import { startApp, type StartedApp } from '../../src/app/server.js';
import { API, APP_ID, PRIVATE_KEY, outcome, scriptedRunner } from '../helpers/app-fixtures.js';
import { freePort } from '../helpers/app-child.js';

let started: StartedApp | undefined;
let dir: string | undefined;

beforeEach(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  dir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-start-'));
});

afterEach(async () => {
  await started?.stop();
  started = undefined;
  nock.cleanAll();
  nock.enableNetConnect();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `.env` exactly as Probot's registration flow writes it (manifest-creation.js → update-env.js). */
function probotDotEnv(pem: string): string {
  const escape = (value: string) => value.replace(/\n/g, '\\n');
  return [`APP_ID=${APP_ID}`, `PRIVATE_KEY=${escape(`"${pem}"`)}`, 'WEBHOOK_SECRET=s3cret'].join('\n');
}

/** The variables `docker run --env-file` passes on: `KEY=VALUE` per line, the value verbatim (quotes kept). */
function dockerEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/** The same key, whatever its text: both export to the same DER. */
function sameKey(a: string, b: string): boolean {
  const der = (pem: string) => createPrivateKey(pem).export({ type: 'pkcs1', format: 'der' }).toString('hex');
  return der(a) === der(b);
}

/** GitHub's `GET /app`, which answers only when the JWT verifies with the App's public key and names the App. */
function nockGetApp(scope = nock(API)) {
  const publicKey = createPublicKey(PRIVATE_KEY);
  return scope.get('/app').reply(function () {
    const jwt = String(this.req.headers.authorization ?? '').replace(/^bearer /i, '');
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    const valid = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      publicKey,
      Buffer.from(signature, 'base64url'),
    );
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}') as {
      iss?: unknown;
    };
    return valid && String(claims.iss) === String(APP_ID)
      ? [200, { id: APP_ID, slug: 'skillclimb-review-loop' }]
      : [401, { message: 'A JSON web token could not be decoded' }];
  });
}

async function start(env: Record<string, string>) {
  const port = await freePort();
  const { runner } = scriptedRunner(async () => outcome());
  started = await startApp(
    { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'fatal', NODE_ENV: 'production' },
    { runner, cwd: dir },
  );
  return `http://127.0.0.1:${port}`;
}

describe('the private key, in every form it reaches the App', () => {
  it('the Docker route: a .env Probot wrote, passed on by `docker run --env-file` with its quotes, starts a ready App', async () => {
    const env = dockerEnvFile(probotDotEnv(PRIVATE_KEY));
    expect(env.PRIVATE_KEY!.startsWith('"-----BEGIN RSA PRIVATE KEY-----\\n')).toBe(true);
    const mock = nockGetApp();
    const origin = await start(env);

    const ready = await fetch(`${origin}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      ready: true,
      app: 'skillclimb-review-loop',
      checks: { store: expect.stringMatching(/^memory: /) as unknown },
    });
    expect((await fetch(`${origin}/ping`)).status).toBe(200);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('reads the key quoted, with \\n escapes, in base64, on one line, and from PRIVATE_KEY_PATH', async () => {
    const file = path.join(dir!, 'app.pem');
    await writeFile(file, PRIVATE_KEY);
    const oneLine = PRIVATE_KEY.replace(/\n/g, '');
    for (const env of [
      { PRIVATE_KEY: `"${PRIVATE_KEY.replace(/\n/g, '\\n')}"` },
      { PRIVATE_KEY: `'${PRIVATE_KEY}'` },
      { PRIVATE_KEY: PRIVATE_KEY.replace(/\n/g, '\\n') },
      { PRIVATE_KEY: Buffer.from(PRIVATE_KEY).toString('base64') },
      { PRIVATE_KEY: oneLine },
      { PRIVATE_KEY_PATH: 'app.pem' },
    ]) {
      const credentials = readCredentials({ APP_ID: String(APP_ID), WEBHOOK_SECRET: 's3cret', ...env }, dir);
      expect(credentials?.appId).toBe(APP_ID);
      expect(sameKey(credentials!.privateKey, PRIVATE_KEY)).toBe(true);
    }
    expect(sameKey(normalisePrivateKey(PRIVATE_KEY), PRIVATE_KEY)).toBe(true);
  });

  it.each([
    [
      { PRIVATE_KEY: PRIVATE_KEY.slice(0, 400) },
      /^PRIVATE_KEY: does not hold a private key that can be read .*PRIVATE_KEY_PATH/,
    ],
    [{ PRIVATE_KEY: 'ghp_not-a-key' }, /^PRIVATE_KEY: does not hold a private key/],
    [{ PRIVATE_KEY_PATH: 'missing.pem' }, /^PRIVATE_KEY_PATH: no file at "missing\.pem"/],
    [{ PRIVATE_KEY: PRIVATE_KEY, APP_ID: '' }, /^APP_ID: is not set/],
    [{ PRIVATE_KEY: PRIVATE_KEY, APP_ID: 'my-app' }, /^APP_ID: expected the App's numeric id/],
  ])('refuses to start with %#, naming the variable and the fix, never the key', async (env, message) => {
    const tried: string[] = [];
    nock.emitter.on('no match', (req: { path?: string }) => tried.push(String(req.path)));
    const error = await start({ APP_ID: String(APP_ID), ...env }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    nock.emitter.removeAllListeners('no match');
    expect(error?.message).toMatch(message);
    for (const line of PRIVATE_KEY.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'))) {
      expect(error?.message).not.toContain(line);
    }
    expect(started).toBeUndefined();
    expect(tried).toStrictEqual([]);
  });
});

describe('readiness', () => {
  it('`/ready` answers 503 with the reason while GitHub refuses the credentials; `/ping` still answers', async () => {
    const mock = nock(API).get('/app').reply(401, { message: 'Bad credentials' });
    const origin = await start({ APP_ID: String(APP_ID), PRIVATE_KEY, WEBHOOK_SECRET: 's3cret' });
    const ready = await fetch(`${origin}/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { ready: boolean; reason: string };
    expect(body.ready).toBe(false);
    expect(body.reason).toMatch(
      /^GitHub refused the App's credentials \(HTTP 401: .*Bad credentials.*\): APP_ID and PRIVATE_KEY/,
    );
    const ping = await fetch(`${origin}/ping`);
    expect(await ping.text()).toBe('PONG');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
