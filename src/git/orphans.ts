import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { WORKTREE_PREFIX } from '../core/iterate/skill-layout.js';
import { stderrOf } from './client.js';
import { messageOf } from '../core/errors.js';

const execFileAsync = promisify(execFile);

/** Parses `git worktree list --porcelain` into the paths whose folder name has the skill-iterate prefix. */
export function skillIterateWorktrees(porcelain: string): string[] {
  return porcelain
    .split(/\r?\n/)
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .filter((p) => path.basename(p).startsWith(WORKTREE_PREFIX));
}

/**
 * Worktrees of `project` left behind by an earlier run (reported, never removed: the operator decides).
 * Resolves null when `project` is not inside a git repository.
 */
export async function findOrphanWorktrees(project: string): Promise<string[] | null> {
  try {
    const { stdout } = await execFileAsync('git', ['-C', project, 'worktree', 'list', '--porcelain'], {
      encoding: 'utf8',
    });
    return skillIterateWorktrees(stdout);
  } catch (err) {
    const stderr = stderrOf(err);
    if (/not a git repository/i.test(stderr)) return null;
    throw new Error(`git worktree list failed in ${project}: ${stderr.trim() || messageOf(err)}`);
  }
}
