/**
 * One simple-git client per directory. Every git call in skillclimb goes through here with an explicit
 * working directory (`git -C <dir>`, docs/how-it-works.md § The hill-climb loop): the process never changes its own cwd, so a
 * worktree is never held open by us when it is removed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { simpleGit, type SimpleGit } from 'simple-git';
import { SkillclimbError } from '../core/errors.js';

const execFileAsync = promisify(execFile);

/** Used only when neither the repository config nor the environment names a committer. */
export const FALLBACK_IDENTITY = {
  name: 'skillclimb',
  email: 'skillclimb@users.noreply.github.com',
} as const;

/** A git operation failed; the message names the operation and the directory. */
export class GitOperationError extends SkillclimbError {
  readonly kind = 'git';
  constructor(
    readonly operation: string,
    readonly dir: string,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message.trim() : String(cause);
    super(`git ${operation} failed in ${dir}: ${detail}`, { cause });
    this.name = 'GitOperationError';
  }
}

/**
 * simple-git only fails a command that wrote to stderr; `commit` with nothing to commit and a conflicting
 * `merge --squash` exit 1 with their message on stdout. Every non-zero exit is an error here.
 */
function failOnNonZeroExit(
  error: Buffer | Error | undefined,
  result: { exitCode: number; stdOut: Buffer[]; stdErr: Buffer[] },
): Buffer | Error | undefined {
  if (result.exitCode === 0) return error;
  const text = Buffer.concat([...result.stdErr, ...result.stdOut])
    .toString('utf8')
    .trim();
  return error ?? Buffer.from(text || `exit code ${result.exitCode}`);
}

export function gitAt(dir: string, config: string[] = [], env?: NodeJS.ProcessEnv): SimpleGit {
  const git = simpleGit({ baseDir: dir, config, maxConcurrentProcesses: 2, errors: failOnNonZeroExit });
  return env ? git.env(env) : git;
}

async function configValue(git: SimpleGit, key: string): Promise<string> {
  try {
    return (await git.raw(['config', '--get', key])).trim();
  } catch {
    return '';
  }
}

/**
 * A fresh CI runner often has no git identity, and a commit without one fails. The repository's own
 * config or the GIT_* variables win; the fallback only fills the gap.
 */
export async function committerConfig(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const git = gitAt(dir, [], env);
  const name = env.GIT_COMMITTER_NAME ?? (await configValue(git, 'user.name'));
  const email = env.GIT_COMMITTER_EMAIL ?? (await configValue(git, 'user.email'));
  const config: string[] = [];
  if (!name) config.push(`user.name=${FALLBACK_IDENTITY.name}`);
  if (!email) config.push(`user.email=${FALLBACK_IDENTITY.email}`);
  return config;
}

/** Runs `git <args>` in `dir`, wrapping a failure in GitOperationError named after `operation`. */
export async function runGit(
  dir: string,
  operation: string,
  args: string[],
  config: string[] = [],
): Promise<string> {
  try {
    return await gitAt(dir, config).raw(args);
  } catch (err) {
    throw new GitOperationError(operation, dir, err);
  }
}

export interface PlumbingOptions {
  /** `-c key=value` settings (e.g. the committer identity). */
  config?: string[];
  /** Variables added to the environment (e.g. `GIT_INDEX_FILE` for a temporary index). */
  env?: Record<string, string>;
}

/**
 * Runs a plumbing command (`git -C <dir> [-c …] <args>`) with extra environment variables, which simple-git
 * only accepts as a whole replacement of the environment. Non-zero exit → GitOperationError with git's
 * stderr.
 */
export async function runPlumbing(
  dir: string,
  operation: string,
  args: string[],
  options: PlumbingOptions = {},
): Promise<string> {
  const config = (options.config ?? []).flatMap((c) => ['-c', c]);
  try {
    const { stdout } = await execFileAsync('git', ['-C', dir, ...config, ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, ...options.env },
    });
    return stdout;
  } catch (err) {
    const stderr = stderrOf(err).trim();
    throw new GitOperationError(operation, dir, stderr ? new Error(stderr) : err);
  }
}

/** What a failed `execFile` of git wrote to stderr ('' when the error carries none). */
export function stderrOf(err: unknown): string {
  const stderr = (err as { stderr?: unknown } | null)?.stderr;
  return typeof stderr === 'string' ? stderr : Buffer.isBuffer(stderr) ? stderr.toString('utf8') : '';
}
