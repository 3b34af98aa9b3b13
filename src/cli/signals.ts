/**
 * SIGINT/SIGTERM during `skillclimb iterate`: the first becomes an abort of the run's AbortSignal (the run
 * stops, writes its partial morning summary, releases the lock and rejects with RunInterrupted, which the
 * CLI turns into exit code 128+signo); a second exits at once (the lock file's exit handler still removes
 * it). docs/how-it-works.md § Morning summary and results.tsv.
 */
import { RunInterrupted, signalExitCode } from '../iterate/interrupt.js';
import type { Logger } from '../ports/logger.js';

const INTERRUPT_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Whether the CLI turns SIGINT/SIGTERM into a graceful stop. An explicit setting wins; by default it does
 * unless the process already listens for one of them when the run starts — then a host that embeds the
 * CLI owns the signals and they are left alone.
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
