/**
 * The one place an Octokit is built: `@actions/github`'s `getOctokit` with `@octokit/plugin-retry` and
 * `@octokit/plugin-throttling`, on the global fetch (not undici's own, which nock cannot intercept), against
 * `GITHUB_API_URL` so GitHub Enterprise Server and the e2e test server work.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { redactSecrets } from '../core/text/redact.js';
import type { Logger } from '../ports/logger.js';
import { messageOf } from '../core/errors.js';

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
export function onLimit(kind: string, policy: GitHubRetryPolicy, log: Pick<Logger, 'warn'> | undefined) {
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

/**
 * Methods whose repetition does no harm: a 5xx on one of them may be retried blindly. A POST (create an
 * issue, a comment, a pull request) may have happened even when the answer was a 5xx, so it is retried only
 * where the caller first checks that it did not happen (writePullRequest) or says it is safe.
 */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']);

/** Request fields that carry text for people to read: redacted before they leave the process. */
const TEXT_FIELDS = ['title', 'body', 'summary', 'text', 'message'] as const;

export function createGitHubClient(options: {
  token: string;
  apiUrl?: string | undefined;
  /** Where the rate-limit retries are reported. */
  log?: Pick<Logger, 'warn'>;
  retry?: GitHubRetryPolicy;
  /** Secrets besides the token that must never be sent in a title or body (model keys). */
  secrets?: readonly string[];
}): GitHubClient {
  const policy = options.retry ?? GITHUB_RETRY_POLICY;
  const secrets = [options.token, ...(options.secrets ?? [])];
  const client = getOctokit(
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
  policies.set(client, policy);
  client.hook.before('request', (request) => {
    // Only the idempotent methods are retried after a 5xx (rate limits are retried by the throttling
    // plugin whatever the method: a request refused for its rate was not carried out).
    const settings = (request.request ?? {}) as { retries?: number };
    if (!IDEMPOTENT_METHODS.has(request.method.toUpperCase()) && settings.retries === undefined) {
      request.request = { ...settings, retries: 0 };
    }
    // ONE redaction pass over every title and body that leaves for GitHub (docs/how-it-works.md §
    // Untrusted text and secrets): an API or provider error quoted in a PR body, an issue or a comment.
    const fields = request as unknown as Record<string, unknown>;
    for (const field of TEXT_FIELDS) {
      const value = fields[field];
      if (typeof value === 'string') fields[field] = redactSecrets(value, secrets);
    }
  });
  return client;
}

const policies = new WeakMap<GitHubClient, GitHubRetryPolicy>();

/** The retry policy a client was made with (the default for a client made elsewhere). */
export function retryPolicyOf(client: GitHubClient): GitHubRetryPolicy {
  return policies.get(client) ?? GITHUB_RETRY_POLICY;
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

/** The error in one line for a log or a skip reason; credential-shaped strings an API echoed are redacted. */
export function describeApiError(error: unknown): string {
  const status = httpStatusOf(error);
  const message = redactSecrets(messageOf(error));
  return status === undefined ? message : `HTTP ${status}: ${message}`;
}
