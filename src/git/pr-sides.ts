/**
 * The two sides a pull request's scores compare: the base commit (checked out read-only in a detached
 * worktree beside the checkout) and the head (the checkout as it is, uncommitted edits included), with the
 * paths that differ between them.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './client.js';
import { removeWorktree } from './worktree.js';
import { messageOf } from '../core/errors.js';

async function commitOf(repo: string, ref: string): Promise<string | undefined> {
  try {
    return (await runGit(repo, 'rev-parse', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
  } catch {
    return undefined;
  }
}

/**
 * The commit to compare with: the merge base of `ref` and HEAD (what the change started from), else `ref`
 * itself when the history is too shallow to find one. A ref the checkout lacks (a default depth-1 checkout
 * has only its own commit) is fetched from `origin` first, one commit deep.
 */
export async function resolveBaseCommit(repo: string, ref: string): Promise<string> {
  let commit = await commitOf(repo, ref);
  if (commit === undefined) {
    try {
      await runGit(repo, 'fetch', ['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', ref]);
    } catch (err) {
      throw new Error(
        `base ${ref}: not in the checkout and not fetched from origin (${messageOf(err)}); ` +
          'check out with fetch-depth: 0, or fetch the base first',
        { cause: err },
      );
    }
    commit = (await commitOf(repo, ref)) ?? (await commitOf(repo, 'FETCH_HEAD'));
    if (commit === undefined) throw new Error(`base ${ref}: fetched from origin, but it names no commit`);
  }
  try {
    const base = (await runGit(repo, 'merge-base', ['merge-base', commit, 'HEAD'])).trim();
    return base || commit;
  } catch {
    return commit;
  }
}

/** Paths (repository-relative, `/`-separated) that differ between `base` and the working tree, untracked ones included. */
export async function changedPathsSince(repo: string, base: string): Promise<string[]> {
  const diff = await runGit(repo, 'diff', ['diff', '--name-only', '--no-renames', '-z', base, '--']);
  const untracked = await runGit(repo, 'ls-files', ['ls-files', '-z', '--others', '--exclude-standard']);
  const all = [...diff.split('\0'), ...untracked.split('\0')].filter((p) => p !== '');
  return [...new Set(all)].sort();
}

/** The repository root of the checkout holding `dir`. */
export async function repositoryTop(dir: string): Promise<string> {
  return (await runGit(dir, 'rev-parse --show-toplevel', ['rev-parse', '--show-toplevel'])).trim();
}

export interface BaseCheckout {
  /** The worktree's root (the repository root at the base commit). */
  root: string;
  remove(): Promise<void>;
}

/** `git worktree add --detach <parent>/skillclimb-score-base-<n> <commit>`: the base, read-only by use. */
export async function checkOutBase(repo: string, commit: string, parent: string): Promise<BaseCheckout> {
  await mkdir(parent, { recursive: true });
  const root = path.join(parent, `skillclimb-score-base-${commit.slice(0, 12)}-${process.pid}-${Date.now()}`);
  await runGit(repo, 'worktree add', ['worktree', 'add', '--quiet', '--detach', root, commit]);
  return {
    root,
    async remove() {
      await removeWorktree(repo, root, { retryDelayMs: 200 });
    },
  };
}
