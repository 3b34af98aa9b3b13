/** The engine's git port (src/ports/git.ts) over the simple-git helpers of this folder. */
import type { GitWorkspace } from '../ports/git.js';
import type { Logger } from '../ports/logger.js';
import { commitFile, discardChanges, resetToParent, showFileAt } from './commits.js';
import { ignoredPaths } from './ignored.js';
import { findOrphanWorktrees } from './orphans.js';
import { isValidBranchName, repositoryRoot } from './repo.js';
import { createWorktree, discardWorktree } from './worktree.js';

export function createGitWorkspace(log: Pick<Logger, 'warn'>): GitWorkspace {
  return {
    async withWorktree(request, work) {
      const worktree = await createWorktree(request);
      let kept = false;
      try {
        return await work(worktree, (keep = true) => {
          kept = keep;
        });
      } finally {
        if (!kept) await discardWorktree(request.project, worktree, { warn: (m) => log.warn(m) });
      }
    },
    commitFile,
    resetToParent,
    discardChanges,
    showFileAt,
    isValidBranchName,
    orphanWorktrees: findOrphanWorktrees,
    repositoryRoot,
    ignoredPaths,
  };
}
