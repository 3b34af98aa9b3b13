/**
 * A stopped run: the front-end aborts the run's AbortSignal (the CLI on SIGINT/SIGTERM), so the model calls
 * in flight are cancelled, the loop stops without recording the unfinished iteration, and the run's
 * exception path writes the partial morning summary and releases the lock before it rejects with
 * RunInterrupted (docs/how-it-works.md § Morning summary and results.tsv).
 */
import os from 'node:os';
import { SkillclimbError, messageOf } from '../core/errors.js';

/** 128 + the signal number: the status a shell reports for a process ended by that signal. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

/** The run was asked to stop (a signal, or the caller's AbortSignal). Not a failure of the run itself. */
export class RunInterrupted extends SkillclimbError {
  readonly kind = 'interrupted';
  override readonly name = 'RunInterrupted';
  constructor(
    /** `interrupted by SIGINT`: the partial-summary reason. */
    readonly reason: string,
    /** The signal behind it, when there was one. */
    readonly signal?: NodeJS.Signals,
  ) {
    super(reason);
  }

  /** What the CLI exits with: 128+signo for a signal, 130 (as for Ctrl+C) otherwise. */
  get exitCode(): number {
    return signalExitCode(this.signal ?? 'SIGINT');
  }
}

/** The interruption an aborted run signal stands for (a caller's own abort reason is wrapped). */
export function interruptionOf(signal: AbortSignal): RunInterrupted {
  const reason: unknown = signal.reason;
  if (reason instanceof RunInterrupted) return reason;
  return new RunInterrupted(reason === undefined ? 'interrupted' : `interrupted (${messageOf(reason)})`);
}

/** Throws the run's interruption when its signal has been aborted. */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw interruptionOf(signal);
}
