/**
 * The CLI's shipper (docs/how-it-works.md § Shipping): the clean-base check, then
 * `git -C <project> merge --squash skill-iterate/<skill>-<epoch>` and one commit with the canonical message
 * on the checked-out base branch. The worktree is never entered; on success it is removed with its branch.
 */
import { isResultsTsvPath } from '../../core/skill-layout.js';
import { repoPrefix } from '../../git/repo.js';
import { SquashConflictError, checkCleanBase, squashMerge } from '../../git/squash.js';
import { currentBranch, discardWorktree } from '../../git/worktree.js';
import type { Logger } from '../../ports/logger.js';
import type { ShipOutcome, Shipper } from '../../ports/shipper.js';

/**
 * The run's own results.tsv rows must not make the base look dirty (they are the run's audit trail).
 * `gitPath` is relative to the repository root (as `git status --porcelain` prints it); `prefix` is the
 * project's folder inside the repository (repoPrefix), so a monorepo's other projects still count.
 */
export function isRunOwnFile(gitPath: string, prefix = ''): boolean {
  const rest =
    prefix === '' ? gitPath : gitPath.startsWith(`${prefix}/`) ? gitPath.slice(prefix.length + 1) : null;
  return rest !== null && isResultsTsvPath(rest);
}

export interface LocalShipperOptions {
  /** Pause before the worktree-removal retry (2 s, as the original skill waits). */
  retryDelayMs?: number;
}

export function createLocalShipper(project: string, log: Logger, options: LocalShipperOptions = {}): Shipper {
  return {
    async ship(request): Promise<ShipOutcome> {
      const prefix = await repoPrefix(project);
      const base = await checkCleanBase(project, (p) => isRunOwnFile(p, prefix));
      if (!base.clean) {
        log.warn(
          `${request.skill}: ship_status=skipped (dirty-master): ${base.dirty.length} tracked file(s) changed ` +
            `in ${project} (${base.dirty.slice(0, 5).join(', ')}); worktree kept at ${request.worktreePath} ` +
            `on branch ${request.branch} for a manual merge`,
        );
        return { status: 'skipped', reason: 'dirty-master', keepWorktree: true };
      }
      const checkedOut = await currentBranch(project);
      if (checkedOut !== request.baseBranch) {
        log.warn(
          `${request.skill}: ${request.baseBranch} is no longer checked out in ${project} (now ${checkedOut}); ` +
            `worktree kept at ${request.worktreePath} on branch ${request.branch}`,
        );
        return { status: 'skipped', reason: `base branch changed to ${checkedOut}`, keepWorktree: true };
      }
      let merged;
      try {
        merged = await squashMerge(project, request.branch, request.message);
      } catch (err) {
        if (!(err instanceof SquashConflictError)) throw err;
        log.warn(`${request.skill}: ${err.message}; worktree kept at ${request.worktreePath}`);
        return { status: 'skipped', reason: 'merge-conflict', keepWorktree: true };
      }
      if (merged.status === 'empty') {
        return {
          status: 'skipped',
          reason: `nothing to merge: ${request.baseBranch} already has the change`,
          keepWorktree: false,
        };
      }
      await discardWorktree(
        project,
        { path: request.worktreePath, branch: request.branch },
        { retryDelayMs: options.retryDelayMs, warn: (m) => log.warn(m) },
      );
      return {
        status: 'shipped',
        commit: merged.commit,
        link: undefined,
        detail: `squash-merged into ${request.baseBranch} as ${merged.commit}`,
      };
    },
  };
}
