/**
 * The one error model (docs/how-it-works.md § Layers and ports): every error the project throws on purpose
 * says what kind of failure it is, so a front-end can tell bad usage from a broken file, a model, git or
 * GitHub failing, a spent budget or an interruption without knowing each class. The message stays the
 * whole story for the person; the kind is for the code that decides what to do with it.
 */
export type ErrorKind =
  /** The command line or the Action's inputs ask for something impossible. */
  | 'usage'
  /** A configuration file or environment variable is wrong, or a model cannot be chosen from it. */
  | 'config'
  /** A file the run reads (evals, queue, state, a skill) is missing, malformed or not a regular file. */
  | 'input-file'
  /** A model call gave no answer, or an answer nothing can be made of. */
  | 'model'
  /** A git operation failed, or the repository is held by another run. */
  | 'git'
  /** A GitHub API read or write failed, or what is kept on GitHub cannot be read. */
  | 'github'
  /** A time or money budget ran out. */
  | 'budget'
  /** The run was asked to stop (a signal, an abort). */
  | 'interrupted'
  /** A pre-flight check stopped the run before any work. */
  | 'halt'
  /** The App's shared store (Redis) did not answer. */
  | 'store';

/** The base of the project's errors: an Error with a kind. Subclasses declare theirs as a field. */
export abstract class SkillclimbError extends Error {
  abstract readonly kind: ErrorKind;
}

/**
 * Whether `error` is one of the project's errors of one of `kinds`: how a front-end tells failures apart
 * (an exit code, a check conclusion, a reply) without knowing each class.
 */
export function isErrorOfKind(error: unknown, ...kinds: ErrorKind[]): error is SkillclimbError {
  return error instanceof SkillclimbError && kinds.includes(error.kind);
}

/** The message of anything thrown: an Error's message, anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
