/* eslint-disable @typescript-eslint/no-explicit-any -- the throttling plugin's limiter interface is untyped */
/**
 * Rate-limit waits are bounded, and every 403/429 with `retry-after` is waited out (docs/app.md § Rate limits
 * and failed writes), through the App's Octokit class (src/app/github-client.ts) with nock: a limit GitHub
 * words differently from "secondary rate limit" (its older "abuse detection" message, a bare 429) waits its
 * `retry-after` instead of failing the write; a wait longer than the policy's longest, or more retries than
 * it allows, reaches the caller as GitHub's answer; a 403 without `retry-after` is a refusal, never retried.
 * The retry-after unit is a millisecond and the waits are recorded, so nothing here waits for real.
 */
import nock from 'nock';
import { Probot } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appOctokit, retryAfterSeconds } from '../../src/app/github-client.js';
import { API, APP_ID, PRIVATE_KEY, REPO_PATH, recordingLog } from '../helpers/app-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

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
};
const ABUSE = {
  message: 'You have triggered an abuse detection mechanism. Please wait a few minutes before you try again.',
};

async function client() {
  const waits: number[] = [];
  const lines: string[] = [];
  const probot = new Probot({
    appId: APP_ID,
    privateKey: PRIVATE_KEY,
    log: recordingLog(lines),
    Octokit: appOctokit({
      policy: { retries: 0, rateLimitRetries: 2, maxRateLimitWaitSeconds: 900, delayUnitMs: 1 },
      throttle: { write: unpaced, notifications: unpaced, search: unpaced, global: unpaced },
      retry: { enabled: false },
      sleep: async (ms) => {
        waits.push(ms);
      },
    }),
  });
  nock(API)
    .post('/app/installations/1/access_tokens')
    .reply(201, { token: 'ghs_bounds', expires_at: '2099-01-01T00:00:00Z', permissions: {} });
  const octokit = await probot.auth(1);
  const comment = () =>
    octokit.rest.issues.createComment({
      owner: 'Codertocat',
      repo: 'Hello-World',
      issue_number: 7,
      body: 'hi',
    });
  return { comment, waits, warnings: () => lines.filter((line) => /rate limit/.test(line)) };
}

const COMMENTS = `${REPO_PATH}/issues/7/comments`;

describe('a 403/429 with retry-after in other words than "secondary rate limit"', () => {
  it.each([
    ['403', 403, ABUSE],
    ['429', 429, { message: 'Too Many Requests' }],
  ] as const)('a %s waits its retry-after and the write goes through', async (_name, status, body) => {
    const { comment, waits, warnings } = await client();
    const mock = nock(API)
      .post(COMMENTS)
      .reply(status, body, { 'retry-after': '7' })
      .post(COMMENTS)
      .reply(201, { id: 5 });

    const { data } = await comment();

    expect(data.id).toBe(5);
    expect(waits).toEqual([7]);
    expect(warnings()).toEqual([
      expect.stringMatching(
        /rate limit \(403\/429 with retry-after\) on POST .*comments: retrying in 7 s \(retry 1 of 2\)/,
      ),
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('retry-after as an HTTP date counts the seconds from now', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(retryAfterSeconds('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('12', now)).toBe(12);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});

describe('the waits are bounded', () => {
  it.each([
    ['GitHub’s secondary-limit message', SECONDARY],
    ['other words', ABUSE],
  ])(
    'a retry-after over the longest wait (15 minutes) is not waited: the caller gets GitHub’s answer (%s)',
    async (_name, body) => {
      const { comment, waits, warnings } = await client();
      const mock = nock(API).post(COMMENTS).reply(403, body, { 'retry-after': '3600' });

      await expect(comment()).rejects.toMatchObject({ status: 403 });

      expect(waits).toEqual([]);
      expect(
        warnings().some((line) => /not retried \(retry-after 3600 s, 0 retries so far\)/.test(line)),
      ).toBe(true);
      expect(mock.pendingMocks()).toStrictEqual([]);
    },
  );

  it('after the policy’s retries the limit reaches the caller; no request beyond them is sent', async () => {
    const { comment, waits } = await client();
    const mock = nock(API)
      .post(COMMENTS)
      .times(3)
      .reply(429, { message: 'Too Many Requests' }, { 'retry-after': '2' });

    await expect(comment()).rejects.toMatchObject({ status: 429 });

    expect(waits).toEqual([2, 2]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('a 403 without retry-after is a refusal (a permission), answered at once', async () => {
    const { comment, waits } = await client();
    const mock = nock(API).post(COMMENTS).reply(403, { message: 'Resource not accessible by integration' });

    await expect(comment()).rejects.toMatchObject({ status: 403 });

    expect(waits).toEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
