/** The CLI's landing (docs/how-it-works.md § Shipping): the clean-base check and the squash-merge into the base branch. */
import { committerConfig, GitOperationError, runGit } from './client.js';

export interface BaseStatus {
  clean: boolean;
  /** Paths of tracked files with changes (after `ignore`). */
  dirty: string[];
}

/**
 * `git -C <project> status --porcelain --untracked-files=no` is empty. `ignore` drops paths the run writes
 * itself (its own results.tsv rows must not block its own ship).
 */
export async function checkCleanBase(
  project: string,
  ignore: (path: string) => boolean = () => false,
): Promise<BaseStatus> {
  const out = await runGit(project, 'status', ['status', '--porcelain', '-z', '--untracked-files=no']);
  const entries = out.split('\0').filter((e) => e.length > 0);
  const dirty: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const code = entry.slice(0, 2);
    dirty.push(entry.slice(3));
    // A rename or copy is followed by its source path as a separate NUL-terminated field.
    if (code.includes('R') || code.includes('C')) i++;
  }
  const kept = dirty.filter((p) => !ignore(p));
  return { clean: kept.length === 0, dirty: kept };
}

export class SquashConflictError extends Error {
  constructor(
    readonly branch: string,
    detail: string,
  ) {
    super(`merge --squash ${branch} failed: ${detail}`);
    this.name = 'SquashConflictError';
  }
}

export type SquashResult = { status: 'committed'; commit: string } | { status: 'empty' };

/** Puts back the index and the files the squash touched; local changes the squash did not touch survive. */
async function undoSquash(project: string): Promise<void> {
  await runGit(project, 'reset --merge', ['reset', '--merge', 'HEAD']);
}

/**
 * `git -C <project> merge --squash <branch>` then `git -C <project> commit -m <message>`: the whole
 * per-skill branch becomes ONE commit on the checked-out base branch. A conflict or a refused commit is
 * undone so the checkout is left as it was found. `empty` when the branch brings no change.
 */
export async function squashMerge(project: string, branch: string, message: string): Promise<SquashResult> {
  try {
    await runGit(project, 'merge --squash', ['merge', '--squash', branch]);
  } catch (err) {
    await undoSquash(project).catch(() => undefined);
    throw new SquashConflictError(branch, err instanceof Error ? err.message : String(err));
  }
  const staged = await runGit(project, 'diff --cached', ['diff', '--cached', '--name-only']);
  if (staged.trim() === '') return { status: 'empty' };
  try {
    await runGit(project, 'commit', ['commit', '-m', message], await committerConfig(project));
  } catch (err) {
    await undoSquash(project).catch(() => undefined);
    throw err instanceof GitOperationError ? err : new GitOperationError('commit', project, err);
  }
  const sha = (await runGit(project, 'rev-parse HEAD', ['rev-parse', 'HEAD'])).trim();
  return { status: 'committed', commit: sha.slice(0, 7) };
}
