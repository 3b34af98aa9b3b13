/**
 * The Action's Shipper (docs/how-it-works.md § Shipping): instead of the CLI's local squash-merge, ONE squashed commit on the stable branch
 * `skill-iterate/<skill>`, pushed with a lease, and one PR per skill opened or updated. The order keeps the
 * branch and its PR in step: decide on the PR (read-only), push, write the PR; when that write fails, the
 * branch is put back the way it was.
 */
import type { SimpleGit } from 'simple-git';
import type { Logger } from '../ports/logger.js';
import type { ShipOutcome, ShipRequest, Shipper } from '../ports/shipper.js';
import { discardWorktree } from '../git/worktree.js';
import { fetchCommit, gitErrorMessage, gitWithIdentity, remoteBranchSha } from './git.js';
import { isSkillclimbCommit } from './branch-owner.js';
import type { GitHubClient, RepoRef } from './octokit.js';
import { describeApiError } from './octokit.js';
import { buildPullRequestBody } from './pr-body.js';
import {
  planPullRequest,
  writePullRequest,
  type PullRequestPlan,
  type PullRequestRequest,
  type PullRequestWrite,
} from './pull-request.js';
import { buildSquashOnBase } from './squash.js';

export interface GitHubShipperOptions {
  client: GitHubClient;
  repo: RepoRef;
  /** The PR base branch. */
  base: string;
  labels: string[];
  draft: boolean;
  remote?: string;
  runUrl: string | undefined;
  runId: string | undefined;
  modelsLabel: string | undefined;
  log: Logger;
  /** Where a skill's full record is (named in the note of a PR body that had to be cut). */
  fullTextAt?: (skill: string) => string;
}

/** What the Action reports per shipped (or PR-skipped) skill: the `shipped` output and the job summary. */
export interface ShipmentRecord {
  skill: string;
  status: 'created' | 'updated' | 'skipped';
  pr: number | undefined;
  url: string | undefined;
  baseline: number;
  final: number;
  commit: string | undefined;
  reason: string | undefined;
}

export interface GitHubShipper extends Shipper {
  readonly shipments: ShipmentRecord[];
}

export const stableBranch = (skill: string) => `skill-iterate/${skill}`;

