/** The per-iteration hard timeout (docs/how-it-works.md § The hill-climb loop). */

/** Fired by the per-iteration timer; its message ends up in the crash row. */
class IterationTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`iteration timed out after ${formatMs(ms)}`);
    this.name = 'IterationTimeoutError';
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)}s` : `${ms}ms`;
}

/**
 * One AbortController per iteration; its signal goes to every model call of that iteration. It fires on the
 * hard timeout, or with the run's own reason when the run is interrupted.
 */
export function startIterationTimer(
  ms: number,
  runSignal: AbortSignal | undefined,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new IterationTimeoutError(ms)), ms);
  const onRunAbort = (): void => controller.abort(runSignal?.reason);
  if (runSignal?.aborted) onRunAbort();
  else runSignal?.addEventListener('abort', onRunAbort, { once: true });
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      runSignal?.removeEventListener('abort', onRunAbort);
    },
  };
}
