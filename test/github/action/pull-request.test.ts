import nock from 'nock';
import { describe, expect, it, vi } from 'vitest';
import { formatPullRequestMarker } from '../../../src/github/markers.js';
import { createGitHubClient } from '../../../src/github/octokit.js';
import {
  planPullRequest,
  writePullRequest,
  type PullRequestOutcome,
  type PullRequestRequest,
} from '../../../src/github/action/pull-request.js';
import type { GitHubClient, RepoRef } from '../../../src/github/octokit.js';
import { NO_RETRIES } from '../../helpers/github-fixtures.js';
import { looseNock } from '../../helpers/nock-frame.js';

const API = 'https://api.github.test';
const repo = { owner: 'acme', repo: 'skills' };
const client = createGitHubClient({ token: 'test-token', apiUrl: API, retry: NO_RETRIES });

const request: PullRequestRequest = {
  skill: 'session-wrap',
  head: 'skill-iterate/session-wrap',
  base: 'main',
  title: 'skill-iterate: session-wrap: baseline 0.75 -> final 0.88 over 4 iterations (lines_delta=-2)',
  body: 'the body',
  labels: ['skill-iterate', 'automated'],
  draft: true,
  finalScore: 0.875,
};

const listQuery = {
  head: 'acme:skill-iterate/session-wrap',
  state: 'all',
  sort: 'created',
  direction: 'desc',
  per_page: '30',
};

function pr(number: number, extra: Record<string, unknown>) {
  return {
    number,
    html_url: `https://github.test/acme/skills/pull/${number}`,
    state: 'closed',
    merged_at: null,
    body: '',
    ...extra,
  };
}

looseNock();

/**
 * What the GitHub shipper does with a PR: plan (find the skill's PR), then — unless the plan skips —
 * `beforeWrite` (the shipper's push) and the write.
 */
async function upsertPullRequest(
  gh: GitHubClient,
  where: RepoRef,
  req: PullRequestRequest,
  hooks: { beforeWrite?: () => Promise<void> } = {},
): Promise<PullRequestOutcome> {
  const plan = await planPullRequest(gh, where, req);
  if (plan.action === 'skip')
    return { status: 'skipped', reason: plan.reason, number: plan.number, url: plan.url };
  await hooks.beforeWrite?.();
  return writePullRequest(gh, where, req, plan);
}