export function createGitHubShipper(options: GitHubShipperOptions): GitHubShipper {
  const remote = options.remote ?? 'origin';
  const shipments: ShipmentRecord[] = [];

  function skip(
    request: ShipRequest,
    reason: string,
    keepWorktree: boolean,
    pr?: { number: number; url: string },
  ) {
    // The engine warns for a kept worktree itself; the other skips (a closed PR) would go unannotated.
    if (keepWorktree) options.log.info(`${request.skill}: not shipped: ${reason}`);
    else options.log.warn(`${request.skill}: not shipped: ${reason}`);
    shipments.push({
      skill: request.skill,
      status: 'skipped',
      pr: pr?.number,
      url: pr?.url,
      baseline: request.baselineScore,
      final: request.finalScore,
      commit: undefined,
      reason,
    });
    return { status: 'skipped', reason, keepWorktree } satisfies ShipOutcome;
  }

  /** Moves the remote branch from `expected` ('' — absent) to `target` ('' — delete) under a lease. */
  async function pushLeased(git: SimpleGit, branch: string, expected: string, target: string): Promise<void> {
    // An explicit lease: a concurrent push to the branch in between fails this push instead of being lost.
    await git.raw([
      'push',
      '--quiet',
      `--force-with-lease=refs/heads/${branch}:${expected}`,
      remote,
      `${target}:refs/heads/${branch}`,
    ]);
  }

  /**
   * The PR write failed after the push: put the branch back (previous tip, or no branch), so it never
   * holds a commit that no PR, or a PR with a stale body, describes. Warns either way. The previous tip is
   * fetched first, with its history: pushing back a commit the checkout lacks, or has only as a shallow
   * boundary, would fail.
   */
  async function restoreBranch(
    git: SimpleGit,
    request: ShipRequest,
    branch: string,
    pushed: string,
    previous: string,
    failed: string,
  ): Promise<void> {
    try {
      if (previous) await fetchCommit(git, remote, previous);
      await pushLeased(git, branch, pushed, previous);
      const restored = previous
        ? `${branch} was restored to ${previous.slice(0, 7)}`
        : `${branch} was deleted from ${remote} again`;
      options.log.warn(`${request.skill}: ${failed}; ${restored}`);
    } catch (error) {
      options.log.warn(
        `${request.skill}: ${failed}; restoring ${branch} on ${remote} failed too (${gitErrorMessage(error)}), ` +
          `so it holds ${pushed.slice(0, 7)}`,
      );
    }
  }

  /**
   * Whether the branch's current tip is the Action's to replace: the commit the open PR's marker recorded,
   * or (no open PR, or a marker from before commits were recorded) a commit the Action made.
   */
  async function ownsTip(
    git: SimpleGit,
    skill: string,
    branch: string,
    tip: string,
    plan: PullRequestWrite,
  ): Promise<boolean> {
    if (plan.action === 'update' && plan.recordedCommit) return plan.recordedCommit === tip;
    return isSkillclimbCommit(git, { remote, branch, skill, sha: tip });
  }

  async function ship(request: ShipRequest): Promise<ShipOutcome> {
    const branch = stableBranch(request.skill);
    let squash;
    try {
      squash = await buildSquashOnBase({
        project: request.project,
        remote,
        base: options.base,
        baseCommit: request.baseCommit,
        head: request.branch,
        skillPath: request.skillPath,
        message: request.message,
      });
    } catch (error) {
      return skip(request, `could not build the squash commit: ${gitErrorMessage(error)}`, true);
    }
    if (squash.status === 'skipped') return skip(request, squash.reason, true);

    const pullRequest: PullRequestRequest = {
      skill: request.skill,
      head: branch,
      base: options.base,
      title: request.message,
      body: buildPullRequestBody({
        request,
        base: options.base,
        runUrl: options.runUrl,
        runId: options.runId,
        modelsLabel: options.modelsLabel,
        rebuiltNote: squash.rebuilt,
        commit: squash.commit,
        fullTextAt: options.fullTextAt?.(request.skill),
      }),
      labels: options.labels,
      draft: options.draft,
      finalScore: request.finalScore,
    };

    // 1. Decide, read-only: a skip (an open or closed PR already has a result at least as good) pushes nothing.
    let plan: PullRequestPlan;
    try {
      plan = await planPullRequest(options.client, options.repo, pullRequest);
    } catch (error) {
      return skip(request, `pull request API failed: ${describeApiError(error)}`, true);
    }
    if (plan.action === 'skip') return skip(request, plan.reason, plan.blocked === true, plan);

    // 2. Push, leased on the tip `ls-remote` lists, and only over a tip the Action made: commits people
    // pushed to the branch are never overwritten. Only the tip is fetched, and only when no open PR's
    // marker vouches for it (in a depth-1 checkout a plain fetch would download the history below it).
    const git = await gitWithIdentity(request.project);
    let previous: string;
    try {
      previous = await remoteBranchSha(git, remote, branch);
      if (previous && !(await ownsTip(git, request.skill, branch, previous, plan))) {
        return skip(request, `branch ${branch} has commits skillclimb did not make`, true);
      }
      await pushLeased(git, branch, previous, squash.commit);
    } catch (error) {
      return skip(request, `push of ${branch} to ${remote} failed: ${gitErrorMessage(error)}`, true);
    }

    // 3. Write the PR.
    let pr;
    try {
      pr = await writePullRequest(options.client, options.repo, pullRequest, plan);
    } catch (error) {
      const apiError = describeApiError(error);
      await restoreBranch(git, request, branch, squash.commit, previous, writeFailure(plan, apiError));
      return skip(request, `pull request API failed: ${apiError}`, true);
    }
    shipments.push({
      skill: request.skill,
      status: pr.status,
      pr: pr.number,
      url: pr.url,
      baseline: request.baselineScore,
      final: request.finalScore,
      commit: squash.commit,
      reason: undefined,
    });
    options.log.info(`${request.skill}: ${branch} → PR #${pr.number} ${pr.status} (${pr.url})`);
    if (pr.labelsError) {
      options.log.warn(
        `${request.skill}: labels ${options.labels.join(', ')} not added to PR #${pr.number} (${pr.labelsError})`,
      );
    }
    // Like the CLI's shipper after its merge: the run's worktree and branch have served their purpose.
    await discardWorktree(
      request.project,
      { path: request.worktreePath, branch: request.branch },
      { warn: (m) => options.log.warn(m) },
    );
    const detail = [`pull request #${pr.number} ${pr.status}`, squash.rebuilt].filter(Boolean).join('; ');
    return { status: 'shipped', commit: squash.commit, link: pr.url, detail };
  }

  return { ship, shipments };
}

function writeFailure(plan: PullRequestWrite, apiError: string): string {
  return plan.action === 'update'
    ? `PR #${plan.number} could not be updated (${apiError})`
    : `the pull request could not be created (${apiError})`;
}
