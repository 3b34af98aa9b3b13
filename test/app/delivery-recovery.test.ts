/**
 * Missed deliveries recovered (docs/app.md § Missed deliveries): GitHub's deliveries API served by nock
 * to a real Probot client with the App's JWT. Of the listed deliveries — some OK, some of events the App
 * does not handle, one older than the 3-day window, one failed whose event later succeeded, two failed —
 * exactly the two failed ones are redelivered, once each, also by two App instances sharing one Redis;
 * an API error is one log line and the App keeps going.
 */
import { Redis } from 'ioredis';
import nock from 'nock';
import { Probot, ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HookDelivery } from '../../src/app/delivery-recovery.js';
import {
  DeliveryRecovery,
  failedDeliveries,
  nextCursor,
  recoveryIntervalFromEnv,
} from '../../src/app/delivery-recovery.js';
import { MemoryOnceGuard, RedisOnceGuard } from '../../src/app/once-guard.js';
import { startApp, type StartedApp } from '../../src/app/server.js';
import { API, APP_ID, NOW, PRIVATE_KEY, outcome, scriptedRunner } from '../helpers/app-fixtures.js';
import { freePort } from '../helpers/app-child.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const HOUR = 60 * 60_000;

function delivery(id: number, guid: string, event: string, status: number, hoursAgo: number): HookDelivery {
  return {
    id,
    guid,
    delivered_at: new Date(NOW.getTime() - hoursAgo * HOUR).toISOString(),
    redelivery: false,
    status: status === 200 ? 'OK' : status === 0 ? 'failed to connect' : `Invalid HTTP Response: ${status}`,
    status_code: status,
    event,
    action: 'created',
  };
}

/** Newest first, as GitHub lists them, over two pages. */
const PAGE_1 = [
  delivery(108, 'g-ok-redelivered', 'issue_comment', 200, 0.5), // the redelivery that succeeded
  delivery(107, 'g-failed-comment', 'issue_comment', 502, 1),
  delivery(106, 'g-ok', 'pull_request', 200, 2),
  delivery(105, 'g-other-event', 'issues', 500, 3),
  delivery(104, 'g-failed-check', 'check_run', 0, 4),
];
const PAGE_2 = [
  delivery(103, 'g-ok-redelivered', 'issue_comment', 503, 5), // failed first, succeeded on redelivery
  delivery(102, 'g-ok-2', 'check_run', 200, 30),
  delivery(101, 'g-too-old', 'pull_request', 502, 73),
];
const CURSOR = 'v1_103';

/** The two pages of `GET /app/hook/deliveries`, joined by GitHub's Link header with its cursor. */
function nockDeliveries(scope = nock(API), times = 1) {
  scope
    .get('/app/hook/deliveries')
    .query({ per_page: '100' })
    .times(times)
    .reply(200, PAGE_1, {
      link: `<${API}/app/hook/deliveries?per_page=100&cursor=${CURSOR}>; rel="next"`,
    });
  scope
    .get('/app/hook/deliveries')
    .query({ per_page: '100', cursor: CURSOR })
    .times(times)
    .reply(200, PAGE_2);
  return scope;
}

