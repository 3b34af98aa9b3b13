/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * The App's replicas on one real `redis-server` (docs/how-it-works.md § The App, "Shared state and
 * takeover"): two App instances in one test share its claims, seen ids and BullMQ loop queue. Twenty
 * copies of a delivery split across them run one loop; a replica killed mid-round is taken over by the
 * other without a second review; a Redis outage mid-loop answers deliveries with an error and the loop
 * still completes once Redis is back. GitHub is nock at the HTTP layer.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { Redis } from 'ioredis';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoopOutcome, LoopRequest } from '../../src/app/loop-runner.js';
import type { RoundReviewView } from '../../src/github/review/review-body.js';
import {
  API,
  APP_ID,
  HEAD,
  OWNER,
  PRIVATE_KEY,
  PR,
  REPO,
  REPO_PATH,
  commentPayload,
  loopState,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  pullRequestPayload,
  recordingLog,
  scriptedRunner,
  startTestApp,
  stickyComment,
} from '../helpers/app-fixtures.js';
import { commandEventFrom, pullRequestEventFrom } from '../../src/app/validation/event.js';
import { scriptedGitHub } from '../helpers/app-github.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { freePort } from '../helpers/app-child.js';
import { closeServer, listenOnLoopback } from '../helpers/local-http.js';
import { RedisState } from '../../src/app/coordination/redis-state.js';
import { startApp } from '../../src/app/server.js';

let redis: RedisProcess;
const apps: Array<Awaited<ReturnType<typeof startTestApp>>> = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.queue.close(2_000)));
  nock.cleanAll();
});

/** A replica: its own Probot, this test's Redis, takeover within a few seconds. */
async function replica(runner: ReturnType<typeof scriptedRunner>['runner'], lines: string[] = []) {
  const app = await startTestApp(runner, undefined, {
    redisUrl: redis.url,
    // Short enough for a quick takeover, long enough that a busy machine's timer delays never expire a
    // claim whose replica is alive.
    claimTtlMs: 2_000,
    stalledIntervalMs: 500,
    log: recordingLog(lines),
    webhookSecret: SECRET,
  });
  apps.push(app);
  return app;
}

/** GitHub for one PR: the token, no configuration, a writer, the sticky comment, checks and reviews. */
function github() {
  const scope = nock(API).persist();
  nockToken(scope);
  nockNoConfig(scope);
  nockPermission('maintainer', 'write', scope);
  const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });
  const reviews: any[] = [];
  scope
    .post(`${REPO_PATH}/pulls/${PR}/reviews`)
    .reply(200, (_uri: string, body: any) => {
      const review = {
        id: 700 + reviews.length,
        html_url: `https://github.com/r/${reviews.length}`,
        commit_id: body.commit_id,
        body: body.body,
        user: { login: 'review-loop[bot]', type: 'Bot' },
      };
      reviews.push(review);
      return review;
    })
    .get(`${REPO_PATH}/pulls/${PR}/reviews`)
    .query(true)
    .reply(200, () => reviews);
  return { gh, reviews };
}

const VIEW: RoundReviewView = {
  runId: 'run_x',
  round: 1,
  maxRounds: 4,
  headSha: HEAD,
  reviewerModel: 'openai:gpt-5',
  score: 8,
  verdict: 'ready',
  weaknesses: [],
};

const SECRET = 'webhook-s3cret';

