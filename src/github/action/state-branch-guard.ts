/**
 * The state store commits to and pushes `state-branch` every night. Pointed at `main` (or any branch with
 * real history) it would write state files straight onto that branch, so only an orphan history the Action
 * created itself (or no branch yet) is accepted.
 */
import { simpleGit } from 'simple-git';
import { isShallowRepository, remoteBranchSha } from './git.js';
import { DEFAULT_STATE_BRANCH } from './state-files.js';

/** The message of the root commit `openStateStore` creates: `skill-iterate state (<branch>)`. */
export const STATE_ROOT_PREFIX = 'skill-iterate state (';

/** Far more saves than a state branch will ever hold (one or two per skill per night). */
const STATE_HISTORY_DEPTH = 1_000_000;

/** Every commit the state store writes: the root above, and `skill-iterate state: <label>` saves. */
const STATE_COMMIT = /^skill-iterate state[ :]/;

export interface StateBranchCheck {
  project: string;
  remote?: string;
  branch: string;
  /** The PR base branch. */
  base: string;
  /** The repository's default branch (undefined: unknown, only the base is compared). */
  defaultBranch: string | undefined;
}

/** Throws, naming the input, when the state branch is not the Action's to write. */
export async function checkStateBranch(check: StateBranchCheck): Promise<void> {
  const remote = check.remote ?? 'origin';
  const { branch } = check;
  for (const [what, name] of [
    ['the base branch', check.base],
    ["the repository's default branch", check.defaultBranch],
  ] as const) {
    if (branch === name) {
      throw new Error(
        `input state-branch: ${branch} is ${what}; the state is committed to its own orphan branch (default ${DEFAULT_STATE_BRANCH})`,
      );
    }
  }
  const git = simpleGit(check.project);
  const tip = await remoteBranchSha(git, remote, branch);
  if (!tip) return; // created as an orphan on the first save
  // The whole history of the branch, to find its roots: a state branch is small; in a shallow checkout a
  // depth-1 tip would look like a root of its own. A large finite depth, not 2147483647: that one means
  // `--unshallow` and would pull the whole history of the checkout's own branch too.
  const depth = (await isShallowRepository(git)) ? [`--depth=${STATE_HISTORY_DEPTH}`] : [];
  await git.raw([
    'fetch',
    '--no-tags',
    '--quiet',
    ...depth,
    remote,
    `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`,
  ]);
  const roots = (await git.raw(['rev-list', '--max-parents=0', tip])).split('\n').filter(Boolean);
  for (const root of roots) {
    const subject = (await git.raw(['log', '-1', '--format=%s', root])).trim();
    if (!STATE_COMMIT.test(subject)) {
      throw new Error(
        `input state-branch: ${branch} exists on ${remote} and is not a state branch the Action created ` +
          `(its root commit ${root.slice(0, 7)} is "${subject.slice(0, 80)}"); choose another name`,
      );
    }
  }
}
