/**
 * The one place an Octokit is built: `@actions/github`'s `getOctokit` with `@octokit/plugin-retry` and
 * `@octokit/plugin-throttling`, on the global fetch (not undici's own, which nock cannot intercept), against
 * `GITHUB_API_URL` so GitHub Enterprise Server and the e2e test server work.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { Logger } from '../ports/logger.js';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

export const DEFAULT_API_URL = 'https://api.github.com';

/** How hard the client tries again before a request's error reaches the caller. */
export interface GitHubRetryPolicy {
  /** Retries of a request that failed with a 5xx or on the network (not 4xx: those are answers). */
  retries: number;
  /** Retries after a primary or a secondary rate limit. */
  rateLimitRetries: number;
  /** A rate limit that asks for a longer wait than this is not waited out: the request fails. */
  maxRateLimitWaitSeconds: number;
  /**
   * The unit of every wait: the n-th retry of a failure waits n² units; a rate limit waits its retry-after
   * seconds in units. 1000 (a second) in production; tests make it tiny.
   */
  delayUnitMs: number;
}

export const GITHUB_RETRY_POLICY: GitHubRetryPolicy = {
  retries: 3,
  rateLimitRetries: 2,
  maxRateLimitWaitSeconds: 15 * 60,
  delayUnitMs: 1000,
};

const quiet = () => undefined;

/** The throttling plugin's handler for one kind of limit: a log line, then retry while the policy allows. */
function onLimit(kind: string, policy: GitHubRetryPolicy, log: Pick<Logger, 'warn'> | undefined) {
  return (
    retryAfter: number,
    request: { method: string; url: string },
    _octokit: unknown,
    retryCount: number,
  ) => {
    const what = `GitHub ${kind} on ${request.method} ${request.url}`;
    if (retryCount >= policy.rateLimitRetries || retryAfter > policy.maxRateLimitWaitSeconds) {
      log?.warn(`${what}: not retried (retry-after ${retryAfter} s, ${retryCount} retries so far)`);
      return false;
    }
    log?.warn(`${what}: retrying in ${retryAfter} s (retry ${retryCount + 1} of ${policy.rateLimitRetries})`);
    return true;
  };
}

export function createGitHubClient(options: {
  token: string;
  apiUrl?: string | undefined;
  /** Where the rate-limit retries are reported. */
  log?: Pick<Logger, 'warn'>;
  retry?: GitHubRetryPolicy;
}): GitHubClient {
  const policy = options.retry ?? GITHUB_RETRY_POLICY;
  return getOctokit(
    options.token,
    {
      // Failed requests are reported by the callers, which know whether a 404 is news (the kill-switch
      // file's absence is the normal case); Octokit's own request log would print every one of them.
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
      baseUrl: (options.apiUrl || DEFAULT_API_URL).replace(/\/+$/, ''),
      userAgent: 'skillclimb-action',
      request: { fetch: globalThis.fetch },
      retry: { retries: policy.retries, retryAfterBaseValue: policy.delayUnitMs },
      throttle: {
        retryAfterBaseValue: policy.delayUnitMs,
        onRateLimit: onLimit('rate limit', policy, options.log),
        onSecondaryRateLimit: onLimit('secondary rate limit', policy, options.log),
      },
    },
    retry,
    throttling,
  );
}

/** `owner/name` as in `GITHUB_REPOSITORY`. */
export function parseRepository(value: string | undefined, source = 'GITHUB_REPOSITORY'): RepoRef {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(value?.trim() ?? '');
  if (!match?.[1] || !match[2]) {
    throw new Error(`${source}: expected "owner/name", got ${JSON.stringify(value ?? '')}`);
  }
  return { owner: match[1], repo: match[2] };
}

/** The HTTP status of an Octokit RequestError, or undefined for anything else (network, programming). */
export function httpStatusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** `repos.get` → `default_branch`: what `base` means when the input is empty. */
export async function fetchDefaultBranch(client: GitHubClient, repo: RepoRef): Promise<string> {
  const { data } = await client.rest.repos.get({ ...repo });
  return data.default_branch;
}

export function describeApiError(error: unknown): string {
  const status = httpStatusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return status === undefined ? message : `HTTP ${status}: ${message}`;
}
