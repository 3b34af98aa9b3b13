/** The per-skill worktree and branch: set up before the loop, cleaned up after it (docs/how-it-works.md § The hill-climb loop). */
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { branchNameFor, worktreeFolderName } from '../core/iterate/skill-layout.js';
import type { Worktree, WorktreeRequest } from '../ports/git.js';
import { runGit } from './client.js';
import { readTreeFiles } from './tree-files.js';
import { messageOf } from '../core/errors.js';

export function worktreePathFor(home: string, skill: string, epoch: number | string): string {
  return path.join(home, worktreeFolderName(skill, epoch));
}

export async function currentBranch(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse --abbrev-ref HEAD', ['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
}

export async function headCommit(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse HEAD', ['rev-parse', 'HEAD'])).trim();
}

/**
 * The project's checked-out branch (`HEAD` when detached), its commit, and its folder in the repository
 * (see repoPrefix), in one `rev-parse`: every git process counts when a run makes a worktree per skill.
 */
async function baseOf(project: string): Promise<{ baseBranch: string; baseCommit: string; prefix: string }> {
  const out = await runGit(project, 'rev-parse HEAD', [
    'rev-parse',
    '--show-prefix',
    'HEAD',
    '--abbrev-ref',
    'HEAD',
  ]);
  const [prefix = '', baseCommit = '', baseBranch = ''] = out.split('\n');
  return {
    baseBranch: baseBranch.trim(),
    baseCommit: baseCommit.trim(),
    prefix: prefix.trim().replace(/\/+$/, ''),
  };
}

/**
 * `git -C <project> worktree add -b skill-iterate/<skill>-<epoch> <home>/worktree_skill-iterate-<skill>-<epoch> <base HEAD>`.
 * A run restarted within the same second as a killed one finds its names taken (the killed run's branch
 * and worktree are kept for the operator): the next free `<epoch>-<n>` is used instead (freeNames).
 * With `sparse`, the worktree is added without a checkout and only those folders are checked out, so its
 * cost follows the skill, not the repository; the files the scoring looks up come from the base commit's
 * tree instead (tree-files.ts).
 */
export async function createWorktree(input: WorktreeRequest): Promise<Worktree> {
  const { baseBranch, baseCommit, prefix } = await baseOf(input.project);
  await mkdir(input.home, { recursive: true });
  const { worktreePath, branch } = await freeNames(input);
  const sparse = input.sparse?.map((folder) => path.posix.join(prefix, folder));
  if (sparse === undefined || sparse.length === 0) {
    await runGit(input.project, 'worktree add', ['worktree', 'add', '-b', branch, worktreePath, baseCommit]);
    return { path: worktreePath, branch, baseBranch, baseCommit, prefix };
  }
  // The tree the scoring reads is listed while the worktree is made: neither waits for the other.
  const files = readTreeFiles(worktreePath, baseCommit, input.project);
  files.catch(() => undefined); // awaited below
  try {
    await runGit(input.project, 'worktree add', [
      'worktree',
      'add',
      '--no-checkout',
      '-b',
      branch,
      worktreePath,
      baseCommit,
    ]);
  } catch (err) {
    await files.catch(() => undefined);
    throw err;
  }
  try {
    await checkOutOnly(worktreePath, sparse);
    return { path: worktreePath, branch, baseBranch, baseCommit, prefix, files: await files };
  } catch (err) {
    // Half made: leave nothing behind, so the skill's failure does not also leave an orphan.
    await discardWorktree(input.project, { path: worktreePath, branch }, { retryDelayMs: 0 });
    throw err;
  }
}

/** Names tried after `<epoch>` is taken: `<epoch>-2` … `<epoch>-<MAX_NAME_ATTEMPTS>`. */
const MAX_NAME_ATTEMPTS = 50;

/** `<epoch>`, then `<epoch>-2`, `<epoch>-3`, …: the n-th candidate for a run's names. */
export function nameSuffix(epoch: number, attempt: number): string {
  return attempt <= 1 ? String(epoch) : `${epoch}-${attempt}`;
}

/**
 * The first `<epoch>[-<n>]` whose worktree folder and branch are both free, so the new run never fails on,
 * or touches, what an old one left. Both are checked before `worktree add`, which would otherwise create
 * the branch and then fail on the folder, leaving a branch behind.
 */
async function freeNames(input: WorktreeRequest): Promise<{ worktreePath: string; branch: string }> {
  for (let attempt = 1; ; attempt++) {
    const suffix = nameSuffix(input.epoch, attempt);
    const worktreePath = worktreePathFor(input.home, input.skill, suffix);
    const branch = branchNameFor(input.skill, suffix);
    const taken = (await pathExists(worktreePath)) || (await branchExists(input.project, branch));
    if (!taken || attempt >= MAX_NAME_ATTEMPTS) return { worktreePath, branch };
  }
}

async function pathExists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (err) {
    // ENAMETOOLONG and the like are for `worktree add` to report, with git's own words.
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENAMETOOLONG';
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

/** A gitignore-style pattern that matches exactly the folder `folder` (special characters escaped). */
function folderPattern(folder: string): string {
  return `/${folder.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}/`;
}

/**
 * Checks out only `folders`, in one `read-tree`: the patterns go to the worktree's own
 * `info/sparse-checkout` and sparse checkout is switched on for that one command (`-c`), so the index
 * gets the whole tree, every entry outside the folders is marked skip-worktree (git then treats it as
 * present and unchanged: status stays clean, commits and `reset --hard` leave it alone) and only the
 * folders' files are written. No configuration is changed — `git sparse-checkout` would turn on
 * `extensions.worktreeConfig` in the project's own `.git/config`.
 */
async function checkOutOnly(worktreePath: string, folders: readonly string[]): Promise<void> {
  const pointer = await readFile(path.join(worktreePath, '.git'), 'utf8');
  const gitDir = /^gitdir: (.+)$/m.exec(pointer)?.[1]?.trim();
  if (!gitDir) throw new Error(`${worktreePath}/.git does not name the worktree's git folder`);
  await mkdir(path.join(gitDir, 'info'), { recursive: true });
  await writeFile(path.join(gitDir, 'info', 'sparse-checkout'), folders.map(folderPattern).join('\n') + '\n');
  await runGit(
    worktreePath,
    'read-tree',
    ['read-tree', '-mu', 'HEAD'],
    ['core.sparseCheckout=true', 'core.sparseCheckoutCone=false'],
  );
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
    options.warn?.(`branch ${worktree.branch} could not be deleted: ${messageOf(err)}`);
  }
}
