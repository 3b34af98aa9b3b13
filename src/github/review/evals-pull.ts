/**
 * The one pull request that carries the reviewer skill's feedback evals (docs/how-it-works.md § The
 * reviewer learns, "Feedback becomes evals"): branch `review-loop/reviewer-evals`, found again by that
 * branch while its pull request is open and given one more commit each time, else started afresh from the
 * default branch. Written through the Git Data API as the App's fix commits are (fix-commit.ts): one tree
 * with the file's text inline → commit → branch moved (never forced while its pull request is open, so a
 * maintainer's own commit on it is never overwritten) → the pull request opened or its body updated. The
 * default branch itself is never written.
 */
import type { AppOctokit } from './app-octokit.js';
import { repoOf } from './app-octokit.js';
import { readEntryAt } from './pull-info.js';
import { httpStatusOf } from '../octokit.js';

export const EVALS_BRANCH = 'review-loop/reviewer-evals';
/** The hidden first line of the pull request's body, by which the App knows its own. */
export const EVALS_PULL_MARKER = '<!-- skillclimb:reviewer-evals -->';
/** An evals file larger than this is not read (nor appended to). */
const MAX_FILE_BYTES = 2_000_000;

type Repo = { owner: string; repo: string };

/** What the file is on each side, handed to the caller, which answers with what to write. */
export interface EvalsTexts {
  onDefault: string | undefined;
  /** The file where the App writes: on the open pull request's branch, else on the default branch. */
  current: string | undefined;
  /** The open pull request's body, when there is one. */
  body: string | undefined;
}

export interface EvalsWrite {
  text: string;
  message: string;
  title: string;
  body: string;
}

export type EvalsPullResult =
  | { status: 'opened' | 'updated'; number: number; url: string }
  | { status: 'unchanged' }
  /** The branch moved while the App wrote (someone pushed to it): nothing landed. */
  | { status: 'branch-moved' };

async function readText(octokit: AppOctokit, repo: Repo, path: string, ref: string) {
  const read = await readEntryAt(octokit, repo, path, ref, MAX_FILE_BYTES);
  if (read.kind === 'missing') return undefined;
  if (read.kind !== 'file' || read.truncated) {
    throw new Error(`\`${path}\` is not a text file the App can append to (${read.kind}, or too large)`);
  }
  return read.text;
}

async function refSha(octokit: AppOctokit, repo: Repo, branch: string): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.git.getRef({ ...repoOf(repo), ref: `heads/${branch}` });
    return data.object.sha;
  } catch (error) {
    if (httpStatusOf(error) === 404) return undefined;
    throw error;
  }
}

/**
 * Reads the evals file where it stands, lets `plan` say what to write (undefined: nothing), and lands it
 * on the evals branch with its pull request against `defaultBranch`.
 */
export async function writeEvalsPull(
  octokit: AppOctokit,
  repo: Repo,
  input: { defaultBranch: string; path: string; plan: (texts: EvalsTexts) => EvalsWrite | undefined },
): Promise<EvalsPullResult> {
  const target = repoOf(repo);
  const { data: open } = await octokit.rest.pulls.list({
    ...target,
    state: 'open',
    head: `${repo.owner}:${EVALS_BRANCH}`,
    per_page: 10,
  });
  const pull = open[0];
  const defaultHead = await refSha(octokit, repo, input.defaultBranch);
  if (!defaultHead) throw new Error(`the default branch \`${input.defaultBranch}\` has no head`);
  const branchHead = await refSha(octokit, repo, EVALS_BRANCH);
  // Without an open pull request the branch is a merged or closed one's: it starts again from the default.
  const base = pull && branchHead ? branchHead : defaultHead;
  const onDefault = await readText(octokit, repo, input.path, defaultHead);
  const current = base === defaultHead ? onDefault : await readText(octokit, repo, input.path, base);
  const write = input.plan({ onDefault, current, body: pull ? (pull.body ?? '') : undefined });
  if (!write || write.text === current) return { status: 'unchanged' };

  const { data: parent } = await octokit.rest.git.getCommit({ ...target, commit_sha: base });
  const { data: tree } = await octokit.rest.git.createTree({
    ...target,
    base_tree: parent.tree.sha,
    tree: [{ path: input.path, mode: '100644', type: 'blob', content: write.text }],
  });
  const { data: commit } = await octokit.rest.git.createCommit({
    ...target,
    message: write.message,
    tree: tree.sha,
    parents: [base],
  });
  if (branchHead === undefined) {
    await octokit.rest.git.createRef({ ...target, ref: `refs/heads/${EVALS_BRANCH}`, sha: commit.sha });
  } else {
    try {
      await octokit.rest.git.updateRef({
        ...target,
        ref: `heads/${EVALS_BRANCH}`,
        sha: commit.sha,
        // An open pull request's branch may hold a maintainer's commits: only fast-forwarded. A finished
        // one's branch is the App's to start again.
        force: !pull,
      });
    } catch (error) {
      if (httpStatusOf(error) === 422) return { status: 'branch-moved' };
      throw error;
    }
  }
  if (pull) {
    await octokit.rest.pulls.update({ ...target, pull_number: pull.number, body: write.body });
    return { status: 'updated', number: pull.number, url: pull.html_url };
  }
  const { data: created } = await octokit.rest.pulls.create({
    ...target,
    title: write.title,
    head: EVALS_BRANCH,
    base: input.defaultBranch,
    body: write.body,
  });
  return { status: 'opened', number: created.number, url: created.html_url };
}
