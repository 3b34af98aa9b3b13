/**
 * The CLI's landing (docs/how-it-works.md § Shipping), built so that an interruption cannot leave it
 * half-applied: the squash commit is made in a temporary index (`GIT_INDEX_FILE`) and `commit-tree`, the
 * checked-out branch moves with ONE `update-ref` that names the value it expects, and only then are the
 * index and working tree of the checkout brought up to date, for the skill's own paths only. The checkout's
 * index is never used to build anything, so two projects of one repository never mix their files.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { committerConfig, runGit, runPlumbing } from './client.js';
import { SkillclimbError, messageOf } from '../core/errors.js';

export interface BaseStatus {
  clean: boolean;
  /** Paths of tracked files with changes (after `ignore`). */
  dirty: string[];
}

/**
 * `git -C <project> status --porcelain --untracked-files=no` is empty. `ignore` drops paths the run writes
 * itself (its own results.tsv rows must not block its own ship). Refreshes the checkout's index, so it runs
 * under the repository lock (src/adapters/local/repo-lock.ts).
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

/** The run branch's change does not apply to the checked-out base (it moved, and the edits collide). */
export class SquashConflictError extends SkillclimbError {
  readonly kind = 'git';
  constructor(
    readonly branch: string,
    detail: string,
  ) {
    super(`the squash of ${branch} does not apply: ${detail}`);
    this.name = 'SquashConflictError';
  }
}

export interface SquashRequest {
  /** Any folder of the checkout. */
  project: string;
  /** The run branch holding the kept edits. */
  branch: string;
  /** The commit the run's worktree was made from. */
  baseCommit: string;
  /** The commit the squash goes on (the checked-out base's tip). */
  parent: string;
  /** The skill folder relative to the repository root: the only paths the squash may change. */
  skillRepoPath: string;
  message: string;
  /** A folder of our own for the temporary index and patch (emptied again before this returns). */
  scratch: string;
}

export type BuiltSquash =
  | {
      status: 'built';
      commit: string;
      parent: string;
      /** Repository-relative paths the squash changes (all inside the skill folder). */
      paths: string[];
    }
  | { status: 'empty' };

/** `git apply` words a change that does not fit this way; anything else is a git failure, not a conflict. */
const APPLY_CONFLICT =
  /patch does not apply|with conflicts|does not exist in index|already exists in index|does not match index|patch failed|conflict/i;

/** `:(top,literal)<path>`: a repository-relative path taken as it is, never as a glob. */
export function literalPath(repoPath: string): string {
  return `:(top,literal)${repoPath}`;
}

/**
 * Builds ONE commit on `parent` holding the run branch's change to the skill folder (`baseCommit..branch`,
 * re-applied with a 3-way merge when the base moved), without touching the checkout: a temporary index,
 * `write-tree` and `commit-tree` with the committer identity (the fallback when none is configured).
 * `empty` when the branch brings nothing the parent lacks. Throws SquashConflictError when the change
 * does not apply, GitOperationError for any other git failure (a missing identity says so itself).
 */
export async function buildSquash(request: SquashRequest): Promise<BuiltSquash> {
  const { project, parent, scratch } = request;
  const tip = (
    await runGit(project, 'rev-parse', ['rev-parse', '--verify', `${request.branch}^{commit}`])
  ).trim();
  const skill = literalPath(request.skillRepoPath);
  const patch = await runPlumbing(project, 'diff', [
    'diff',
    '--binary',
    '--full-index',
    '--no-ext-diff',
    '--no-textconv',
    request.baseCommit,
    tip,
    '--',
    skill,
  ]);
  if (patch.trim() === '') return { status: 'empty' };
  await mkdir(scratch, { recursive: true });
  const indexFile = path.join(scratch, 'index');
  const patchFile = path.join(scratch, 'squash.patch');
  const env = { GIT_INDEX_FILE: indexFile };
  try {
    await writeFile(patchFile, patch);
    await runPlumbing(project, 'read-tree', ['read-tree', parent], { env });
    try {
      // From the repository root: the patch's paths are repository-relative.
      const root = (
        await runGit(project, 'rev-parse --show-toplevel', ['rev-parse', '--show-toplevel'])
      ).trim();
      await runPlumbing(root, 'apply', ['apply', '--cached', '--3way', '--whitespace=nowarn', patchFile], {
        env,
      });
    } catch (err) {
      const detail = messageOf(err);
      if (APPLY_CONFLICT.test(detail)) throw new SquashConflictError(request.branch, detail);
      throw err;
    }
    const tree = (await runPlumbing(project, 'write-tree', ['write-tree'], { env })).trim();
    const parentTree = (await runGit(project, 'rev-parse', ['rev-parse', `${parent}^{tree}`])).trim();
    if (tree === parentTree) return { status: 'empty' };
    const commit = (
      await runPlumbing(project, 'commit-tree', ['commit-tree', tree, '-p', parent, '-m', request.message], {
        config: await committerConfig(project),
      })
    ).trim();
    const paths = (
      await runPlumbing(project, 'diff-tree', [
        'diff-tree',
        '-r',
        '--name-only',
        '-z',
        '--no-commit-id',
        parent,
        commit,
      ])
    )
      .split('\0')
      .filter((p) => p !== '');
    return { status: 'built', commit, parent, paths };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The one step that ships: `update-ref HEAD <commit> <parent>` moves the checked-out branch only while it
 * still points at `parent` (another writer in between makes it fail instead of being overwritten).
 */
export async function moveCheckedOutBranch(
  project: string,
  commit: string,
  parent: string,
  reason: string,
): Promise<void> {
  await runPlumbing(project, 'update-ref', ['update-ref', '-m', reason, 'HEAD', commit, parent]);
}

/**
 * Brings the checkout's index and working tree to `commit` for `paths` only (a path the commit lacks is
 * removed): the skill's files after the branch moved. Nothing else of the checkout is touched.
 */
export async function checkoutPaths(
  project: string,
  commit: string,
  paths: readonly string[],
): Promise<void> {
  if (paths.length === 0) return;
  const root = await checkoutRootOf(project);
  await runPlumbing(root, 'restore', [
    'restore',
    `--source=${commit}`,
    '--staged',
    '--worktree',
    '--',
    ...paths.map(literalPath),
  ]);
}

/** Whether the checkout's index AND working tree hold `commit`'s version of every one of `paths`. */
export async function pathsMatch(
  project: string,
  commit: string,
  paths: readonly string[],
): Promise<boolean> {
  if (paths.length === 0) return true;
  const root = await checkoutRootOf(project);
  const spec = ['--', ...paths.map(literalPath)];
  const same = async (args: string[]): Promise<boolean> => {
    try {
      await runPlumbing(root, 'diff', ['diff', '--quiet', '--no-ext-diff', ...args, commit, ...spec]);
      return true;
    } catch {
      return false;
    }
  };
  return (await same(['--cached'])) && (await same([]));
}

async function checkoutRootOf(project: string): Promise<string> {
  return (await runGit(project, 'rev-parse --show-toplevel', ['rev-parse', '--show-toplevel'])).trim();
}
