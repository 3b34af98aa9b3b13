/**
 * An older build of this repository, for before/after figures on the same machine in the same run: the
 * commit is checked out in a temporary `git worktree` (detached), given this checkout's node_modules (the
 * benchmarks need no dependency that differs between the two) and compiled with tsc into its own build/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

function git(cwd, ...args) {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** Checks out and builds `ref`; resolves its root, build/ and full SHA, and a cleanup that removes it. */
export async function prepareBaseline(repoRoot, ref, log = () => {}) {
  let sha;
  try {
    sha = git(repoRoot, 'rev-parse', '--verify', `${ref}^{commit}`);
  } catch {
    throw new Error(`--baseline-ref ${ref}: not a commit in ${repoRoot}`);
  }
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-baseline-'));
  const cleanup = async () => {
    try {
      git(repoRoot, 'worktree', 'remove', '--force', root);
    } catch {
      await rm(root, { recursive: true, force: true });
      git(repoRoot, 'worktree', 'prune');
    }
  };
  try {
    log(`baseline: checking out ${sha.slice(0, 7)} in ${root}`);
    git(repoRoot, 'worktree', 'add', '--detach', '--quiet', root, sha);
    await symlink(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    log('baseline: compiling (tsc)');
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    if (!existsSync(path.join(root, 'build', 'iterate', 'run.js')))
      throw new Error(`baseline ${sha.slice(0, 7)}: the build has no iterate/run.js`);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { root, build: path.join(root, 'build'), sha, cleanup };
}
