/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * Rate limits are waited out, never fatal: the App's Octokit class (src/app/github-client.ts, what
 * `npm start` hands Probot) with throttling ON retries a secondary rate limit (403 + `retry-after` +
 * GitHub's message, and the 429 form) and a primary one (`x-ratelimit-remaining: 0`), so the round
 * resumes instead of failing. Every route a two-round loop with a fix uses answers one rate limit first.
 * The throttle's spacing of writes (one a second, comments three seconds apart) is replaced by unpaced
 * limiters and the retry-after unit is a millisecond, so the test does not wait; its retry logic is real.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appOctokit } from '../../src/app/github-client.js';
import {
  API,
  HEAD,
  PR,
  REPO_PATH,
  SETTINGS,
  commentPayload,
  nockPermission,
  nockToken,
  outcome,
  scriptedRunner,
  startTestApp,
  engineRunner,
} from '../helpers/app-fixtures.js';
import { BRANCH_REF, FakePull } from '../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  HALF_BUG,
  README,
  anthropicReply,
  openaiReply,
  reviewAnswer,
} from '../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** A limiter that runs each job at once (the interface plugin-throttling calls on its groups). */
const unpaced = {
  key: () => ({
    schedule: (...args: any[]) => {
      const at = args.findIndex((arg) => typeof arg === 'function');
      return Promise.resolve().then(() => args[at](...args.slice(at + 1)));
    },
  }),
};

const SECONDARY = {
  message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
};

/** Every route of a two-round loop with an auto fix, as [method, path]. */
const ROUTES: Array<[string, string | RegExp]> = [
  ['GET', `${REPO_PATH}/contents/.github%2Freview-loop.yml`],
  ['GET', /\/collaborators\/[^/]+\/permission$/],
  ['POST', /\/issues\/comments\/\d+\/reactions$/],
  ['GET', new RegExp(`${REPO_PATH}/issues/${PR}/comments(\\?.*)?$`)],
  ['POST', `${REPO_PATH}/issues/${PR}/comments`],
  ['PATCH', /\/issues\/comments\/\d+$/],
  ['GET', `${REPO_PATH}/pulls/${PR}`],
  ['POST', `${REPO_PATH}/check-runs`],
  ['PATCH', /\/check-runs\/\d+$/],
  ['GET', /\/compare\/[0-9a-f]{40}\.\.\.[0-9a-f]{40}$/],
  ['GET', /\/contents\/src%2Fcalc\.ts\?ref=/],
  ['GET', new RegExp(`${REPO_PATH}/pulls/${PR}/files(\\?.*)?$`)],
  ['POST', `${REPO_PATH}/pulls/${PR}/reviews`],
  ['GET', /\/git\/commits\/[0-9a-f]{40}$/],
  ['GET', /\/git\/trees\/[^/]+$/],
  ['POST', `${REPO_PATH}/git/trees`],
  ['POST', `${REPO_PATH}/git/commits`],
  ['PATCH', `${REPO_PATH}/git/refs/${BRANCH_REF}`],
];

type Limit = 'secondary-403' | 'secondary-429' | 'primary';

/** One rate-limit answer on each route, registered before the fake's own interceptors (so they come first). */
function limitEveryRouteOnce(kind: Limit): nock.Scope {
  const scope = nock(API);
  for (const [method, path] of ROUTES) {
    const interceptor = scope.intercept(path, method);
    if (kind === 'primary') {
      interceptor.reply(
        403,
        { message: 'API rate limit exceeded for installation ID 1.' },
        {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)),
        },
      );
    } else {
      interceptor.reply(kind === 'secondary-403' ? 403 : 429, SECONDARY, { 'retry-after': '1' });
    }
  }
  return scope;
}

describe('rate limits waited out on every route', () => {
  it.each(['secondary-403', 'secondary-429', 'primary'] as const)(
    'a %s answer once on each route the loop uses: the loop still completes with an acquittal',
    async (kind) => {
      const limited = limitEveryRouteOnce(kind);
      const fake = new FakePull({
        base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
        head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
      });
      const mock = fake.interceptBase();
      fake.interceptReads(mock);
      fake.interceptGitData(mock);
      openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
      anthropicReply({
        summary: 'divide by two',
        edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
      });
      openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
      const runner = engineRunner();
      const Octokit = appOctokit({
        policy: { retries: 0, rateLimitRetries: 2, maxRateLimitWaitSeconds: 900, delayUnitMs: 1 },
        throttle: { write: unpaced, notifications: unpaced, search: unpaced },
        retry: { enabled: false },
      });
      const { probot, queue } = await startTestApp(runner, SETTINGS, { Octokit });
      await probot.receive({
        id: 'c101',
        name: 'issue_comment',
        payload: commentPayload({ body: '/review-loop', commentId: 101 }),
      });
      await queue.idle();

      // every route was refused once, and every request went through again
      expect(limited.pendingMocks()).toStrictEqual([]);
      expect(fake.reviews).toHaveLength(2);
      expect(fake.refUpdates).toHaveLength(1);
      expect(fake.checks.map((c) => [c.head_sha === HEAD, c.conclusion])).toEqual([
        [true, 'neutral'],
        [false, 'success'],
      ]);
      expect(fake.replies()).toEqual([]);
      expect(mock.pendingMocks()).toStrictEqual([]);
      expect(nock.pendingMocks()).toStrictEqual([]);
    },
    60_000,
  );

  it('a rate limit that outlasts the waits on the config read is said to be GitHub’s, never blamed on the file', async () => {
    const replies: string[] = [];
    const mock = nockToken()
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .times(3)
      .reply(403, SECONDARY, { 'retry-after': '1' });
    nockPermission('maintainer', 'write', mock);
    mock
      .post(`${REPO_PATH}/issues/${PR}/comments`, (body: any) => (replies.push(body.body), true))
      .reply(201, { id: 1 });
    const Octokit = appOctokit({
      policy: { retries: 0, rateLimitRetries: 2, maxRateLimitWaitSeconds: 900, delayUnitMs: 1 },
      throttle: { write: unpaced, notifications: unpaced, search: unpaced },
      retry: { enabled: false },
    });
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner, SETTINGS, { Octokit });
    await probot.receive({
      id: 'c102',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 102 }),
    });
    await queue.idle();

    expect(requests).toHaveLength(0);
    expect(replies).toEqual([
      expect.stringContaining('GitHub did not answer the read of `.github/review-loop.yml` (HTTP 403'),
    ]);
    expect(replies[0]).not.toContain('could not be read');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
