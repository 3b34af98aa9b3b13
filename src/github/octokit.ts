/**
 * The one place an Octokit is built. `@octokit/rest` with the global fetch (not undici's own, which nock
 * cannot intercept), against `GITHUB_API_URL` so GitHub Enterprise Server and the e2e test server work.
 */
import { Octokit } from '@octokit/rest';

export type GitHubClient = Octokit;

export interface RepoRef {
  owner: string;
  repo: string;
}

export const DEFAULT_API_URL = 'https://api.github.com';

const quiet = () => undefined;

export function createGitHubClient(options: { token: string; apiUrl?: string | undefined }): GitHubClient {
  return new Octokit({
    // Failed requests are reported by the callers, which know whether a 404 is news (the kill-switch file's
    // absence is the normal case); Octokit's own request log would print every one of them.
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    auth: options.token || undefined,
    baseUrl: (options.apiUrl || DEFAULT_API_URL).replace(/\/+$/, ''),
    userAgent: 'skillclimb-action',
    request: { fetch: globalThis.fetch },
  });
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
