/**
 * A cancelled or timed-out job gets SIGINT, then SIGTERM 7.5 s later: the Action releases the run's lock
 * file at once (a killed run never blocks the next one), saves the rows the skill in progress has recorded
 * so far, within that window, then ends as the signal asked (exit 128+signo). The front-end owns the
 * signals (docs/how-it-works.md § Layers and ports): the lock adapter only releases on exit.
 */
import type { Logger } from '../ports/logger.js';
import type { SaveState } from './state-saver.js';

const INTERRUPT_SAVE_MS = 5_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Installs the handler; returns its uninstaller. `releaseLock` removes the run's lock file when one is held
 * (the process exit would too, but only after the state is saved).
 */
export function saveStateOnSignals(
  saveState: SaveState,
  stateBranch: string,
  log: Logger,
  releaseLock: () => Promise<void> = async () => undefined,
): () => void {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    void releaseLock().catch((err: unknown) =>
      log.warn(`the lock file could not be removed: ${String(err)}`),
    );
    log.warn(`${signal}: saving the state recorded so far to ${stateBranch}`);
    void Promise.race([saveState(`interrupted by ${signal}`), sleep(INTERRUPT_SAVE_MS)]).finally(() =>
      process.exit(signal === 'SIGINT' ? 130 : 143),
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
}