describe('planPullRequest + writePullRequest', () => {
  it('creates the PR with labels and draft when the branch never had one', async () => {
    let created: Record<string, unknown> = {};
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .matchHeader('authorization', 'token test-token')
      .reply(200, [])
      .post('/repos/acme/skills/pulls', (b) => ((created = b), true))
      .reply(201, pr(7, { state: 'open' }))
      .post('/repos/acme/skills/issues/7/labels', { labels: ['skill-iterate', 'automated'] })
      .reply(200, []);
    const beforeWrite = vi.fn(async () => undefined);

    const outcome = await upsertPullRequest(client, repo, request, { beforeWrite });

    expect(outcome).toEqual({ status: 'created', number: 7, url: 'https://github.test/acme/skills/pull/7' });
    expect(created).toEqual({
      head: request.head,
      base: 'main',
      title: request.title,
      body: 'the body',
      draft: true,
    });
    expect(beforeWrite).toHaveBeenCalledTimes(1);
    expect(scope.isDone()).toBe(true);
  });

  it('updates the open PR instead of opening another', async () => {
    let patched: Record<string, unknown> = {};
    const marker = formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.8 });
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [pr(12, { state: 'open', body: `${marker}\ntext` }), pr(9, {})])
      .patch('/repos/acme/skills/pulls/12', (b) => ((patched = b), true))
      .reply(200, pr(12, { state: 'open' }))
      .post('/repos/acme/skills/issues/12/labels')
      .reply(200, []);

    const outcome = await upsertPullRequest(client, repo, request);

    expect(outcome).toEqual({
      status: 'updated',
      number: 12,
      url: 'https://github.test/acme/skills/pull/12',
    });
    expect(patched).toEqual({ title: request.title, body: 'the body', base: 'main' });
    expect(scope.isDone()).toBe(true);
  });

  it('leaves an open PR alone when the final it records is at least as good, and writes nothing', async () => {
    const open = pr(12, {
      state: 'open',
      body: `${formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.9 })}\ntext`,
    });
    const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, [open]);
    const beforeWrite = vi.fn(async () => undefined);

    const outcome = await upsertPullRequest(client, repo, request, { beforeWrite });

    expect(outcome).toEqual({
      status: 'skipped',
      number: 12,
      url: 'https://github.test/acme/skills/pull/12',
      reason: 'open PR #12 already has final 0.90 >= 0.88',
    });
    expect(beforeWrite).not.toHaveBeenCalled();
    expect(scope.isDone()).toBe(true);
  });

  it('treats a final within the epsilon of the open PR as not better (the closed-PR rule)', async () => {
    const open = pr(12, {
      state: 'open',
      body: formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.875 - 4e-7 }),
    });
    nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, [open]);

    const plan = await planPullRequest(client, repo, request);

    // Two decimals would print "0.87 >= 0.88"; the message never contradicts the decision.
    expect(plan).toMatchObject({
      action: 'skip',
      number: 12,
      reason: 'open PR #12 already has final 0.875000 >= 0.875000',
    });
  });

  it('updates an open PR when tonight beats the final it records', async () => {
    const open = pr(12, {
      state: 'open',
      body: formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.8 }),
    });
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [open])
      .patch('/repos/acme/skills/pulls/12')
      .reply(200, pr(12, { state: 'open' }))
      .post('/repos/acme/skills/issues/12/labels')
      .reply(200, []);

    const outcome = await upsertPullRequest(client, repo, request);

    expect(outcome).toMatchObject({ status: 'updated', number: 12 });
    expect(scope.isDone()).toBe(true);
  });

  it('does not reopen a PR closed unmerged when the new final is not better, and writes nothing', async () => {
    const closed = pr(5, {
      body: `${formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.875 })}\ntext`,
    });
    const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, [closed]);
    const beforeWrite = vi.fn(async () => undefined);

    const outcome = await upsertPullRequest(client, repo, request, { beforeWrite });

    expect(outcome.status).toBe('skipped');
    expect(outcome).toMatchObject({ number: 5 });
    expect(outcome.status === 'skipped' && outcome.reason).toMatch(
      /PR #5 .* closed without merging at final 0\.875000; the new final 0\.875000 is not better/,
    );
    expect(beforeWrite).not.toHaveBeenCalled();
    expect(scope.isDone()).toBe(true);
  });

  it('opens a new PR when the result beats the one a closed PR recorded', async () => {
    const closed = pr(5, {
      body: formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.8 }),
    });
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [closed])
      .post('/repos/acme/skills/pulls')
      .reply(201, pr(6, { state: 'open' }))
      .post('/repos/acme/skills/issues/6/labels')
      .reply(200, []);

    const outcome = await upsertPullRequest(client, repo, request);

    expect(outcome).toMatchObject({ status: 'created', number: 6 });
    expect(scope.isDone()).toBe(true);
  });

  it('opens a new PR after the last one was merged, and skips labels when there are none', async () => {
    const merged = pr(4, {
      merged_at: '2026-01-01T00:00:00Z',
      body: formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.99 }),
    });
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [merged])
      .post('/repos/acme/skills/pulls')
      .reply(201, pr(8, { state: 'open' }));

    const outcome = await upsertPullRequest(client, repo, { ...request, labels: [] });

    expect(outcome).toMatchObject({ status: 'created', number: 8 });
    expect(scope.isDone()).toBe(true);
  });

  it('never updates an open PR whose body does not start with the marker (a human PR from the branch)', async () => {
    const marker = formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.1 });
    const human = pr(13, { state: 'open', body: `Fixes #1, my own change\n${marker}` });
    const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, [human]);
    const beforeWrite = vi.fn(async () => undefined);

    const outcome = await upsertPullRequest(client, repo, request, { beforeWrite });

    expect(outcome).toMatchObject({
      status: 'skipped',
      number: 13,
      reason:
        'open PR #13 on skill-iterate/session-wrap has no skillclimb marker (not opened by the Action); it is not updated',
    });
    expect(beforeWrite).not.toHaveBeenCalled();
    expect(scope.isDone()).toBe(true);
  });

  it('hands the commit recorded in the open PR marker to the shipper', async () => {
    const marker = formatPullRequestMarker({
      skill: 'session-wrap',
      baseline: 0.7,
      final: 0.8,
      commit: 'abc123',
    });
    nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [pr(12, { state: 'open', body: marker })]);

    expect(await planPullRequest(client, repo, request)).toEqual({
      action: 'update',
      number: 12,
      url: 'https://github.test/acme/skills/pull/12',
      recordedCommit: 'abc123',
    });
  });

  it('does not write when the push before it fails', async () => {
    const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, []);
    await expect(
      upsertPullRequest(client, repo, request, {
        beforeWrite: async () => {
          throw new Error('push rejected');
        },
      }),
    ).rejects.toThrow('push rejected');
    expect(scope.isDone()).toBe(true);
  });
});

