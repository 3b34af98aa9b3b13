/**
 * Builds the ONE squashed commit of a skill's run on top of the CURRENT base (the Action's answer to the
 * CLI's dirty-base check, docs/how-it-works.md § Shipping): the run branch's diff is applied to the freshly fetched base in a throwaway
 * index, so the checkout, its index and its working tree are never touched. It reads trees only (the run's
 * start and end, the base's tip), never a merge-base or other history: actions/checkout's depth-1 checkout
 * is enough, however far the base moved.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { repoPrefix } from '../../git/repo.js';
import { fetchBranch, gitErrorMessage, gitWithIdentity, minimalGitEnv } from './git.js';

export interface SquashRequest {
  /** The checkout (any folder inside its repository). */
  project: string;
  remote: string;
  /** The PR's base branch on the remote. */
  base: string;
  /** The commit the run's worktree was created from. */
  baseCommit: string;
  /** The run branch (or any commit) holding the kept edits. */
  head: string;
  /** The skill folder relative to the repository root, e.g. `.claude/skills/session-wrap`. */
  skillPath: string;
  message: string;
}

export type SquashOutcome =
  | {
      status: 'built';
      commit: string;
      /** The base commit the squash sits on. */
      parent: string;
      /**
       * Set when the skill's files on the base differ from the commit the run started from (the base moved
       * during the run, or the run started from another branch) and the diff was re-applied with 3-way.
       */
      rebuilt: string | undefined;
    }
  | { status: 'skipped'; reason: string };

const short = (sha: string) => sha.slice(0, 7);

export async function buildSquashOnBase(request: SquashRequest): Promise<SquashOutcome> {
  // Patches and pathspecs are read from the repository root, whichever folder of it the project is.
  const top = (await simpleGit(request.project).revparse(['--show-toplevel'])).trim();
  const prefix = await repoPrefix(request.project);
  const skillPath = path.posix.join(prefix, request.skillPath);
  const git = await gitWithIdentity(top);
  const head = (await git.revparse([`${request.head}^{commit}`])).trim();
  const patch = await git.raw(['diff', '--binary', '--full-index', request.baseCommit, head]);
  if (!patch.trim())
    return {
      status: 'skipped',
      reason: `${request.head} has no changes against ${short(request.baseCommit)}`,
    };

  const parent = await fetchBranch(git, request.remote, request.base);
  if (!parent)
    return { status: 'skipped', reason: `base branch ${request.base} not found on ${request.remote}` };
  const changedOnBase =
    parent !== request.baseCommit &&
    (await git.raw(['diff', '--name-only', request.baseCommit, parent, '--', skillPath])).trim() !== '';

  const scratch = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-squash-'));
  try {
    const patchFile = path.join(scratch, 'squash.patch');
    await writeFile(patchFile, patch);
    const indexed = simpleGit(top).env(minimalGitEnv({ GIT_INDEX_FILE: path.join(scratch, 'index') }));
    await indexed.raw(['read-tree', parent]);
    try {
      await indexed.raw(['apply', '--cached', '--3way', '--whitespace=nowarn', patchFile]);
    } catch (error) {
      const why = gitErrorMessage(error);
      return {
        status: 'skipped',
        reason: changedOnBase
          ? `base moved: ${skillPath} differs on ${request.base} (now ${short(parent)}) from ` +
            `${short(request.baseCommit)}, where the run started, and the squash does not apply cleanly (${why})`
          : `the squash does not apply on ${request.base} ${short(parent)} (${why})`,
      };
    }
    const tree = (await indexed.raw(['write-tree'])).trim();
    const parentTree = (await git.revparse([`${parent}^{tree}`])).trim();
    if (tree === parentTree) {
      return { status: 'skipped', reason: `${request.base} ${short(parent)} already contains these edits` };
    }
    const commit = (await git.raw(['commit-tree', tree, '-p', parent, '-m', request.message])).trim();
    return {
      status: 'built',
      commit,
      parent,
      rebuilt: changedOnBase
        ? `${skillPath} differs on ${request.base} (${short(parent)}) from ${short(request.baseCommit)}, ` +
          `where the run started; the squash was rebuilt on ${request.base} with a clean 3-way apply.`
        : undefined,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
