/**
 * The Action's `mode: evals-init` lands its eval files as ONE pull request for review, never on the base
 * branch (docs/how-it-works.md § Shipping): one commit on top of the freshly fetched base, built in a
 * throwaway index (the checkout's index and branch are never touched), pushed with a lease to the stable
 * branch `skillclimb/evals-init`, and the PR opened or updated with the same pull-request code as the
 * nightly run's (planPullRequest / writePullRequest).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import type { Logger } from '../../ports/logger.js';
import { repoPrefix } from '../../git/repo.js';
import { fetchBranch, gitErrorMessage, gitWithIdentity, minimalGitEnv, remoteBranchSha } from './git.js';
import { formatPullRequestMarker } from '../markers.js';
import { describeApiError, type GitHubClient, type RepoRef } from '../octokit.js';
import { planPullRequest, writePullRequest } from './pull-request.js';

export const EVALS_INIT_BRANCH = 'skillclimb/evals-init';
/** The marker's `skill` for this PR: not a skill, the command that made it. */
const MARKER_NAME = 'evals-init';

export interface EvalsPullRequestRequest {
  /** The checkout (any folder inside its repository). */
  project: string;
  base: string;
  /** The files to commit, relative to the project (`/`-separated), as they are in the checkout. */
  files: string[];
  message: string;
  title: string;
  /** The body without its first line (the marker is added here). */
  body: string;
  labels: string[];
  draft: boolean;
  remote?: string;
}

export type EvalsPullRequestOutcome =
  | { status: 'created' | 'updated'; number: number; url: string; commit: string }
  | { status: 'skipped'; reason: string; url?: string | undefined };

/** One commit holding `files` (project-relative) on top of `parent`, made in a throwaway index. */
async function commitFiles(
  project: string,
  parent: string,
  files: string[],
  message: string,
): Promise<string | undefined> {
  const top = (await simpleGit(project).revparse(['--show-toplevel'])).trim();
  const prefix = await repoPrefix(project);
  const git = await gitWithIdentity(top);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-evals-'));
  try {
    const indexed = simpleGit(top).env(minimalGitEnv({ GIT_INDEX_FILE: path.join(scratch, 'index') }));
    await indexed.raw(['read-tree', parent]);
    for (const file of files) {
      const sha = (await git.raw(['hash-object', '-w', '--', path.join(project, ...file.split('/'))])).trim();
      await indexed.raw([
        'update-index',
        '--add',
        '--cacheinfo',
        `100644,${sha},${path.posix.join(prefix, file)}`,
      ]);
    }
    const tree = (await indexed.raw(['write-tree'])).trim();
    if (tree === (await git.revparse([`${parent}^{tree}`])).trim()) return undefined;
    return (await git.raw(['commit-tree', tree, '-p', parent, '-m', message])).trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function openEvalsPullRequest(
  client: GitHubClient,
  repo: RepoRef,
  request: EvalsPullRequestRequest,
  log: Logger,
): Promise<EvalsPullRequestOutcome> {
  const remote = request.remote ?? 'origin';
  const branch = EVALS_INIT_BRANCH;
  const git = await gitWithIdentity(request.project);
  let commit: string | undefined;
  try {
    const parent = await fetchBranch(git, remote, request.base);
    if (!parent) return { status: 'skipped', reason: `base branch ${request.base} not found on ${remote}` };
    commit = await commitFiles(request.project, parent, request.files, request.message);
  } catch (error) {
    return { status: 'skipped', reason: `could not build the commit: ${gitErrorMessage(error)}` };
  }
  if (!commit) return { status: 'skipped', reason: `${request.base} already has these eval files` };

  const pullRequest = {
    skill: MARKER_NAME,
    head: branch,
    base: request.base,
    title: request.title,
    body: `${formatPullRequestMarker({ skill: MARKER_NAME, baseline: 0, final: 0, commit })}\n${request.body}`,
    labels: request.labels,
    draft: request.draft,
    finalScore: undefined,
  };
  let plan;
  try {
    plan = await planPullRequest(client, repo, pullRequest);
  } catch (error) {
    return { status: 'skipped', reason: `pull request API failed: ${describeApiError(error)}` };
  }
  if (plan.action === 'skip') return { status: 'skipped', reason: plan.reason, url: plan.url };

  // Push only over a tip the Action recorded in its open PR (or to a branch that does not exist yet).
  let previous: string;
  try {
    previous = await remoteBranchSha(git, remote, branch);
    if (previous && !(plan.action === 'update' && plan.recordedCommit === previous)) {
      return { status: 'skipped', reason: `branch ${branch} has commits skillclimb did not make` };
    }
    await git.raw([
      'push',
      '--quiet',
      `--force-with-lease=refs/heads/${branch}:${previous}`,
      remote,
      `${commit}:refs/heads/${branch}`,
    ]);
  } catch (error) {
    return { status: 'skipped', reason: `push of ${branch} to ${remote} failed: ${gitErrorMessage(error)}` };
  }

  try {
    const pr = await writePullRequest(client, repo, pullRequest, plan);
    if (pr.labelsError) log.warn(`labels not added to PR #${pr.number} (${pr.labelsError})`);
    return { status: pr.status, number: pr.number, url: pr.url, commit };
  } catch (error) {
    const why = describeApiError(error);
    // The branch must not hold a commit no PR describes: put it back the way it was.
    await git
      .raw([
        'push',
        '--quiet',
        `--force-with-lease=refs/heads/${branch}:${commit}`,
        remote,
        `${previous}:refs/heads/${branch}`,
      ])
      .catch((e: unknown) => log.warn(`${branch} could not be put back (${gitErrorMessage(e)})`));
    return { status: 'skipped', reason: `pull request API failed: ${why}` };
  }
}
