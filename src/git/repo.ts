/** Where a project sits in its repository, and which names git accepts: asked of git, never guessed. */
import { runGit } from './client.js';

/**
 * The project's folder relative to its repository root, with forward slashes and no trailing slash
 * (`''` when the project is the root, `mono/pkg` for a project in a monorepo folder). Paths the engine
 * reads at a commit or addresses inside a worktree (whose root is the repository root) start with it.
 */
export async function repoPrefix(dir: string): Promise<string> {
  const prefix = (await runGit(dir, 'rev-parse --show-prefix', ['rev-parse', '--show-prefix'])).trim();
  return prefix.replace(/\/+$/, '');
}

/** `git check-ref-format --branch <name>`: would git accept this as a new branch name? */
export async function isValidBranchName(dir: string, name: string): Promise<boolean> {
  try {
    await runGit(dir, 'check-ref-format', ['check-ref-format', '--branch', name]);
    return true;
  } catch {
    return false;
  }
}
