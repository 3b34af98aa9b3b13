/** Small simple-git helpers shared by the shipper and the state store. All calls use a directory, never `cd`. */
import { readFile } from 'node:fs/promises';
import { simpleGit, type SimpleGit } from 'simple-git';
import { messageOf } from '../../core/errors.js';

/** The identity GitHub's own `actions/checkout` docs recommend for commits made by a workflow. */
export const BOT_IDENTITY = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
} as const;

/** `-c user.name=… -c user.email=…` values for whichever of the two the repository does not configure. */
export async function missingIdentityConfig(dir: string): Promise<string[]> {
  const git = simpleGit(dir);
  const config: string[] = [];
  // GIT_AUTHOR_*/GIT_COMMITTER_* variables, when set, still win over these `-c` values.
  const hasName = (await git.getConfig('user.name')).value;
  const hasEmail = (await git.getConfig('user.email')).value;
  if (!hasName) config.push(`user.name=${BOT_IDENTITY.name}`);
  if (!hasEmail) config.push(`user.email=${BOT_IDENTITY.email}`);
  return config;
}

/** A simple-git bound to `dir`, committing as github-actions[bot] when no identity is configured. */
export async function gitWithIdentity(dir: string): Promise<SimpleGit> {
  return simpleGit({ baseDir: dir, config: await missingIdentityConfig(dir) });
}

/**
 * The variables a plumbing command needs plus `extra`. simple-git refuses to pass some inherited variables
 * (EDITOR, GIT_ASKPASS, …) once an environment is given explicitly, so only safe ones are copied.
 */
export function minimalGitEnv(extra: Record<string, string>): Record<string, string> {
  const keep =
    /^(PATH|HOME|USERPROFILE|SYSTEMROOT|TMPDIR|TEMP|TMP|LANG|LC_[A-Z]+|GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE))$/;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && keep.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** The SHA of `refs/heads/<branch>` on the remote, or '' when the branch does not exist there. */
export async function remoteBranchSha(git: SimpleGit, remote: string, branch: string): Promise<string> {
  const out = await git.raw(['ls-remote', '--heads', remote, `refs/heads/${branch}`]);
  const line = out.split('\n').find((l) => l.trim().endsWith(`refs/heads/${branch}`));
  return line?.split(/\s+/)[0] ?? '';
}

/** The branch the remote's HEAD points at (its default branch), or undefined when it cannot be read. */
export async function remoteDefaultBranch(dir: string, remote = 'origin'): Promise<string | undefined> {
  const out = await simpleGit(dir)
    .raw(['ls-remote', '--symref', remote, 'HEAD'])
    .catch(() => '');
  return /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(out)?.[1];
}

/** Whether the repository is shallow: actions/checkout's default `fetch-depth: 1` makes it so. */
export async function isShallowRepository(git: SimpleGit): Promise<boolean> {
  return (await git.raw(['rev-parse', '--is-shallow-repository'])).trim() === 'true';
}

/** Whether the commit's object is in the repository (a shallow checkout lacks everything below its tip). */
export async function hasCommit(git: SimpleGit, sha: string): Promise<boolean> {
  // `--verify --quiet` fails silently; simple-git resolves a silent failure with empty output.
  const out = await git.raw(['rev-parse', '--verify', '--quiet', `${sha}^{commit}`]).catch(() => '');
  return out.trim() === sha;
}

/**
 * Brings `branch`'s tip into the repository as `refs/remotes/<remote>/<branch>` and returns its SHA ('' when
 * the branch does not exist). The Action needs tips only — a parent, a lease, trees to diff — never history:
 * - a tip already present is not fetched at all (a `--depth` fetch of it would cut the history below it,
 *   and a full clone must stay a full clone);
 * - into a shallow checkout, the tip is fetched with `--depth=1`. A plain fetch there downloads the branch's
 *   whole history below the checkout's one commit (the server treats that commit as having no parents),
 *   which for a `skill-iterate/<skill>` branch made on an older base is the whole repository.
 */
export async function fetchBranch(git: SimpleGit, remote: string, branch: string): Promise<string> {
  const sha = await remoteBranchSha(git, remote, branch);
  if (!sha) return '';
  const tracking = `refs/remotes/${remote}/${branch}`;
  if (await hasCommit(git, sha)) {
    await git.raw(['update-ref', tracking, sha]);
    return sha;
  }
  const depth = (await isShallowRepository(git)) ? ['--depth=1'] : [];
  await git.raw(['fetch', '--no-tags', '--quiet', ...depth, remote, `+refs/heads/${branch}:${tracking}`]);
  return (await git.revparse([tracking])).trim();
}

/** Far more commits than any history the Action fetches on purpose; not 2147483647, which means `--unshallow`. */
const LARGE_DEPTH = 1_000_000;

/** Whether `sha` is a shallow boundary of the repository (present, but without its parents). */
export async function isShallowBoundary(git: SimpleGit, sha: string): Promise<boolean> {
  const file = (await git.raw(['rev-parse', '--path-format=absolute', '--git-path', 'shallow'])).trim();
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').includes(sha);
}

/**
 * Makes the commit present with its history, fetched by id (it may no longer be any branch's tip; protocol
 * v2 serves any object the remote has). Never depth-limited: a commit pushed back to the remote must not
 * end at a shallow boundary, or the push is refused ("shallow update not allowed"). A commit present only
 * as a boundary (its tip fetched at depth 1 earlier) is deepened by a large finite depth, which leaves the
 * checkout's other shallow boundaries alone.
 */
export async function fetchCommit(git: SimpleGit, remote: string, sha: string): Promise<void> {
  if (await hasCommit(git, sha)) {
    if (!(await isShallowBoundary(git, sha))) return;
    await git.raw(['fetch', '--no-tags', '--quiet', `--depth=${LARGE_DEPTH}`, remote, sha]);
    return;
  }
  await git.raw(['fetch', '--no-tags', '--quiet', remote, sha]);
}

export function gitErrorMessage(error: unknown): string {
  const message = messageOf(error);
  return message.trim().split('\n').slice(0, 6).join(' ').slice(0, 600);
}

/**
 * Runners have no git identity, and the engine commits every kept edit in its worktrees. When the checkout
 * configures none, the commits are made as github-actions[bot] through the standard variables.
 */
export async function ensureGitIdentityEnv(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const config = await missingIdentityConfig(dir);
  if (config.length === 0) return false;
  env.GIT_AUTHOR_NAME ??= BOT_IDENTITY.name;
  env.GIT_COMMITTER_NAME ??= BOT_IDENTITY.name;
  env.GIT_AUTHOR_EMAIL ??= BOT_IDENTITY.email;
  env.GIT_COMMITTER_EMAIL ??= BOT_IDENTITY.email;
  return true;
}
