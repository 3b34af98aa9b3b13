/**
 * The CLI's shipper (docs/how-it-works.md § Shipping): under the repository lock, the clean-base check, then
 * ONE squash commit of `skill-iterate/<skill>-<epoch>` built in a temporary index on the checked-out base,
 * the base branch moved to it with a single `update-ref` that names the commit it expects, and the skill's
 * files brought up to date in the checkout. A marker written before the branch moves lets the next run
 * finish or forget a landing that a kill interrupted (ship-marker.ts). The worktree is never entered; on
 * success it is removed with its branch.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isRunStatePath } from '../../core/iterate/skill-layout.js';
import { GitOperationError } from '../../git/client.js';
import { checkoutRoot, gitCommonDir, repoPrefix } from '../../git/repo.js';
import {
  SquashConflictError,
  buildSquash,
  checkCleanBase,
  checkoutPaths,
  moveCheckedOutBranch,
} from '../../git/squash.js';
import { currentBranch, discardWorktree, headCommit } from '../../git/worktree.js';
import type { Leftovers } from '../../ports/leftovers.js';
import type { Logger } from '../../ports/logger.js';
import type { ShipOutcome, ShipRequest, Shipper } from '../../ports/shipper.js';
import { RepoBusyError, repoStateDir, withRepoLock } from './repo-lock.js';
import {
  SCRATCH_PREFIX,
  cleanLeftovers,
  describeLeftovers,
  newShipMarker,
  removeShipMarker,
  writeShipMarker,
} from './ship-marker.js';

/**
 * The run's own results.tsv rows and uplift record must not make the base look dirty (they are the run's
 * audit trail and state).
 * `gitPath` is relative to the repository root (as `git status --porcelain` prints it); `prefix` is the
 * project's folder inside the repository (repoPrefix), so a monorepo's other projects still count.
 */
export function isRunOwnFile(gitPath: string, prefix = ''): boolean {
  const rest =
    prefix === '' ? gitPath : gitPath.startsWith(`${prefix}/`) ? gitPath.slice(prefix.length + 1) : null;
  return rest !== null && isRunStatePath(rest);
}

/** The moments of a landing a test (or an operator's debugging hook) may stop at. */
export type ShipStep = 'squash-built' | 'branch-moved';

export interface LocalShipperOptions {
  /** Pause before the worktree-removal retry (2 s, as the original skill waits). */
  retryDelayMs?: number;
  /** How long to wait for another run's landing in the same repository (default 2 minutes). */
  repoLockWaitMs?: number;
  /**
   * Called at each step of the landing, with the lock held. The CLI's chaos hook pauses here so a test can
   * kill the process at a known moment; nothing else uses it.
   */
  onStep?: (step: ShipStep) => Promise<void>;
}

export function createLocalShipper(project: string, log: Logger, options: LocalShipperOptions = {}): Shipper {
  return {
    async ship(request): Promise<ShipOutcome> {
      const commonDir = await gitCommonDir(project);
      let outcome: ShipOutcome | { status: 'landed'; commit: string };
      try {
        outcome = await withRepoLock(
          commonDir,
          { log, ...(options.repoLockWaitMs === undefined ? {} : { waitMs: options.repoLockWaitMs }) },
          () => land(project, commonDir, request, log, options),
        );
      } catch (err) {
        if (!(err instanceof RepoBusyError)) throw err;
        log.warn(`${request.skill}: not shipped: ${err.message}; worktree kept at ${request.worktreePath}`);
        return { status: 'skipped', reason: 'repository busy', keepWorktree: true };
      }
      if (outcome.status !== 'landed') return outcome;
      // Outside the lock: the worktree and its branch are the run's own, never the checkout's index.
      await discardWorktree(
        project,
        { path: request.worktreePath, branch: request.branch },
        { retryDelayMs: options.retryDelayMs, warn: (m) => log.warn(m) },
      );
      const commit = outcome.commit.slice(0, 7);
      return {
        status: 'shipped',
        commit,
        link: undefined,
        detail: `squash-merged into ${request.baseBranch} as ${commit}`,
      };
    },
  };
}

/** The landing itself, with the repository lock held. */
async function land(
  project: string,
  commonDir: string,
  request: ShipRequest,
  log: Logger,
  options: LocalShipperOptions,
): Promise<ShipOutcome | { status: 'landed'; commit: string }> {
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
  const parent = await headCommit(project);
  const scratch = path.join(
    repoStateDir(commonDir),
    `${SCRATCH_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  let squash;
  try {
    squash = await buildSquash({
      project,
      branch: request.branch,
      baseCommit: request.baseCommit,
      parent,
      skillRepoPath: path.posix.join(prefix, request.skillPath),
      message: request.message,
      scratch,
    });
  } catch (err) {
    if (!(err instanceof SquashConflictError)) throw err;
    log.warn(`${request.skill}: ${err.message}; worktree kept at ${request.worktreePath}`);
    return { status: 'skipped', reason: 'merge-conflict', keepWorktree: true };
  }
  if (squash.status === 'empty') {
    return {
      status: 'skipped',
      reason: `nothing to merge: ${request.baseBranch} already has the change`,
      keepWorktree: false,
    };
  }
  const checkout = await checkoutRoot(project);
  await writeShipMarker(
    commonDir,
    newShipMarker({
      checkout,
      skill: request.skill,
      branch: request.branch,
      worktree: request.worktreePath,
      parent,
      commit: squash.commit,
      paths: squash.paths,
    }),
  );
  await options.onStep?.('squash-built');
  try {
    await moveCheckedOutBranch(project, squash.commit, parent, `skill-iterate: ship ${request.skill}`);
  } catch (err) {
    // The branch did not move (another writer got in first): nothing was applied.
    await removeShipMarker(commonDir);
    throw err instanceof GitOperationError ? err : new GitOperationError('update-ref', project, err);
  }
  await options.onStep?.('branch-moved');
  await checkoutPaths(project, squash.commit, squash.paths);
  await removeShipMarker(commonDir);
  return { status: 'landed', commit: squash.commit };
}

/** The interrupted landings of earlier runs in this project's repository (the pre-flight's first step). */
export function createLocalLeftovers(project: string, log: Pick<Logger, 'warn'>): Leftovers {
  const commonDirOrNone = () => gitCommonDir(project).catch(() => undefined);
  return {
    async find() {
      const commonDir = await commonDirOrNone();
      return commonDir === undefined ? [] : describeLeftovers(commonDir);
    },
    async clean() {
      const commonDir = await commonDirOrNone();
      if (commonDir === undefined) return [];
      if ((await describeLeftovers(commonDir)).length === 0) return [];
      return withRepoLock(commonDir, { log }, () => cleanLeftovers(commonDir));
    },
  };
}
