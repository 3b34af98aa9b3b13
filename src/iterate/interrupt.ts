/**
 * Ctrl+C and `kill` during a run: SIGINT/SIGTERM become an abort of the run's AbortSignal, so the model
 * calls in flight are cancelled, the loop stops without recording the unfinished iteration, and the
 * orchestrator's exception path writes the partial morning summary (seed Phase 4, path 3) and releases the
 * lock before the process exits with 128+signo. A second signal exits at once.
 */
import os from 'node:os';
import type { Logger } from '../ports/logger.js';

export const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type InterruptSignal = (typeof INTERRUPT_SIGNALS)[number];

/** 128 + the signal number: the status a shell reports for a process ended by that signal. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

/** The run was asked to stop (a signal, or the caller's AbortSignal). Not a failure of the run itself. */
export class RunInterrupted extends Error {
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

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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

/**
 * Whether runIterate handles SIGINT/SIGTERM itself. An explicit setting wins; by default it does unless the
 * process already listens for one of them when the run starts — then a host (the GitHub Action saves its
 * state and exits on its own) owns the signals and the engine leaves them alone.
 */
export function shouldHandleSignals(setting: boolean | undefined): boolean {
  if (setting !== undefined) return setting;
  return INTERRUPT_SIGNALS.every((signal) => process.listenerCount(signal) === 0);
}

/**
 * Turns the first SIGINT/SIGTERM into `controller.abort(new RunInterrupted(…))`; a second one exits at once
 * with 128+signo (the lock's exit handler still removes the lock file). Returns the uninstaller.
 */
export function abortOnSignals(controller: AbortController, log: Pick<Logger, 'warn'>): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      log.warn(`${signal} again: exiting without waiting for the run to wind down`);
      process.exit(signalExitCode(signal));
    }
    log.warn(
      `${signal}: stopping the run; writing the partial morning summary (send it again to exit at once)`,
    );
    controller.abort(new RunInterrupted(`interrupted by ${signal}`, signal));
  };
  for (const signal of INTERRUPT_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of INTERRUPT_SIGNALS) process.removeListener(signal, onSignal);
  };
}
