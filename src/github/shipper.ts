/**
 * The Action's Shipper: instead of the seed's local squash-merge, ONE squashed commit on the stable branch
 * `skill-iterate/<skill>`, pushed with a lease, and one PR per skill opened or updated.
 */
import type { Logger, ShipOutcome, ShipRequest, Shipper } from '../iterate/ports.js';
import { discardWorktree } from '../git/worktree.js';
import { gitErrorMessage, gitWithIdentity, remoteBranchSha } from './git.js';
import type { GitHubClient, RepoRef } from './octokit.js';
import { describeApiError } from './octokit.js';
import { buildPullRequestBody } from './pr-body.js';
import { upsertPullRequest } from './pull-request.js';
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

  async function pushLeased(project: string, commit: string, branch: string): Promise<void> {
    const git = await gitWithIdentity(project);
    // An explicit lease on what the remote holds right now: a concurrent push in between fails the push.
    const expected = await remoteBranchSha(git, remote, branch);
    await git.raw([
      'push',
      '--quiet',
      `--force-with-lease=refs/heads/${branch}:${expected}`,
      remote,
      `${commit}:refs/heads/${branch}`,
    ]);
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

    const body = buildPullRequestBody({
      request,
      base: options.base,
      runUrl: options.runUrl,
      runId: options.runId,
      modelsLabel: options.modelsLabel,
      rebuiltNote: squash.rebuilt,
    });
    let pushError: unknown;
    try {
      const pr = await upsertPullRequest(
        options.client,
        options.repo,
        {
          skill: request.skill,
          head: branch,
          base: options.base,
          title: request.message,
          body,
          labels: options.labels,
          draft: options.draft,
          finalScore: request.finalScore,
        },
        {
          beforeWrite: async () => {
            try {
              await pushLeased(request.project, squash.commit, branch);
            } catch (error) {
              pushError = error;
              throw error;
            }
          },
        },
      );
      if (pr.status === 'skipped') return skip(request, pr.reason, false, pr);
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
    } catch (error) {
      if (pushError !== undefined) {
        return skip(request, `push of ${branch} to ${remote} failed: ${gitErrorMessage(error)}`, true);
      }
      return skip(request, `pull request API failed: ${describeApiError(error)}`, true);
    }
  }

  return { ship, shipments };
}
