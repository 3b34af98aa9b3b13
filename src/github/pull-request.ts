/**
 * One PR per skill, like Renovate: the open PR for `skill-iterate/<skill>` is updated, never duplicated;
 * a PR a human closed without merging is not reopened unless the new result beats the one it recorded.
 */
import { describeApiError, type GitHubClient, type RepoRef } from './octokit.js';
import { parsePullRequestMarker } from './markers.js';

export interface PullRequestRequest {
  skill: string;
  /** The stable head branch, `skill-iterate/<skill>`. */
  head: string;
  base: string;
  title: string;
  body: string;
  labels: string[];
  draft: boolean;
  finalScore: number;
}

export type PullRequestOutcome =
  /** `labelsError`: the PR exists but its labels could not be added (labels are best effort). */
  | { status: 'created' | 'updated'; number: number; url: string; labelsError?: string }
  | { status: 'skipped'; reason: string; number: number; url: string };

export type PullRequestPlan =
  | { action: 'update'; number: number; url: string }
  | { action: 'create' }
  | { action: 'skip'; reason: string; number: number; url: string };

/** Scores are printed with 6 decimals; a difference below that is no improvement. */
const SCORE_EPSILON = 5e-7;

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
  if (open) return { action: 'update', number: open.number, url: open.html_url };

  const last = pulls[0];
  if (last && !last.merged_at) {
    const recorded = parsePullRequestMarker(last.body)?.final;
    if (recorded !== undefined && request.finalScore <= recorded + SCORE_EPSILON) {
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
 * Creates or updates the skill's PR. `beforeWrite` runs after the decision and before any write, so the
 * caller pushes the branch only when a PR will point at it.
 */
export async function upsertPullRequest(
  client: GitHubClient,
  repo: RepoRef,
  request: PullRequestRequest,
  hooks: { beforeWrite?: () => Promise<void> } = {},
): Promise<PullRequestOutcome> {
  const plan = await planPullRequest(client, repo, request);
  if (plan.action === 'skip')
    return { status: 'skipped', reason: plan.reason, number: plan.number, url: plan.url };

  await hooks.beforeWrite?.();

  let outcome: PullRequestOutcome;
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
    const { data } = await client.rest.pulls.create({
      ...repo,
      head: request.head,
      base: request.base,
      title: request.title,
      body: request.body,
      draft: request.draft,
    });
    outcome = { status: 'created', number: data.number, url: data.html_url };
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
