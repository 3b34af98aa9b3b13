/**
 * The Action's Octokit (src/github/octokit.ts): @actions/github's getOctokit on the global fetch, so nock
 * sees every request, with plugin-retry for failures and plugin-throttling for rate limits. The policy's
 * delay unit is 1 ms here, so no test waits for real.
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { createGitHubClient, GITHUB_RETRY_POLICY, type GitHubRetryPolicy } from '../../src/github/octokit.js';
import { GITHUB_API as API, recordingLog } from '../helpers/github-fixtures.js';
import { looseNock } from '../helpers/nock-frame.js';

const repo = { owner: 'acme', repo: 'skills' };
const FAST: GitHubRetryPolicy = { ...GITHUB_RETRY_POLICY, retries: 2, rateLimitRetries: 2, delayUnitMs: 1 };

function client(policy: GitHubRetryPolicy = FAST) {
  const log = recordingLog();
  return { gh: createGitHubClient({ token: 't', apiUrl: API, log, retry: policy }), log };
}

/** A primary rate limit: no requests left until `reset` (epoch seconds). */
function rateLimited(reset: number) {
  return {
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(reset),
  };
}

looseNock();

describe('the Action Octokit', () => {
  it('sends the token through the global fetch, where nock sees it', async () => {
    const scope = nock(API, { reqheaders: { authorization: 'token t' } })
      .get('/repos/acme/skills')
      .reply(200, { default_branch: 'trunk' });
    const { gh } = client();
    const { data } = await gh.rest.repos.get(repo);
    expect(data.default_branch).toBe('trunk');
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('retries a 5xx up to the policy, then answers', async () => {
    const scope = nock(API)
      .get('/repos/acme/skills')
      .times(2)
      .reply(502, { message: 'Bad Gateway' })
      .get('/repos/acme/skills')
      .reply(200, { default_branch: 'main' });
    const { gh } = client();
    const { data } = await gh.rest.repos.get(repo);
    expect(data.default_branch).toBe('main');
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('gives up after the retries with the last error', async () => {
    const scope = nock(API).get('/repos/acme/skills').times(3).reply(500, { message: 'boom' });
    const { gh } = client();
    await expect(gh.rest.repos.get(repo)).rejects.toMatchObject({ status: 500 });
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('does not retry a 4xx: it is an answer', async () => {
    const scope = nock(API).get('/repos/acme/skills').reply(404, { message: 'Not Found' });
    const { gh } = client();
    await expect(gh.rest.repos.get(repo)).rejects.toMatchObject({ status: 404 });
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('waits out a rate limit with a log line, a bounded number of times', async () => {
    const now = Math.floor(Date.now() / 1000);
    const scope = nock(API)
      .get('/repos/acme/skills')
      .reply(403, { message: 'API rate limit exceeded' }, rateLimited(now))
      .get('/repos/acme/skills')
      .reply(200, { default_branch: 'main' });
    const { gh, log } = client();
    const { data } = await gh.rest.repos.get(repo);
    expect(data.default_branch).toBe('main');
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /^GitHub rate limit on GET \/repos\/\{owner\}\/\{repo\}: retrying in \d+ s \(retry 1 of 2\)$/,
      ),
    ]);
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('stops retrying a rate limit once the policy is spent, and says so', async () => {
    const now = Math.floor(Date.now() / 1000);
    const scope = nock(API)
      .get('/repos/acme/skills')
      .times(3)
      .reply(403, { message: 'API rate limit exceeded' }, rateLimited(now));
    const { gh, log } = client();
    await expect(gh.rest.repos.get(repo)).rejects.toMatchObject({ status: 403 });
    expect(log.warnings).toHaveLength(3);
    expect(log.warnings[2]).toMatch(
      /^GitHub rate limit on GET .*: not retried \(retry-after \d+ s, 2 retries so far\)$/,
    );
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('does not wait for a rate limit longer than the policy allows', async () => {
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const scope = nock(API)
      .get('/repos/acme/skills')
      .reply(403, { message: 'API rate limit exceeded' }, rateLimited(inAnHour));
    const { gh, log } = client();
    await expect(gh.rest.repos.get(repo)).rejects.toMatchObject({ status: 403 });
    expect(log.warnings).toEqual([
      expect.stringMatching(/: not retried \(retry-after \d+ s, 0 retries so far\)$/),
    ]);
    expect(scope.pendingMocks()).toStrictEqual([]);
  });

  it('retries a secondary rate limit after its retry-after, with a log line', async () => {
    const scope = nock(API)
      .post('/repos/acme/skills/issues')
      .reply(403, { message: 'You have exceeded a secondary rate limit' }, { 'retry-after': '1' })
      .post('/repos/acme/skills/issues')
      .reply(201, { number: 7, html_url: 'https://github.test/acme/skills/issues/7' });
    const { gh, log } = client();
    const { data } = await gh.rest.issues.create({ ...repo, title: 't' });
    expect(data.number).toBe(7);
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /^GitHub secondary rate limit on POST .*\/issues: retrying in 1 s \(retry 1 of 2\)$/,
      ),
    ]);
    expect(scope.pendingMocks()).toStrictEqual([]);
  });
});
