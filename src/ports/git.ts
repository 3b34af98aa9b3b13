/**
 * The git the skill-iterate engine needs (docs/how-it-works.md § The hill-climb loop): the per-skill
 * worktree, one commit per edit, the revert, reading a file at a commit, and what git accepts. Implemented
 * by src/git over simple-git; every call names its directory (the engine never changes its cwd).
 */

/** Whether a path exists and what a folder holds, by absolute path (the structural metrics' lookups). */
export interface FileLookup {
  exists(absolutePath: string): boolean;
  /** The names in a folder; empty for a file or a path that does not exist. */
  listDir(absolutePath: string): string[];
}

/** A per-skill worktree on its own branch, made from the project's checked-out HEAD. */
export interface Worktree {
  path: string;
  branch: string;
  /** The branch checked out in the project (`HEAD` when detached). */
  baseBranch: string;
  /** Full SHA of the base HEAD the worktree was created from. */
  baseCommit: string;
  /**
   * The project's folder inside its repository (`''` at the root). The worktree's root is the repository
   * root, so project-relative paths are joined onto this prefix there.
   */
  prefix: string;
  /**
   * Set when only some folders are checked out (`WorktreeRequest.sparse`): the whole repository at
   * `baseCommit`, for the lookups of links and `[[ref]]`s, which may point outside those folders.
   */
  files?: FileLookup | undefined;
}

export interface WorktreeRequest {
  project: string;
  /** Parent folder of the worktree. */
  home: string;
  skill: string;
  epoch: number;
  /**
   * Check out only these folders (project-relative, e.g. the skill's): a worktree then costs the skill,
   * not the repository. Without it, everything is checked out.
   */
  sparse?: readonly string[] | undefined;
}

/**
 * Called by the work inside a worktree to leave it (and its branch) in place for the operator or the
 * shipper; `keep(false)` takes that back, so the worktree is removed after all.
 */
export type KeepWorktree = (keep?: boolean) => void;

export interface GitWorkspace {
  /**
   * Creates the worktree, runs `work` in it, then removes the worktree and its branch — whether `work`
   * returns or throws — unless `work` called `keep()`. Rejects without calling `work` when the worktree
   * cannot be created. A failed removal is a warning, never an error.
   */
  withWorktree<T>(
    request: WorktreeRequest,
    work: (worktree: Worktree, keep: KeepWorktree) => Promise<T>,
  ): Promise<T>;
  /** Commits the tracked file `relPath` in `dir` (hooks skipped); resolves the 7-character SHA. */
  commitFile(dir: string, relPath: string, message: string): Promise<string>;
  /** `reset --hard HEAD~1`: the revert of the last commit. */
  resetToParent(dir: string): Promise<void>;
  /** Drops uncommitted changes to tracked files. */
  discardChanges(dir: string): Promise<void>;
  /** The file `relPath` as committed at `commit`. */
  showFileAt(dir: string, commit: string, relPath: string): Promise<string>;
  /** Would git accept `name` as a new branch name? */
  isValidBranchName(dir: string, name: string): Promise<boolean>;
  /**
   * Worktrees of `project` left behind by an earlier run (never removed: the operator decides); null when
   * `project` is not inside a git repository.
   */
  orphanWorktrees(project: string): Promise<string[] | null>;
  /** The root of the git work tree holding `project`, or null when it is not inside one. */
  repositoryRoot(project: string): Promise<string | null>;
  /** Of `paths` (relative to `dir`), those git ignores there, each with the rule that does. */
  ignoredPaths?(dir: string, paths: readonly string[]): Promise<IgnoredPath[]>;
}

/** A path git ignores, and the rule that makes it (`git check-ignore -v`). */
export interface IgnoredPath {
  /** The path as asked, relative to the folder asked in. */
  path: string;
  /** The file holding the rule (`.gitignore`, `skills/x/.gitignore`, `.git/info/exclude`, a global file). */
  source: string;
  line: number;
  pattern: string;
}
