/**
 * One PR per skill, like Renovate: the open PR for `skill-iterate/<skill>` is updated, never duplicated,
 * but only with a result that beats the final it records (a worse night never overwrites a better PR);
 * a PR a human closed without merging is not reopened unless the new result beats the one it recorded.
 * The decision is read-only, so the caller can push between deciding and writing.
 */
import { abortableSleep } from '../../core/abortable.js';
import {
  describeApiError,
  httpStatusOf,
  type GitHubClient,
  type GitHubRetryPolicy,
  type RepoRef,
  retryPolicyOf,
} from '../octokit.js';
import { parsePullRequestMarker } from '../markers.js';

export interface PullRequestRequest {
  skill: string;
  /** The stable head branch, `skill-iterate/<skill>`. */
  head: string;
  base: string;
  title: string;
  body: string;
  labels: string[];
  draft: boolean;
  /** The result it carries; undefined for a PR without a score (evals init), which updates its open PR. */
  finalScore: number | undefined;
}

export type PullRequestOutcome =
  /** `labelsError`: the PR exists but its labels could not be added (labels are best effort). */
  | { status: 'created' | 'updated'; number: number; url: string; labelsError?: string }
  | { status: 'skipped'; reason: string; number: number; url: string };

export type PullRequestPlan =
  /** `recordedCommit`: the squash the open PR's marker says the Action pushed (absent in older markers). */
  | { action: 'update'; number: number; url: string; recordedCommit: string | undefined }
  | { action: 'create' }
  /** `blocked`: the skip is not about the score (a PR that is not the Action's): the work is kept. */
  | { action: 'skip'; reason: string; number: number; url: string; blocked?: boolean };

export type PullRequestWrite = Exclude<PullRequestPlan, { action: 'skip' }>;

/** Scores are printed with 6 decimals; a difference below that is no improvement. */
const SCORE_EPSILON = 5e-7;

const notBetter = (final: number, recorded: number) => final <= recorded + SCORE_EPSILON;

/**
 * `recorded >= final` with two decimals, or six when two would print the pair the wrong way round
 * (a final within the epsilon above the recorded one, e.g. 0.874999 vs 0.875).
 */
function formatNotBetter(recorded: number, final: number): string {
  const two = [recorded.toFixed(2), final.toFixed(2)] as const;
  const [r, f] = Number(two[0]) >= Number(two[1]) ? two : [recorded.toFixed(6), final.toFixed(6)];
  return `${r} >= ${f}`;
}

/** Decides what to do for a skill's branch from the PRs that already used it (newest first). */
export async function planPullRequest(
  client: GitHubClient,
  repo: RepoRef,
  request: Pick<PullRequestRequest, 'head' | 'finalScore'>,
): Promise<PullRequestPlan> {
  const { data: pulls } = await client.rest.pulls.list({
    ...repo,
    head: `${repo.owner}:${request.head}`,
    state: 'all',
    sort: 'created',
    direction: 'desc',
    per_page: 30,
  });
  const open = pulls.find((pr) => pr.state === 'open');
  if (open) {
    // Only a PR whose body starts with the Action's marker is the Action's: a human's PR from the same
    // branch (or one whose marker was edited away) is never rewritten.
    const marker = parsePullRequestMarker(open.body);
    if (!marker) {
      return {
        action: 'skip',
        number: open.number,
        url: open.html_url,
        blocked: true,
        reason: `open PR #${open.number} on ${request.head} has no skillclimb marker (not opened by the Action); it is not updated`,
      };
    }
    if (request.finalScore !== undefined && notBetter(request.finalScore, marker.final)) {
      return {
        action: 'skip',
        number: open.number,
        url: open.html_url,
        reason: `open PR #${open.number} already has final ${formatNotBetter(marker.final, request.finalScore)}`,
      };
    }
    return { action: 'update', number: open.number, url: open.html_url, recordedCommit: marker.commit };
  }

  const last = pulls[0];
  if (last && !last.merged_at) {
    const recorded = parsePullRequestMarker(last.body)?.final;
    if (
      recorded !== undefined &&
      request.finalScore !== undefined &&
      notBetter(request.finalScore, recorded)
    ) {
      return {
        action: 'skip',
        number: last.number,
        url: last.html_url,
        reason:
          `PR #${last.number} for ${request.head} was closed without merging at final ${recorded.toFixed(6)}; ` +
          `the new final ${request.finalScore.toFixed(6)} is not better, so it is not reopened`,
      };
    }
  }
  return { action: 'create' };
}

/**
 * Carries out a create or update decided by `planPullRequest`: writes the PR, then adds the labels (best
 * effort). Throws the API error when the PR itself cannot be written.
 */
export async function writePullRequest(
  client: GitHubClient,
  repo: RepoRef,
  request: PullRequestRequest,
  plan: PullRequestWrite,
  retry: Pick<GitHubRetryPolicy, 'retries' | 'delayUnitMs'> = retryPolicyOf(client),
): Promise<Exclude<PullRequestOutcome, { status: 'skipped' }>> {
  let outcome: { status: 'created' | 'updated'; number: number; url: string };
  if (plan.action === 'update') {
    const { data } = await client.rest.pulls.update({
      ...repo,
      pull_number: plan.number,
      title: request.title,
      body: request.body,
      base: request.base,
    });
    outcome = { status: 'updated', number: data.number, url: data.html_url };
  } else {
    const created = await createPullRequest(client, repo, request, retry);
    outcome = { status: 'created', number: created.number, url: created.url };
  }
  if (request.labels.length > 0) {
    try {
      await client.rest.issues.addLabels({ ...repo, issue_number: outcome.number, labels: request.labels });
    } catch (error) {
      return { ...outcome, labelsError: describeApiError(error) };
    }
  }
  return outcome;
}

/** A 5xx or no answer at all: the request may or may not have been carried out. */
function isUncertainFailure(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === undefined || status >= 500;
}

/** The open PR from `head` into `base`, if there is one (a create that answered 5xx may have happened). */
async function findOpenPullRequest(
  client: GitHubClient,
  repo: RepoRef,
  request: Pick<PullRequestRequest, 'head' | 'base'>,
): Promise<{ number: number; url: string } | undefined> {
  const { data } = await client.rest.pulls.list({
    ...repo,
    head: `${repo.owner}:${request.head}`,
    base: request.base,
    state: 'open',
    per_page: 10,
  });
  const pr = data[0];
  return pr && { number: pr.number, url: pr.html_url };
}

/**
 * `pulls.create`, retried after a 5xx (or a lost connection) only once a look at the open PRs shows it did
 * not already happen: a create is not idempotent, so the client's own retries leave it alone, and a blind
 * retry would fail on "a pull request already exists" or, worse, report a failure for a PR that is there.
 */
async function createPullRequest(
  client: GitHubClient,
  repo: RepoRef,
  request: PullRequestRequest,
  retry: Pick<GitHubRetryPolicy, 'retries' | 'delayUnitMs'>,
): Promise<{ number: number; url: string }> {
  const never = new AbortController().signal;
  for (let attempt = 0; ; attempt++) {
    try {
      const { data } = await client.rest.pulls.create({
        ...repo,
        head: request.head,
        base: request.base,
        title: request.title,
        body: request.body,
        draft: request.draft,
      });
      return { number: data.number, url: data.html_url };
    } catch (error) {
      if (!isUncertainFailure(error)) throw error;
      const existing = await findOpenPullRequest(client, repo, request).catch(() => undefined);
      if (existing) return existing;
      if (attempt >= retry.retries) throw error;
      await abortableSleep((attempt + 1) ** 2 * retry.delayUnitMs, never);
    }
  }
}
