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
  /** The repository's default branch (where the reviewer skill is read from); unknown on older records. */
  defaultBranch?: string | undefined;
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
    defaultBranch: data.base.repo.default_branch,
  };
}

/**
 * The commit the repository's default branch is at now: `branch` when the pull request named it, else the
 * repository's own word. What the App reads from the default branch is read at this commit, so the record
 * can name it.
 */
export async function defaultBranchHead(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  branch: string | undefined,
): Promise<{ branch: string; commit: string }> {
  const name = branch ?? (await octokit.rest.repos.get(repoOf(repo))).data.default_branch;
  const { data } = await octokit.rest.git.getRef({ ...repoOf(repo), ref: `heads/${name}` });
  return { branch: name, commit: data.object.sha };
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

/** The merge base of two commits and the files that differ from it to `head` (GitHub lists up to 300). */
export async function compareCommits(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  base: string,
  head: string,
): Promise<{ mergeBase: string; files: string[] }> {
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    ...repoOf(repo),
    basehead: `${base}...${head}`,
  });
  return { mergeBase: data.merge_base_commit.sha, files: (data.files ?? []).map((file) => file.filename) };
}

/** What a path holds at a commit, in the shapes the review engine's target port uses. */
export type EntryRead =
  | { kind: 'file'; text: string; bytes: number; truncated: boolean }
  | { kind: 'missing' }
  | { kind: 'symlink' }
  | { kind: 'folder' }
  | { kind: 'binary'; bytes: number };

/** Reads `path` at `ref`, at most `maxBytes` of it; a NUL byte in the first 8,000 bytes means binary. */
export async function readEntryAt(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  path: string,
  ref: string,
  maxBytes: number,
): Promise<EntryRead> {
  let data;
  try {
    ({ data } = await octokit.rest.repos.getContent({ ...repoOf(repo), path, ref }));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return { kind: 'missing' };
    throw error;
  }
  if (Array.isArray(data)) return { kind: 'folder' };
  if (data.type === 'symlink') return { kind: 'symlink' };
  if (data.type !== 'file') return { kind: 'folder' };
  let bytes = Buffer.from(data.content, 'base64');
  if (bytes.length === 0 && data.size > 0) {
    const blob = await octokit.rest.git.getBlob({ ...repoOf(repo), file_sha: data.sha });
    bytes = Buffer.from(blob.data.content, 'base64');
  }
  if (bytes.subarray(0, 8000).includes(0)) return { kind: 'binary', bytes: bytes.length };
  const truncated = bytes.length > maxBytes;
  return { kind: 'file', text: bytes.subarray(0, maxBytes).toString('utf8'), bytes: bytes.length, truncated };
}

/** A folder's entries at a commit ('' is the root), or undefined when there is no such folder. */
export async function listFolderAt(
  octokit: AppOctokit,
  repo: { owner: string; repo: string },
  path: string,
  ref: string,
): Promise<Array<{ name: string; kind: 'file' | 'folder' | 'symlink' | 'other' }> | undefined> {
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repoOf(repo), path, ref });
    if (!Array.isArray(data)) return undefined;
    return data.map((entry) => ({
      name: entry.name,
      kind:
        entry.type === 'file'
          ? 'file'
          : entry.type === 'dir'
            ? 'folder'
            : entry.type === 'symlink'
              ? 'symlink'
              : 'other',
    }));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}
