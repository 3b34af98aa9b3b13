/**
 * Where the night starts and where its pull requests go. The skills are iterated as checked out (the
 * engine's worktrees start from the checkout's HEAD), while the PRs target the `base` input or the
 * repository's default branch, never `GITHUB_REF_NAME`: a `workflow_dispatch` from another branch, or a
 * detached `ref: <sha>`, still proposes its improvements to the base, each squash carrying only the skill's
 * changes onto the base's tip.
 */
import { currentBranch, headCommit } from '../git/worktree.js';

/** The line the log shows when the checkout is not the base branch, or undefined when it is. */
export async function checkoutBaseNote(project: string, base: string): Promise<string | undefined> {
  // `HEAD` when detached (a `ref: <sha>` checkout, or a pull_request event's merge commit).
  const branch = await currentBranch(project);
  if (branch === base) return undefined;
  const commit = (await headCommit(project)).slice(0, 7);
  const checkout = branch === 'HEAD' ? `a detached HEAD at ${commit}` : `${branch} at ${commit}`;
  return (
    `the checkout is ${checkout}, not ${base}: skills are iterated as checked out; ` +
    `each pull request carries only the skill's changes onto ${base}`
  );
}