describe('labels', () => {
  it('keeps the PR when adding its labels fails, and says why', async () => {
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [])
      .post('/repos/acme/skills/pulls')
      .reply(201, pr(9, { state: 'open' }))
      .post('/repos/acme/skills/issues/9/labels')
      .reply(403, { message: 'Resource not accessible by integration' });

    const outcome = await upsertPullRequest(client, repo, request);

    expect(outcome).toMatchObject({ status: 'created', number: 9 });
    expect(outcome.status === 'created' && outcome.labelsError).toMatch(/^HTTP 403: Resource not accessible/);
    expect(scope.isDone()).toBe(true);
  });
});

describe('retries (issue 13, item 9)', () => {
  const retrying = createGitHubClient({
    token: 'test-token',
    apiUrl: API,
    retry: { ...NO_RETRIES, retries: 2, delayUnitMs: 1 },
  });
  const openQuery = { head: 'acme:skill-iterate/session-wrap', base: 'main', state: 'open', per_page: '10' };
  const noLabels = { ...request, labels: [] };

  it('a 5xx on PR creation is retried once a look shows the PR was not created', async () => {
    const scope = nock(API)
      .post('/repos/acme/skills/pulls')
      .reply(502, { message: 'Bad Gateway' })
      .get('/repos/acme/skills/pulls')
      .query(openQuery)
      .reply(200, [])
      .post('/repos/acme/skills/pulls')
      .reply(201, pr(5, { state: 'open' }));
    const outcome = await writePullRequest(retrying, repo, noLabels, { action: 'create' });
    expect(outcome).toEqual({ status: 'created', number: 5, url: 'https://github.test/acme/skills/pull/5' });
    expect(scope.pendingMocks()).toEqual([]);
  });

  it('a 5xx on a PR creation that did happen is not retried: the PR found is the one created', async () => {
    const posts: unknown[] = [];
    const scope = nock(API)
      .post('/repos/acme/skills/pulls', (body) => (posts.push(body), true))
      .reply(500, { message: 'Server Error' })
      .get('/repos/acme/skills/pulls')
      .query(openQuery)
      .reply(200, [pr(6, { state: 'open' })]);
    const outcome = await writePullRequest(retrying, repo, noLabels, { action: 'create' });
    expect(outcome).toEqual({ status: 'created', number: 6, url: 'https://github.test/acme/skills/pull/6' });
    expect(posts).toHaveLength(1);
    expect(scope.pendingMocks()).toEqual([]);
  });

  it('the client retries a GET after a 5xx, but never blindly repeats a POST', async () => {
    const scope = nock(API)
      .get('/repos/acme/skills')
      .reply(503, { message: 'Unavailable' })
      .get('/repos/acme/skills')
      .reply(200, { default_branch: 'main' })
      .post('/repos/acme/skills/issues')
      .reply(502, { message: 'Bad Gateway' });
    expect((await retrying.rest.repos.get(repo)).data.default_branch).toBe('main');
    await expect(retrying.rest.issues.create({ ...repo, title: 't', body: 'b' })).rejects.toMatchObject({
      status: 502,
    });
    expect(scope.pendingMocks()).toEqual([]);
  });

  it('redacts the token and credential shapes from every title and body it sends', async () => {
    const bodies: Array<{ title: string; body: string }> = [];
    nock(API)
      .post('/repos/acme/skills/issues', (body) => (bodies.push(body as never), true))
      .reply(201, { number: 1, html_url: 'u' });
    await retrying.rest.issues.create({
      ...repo,
      title: 'leak test-token-is-not-long-enough ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      body: 'an API said: Authorization: Bearer abcdefghijklmnopqrstuvwxyz',
    });
    // The client's own token (`test-token`) and a token shape it was never told about.
    expect(bodies[0]?.title).toBe('leak [redacted]-is-not-long-enough [redacted]');
    expect(bodies[0]?.body).toBe('an API said: Authorization: Bearer [redacted]');
  });
});