/** A signed delivery over real HTTP to the middleware `npm start` serves; resolves the status and the time. */
async function deliver(
  app: Awaited<ReturnType<typeof startTestApp>>,
  id: string,
  payload: unknown,
): Promise<{ status: number; ms: number }> {
  const middleware = await app.probot.getNodeMiddleware();
  const server = http.createServer((req, res) => void middleware(req, res, () => res.writeHead(404).end()));
  const origin = await listenOnLoopback(server);
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const started = Date.now();
  try {
    const response = await fetch(`${origin}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': id,
        'x-hub-signature-256': signature,
      },
      body,
    });
    await response.text();
    return { status: response.status, ms: Date.now() - started };
  } finally {
    await closeServer(server);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

const comment = (commentId: number) => commentPayload({ body: '/review-loop', commentId });

describe('two replicas on one Redis', () => {
  it('20 copies of one /review-loop delivery split across them: one loop, one review', async () => {
    const { gh, reviews } = github();
    const { runner, requests } = scriptedRunner(async (request) => {
      await request.session.postReview({ ...VIEW, runId: request.runId });
      await sleep(100);
      return outcome({ runId: request.runId });
    });
    const [a, b] = [await replica(runner), await replica(runner)];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? b : a).probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) }),
      ),
    );
    // and 20 more comments, each a new start, while that loop is claimed
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).probot.receive({ id: `e${i}`, name: 'issue_comment', payload: comment(200 + i) }),
      ),
    );
    await a.queue.idle();
    await b.queue.idle();

    expect(requests).toHaveLength(1);
    expect(reviews).toHaveLength(1);
    expect(gh.state()).toMatchObject({ phase: 'acquitted' });
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress', 'success'] }]);
    // the other starts were answered "already running" once between both replicas, or found it ended
    expect(gh.replies.filter((r) => r.includes('already running')).length).toBeLessThanOrEqual(1);
    expect(await a.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
    expect(await b.queue.ping()).toEqual({ ok: true, detail: `Redis at ${redis.url} answers` });
  });

  it('a replica killed mid-round: the other takes the loop over after its claim expires, no second review', async () => {
    const { gh, reviews } = github();
    const calls: Array<{ replica: string; request: LoopRequest }> = [];
    let reviewed: () => void = () => undefined;
    const posted = new Promise<void>((resolve) => (reviewed = resolve));
    const runnerOf = (name: string) =>
      scriptedRunner(async (request): Promise<LoopOutcome> => {
        calls.push({ replica: name, request });
        await request.session.postReview({ ...VIEW, runId: request.runId });
        if (name === 'a') {
          reviewed();
          return new Promise<LoopOutcome>(() => undefined); // dies before the engine saves the round
        }
        return outcome({ runId: request.runId });
      }).runner;
    const a = await replica(runnerOf('a'));
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await posted;
    await a.queue.abandon(); // kill -9: no save, no release, no renewal
    apps.splice(apps.indexOf(a), 1);
    const b = await replica(runnerOf('b'));

    await until('the other replica finished the loop', () => gh.state()?.phase === 'acquitted');
    await b.queue.idle();
    expect(calls.map((c) => [c.replica, c.request.trigger.kind])).toEqual([
      ['a', 'start'],
      ['b', 'continue'],
    ]);
    expect(reviews).toHaveLength(1);
    // one check run: put in progress by each replica's round, then concluded; none left in progress
    expect(gh.checkRuns()).toEqual([
      { id: 300, head: HEAD, states: ['in_progress', 'in_progress', 'success'] },
    ]);
    expect(await b.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
  });

  it('Redis stopped and started mid-loop: deliveries meanwhile get an error naming Redis, the loop completes', async () => {
    const { gh } = github();
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { runner, requests } = scriptedRunner(async (request, call) => {
      if (call === 1) {
        started();
        await new Promise<void>((resolve) => (release = resolve));
      }
      return outcome({ runId: request.runId });
    });
    const lines: string[] = [];
    const a = await replica(runner, lines);
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await running;

    await redis.kill();
    const answer = await deliver(a, 'd0', comment(100));
    expect(answer.status).toBe(500);
    expect(answer.ms).toBeLessThan(1_000);
    const refused = await a.probot.receive({ id: 'd2', name: 'issue_comment', payload: comment(102) }).then(
      () => 'answered',
      (error: unknown) => String(error),
    );
    expect(refused).toContain(`Redis at ${redis.url} is unreachable`);
    expect(lines.join('\n')).toContain(
      `delivery d2 (issue_comment) not taken: Redis at ${redis.url} is unreachable`,
    );
    expect(await a.queue.ping()).toMatchObject({ ok: false });
    await sleep(300);
    await redis.restart();
    await until('Redis answers again', async () => (await a.queue.ping()).ok);

    release();
    await until('the loop completed', () => gh.state()?.phase === 'acquitted');
    await a.queue.idle();
    expect(requests).toHaveLength(1);
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress', 'success'] }]);
    // a new delivery is taken again, and answered at once
    const taken = await deliver(a, 'd3', comment(103));
    expect(taken.status).toBe(200);
    expect(taken.ms).toBeLessThan(1_000);
    await a.queue.idle();
    expect(requests).toHaveLength(2);
  });

  it('a replica shut down mid-round hands its loop on through the queue: a restarted one continues it', async () => {
    const { gh } = github();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const before = scriptedRunner(
      (request) =>
        new Promise<LoopOutcome>((resolve) => {
          started();
          request.signal.addEventListener('abort', () =>
            resolve(outcome({ status: 'interrupted', runId: request.runId, message: 'interrupted' })),
          );
        }),
    );
    const a = await replica(before.runner);
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await running;
    expect(await a.queue.close(5_000)).toBe(true);
    apps.splice(apps.indexOf(a), 1);
    expect(gh.state()).toMatchObject({ phase: 'running' });
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress'] }]);

    const after = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const restarted = await replica(after.runner);
    await until('the restarted replica finished the loop', () => gh.state()?.phase === 'acquitted');
    await restarted.queue.idle();
    expect(after.requests.map((r) => r.trigger.kind)).toEqual(['continue']);
    expect(gh.checkRuns()).toEqual([
      { id: 300, head: HEAD, states: ['in_progress', 'in_progress', 'success'] },
    ]);
  });

  it("/review-loop stop on the replica that does not run the loop stops it at the owner's next renewal", async () => {
    const { gh } = github();
    const runs: string[] = [];
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runnerOf = (name: string) =>
      scriptedRunner(
        (request) =>
          new Promise<LoopOutcome>((resolve) => {
            runs.push(name);
            started();
            request.signal.addEventListener('abort', () =>
              resolve(outcome({ status: 'interrupted', runId: request.runId, message: 'interrupted' })),
            );
          }),
      ).runner;
    const a = await replica(runnerOf('a'));
    const b = await replica(runnerOf('b'));
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await running;
    const other = runs[0] === 'a' ? b : a;
    await other.probot.receive({
      id: 'd2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop stop', commentId: 102 }),
    });
    await until('the loop stopped', () => gh.state()?.phase === 'stopped');
    await a.queue.idle();
    await b.queue.idle();
    expect(runs).toHaveLength(1);
    expect(gh.state().handledComments).toEqual(expect.arrayContaining([101, 102]));
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress', 'failure'] }]);
    expect(await a.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
  });

  it('a push taken by one replica while the loop runs on the other is looked at once that loop ends', async () => {
    const { gh } = github();
    const pushed = 'c'.repeat(40);
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runs: string[] = [];
    const runnerOf = (name: string) =>
      scriptedRunner(async (request) => {
        runs.push(name);
        started();
        await new Promise<void>((resolve) => (release = resolve));
        return outcome({ runId: request.runId });
      }).runner;
    const a = await replica(runnerOf('a'));
    const b = await replica(runnerOf('b'));
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await running;
    const other = runs[0] === 'a' ? b : a;
    await other.probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    release();
    await until('the push was looked at', () => gh.checkRuns().some((run) => run.head === pushed));
    await a.queue.idle();
    await b.queue.idle();
    expect(runs).toHaveLength(1);
    // the approval was for HEAD; the pushed head is marked as not reviewed
    expect(gh.checkRuns()).toEqual([
      { id: 300, head: HEAD, states: ['in_progress', 'success'] },
      { id: 301, head: pushed, states: ['action_required'] },
    ]);
  });
});

describe('the Redis shared state', () => {
  it('claims by token with renewal, compare-and-delete release, and one sticky-lock holder at a time across clients', async () => {
    const one = new RedisState({ url: redis.url });
    const two = new RedisState({ url: redis.url });
    try {
      expect(await one.claim('o/r#1', 'a', 200)).toBe(true);
      expect(await two.claim('o/r#1', 'b', 200)).toBe(false);
      expect(await two.claim('o/r#1', 'a', 200)).toBe(true); // the same token takes it back
      await two.release('o/r#1', 'b'); // not its token: stays
      expect(await one.isClaimed('o/r#1')).toBe(true);
      expect(await one.claimedCount()).toBe(1);
      await sleep(300);
      expect(await two.claim('o/r#1', 'b', 200)).toBe(true); // expired: taken
      await two.release('o/r#1', 'b');
      expect(await one.claimedCount()).toBe(0);

      expect(await one.mark('seen:x', 10_000)).toBe(false);
      expect(await two.mark('seen:x', 10_000)).toBe(true);
      await one.put('push:o/r#1', 'v', 10_000);
      expect(await two.take('push:o/r#1')).toBe('v');
      expect(await one.take('push:o/r#1')).toBeUndefined();

      const order: string[] = [];
      const hold = (who: string, state: RedisState) =>
        state.withLock('o/r#1', async () => {
          order.push(`${who} in`);
          await sleep(50);
          order.push(`${who} out`);
        });
      await Promise.all([hold('one', one), hold('two', two)]);
      expect([
        ['one in', 'one out', 'two in', 'two out'],
        ['two in', 'two out', 'one in', 'one out'],
      ]).toContainEqual(order);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('startApp honours REDIS_URL: its queue pings that Redis and a bad URL stops the start naming the variable', async () => {
    const port = await freePort();
    const { runner } = scriptedRunner(async () => outcome());
    nock(API).get('/app').reply(200, { slug: 'review-loop' });
    const started = await startApp(
      {
        APP_ID: String(APP_ID),
        PRIVATE_KEY,
        WEBHOOK_SECRET: 's3cret',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'fatal',
        NODE_ENV: 'production',
        REDIS_URL: redis.url,
      },
      { runner },
    );
    try {
      expect(await started.app?.queue.ping()).toEqual({ ok: true, detail: `Redis at ${redis.url} answers` });
      expect(started.app?.queue.shared.mode).toBe('redis');
      expect(await started.app?.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
    } finally {
      await started.stop();
    }
    await expect(
      startApp({ APP_ID: String(APP_ID), PRIVATE_KEY, REDIS_URL: 'http://127.0.0.1:1' }, { runner }),
    ).rejects.toThrow('REDIS_URL: expected a redis:// or rediss:// URL, got a http: one');
  });
});

describe("a delivery's work survives the replica that took it (event jobs on the BullMQ queue)", () => {
  /** One request that never gets an answer: the replica that sends it hangs there, as a killed one would. */
  function hangOnce(method: 'get' | 'post', path: string): Promise<void> {
    let reached: () => void = () => undefined;
    const hung = new Promise<void>((resolve) => (reached = resolve));
    const scope = nock(API);
    const interceptor = method === 'get' ? scope.get(path) : scope.post(path);
    interceptor.reply(200, (_uri: string, _body: unknown, _callback: unknown) => {
      reached(); // the callback is never called: no answer
    });
    return hung;
  }

  it('a /review-loop whose replica died holding the claim, before the 👀: the other handles it once the claim expires, one loop, one review', async () => {
    const hung = hangOnce('post', `${REPO_PATH}/issues/comments/101/reactions`);
    const { gh, reviews } = github();
    const calls: string[] = [];
    const runnerOf = (name: string) =>
      scriptedRunner(async (request) => {
        calls.push(`${name}:${request.trigger.kind}`);
        await request.session.postReview({ ...VIEW, runId: request.runId });
        return outcome({ runId: request.runId });
      }).runner;
    const a = await replica(runnerOf('a'));
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await hung;
    expect(await a.queue.isClaimed(`${OWNER}/${REPO}#${PR}`)).toBe(true);
    await a.queue.abandon(); // kill -9: the event job's lock and the claim are left to expire
    apps.splice(apps.indexOf(a), 1);
    const lines: string[] = [];
    const b = await replica(runnerOf('b'), lines);

    await until('the other replica finished the loop', () => gh.state()?.phase === 'acquitted');
    await b.queue.idle();
    expect(calls).toEqual(['b:start']);
    expect(reviews).toHaveLength(1);
    expect(gh.replies).toEqual([]); // never "already running" for the loop the dead replica never started
    expect(gh.state().handledComments).toEqual([101]);
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress', 'success'] }]);
    expect(lines.join('\n')).toContain(
      `command 101 on ${OWNER}/${REPO}#${PR}: taken over from a replica that stopped`,
    );
    expect(await b.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
  });

  it('a push whose replica died holding the claim: the other continues the waiting loop on the pushed head', async () => {
    const pushed = 'c'.repeat(40);
    const hung = hangOnce('get', `${REPO_PATH}/contents/.github%2Freview-loop.yml`);
    const scope = nock(API).persist();
    nockToken(scope);
    nockNoConfig(scope);
    const gh = scriptedGitHub({
      sticky: stickyComment(
        loopState({ phase: 'waiting-fix', settings: { ...loopState().settings!, fix: 'manual' } }),
      ).body,
      pull: pullData({ head: pushed }),
      checks: true,
    });
    const calls: Array<[string, string]> = [];
    const runnerOf = (name: string) =>
      scriptedRunner(async (request) => {
        calls.push([name, request.trigger.kind]);
        return outcome({ runId: request.runId, head: pushed });
      }).runner;
    const a = await replica(runnerOf('a'));
    await a.probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    await hung;
    await a.queue.abandon();
    apps.splice(apps.indexOf(a), 1);
    const lines: string[] = [];
    const b = await replica(runnerOf('b'), lines);

    await until('the other replica continued the loop', () => gh.state()?.phase === 'acquitted').catch(
      (error: unknown) => {
        console.log(lines.join('\n'), nock.pendingMocks(), gh.state());
        throw error;
      },
    );
    await b.queue.idle();
    expect(calls).toEqual([['b', 'continue']]);
    expect(gh.state()).toMatchObject({ phase: 'acquitted', head: pushed });
    expect(await b.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
  });

  it('a re-run that finds the claim of a loop that never started waits for it to expire, then starts the loop', async () => {
    const { gh } = github();
    const { runner, requests } = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const b = await replica(runner);
    // the dead replica's claim, taken after the permission check, with most of its TTL left
    expect(await b.queue.shared.claim(`${OWNER}/${REPO}#${PR}`, 'dead-replica', 1_500)).toBe(true);
    const event = commandEventFrom(comment(101), 'd1', { appId: APP_ID });
    if (event.kind !== 'command') throw new Error('not a command');

    const began = Date.now();
    await b.worker.runEvent({ installationId: 1, event }, { rerun: true });
    await b.queue.idle();
    expect(Date.now() - began).toBeGreaterThanOrEqual(1_000);
    expect(requests.map((r) => r.trigger.kind)).toEqual(['start']);
    expect(gh.replies).toEqual([]);
    expect(gh.state()).toMatchObject({ phase: 'acquitted', handledComments: [101] });
  });

  it('a re-run close whose first run recorded the close but died before the check: the check is concluded', async () => {
    const scope = nock(API).persist();
    nockToken(scope);
    const open = {
      id: 300,
      headSha: HEAD,
      url: 'u300',
      completed: false,
      conclusion: null,
      runId: loopState().runId!,
    };
    const gh = scriptedGitHub({
      sticky: stickyComment(loopState({ phase: 'closed', check: open })).body,
      checks: true,
    });
    const { runner } = scriptedRunner(async () => outcome());
    const b = await replica(runner);
    const event = pullRequestEventFrom(pullRequestPayload('closed'), 'c1');
    if (event.kind !== 'closed') throw new Error('not a close');

    await b.worker.runEvent({ installationId: 1, event }, { rerun: false }); // a first run: already closed
    expect(gh.checkCalls).toEqual([]);
    await b.worker.runEvent({ installationId: 1, event }, { rerun: true });
    expect(gh.checkRuns()).toEqual([]); // updated in place, not created
    expect(gh.checkCalls.map((c) => [c.kind, c.id, c.body.conclusion])).toEqual([
      ['update', 300, 'cancelled'],
    ]);
    expect(gh.state()).toMatchObject({
      phase: 'closed',
      check: { id: 300, completed: true, conclusion: 'cancelled' },
    });
  });

  it('a re-run of a command job whose first run started the loop: no second loop, no second reply, no wait', async () => {
    const { gh } = github();
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { runner, requests } = scriptedRunner(async (request) => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return outcome({ runId: request.runId });
    });
    const a = await replica(runner);
    const b = await replica(runner);
    await a.probot.receive({ id: 'd1', name: 'issue_comment', payload: comment(101) });
    await running;
    const event = commandEventFrom(comment(101), 'd1', { appId: APP_ID });
    if (event.kind !== 'command') throw new Error('not a command');
    // BullMQ keeps a job as JSON: the event must come back the same
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);

    const began = Date.now();
    await b.worker.runEvent({ installationId: 1, event }, { rerun: true }); // while the loop runs
    expect(Date.now() - began).toBeLessThan(2_000); // the claim TTL: it did not wait for the live loop's claim
    release();
    await until('the loop completed', () => gh.state()?.phase === 'acquitted');
    await a.queue.idle();
    await b.worker.runEvent({ installationId: 1, event }, { rerun: true }); // after it ended
    await b.queue.idle();

    expect(requests).toHaveLength(1);
    expect(gh.replies).toEqual([]);
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress', 'success'] }]);
    expect(await b.queue.snapshot()).toEqual({ running: 0, waiting: 0, claimed: 0 });
  });
});
