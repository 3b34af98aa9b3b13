/**
 * Step H's reset off the critical path (docs/how-it-works.md § One iteration (steps A–H)): a reverted or
 * crashed commit's `reset --hard` runs while the next editor call is out (nothing the editor sees depends
 * on it), and every later git step in the worktree, and the loop's end, wait for it first.
 */
import { SkillclimbError, messageOf } from '../../core/errors.js';
import type { GitWorkspace } from '../../ports/git.js';

/** A git step of the loop itself failed (not an edit's commit): the loop stops, the worktree is kept. */
export class WorktreeGitFailure extends SkillclimbError {
  readonly kind = 'git';
  constructor(readonly failure: unknown) {
    super(messageOf(failure), { cause: failure });
  }
}

/** The one reset that may be in flight in a skill's worktree. */
export class BackgroundReset {
  /** The reset still running; undefined when none is. */
  private pending: Promise<void> | undefined;

  constructor(
    private readonly git: Pick<GitWorkspace, 'resetToParent'>,
    private readonly worktreePath: string,
  ) {}

  /** Starts resetting the branch tip away; `settle` observes the outcome. */
  start(): void {
    const reset = this.git.resetToParent(this.worktreePath);
    reset.catch(() => undefined); // observed by settle
    this.pending = reset;
  }

  /** Waits for the reset in flight; its failure ends the loop as it always did (never a crash row). */
  async settle(): Promise<void> {
    const reset = this.pending;
    this.pending = undefined;
    if (reset === undefined) return;
    try {
      await reset;
    } catch (err) {
      throw new WorktreeGitFailure(err);
    }
  }

  /** `settle`, with a failed reset rethrown as git's own error: the loop ends with it. */
  async settleOrFail(): Promise<void> {
    try {
      await this.settle();
    } catch (err) {
      throw err instanceof WorktreeGitFailure ? err.failure : err;
    }
  }
}
