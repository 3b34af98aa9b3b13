/** Commits, resets and reads inside one checkout (the per-skill worktree), always by explicit directory. */
import { committerConfig, runGit } from './client.js';

/** Git paths use forward slashes whatever the platform. */
function gitPath(relPath: string): string {
  return relPath.split('\\').join('/');
}

/**
 * Starting a git process blocks this process while the system copies it (10–20 ms for a run's process on a
 * small machine), and the loop asks for a commit right after sending an edit's first renders and for a
 * revert's reset right before sending the next editor call (docs/how-it-works.md § One iteration (steps
 * A–H)). One turn of the event loop first lets those requests go out before git starts; what waits for
 * the commit or the reset is unchanged.
 */
function afterQueuedWork(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Step C (docs/how-it-works.md § The hill-climb loop): `git -C <dir> add <file> && git -C <dir> commit -m <message>`; returns the 7-char SHA.
 * Hooks are skipped (`--no-verify`): iteration commits are bookkeeping on a private branch, and a slow or
 * failing project hook would turn every iteration into a crash.
 */
export async function commitFile(dir: string, relPath: string, message: string): Promise<string> {
  const oneLine = message.replace(/\s+/g, ' ').trim() || 'skill-iterate edit';
  await afterQueuedWork();
  // `commit -- <path>` stages and commits the tracked file in one process: every spawn is paid per iteration.
  const summary = await runGit(
    dir,
    'commit',
    ['commit', '--no-verify', '-m', oneLine, '--', gitPath(relPath)],
    await identityFor(dir),
  );
  // git prints `[<branch> <short-sha>] <message>`; read the SHA from there rather than spawn rev-parse.
  const printed = /^\[[^\]]* ([0-9a-f]{7,40})\]/m.exec(summary)?.[1];
  const sha = printed ?? (await runGit(dir, 'rev-parse HEAD', ['rev-parse', 'HEAD'])).trim();
  return sha.slice(0, 7);
}

/** The committer identity cannot change during a run; look it up once per checkout. */
const identities = new Map<string, Promise<string[]>>();
function identityFor(dir: string): Promise<string[]> {
  let identity = identities.get(dir);
  if (!identity) {
    identity = committerConfig(dir);
    identities.set(dir, identity);
  }
  return identity;
}

/** Step F's revert (docs/how-it-works.md § The hill-climb loop): `git -C <dir> reset --hard HEAD~1`. */
export async function resetToParent(dir: string): Promise<void> {
  await afterQueuedWork();
  await runGit(dir, 'reset --hard HEAD~1', ['reset', '--hard', 'HEAD~1']);
}

/** Drops uncommitted changes to tracked files (after a failed commit left an edit in the working tree). */
export async function discardChanges(dir: string): Promise<void> {
  await runGit(dir, 'reset --hard HEAD', ['reset', '--hard', 'HEAD']);
}

/** `git -C <dir> show <commit>:<path>`. */
export async function showFileAt(dir: string, commit: string, relPath: string): Promise<string> {
  return runGit(dir, 'show', ['show', `${commit}:${gitPath(relPath)}`]);
}
