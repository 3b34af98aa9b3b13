/** The per-skill worktree and branch: set up before the loop, cleaned up after it (docs/how-it-works.md § The hill-climb loop). */
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { branchNameFor, worktreeFolderName } from '../core/skill-layout.js';
import type { Worktree, WorktreeRequest } from '../ports/git.js';
import { runGit } from './client.js';
import { repoPrefix } from './repo.js';

export function worktreePathFor(home: string, skill: string, epoch: number | string): string {
  return path.join(home, worktreeFolderName(skill, epoch));
}

export async function currentBranch(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse --abbrev-ref HEAD', ['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
}

export async function headCommit(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse HEAD', ['rev-parse', 'HEAD'])).trim();
}

/** Names tried after `<epoch>` is taken: `<epoch>-2` … `<epoch>-<MAX_NAME_ATTEMPTS>`. */
const MAX_NAME_ATTEMPTS = 50;

/** `<epoch>`, then `<epoch>-2`, `<epoch>-3`, …: the n-th candidate for a run's names. */
export function nameSuffix(epoch: number, attempt: number): string {
  return attempt <= 1 ? String(epoch) : `${epoch}-${attempt}`;
}

/**
 * `git -C <project> worktree add -b skill-iterate/<skill>-<epoch> <home>/worktree_skill-iterate-<skill>-<epoch> <base HEAD>`.
 * A run restarted within the same second as a killed one finds its names taken (the killed run's branch
 * and worktree are kept for the operator): the next free `<epoch>-<n>` is used instead, so the new run
 * never fails on, or touches, what the old one left. Both names are checked before `worktree add`, which
 * would otherwise create the branch and then fail on the folder, leaving a branch behind.
 */
export async function createWorktree(input: WorktreeRequest): Promise<Worktree> {
  const baseBranch = await currentBranch(input.project);
  const baseCommit = await headCommit(input.project);
  const prefix = await repoPrefix(input.project);
  await mkdir(input.home, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const suffix = nameSuffix(input.epoch, attempt);
    const worktreePath = worktreePathFor(input.home, input.skill, suffix);
    const branch = branchNameFor(input.skill, suffix);
    const taken = (await pathExists(worktreePath)) || (await branchExists(input.project, branch));
    if (taken && attempt < MAX_NAME_ATTEMPTS) continue;
    await runGit(input.project, 'worktree add', ['worktree', 'add', '-b', branch, worktreePath, baseCommit]);
    return { path: worktreePath, branch, baseBranch, baseCommit, prefix };
  }
}

async function pathExists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (err) {
    // ENAMETOOLONG and the like are for `worktree add` to report, with git's own words.
    return (
      (err as NodeJS.ErrnoException).code !== 'ENOENT' &&
      (err as NodeJS.ErrnoException).code !== 'ENAMETOOLONG'
    );
  }
}

async function branchExists(project: string, branch: string): Promise<boolean> {
  try {
    await runGit(project, 'show-ref', ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
    return true;
  } catch {
    return false;
  }
}

/** The pause before the single removal retry: AV scanners and lingering file handles let go. */
export const WORKTREE_RETRY_DELAY_MS = 2000;

export interface RemoveWorktreeOptions {
  /** Pause before the single retry (default WORKTREE_RETRY_DELAY_MS). */
  retryDelayMs?: number;
  /** How the pause is taken (tests record the requested delay instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
  warn?: (message: string) => void;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `worktree remove --force`, retried once after a pause. A second failure is a warning, not a halt: an
 * orphaned worktree is recoverable (the next run's pre-flight re-warns), a halted queue is not.
 * Returns whether the worktree is gone.
 */
export async function removeWorktree(
  project: string,
  worktreePath: string,
  options: RemoveWorktreeOptions = {},
): Promise<boolean> {
  const args = ['worktree', 'remove', '--force', worktreePath];
  try {
    await runGit(project, 'worktree remove', args);
    return true;
  } catch {
    await (options.sleep ?? sleepFor)(options.retryDelayMs ?? WORKTREE_RETRY_DELAY_MS);
  }
  try {
    await runGit(project, 'worktree remove', args);
    return true;
  } catch {
    options.warn?.(`worktree at ${worktreePath} could not be removed; leaving for manual cleanup`);
    return false;
  }
}

/** `git -C <project> branch -D <branch>`. */
export async function deleteBranch(project: string, branch: string): Promise<void> {
  await runGit(project, 'branch -D', ['branch', '-D', branch]);
}

/**
 * The cleanup after a merge or a no-improvement: remove the worktree (one retry), then delete its
 * branch. Never throws: a leftover is a warning for the operator, not a reason to stop the queue.
 */
export async function discardWorktree(
  project: string,
  worktree: { path: string; branch: string },
  options: RemoveWorktreeOptions = {},
): Promise<void> {
  const removed = await removeWorktree(project, worktree.path, options);
  if (!removed) return; // the branch is still checked out there; deleting it would fail too
  try {
    await deleteBranch(project, worktree.branch);
  } catch (err) {
    options.warn?.(`branch ${worktree.branch} could not be deleted: ${(err as Error).message}`);
  }
}
