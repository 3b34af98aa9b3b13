/**
 * The Action's Shipper (docs/how-it-works.md § Shipping): instead of the CLI's local squash-merge, ONE squashed commit on the stable branch
 * `skill-iterate/<skill>`, pushed with a lease, and one PR per skill opened or updated. The order keeps the
 * branch and its PR in step: decide on the PR (read-only), push, write the PR; when that write fails, the
 * branch is put back the way it was.
 *
 * A rejected push is retried with backoff (a transient remote error usually clears within seconds). When
 * every attempt fails, the squash commit is kept on the remote as `skillclimb/pending/<skill>` and the
 * skill's status says so: the state files do not count such a night as a run (`isPendingShipStatus` in
 * src/github/action/state-files.ts), so
 * the next night runs the skill again and ships it; that ship deletes the pending branch.
 */
import type { SimpleGit } from 'simple-git';
import type { Logger } from '../../ports/logger.js';
import type { ShipOutcome, ShipRequest, Shipper } from '../../ports/shipper.js';
import { discardWorktree } from '../../git/worktree.js';
import { fetchCommit, gitErrorMessage, gitWithIdentity, remoteBranchSha } from './git.js';
import { isSkillclimbCommit } from './branch-owner.js';
import type { GitHubClient, RepoRef } from '../octokit.js';
import { describeApiError } from '../octokit.js';
import { buildPullRequestBody } from './pr-body.js';
import {
  planPullRequest,
  writePullRequest,
  type PullRequestPlan,
  type PullRequestRequest,
  type PullRequestWrite,
} from './pull-request.js';
import { buildSquashOnBase } from './squash.js';
import { PUSH_FAILED } from './state-files.js';

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
  /** Waits before each retry of a rejected push; its length + 1 is the number of attempts. */
  pushRetryDelaysMs?: readonly number[];
  /** A seam for tests: how a retry waits. */
  sleep?: (ms: number) => Promise<void>;
}

/** Waits between push attempts: four attempts over about 15 seconds. */
const PUSH_RETRY_DELAYS_MS = [1_000, 4_000, 10_000] as const;

/** Where a squash commit whose push kept failing is kept on the remote, for people and the next night. */
const pendingBranch = (skill: string) => `skillclimb/pending/${skill}`;

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

/** The Action's shipper as a factory (the engine's port, with the night's shipments for the summary). */
export function createGitHubShipper(options: GitHubShipperOptions): GitHubShipper {
  return new PullRequestShipper(options);
}

type PushResult =
  { status: 'pushed'; previous: string } | { status: 'foreign' } | { status: 'failed'; error: string };

/**
 * One skill's ship in three steps, each a method: build the squash commit and decide on the PR (`prepare`,
 * read-only), push it (`push`), write the PR (`publish`); the push helpers below them keep the branch and its
 * PR in step.
 */
