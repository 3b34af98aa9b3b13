/**
 * A cancelled or timed-out job gets SIGINT, then SIGTERM 7.5 s later: the Action saves the rows the skill
 * in progress has recorded so far, within that window, then ends as the signal asked. A persistent
 * listener: with none left, the lock file's own handler re-raises the signal and the process dies at once.
 */
import type { Logger } from '../ports/logger.js';
import type { SaveState } from './state-saver.js';

const INTERRUPT_SAVE_MS = 5_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Installs the handler; returns its uninstaller. */
export function saveStateOnSignals(saveState: SaveState, stateBranch: string, log: Logger): () => void {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
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
