/**
 * The `review-loop` check run (docs/how-it-works.md § The App): `external_id` is the loop's run id, so a
 * check on a head SHA says which run judged it. The states it moves through are the App's decision
 * (src/github/review/check-tracker.ts); this module only speaks to the Checks API.
 */
import type { AppOctokit } from './app-octokit.js';
import { repoOf } from './app-octokit.js';
import { BODY_LIMIT, clip, postable } from '../../core/text/untrusted-text.js';

export const CHECK_NAME = 'review-loop';

export const CHECK_CONCLUSIONS = ['success', 'failure', 'neutral', 'action_required', 'cancelled'] as const;
export type CheckConclusion = (typeof CHECK_CONCLUSIONS)[number];

export type CheckState =
  | { status: 'in_progress'; title: string; summary: string }
  | { status: 'completed'; conclusion: CheckConclusion; title: string; summary: string };

export interface CheckRunRef {
  id: number;
  headSha: string;
  url: string;
}

interface RepoRef {
  owner: string;
  repo: string;
}

function output(state: CheckState): { title: string; summary: string } {
  return { title: clip(state.title.replace(/\s+/g, ' '), 200), summary: postable(state.summary, BODY_LIMIT) };
}

function stateFields(state: CheckState, now: Date) {
  return state.status === 'in_progress'
    ? { status: 'in_progress' as const }
    : { status: 'completed' as const, conclusion: state.conclusion, completed_at: now.toISOString() };
}

export async function createCheckRun(
  octokit: AppOctokit,
  repo: RepoRef,
  input: { headSha: string; runId: string; detailsUrl: string | undefined; state: CheckState; now?: Date },
): Promise<CheckRunRef> {
  const now = input.now ?? new Date();
  const { data } = await octokit.rest.checks.create({
    ...repoOf(repo),
    name: CHECK_NAME,
    head_sha: input.headSha,
    external_id: input.runId,
    started_at: now.toISOString(),
    ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
    ...stateFields(input.state, now),
    output: output(input.state),
  });
  return { id: data.id, headSha: data.head_sha, url: data.html_url ?? '' };
}

export async function updateCheckRun(
  octokit: AppOctokit,
  repo: RepoRef,
  id: number,
  input: {
    state: CheckState;
    detailsUrl?: string | undefined;
    runId?: string | undefined;
    now?: Date;
    /** Only the title and summary: the check keeps its status (a completed one GitHub will not reopen). */
    textOnly?: boolean;
  },
): Promise<void> {
  await octokit.rest.checks.update({
    ...repoOf(repo),
    check_run_id: id,
    ...(input.runId ? { external_id: input.runId } : {}),
    ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
    ...(input.textOnly ? {} : stateFields(input.state, input.now ?? new Date())),
    output: output(input.state),
  });
}

/** The summary of a check whose head was replaced by a fix or a push: neutral, pointing at the new run. */
export function supersededState(newHeadSha: string, newRunUrl: string | undefined): CheckState {
  const link = newRunUrl
    ? `[the review-loop check on ${newHeadSha.slice(0, 7)}](${newRunUrl})`
    : `the head ${newHeadSha.slice(0, 7)}`;
  return {
    status: 'completed',
    conclusion: 'neutral',
    title: `Superseded by ${newHeadSha.slice(0, 7)}`,
    summary: `This head was replaced before the loop finished with it. The verdict lives on ${link}.`,
  };
}
