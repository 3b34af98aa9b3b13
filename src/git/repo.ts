/** Where a project sits in its repository, and which names git accepts: asked of git, never guessed. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runGit } from './client.js';

const execFileAsync = promisify(execFile);

/**
 * The root of the git work tree holding `dir`, or null when `dir` is not inside one (a folder that does not
 * exist, a bare repository, no repository at all).
 */
export async function repositoryRoot(dir: string): Promise<string | null> {
  try {
    const { stdout } = await execFileAsync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], {
      encoding: 'utf8',
    });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

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

/** Runs `git rev-parse --path-format=absolute <flag>` and returns the path it prints. */
async function absoluteGitPath(dir: string, flag: string): Promise<string> {
  const out = await runGit(dir, `rev-parse ${flag}`, ['rev-parse', '--path-format=absolute', flag]);
  return out.trim();
}

/**
 * The repository's common git directory (`.git` of the main checkout, shared by every linked worktree):
 * where the repository-wide lock and the interrupted-ship marker live (docs/how-it-works.md § Shipping).
 */
export function gitCommonDir(dir: string): Promise<string> {
  return absoluteGitPath(dir, '--git-common-dir');
}

/** The root of the checkout `dir` is in (the working tree whose index the local ship updates). */
export function checkoutRoot(dir: string): Promise<string> {
  return absoluteGitPath(dir, '--show-toplevel');
}
