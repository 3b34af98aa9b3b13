/** The per-skill worktree and branch: set up before the loop, cleaned up after it (docs/how-it-works.md § The hill-climb loop). */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { branchNameFor, worktreeFolderName } from '../core/skill-layout.js';
import type { Worktree, WorktreeRequest } from '../ports/git.js';
import { runGit } from './client.js';
import { repoPrefix } from './repo.js';

export function worktreePathFor(home: string, skill: string, epoch: number): string {
  return path.join(home, worktreeFolderName(skill, epoch));
}

export async function currentBranch(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse --abbrev-ref HEAD', ['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
}

export async function headCommit(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse HEAD', ['rev-parse', 'HEAD'])).trim();
}

/** `git -C <project> worktree add -b skill-iterate/<skill>-<epoch> <home>/worktree_skill-iterate-<skill>-<epoch> <base HEAD>`. */
export async function createWorktree(input: WorktreeRequest): Promise<Worktree> {
  const baseBranch = await currentBranch(input.project);
  const baseCommit = await headCommit(input.project);
  const prefix = await repoPrefix(input.project);
  const worktreePath = worktreePathFor(input.home, input.skill, input.epoch);
  const branch = branchNameFor(input.skill, input.epoch);
  await mkdir(input.home, { recursive: true });
  await runGit(input.project, 'worktree add', ['worktree', 'add', '-b', branch, worktreePath, baseCommit]);
  return { path: worktreePath, branch, baseBranch, baseCommit, prefix };
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
