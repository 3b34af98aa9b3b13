/**
 * What `npm start` lets run (docs/app.md § Environment, § Troubleshooting): `startApp` — Probot's `run` —
 * in this process on a free loopback port, GitHub intercepted by nock. With APP_ID and a key the App
 * never runs without a webhook secret of the operator's own (unset, empty, or Probot's public default
 * `development`), production or not, so no delivery signed with a secret nobody set is accepted; without
 * a key (outside production) the registration pages still run; `/ready` names a connection GitHub never
 * answered as what it is, not as "HTTP 500".
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startApp, type StartedApp } from '../../src/app/server.js';
import { APP_ID, PRIVATE_KEY, commentPayload, outcome, scriptedRunner } from '../helpers/app-fixtures.js';
import { freePort, sign } from '../helpers/app-child.js';
import { WEBHOOK_SECRET, nockGetApp, readyState } from '../helpers/started-app.js';

let started: StartedApp | undefined;
/** Every request off this machine that nock had no interceptor for: the App asked GitHub for something. */
let unmatched: string[] = [];
const onNoMatch = (req: { method?: string; href?: string; hostname?: string }) => {
  if (req.hostname !== '127.0.0.1') unmatched.push(`${String(req.method)} ${String(req.href)}`);
};

beforeEach(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  unmatched = [];
  nock.emitter.on('no match', onNoMatch);
});

afterEach(async () => {
  await started?.stop();
  started = undefined;
  nock.emitter.removeListener('no match', onNoMatch);
  vi.unstubAllEnvs();
  nock.cleanAll();
  nock.enableNetConnect();
});

async function startOn(port: number, env: Record<string, string | undefined>) {
  const { runner, requests } = scriptedRunner(async () => outcome());
  started = await startApp(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
      REVIEW_LOOP_RECOVERY_MINUTES: '0',
      ...env,
    },
    { runner },
  );
  return { origin: `http://127.0.0.1:${port}`, requests };
}

/** A network failure as Node reports it: the connection never got an answer. */
function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, syscall: 'connect' });
}

/** Whether anything answers HTTP on the port. */
async function listening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/ready`).then(
    () => true,
    () => false,
  );
}

describe('no App without a webhook secret of its own', () => {
  it.each([
    ['production', undefined, /^WEBHOOK_SECRET: is not set, so no delivery could be verified/],
    ['development', undefined, /^WEBHOOK_SECRET: is not set/],
    [undefined, '', /^WEBHOOK_SECRET: is not set/],
    ['development', '   ', /^WEBHOOK_SECRET: is not set/],
    ['production', 'development', /^WEBHOOK_SECRET: is Probot's public default "development"/],
    ['development', 'development', /^WEBHOOK_SECRET: is Probot's public default "development"/],
  ])(
    'NODE_ENV=%s, WEBHOOK_SECRET=%j: the start stops naming WEBHOOK_SECRET and the fix; nothing listens, GitHub is not asked',
    async (nodeEnv, secret, message) => {
      const port = await freePort();
      const error = await startOn(port, {
        APP_ID: String(APP_ID),
        PRIVATE_KEY,
        NODE_ENV: nodeEnv,
        WEBHOOK_SECRET: secret,
      }).then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
      expect(error?.message).toMatch(message);
      expect(error?.message).toContain("the App's settings → General → Webhook secret");
      expect(started).toBeUndefined();
      // no server, so no `/ready` to answer 200 and no webhook path to take a delivery
      expect(await listening(port)).toBe(false);
      expect(unmatched).toStrictEqual([]);
    },
  );

  it("a delivery signed with Probot's public default `development` is refused and runs nothing", async () => {
    const mock = nockGetApp();
    const port = await freePort();
    const { origin, requests } = await startOn(port, {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      NODE_ENV: 'production',
    });
    expect((await readyState(origin)).status).toBe(200);
    const body = JSON.stringify(commentPayload({ body: '/review-loop' }));
    const res = await fetch(`${origin}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'delivery-signed-with-development',
        'x-hub-signature-256': sign('development', body),
      },
      body,
    });
    expect(res.status).toBe(400);
    await started!.app!.queue.idle();
    expect(requests).toHaveLength(0);
    expect(unmatched).toStrictEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it.each([
    ['nothing set', {}],
    ['APP_ID and WEBHOOK_SECRET but no key', { APP_ID: String(APP_ID), WEBHOOK_SECRET: 'from-an-old-env' }],
    ['APP_ID but no key nor secret', { APP_ID: String(APP_ID) }],
  ])('without a key (%s), the registration pages still run outside production', async (_case, env) => {
    // Probot's registration flow reads this one from the process's environment (no smee.io channel here).
    vi.stubEnv('NO_SMEE_SETUP', 'true');
    const port = await freePort();
    const { origin } = await startOn(port, { NODE_ENV: 'development', ...env });
    expect(started?.app).toBeUndefined();
    const page = await fetch(`${origin}/probot`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Register GitHub App');
    // setup mode has no `/ready` to answer 200: the App is not running
    expect((await fetch(`${origin}/ready`)).status).toBe(404);
    expect(unmatched).toStrictEqual([]);
  });
});

describe('`/ready` names the real cause', () => {
  it('a refused connection is said as one, with where it went, not as "HTTP 500"', async () => {
    const mock = nock('https://api.github.com')
      .get('/app')
      .replyWithError(systemError('ECONNREFUSED', 'connect ECONNREFUSED 140.82.121.6:443'));
    const port = await freePort();
    const { origin } = await startOn(port, {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      NODE_ENV: 'production',
    });
    const state = await readyState(origin);
    expect(state.status).toBe(503);
    expect(state.body.reason).toBe(
      "GitHub could not be reached to ask whether the App's credentials work: https://api.github.com: the connection was refused (nothing listens there) (connect ECONNREFUSED 140.82.121.6:443)",
    );
    expect(state.body.reason).not.toMatch(/HTTP \d/);
    // one probe, no retries behind it: a load balancer's probe gets its answer at once
    expect(unmatched).toStrictEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('a host name that does not resolve is said so too', async () => {
    const mock = nock('https://api.github.com')
      .get('/app')
      .replyWithError(systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.github.com'));
    const port = await freePort();
    const { origin } = await startOn(port, {
      APP_ID: String(APP_ID),
      PRIVATE_KEY,
      WEBHOOK_SECRET,
      NODE_ENV: 'production',
    });
    const state = await readyState(origin);
    expect(state.status).toBe(503);
    expect(state.body.reason).toMatch(
      /^GitHub could not be reached .*: https:\/\/api\.github\.com: the host name was not found \(getaddrinfo ENOTFOUND api\.github\.com\)$/,
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
