/**
 * What the App reads of a pull request, through the API (the App has no checkout): its heads and
 * whether it comes from a fork, its diff, and files at the head SHA. Everything here is untrusted text.
 */
import type { AppOctokit, PullRef } from './app-octokit.js';
import { repoOf } from './app-octokit.js';

export interface PullInfo {
  pr: PullRef;
  url: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  headSha: string;
  /** The head branch name, e.g. `feature/x`. */
  headRef: string;
  baseSha: string;
  baseRef: string;
  /** The head lives in another repository (or one since deleted): the App never pushes there. */
  isFork: boolean;
  author: string;
}

export async function readPullRequest(octokit: AppOctokit, pr: PullRef): Promise<PullInfo> {
  const { data } = await octokit.rest.pulls.get({ owner: pr.owner, repo: pr.repo, pull_number: pr.number });
  const baseRepo = data.base.repo.full_name.toLowerCase();
  return {
    pr,
    url: data.html_url,
    title: data.title,
    body: data.body ?? '',
    state: data.state === 'closed' ? 'closed' : 'open',
    merged: data.merged === true,
    headSha: data.head.sha,
    headRef: data.head.ref,
    baseSha: data.base.sha,
    baseRef: data.base.ref,
    isFork: data.head.repo?.full_name.toLowerCase() !== baseRepo,
    author: data.user.login,
  };
}

/** The PR's unified diff, as GitHub renders it for the PR (base merge-base … head). */
export async function readPullDiff(octokit: AppOctokit, pr: PullRef): Promise<string> {
  const { data } = await octokit.rest.pulls.get({
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    mediaType: { format: 'diff' },
  });
  return data as unknown as string;
}

/** The diff between two commits (round 2+: what changed since the reviewer last looked). */
export async function readCompareDiff(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  base: string,
  head: string,
): Promise<string> {
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    ...repoOf(repo),
    basehead: `${base}...${head}`,
    mediaType: { format: 'diff' },
  });
  return data as unknown as string;
}

export interface ChangedFile {
  path: string;
  status: string;
  additions: number;
  deletions: number;
}

export async function listChangedFiles(octokit: AppOctokit, pr: PullRef): Promise<ChangedFile[]> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  return files.map((f) => ({
    path: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
  }));
}

/** A file's text at a commit, or undefined when it does not exist there (or is not a file). */
export async function readFileAt(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  path: string,
  ref: string,
): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repoOf(repo), path, ref });
    if (Array.isArray(data) || data.type !== 'file') return undefined;
    if (data.content === '' && data.size > 0) {
      const blob = await octokit.rest.git.getBlob({ ...repoOf(repo), file_sha: data.sha });
      return Buffer.from(blob.data.content, 'base64').toString('utf8');
    }
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}