/** The redeliveries GitHub was asked for, by delivery id. */
function nockRedeliveries(asked: number[], scope = nock(API), times = 2) {
  return scope
    .post(/^\/app\/hook\/deliveries\/\d+\/attempts$/)
    .times(times)
    .reply(function (uri) {
      const bearer = String(this.req.headers.authorization ?? '');
      asked.push(Number(/deliveries\/(\d+)\//.exec(uri)?.[1]));
      // The App's JWT, never an installation token: three base64url parts.
      return /^bearer [\w-]+\.[\w-]+\.[\w-]+$/i.test(bearer) ? [202, {}] : [401, { message: 'JWT expected' }];
    });
}

function testProbot(): Probot {
  return new Probot({
    appId: APP_ID,
    privateKey: PRIVATE_KEY,
    logLevel: 'fatal',
    Octokit: ProbotOctokit.defaults((options: object) => ({
      ...options,
      retry: { enabled: false },
      throttle: { enabled: false },
    })),
  });
}

function recovery(
  options: { guard?: MemoryOnceGuard | RedisOnceGuard; lines?: string[]; probot?: Probot } = {},
) {
  const probot = options.probot ?? testProbot();
  const lines = options.lines ?? [];
  return new DeliveryRecovery({
    octokit: () => probot.auth(),
    guard: options.guard ?? new MemoryOnceGuard(() => NOW.getTime()),
    log: {
      info: (message) => lines.push(`info ${message}`),
      warn: (message) => lines.push(`warn ${message}`),
      debug: (message) => lines.push(`debug ${message}`),
    },
    now: () => NOW.getTime(),
    intervalMs: 0,
  });
}

describe('which deliveries are redelivered', () => {
  it('the failed deliveries of handled events within 3 days whose event never succeeded, newest first', () => {
    const { toRedeliver, gaveUp } = failedDeliveries([...PAGE_1, ...PAGE_2], NOW.getTime());
    expect(toRedeliver.map((d) => d.id)).toEqual([107, 104]);
    expect(gaveUp).toBe(0);
  });

  it('an event that failed three times is left alone; a redelivery that failed again is asked for again', () => {
    const thrice = [
      delivery(3, 'g', 'issue_comment', 500, 1),
      delivery(2, 'g', 'issue_comment', 500, 2),
      delivery(1, 'g', 'issue_comment', 500, 3),
    ];
    expect(failedDeliveries(thrice, NOW.getTime())).toEqual({ toRedeliver: [], gaveUp: 1 });
    expect(failedDeliveries(thrice.slice(0, 2), NOW.getTime()).toRedeliver.map((d) => d.id)).toEqual([3]);
  });

  it('a delivery the App refused on purpose (400 bad signature, 413 too large) is not asked for again', () => {
    const refused = [
      delivery(3, 'g-signature', 'issue_comment', 400, 1),
      delivery(2, 'g-size', 'pull_request', 413, 1),
      delivery(1, 'g-busy', 'pull_request', 429, 1),
    ];
    expect(failedDeliveries(refused, NOW.getTime()).toRedeliver.map((d) => d.id)).toEqual([1]);
  });

  it('reads the cursor of the next page from the Link header', () => {
    expect(
      nextCursor(
        `<${API}/app/hook/deliveries?per_page=100&cursor=v1_9>; rel="next", <${API}/app/hook/deliveries?per_page=100>; rel="first"`,
      ),
    ).toBe('v1_9');
    expect(nextCursor(`<${API}/app/hook/deliveries?per_page=100>; rel="first"`)).toBeUndefined();
    expect(nextCursor(undefined)).toBeUndefined();
  });

  it('REVIEW_LOOP_RECOVERY_MINUTES: minutes between passes, 0 off, anything else refused by name', () => {
    expect(recoveryIntervalFromEnv({})).toBe(10 * 60_000);
    expect(recoveryIntervalFromEnv({ REVIEW_LOOP_RECOVERY_MINUTES: '2' })).toBe(2 * 60_000);
    expect(recoveryIntervalFromEnv({ REVIEW_LOOP_RECOVERY_MINUTES: '0' })).toBeUndefined();
    expect(() => recoveryIntervalFromEnv({ REVIEW_LOOP_RECOVERY_MINUTES: 'ten' })).toThrow(
      /^REVIEW_LOOP_RECOVERY_MINUTES: expected a number of minutes/,
    );
  });
});

describe('one App instance', () => {
  it('redelivers each of the two failed deliveries once, and not again on the next pass', async () => {
    const asked: number[] = [];
    const mock = nockDeliveries(nock(API), 2);
    nockRedeliveries(asked, mock);
    const lines: string[] = [];
    const recover = recovery({ lines });

    const first = await recover.start();
    const second = await recover.pass();
    await recover.stop();

    expect(asked.sort()).toEqual([104, 107]);
    expect(first).toMatchObject({ found: 2, redelivered: 2, alreadyAsked: 0 });
    expect(second).toMatchObject({ found: 2, redelivered: 0, alreadyAsked: 2 });
    expect(lines).toEqual([
      'info Missed deliveries: 2 failed deliveries of handled events in the last 3 days, 2 redelivered',
      'info Missed deliveries: 2 failed deliveries of handled events in the last 3 days, 0 redelivered, 2 already redelivered (by this or another replica)',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('asks for at most the pass’s bound and leaves the rest for the next pass', async () => {
    const asked: number[] = [];
    const mock = nockDeliveries(nock(API), 2);
    nockRedeliveries(asked, mock, 2);
    const probot = testProbot();
    const bounded = new DeliveryRecovery({
      octokit: () => probot.auth(),
      guard: new MemoryOnceGuard(),
      log: { info: () => undefined, warn: () => undefined },
      now: () => NOW.getTime(),
      intervalMs: 0,
      maxRedeliveries: 1,
    });
    expect(await bounded.pass()).toMatchObject({ redelivered: 1, deferred: 1 });
    expect(asked).toEqual([107]);
    expect(await bounded.pass()).toMatchObject({ redelivered: 1, alreadyAsked: 1, deferred: 0 });
    expect(asked).toEqual([107, 104]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('an API error is one clear log line, not repeated at every pass, and never thrown', async () => {
    const mock = nock(API)
      .get('/app/hook/deliveries')
      .query(true)
      .times(2)
      .reply(404, { message: 'Not Found' });
    const lines: string[] = [];
    const recover = recovery({ lines });

    const first = await recover.start();
    const second = await recover.pass();

    expect(first.error).toMatch(/^GET \/app\/hook\/deliveries answered 404: this GitHub does not list/);
    expect(second.error).toBe(first.error);
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([
      `warn Missed deliveries: ${first.error}`,
    ]);
    expect(lines.filter((line) => line.startsWith('info'))).toEqual([]);

    // GitHub answers again: the recovery says so and goes on.
    nockDeliveries(mock);
    nockRedeliveries([], mock);
    const third = await recover.pass();
    expect(third).toMatchObject({ found: 2, redelivered: 2 });
    expect(lines.at(-2)).toBe('info Missed deliveries: GitHub lists the deliveries again');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('while the record of what was asked for is out of reach, nothing is asked for (two replicas could both ask)', async () => {
    const mock = nockDeliveries();
    const lines: string[] = [];
    const probot = testProbot();
    const recover = new DeliveryRecovery({
      octokit: () => probot.auth(),
      guard: { first: () => Promise.reject(new Error('Connection is closed.')) },
      log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) },
      now: () => NOW.getTime(),
      intervalMs: 0,
    });
    expect(await recover.pass()).toMatchObject({ found: 2, redelivered: 0, unguarded: 2 });
    expect(lines).toEqual([
      'info Missed deliveries: 2 failed deliveries of handled events in the last 3 days, 0 redelivered, 2 not asked for (the record of those asked for is out of reach)',
      'warn Missed deliveries: 2 not asked for this pass, since the record of those asked for (Redis) could not be reached: Connection is closed.',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('a redelivery GitHub refuses is counted and named, the others still asked for', async () => {
    const mock = nockDeliveries();
    mock.post('/app/hook/deliveries/107/attempts').reply(422, { message: 'Validation Failed' });
    mock.post('/app/hook/deliveries/104/attempts').reply(202, {});
    const lines: string[] = [];
    const pass = await recovery({ lines }).pass();
    expect(pass).toMatchObject({ found: 2, redelivered: 1, refused: 1 });
    expect(lines).toEqual([
      'info Missed deliveries: 2 failed deliveries of handled events in the last 3 days, 1 redelivered, 1 refused by GitHub (issue_comment delivery 107: HTTP 422, Validation Failed)',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('two App instances sharing one Redis', () => {
  let redis: RedisProcess;
  const clients: Redis[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await redis.stop();
  });
  const client = () => {
    const made = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    clients.push(made);
    return made;
  };

  it('their passes, at once and again later, redeliver each failed delivery once in all', async () => {
    const asked: number[] = [];
    const mock = nockDeliveries(nock(API), 4);
    nockRedeliveries(asked, mock, 2);
    const a = recovery({ guard: new RedisOnceGuard(client()) });
    const b = recovery({ guard: new RedisOnceGuard(client()) });

    const [passA, passB] = await Promise.all([a.start(), b.start()]);
    const [laterA, laterB] = await Promise.all([a.pass(), b.pass()]);
    await Promise.all([a.stop(), b.stop()]);

    expect(asked.sort()).toEqual([104, 107]);
    expect(passA.redelivered + passB.redelivered).toBe(2);
    expect(passA.alreadyAsked + passB.alreadyAsked).toBe(2);
    expect([laterA.redelivered, laterB.redelivered]).toEqual([0, 0]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('the guard grants a key to one caller until its TTL ends', async () => {
    const guard = new RedisOnceGuard(client(), 'test:');
    const other = new RedisOnceGuard(client(), 'test:');
    expect(await guard.first('k', 200)).toBe(true);
    expect(await other.first('k', 200)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await other.first('k', 200)).toBe(true);
  });
});

describe('the App started with `npm start`’s code (src/app/server.ts)', () => {
  let redis: RedisProcess;
  const started: StartedApp[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  beforeEach(() => nock.enableNetConnect('127.0.0.1'));
  afterEach(async () => {
    for (const app of started.splice(0)) await app.stop();
  });
  afterAll(async () => {
    await redis.stop();
  });

  /** `startApp` in this process on a free port; the deliveries are dated relative to the real clock here. */
  async function start(extra: Record<string, string> = {}) {
    const port = await freePort();
    const { runner } = scriptedRunner(async () => outcome());
    const app = await startApp(
      {
        APP_ID: String(APP_ID),
        PRIVATE_KEY,
        WEBHOOK_SECRET: 's3cret',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'fatal',
        NODE_ENV: 'production',
        ...extra,
      },
      { runner },
    );
    started.push(app);
    return { app, origin: `http://127.0.0.1:${port}` };
  }

  it('an API error does not stop the App: the pass reports it and the server still answers', async () => {
    const mock = nock(API).get('/app').reply(200, { id: APP_ID, slug: 'skillclimb-review-loop' });
    mock
      .get('/app/hook/deliveries')
      .query(true)
      .reply(403, { message: 'Resource not accessible by integration' })
      .persist();
    const { app, origin } = await start();

    expect(app.recovery).toBeDefined();
    const pass = await app.recovery!.pass();
    expect(pass.error).toMatch(
      /^GET \/app\/hook\/deliveries answered 403: GitHub refused the App's own token/,
    );
    expect(await (await fetch(`${origin}/ping`)).text()).toBe('PONG');
    expect((await fetch(`${origin}/ready`)).status).toBe(200);
  });

  it('REVIEW_LOOP_RECOVERY_MINUTES=0 turns it off; a bad value stops the start naming the variable', async () => {
    nock(API).get('/app').reply(200, { id: APP_ID, slug: 'skillclimb-review-loop' });
    const { app } = await start({ REVIEW_LOOP_RECOVERY_MINUTES: '0' });
    expect(app.recovery).toBeUndefined();
    await expect(start({ REVIEW_LOOP_RECOVERY_MINUTES: '-1' })).rejects.toThrow(
      /^REVIEW_LOOP_RECOVERY_MINUTES: /,
    );
  });

  it('two replicas on one REDIS_URL redeliver each failed delivery once in all', async () => {
    const asked: number[] = [];
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
    const listed = [...PAGE_1, ...PAGE_2].map((item) => ({
      ...item,
      delivered_at: hoursAgo((NOW.getTime() - Date.parse(item.delivered_at)) / HOUR),
    }));
    const mock = nock(API);
    mock.get('/app').times(2).reply(200, { id: APP_ID, slug: 'skillclimb-review-loop' });
    mock.get('/app/hook/deliveries').query(true).reply(200, listed).persist();
    // Room for duplicates: a redelivery asked for twice would be recorded twice.
    nockRedeliveries(asked, mock, 10);

    const one = await start({ REDIS_URL: redis.url });
    const two = await start({ REDIS_URL: redis.url });
    // Each replica's pass at start-up (joined here if it still runs), then one more each.
    await Promise.all([one.app.recovery!.pass(), two.app.recovery!.pass()]);
    const later = await Promise.all([one.app.recovery!.pass(), two.app.recovery!.pass()]);

    expect(asked.sort()).toEqual([104, 107]);
    expect(later.map((pass) => [pass.found, pass.redelivered, pass.alreadyAsked])).toEqual([
      [2, 0, 2],
      [2, 0, 2],
    ]);
    const look = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    expect((await look.keys('skillclimb:recovery:*')).sort()).toEqual([
      'skillclimb:recovery:redeliver:104',
      'skillclimb:recovery:redeliver:107',
    ]);
    look.disconnect();
  });
});