class PullRequestShipper implements GitHubShipper {
  readonly shipments: ShipmentRecord[] = [];
  private readonly remote: string;
  private readonly delays: readonly number[];
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: GitHubShipperOptions) {
    this.remote = options.remote ?? 'origin';
    this.delays = options.pushRetryDelaysMs ?? PUSH_RETRY_DELAYS_MS;
    this.sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  }

  async ship(request: ShipRequest): Promise<ShipOutcome> {
    const prepared = await this.prepare(request);
    if ('status' in prepared) return prepared;
    const { squash, pullRequest, plan } = prepared;
    const branch = pullRequest.head;
    const git = await gitWithIdentity(request.project);
    const pushed = await this.push(git, request, branch, plan, squash.commit);
    if (pushed.status === 'skipped') return pushed;
    return this.publish(git, request, { squash, pullRequest, plan, previous: pushed.previous });
  }

  /**
   * Builds the squash commit on the base and decides, read-only, what to do with the PR: a skip (an open or
   * closed PR already has a result at least as good) pushes nothing.
   */
  private async prepare(request: ShipRequest): Promise<
    | ShipOutcome
    | {
        squash: { commit: string; rebuilt: string | undefined };
        pullRequest: PullRequestRequest;
        plan: PullRequestWrite;
      }
  > {
    const { options } = this;
    let squash;
    try {
      squash = await buildSquashOnBase({
        project: request.project,
        remote: this.remote,
        base: options.base,
        baseCommit: request.baseCommit,
        head: request.branch,
        skillPath: request.skillPath,
        message: request.message,
      });
    } catch (error) {
      return this.skip(request, `could not build the squash commit: ${gitErrorMessage(error)}`, true);
    }
    if (squash.status === 'skipped') return this.skip(request, squash.reason, true);

    const pullRequest: PullRequestRequest = {
      skill: request.skill,
      head: stableBranch(request.skill),
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

    let plan: PullRequestPlan;
    try {
      plan = await planPullRequest(options.client, options.repo, pullRequest);
    } catch (error) {
      return this.skip(request, `pull request API failed: ${describeApiError(error)}`, true);
    }
    if (plan.action === 'skip') return this.skip(request, plan.reason, plan.blocked === true, plan);
    return { squash, pullRequest, plan };
  }

  /**
   * Pushes, leased on the tip `ls-remote` lists, and only over a tip the Action made: commits people pushed
   * to the branch are never overwritten. Only the tip is fetched, and only when no open PR's marker vouches
   * for it (in a depth-1 checkout a plain fetch would download the history below it). Returns the tip the
   * push replaced, or the skip.
   */
  private async push(
    git: SimpleGit,
    request: ShipRequest,
    branch: string,
    plan: PullRequestWrite,
    commit: string,
  ): Promise<{ status: 'pushed'; previous: string } | (ShipOutcome & { status: 'skipped' })> {
    const { remote } = this;
    const foreign = `branch ${branch} has commits skillclimb did not make`;
    try {
      const tip = await remoteBranchSha(git, remote, branch);
      if (tip && !(await this.ownsTip(git, request.skill, branch, tip, plan)))
        return this.skip(request, foreign, true);
      const pushed = await this.pushWithRetry(git, request, branch, plan, commit, tip);
      if (pushed.status === 'foreign') return this.skip(request, foreign, true);
      if (pushed.status === 'failed') {
        // The worktree lives in the runner's temporary folder, gone after the job: the commit is on the remote.
        const reason = await this.keepPending(git, request.skill, branch, commit, pushed.error);
        return this.skip(request, reason, false);
      }
      return pushed;
    } catch (error) {
      return this.skip(
        request,
        `${PUSH_FAILED}${branch} to ${remote} failed: ${gitErrorMessage(error)}`,
        true,
      );
    }
  }

  /**
   * Writes the PR over the pushed branch (restoring the branch when the write fails), records the shipment,
   * and clears what the ship makes unneeded: an earlier night's pending branch, the run's worktree.
   */
  private async publish(
    git: SimpleGit,
    request: ShipRequest,
    pushed: {
      squash: { commit: string; rebuilt: string | undefined };
      pullRequest: PullRequestRequest;
      plan: PullRequestWrite;
      previous: string;
    },
  ): Promise<ShipOutcome> {
    const { options } = this;
    const { squash, pullRequest, plan, previous } = pushed;
    const branch = pullRequest.head;
    let pr;
    try {
      pr = await writePullRequest(options.client, options.repo, pullRequest, plan);
    } catch (error) {
      const apiError = describeApiError(error);
      await this.restoreBranch(git, request, branch, squash.commit, previous, writeFailure(plan, apiError));
      return this.skip(request, `pull request API failed: ${apiError}`, true);
    }
    this.shipments.push({
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
    await this.dropPending(git, request.skill);
    // Like the CLI's shipper after its merge: the run's worktree and branch have served their purpose.
    await discardWorktree(
      request.project,
      { path: request.worktreePath, branch: request.branch },
      { warn: (m) => options.log.warn(m) },
    );
    const detail = [`pull request #${pr.number} ${pr.status}`, squash.rebuilt].filter(Boolean).join('; ');
    return { status: 'shipped', commit: squash.commit, link: pr.url, detail };
  }

  private skip(
    request: ShipRequest,
    reason: string,
    keepWorktree: boolean,
    pr?: { number: number; url: string },
  ): ShipOutcome & { status: 'skipped' } {
    // The engine warns for a kept worktree itself; the other skips (a closed PR) would go unannotated.
    if (keepWorktree) this.options.log.info(`${request.skill}: not shipped: ${reason}`);
    else this.options.log.warn(`${request.skill}: not shipped: ${reason}`);
    this.shipments.push({
      skill: request.skill,
      status: 'skipped',
      pr: pr?.number,
      url: pr?.url,
      baseline: request.baselineScore,
      final: request.finalScore,
      commit: undefined,
      reason,
    });
    return { status: 'skipped', reason, keepWorktree };
  }

  /** Moves the remote branch from `expected` ('' — absent) to `target` ('' — delete) under a lease. */
  private async pushLeased(git: SimpleGit, branch: string, expected: string, target: string): Promise<void> {
    // An explicit lease: a concurrent push to the branch in between fails this push instead of being lost.
    await git.raw([
      'push',
      '--quiet',
      `--force-with-lease=refs/heads/${branch}:${expected}`,
      this.remote,
      `${target}:refs/heads/${branch}`,
    ]);
  }

  /**
   * Pushes the squash commit over `previous` (the tip read before, '' — absent), retrying with backoff. After
   * a failed attempt the remote is read again: a push that landed although it reported failure is done; a
   * tip that moved is pushed over only when it is still the Action's (the lease follows it). Returns the
   * tip the push replaced, or why the branch is not the Action's to replace.
   */
  private async pushWithRetry(
    git: SimpleGit,
    request: ShipRequest,
    branch: string,
    plan: PullRequestWrite,
    commit: string,
    initial: string,
  ): Promise<PushResult> {
    let previous = initial;
    const attempts = this.delays.length + 1;
    for (let attempt = 1; ; attempt++) {
      let error: string;
      try {
        await this.pushLeased(git, branch, previous, commit);
        return { status: 'pushed', previous };
      } catch (cause) {
        error = gitErrorMessage(cause);
      }
      if (attempt >= attempts) {
        const landed = await remoteBranchSha(git, this.remote, branch).catch(() => '');
        return landed === commit ? { status: 'pushed', previous } : { status: 'failed', error };
      }
      const delay = this.delays[attempt - 1] ?? 0;
      this.options.log.info(
        `${request.skill}: ${PUSH_FAILED}${branch} to ${this.remote} failed (attempt ${attempt} of ${attempts}): ${error}; ` +
          `retrying in ${Math.round(delay / 1000)} s`,
      );
      await this.sleep(delay);
      const tip = await remoteBranchSha(git, this.remote, branch).catch(() => previous);
      if (tip === commit) return { status: 'pushed', previous };
      if (tip !== previous) {
        if (tip && !(await this.ownsTip(git, request.skill, branch, tip, plan))) return { status: 'foreign' };
        previous = tip;
      }
    }
  }

  /**
   * Every push attempt failed: the squash commit goes to `skillclimb/pending/<skill>` (a branch of its own,
   * which a rule or hook on the PR branches may not cover), where the next night and people find it.
   * Returns the skip reason, which says where the commit is, or that it could not be kept.
   */
  private async keepPending(git: SimpleGit, skill: string, branch: string, commit: string, error: string) {
    const failed = `${PUSH_FAILED}${branch} to ${this.remote} failed ${this.delays.length + 1} times (${error})`;
    const rerun = 'the skill is not counted as run: the next night runs it again and ships it';
    const pending = pendingBranch(skill);
    try {
      await git.raw(['push', '--quiet', '--force', this.remote, `${commit}:refs/heads/${pending}`]);
      return `${failed}; the squash commit ${commit.slice(0, 7)} is kept on the branch ${pending}, and ${rerun}`;
    } catch (keepError) {
      this.options.log.warn(
        `${skill}: keeping ${commit.slice(0, 7)} on ${pending} failed too: ${gitErrorMessage(keepError)}`,
      );
      return `${failed}; the squash commit could not be kept on ${this.remote} either, and ${rerun}`;
    }
  }

  /** After a ship: a pending branch an earlier night left for the skill is no longer needed. */
  private async dropPending(git: SimpleGit, skill: string): Promise<void> {
    const pending = pendingBranch(skill);
    try {
      const tip = await remoteBranchSha(git, this.remote, pending);
      if (!tip) return;
      await git.raw([
        'push',
        '--quiet',
        `--force-with-lease=refs/heads/${pending}:${tip}`,
        this.remote,
        `:refs/heads/${pending}`,
      ]);
      this.options.log.info(
        `${skill}: deleted ${pending} from ${this.remote}: its commit is superseded by this ship`,
      );
    } catch (error) {
      this.options.log.warn(
        `${skill}: could not delete ${pending} from ${this.remote}: ${gitErrorMessage(error)}`,
      );
    }
  }

  /**
   * The PR write failed after the push: put the branch back (previous tip, or no branch), so it never
   * holds a commit that no PR, or a PR with a stale body, describes. Warns either way. The previous tip is
   * fetched first, with its history: pushing back a commit the checkout lacks, or has only as a shallow
   * boundary, would fail.
   */
  private async restoreBranch(
    git: SimpleGit,
    request: ShipRequest,
    branch: string,
    pushed: string,
    previous: string,
    failed: string,
  ): Promise<void> {
    try {
      if (previous) await fetchCommit(git, this.remote, previous);
      await this.pushLeased(git, branch, pushed, previous);
      const restored = previous
        ? `${branch} was restored to ${previous.slice(0, 7)}`
        : `${branch} was deleted from ${this.remote} again`;
      this.options.log.warn(`${request.skill}: ${failed}; ${restored}`);
    } catch (error) {
      this.options.log.warn(
        `${request.skill}: ${failed}; restoring ${branch} on ${this.remote} failed too (${gitErrorMessage(error)}), ` +
          `so it holds ${pushed.slice(0, 7)}`,
      );
    }
  }

  /**
   * Whether the branch's current tip is the Action's to replace: the commit the open PR's marker recorded,
   * or (no open PR, or a marker from before commits were recorded) a commit the Action made.
   */
  private async ownsTip(
    git: SimpleGit,
    skill: string,
    branch: string,
    tip: string,
    plan: PullRequestWrite,
  ): Promise<boolean> {
    if (plan.action === 'update' && plan.recordedCommit) return plan.recordedCommit === tip;
    return isSkillclimbCommit(git, { remote: this.remote, branch, skill, sha: tip });
  }
}

function writeFailure(plan: PullRequestWrite, apiError: string): string {
  return plan.action === 'update'
    ? `PR #${plan.number} could not be updated (${apiError})`
    : `the pull request could not be created (${apiError})`;
}
