/**
 * Draws made once the loop has ended (docs/how-it-works.md § Decisions under noise, "The confirmation"):
 * the confirmation's and the final text's check's. They run under a timeout of their own, one iteration
 * long, so a loop that used its whole budget still confirms; each draw is recorded in the ledger's draw
 * numbers, and what they spent counts once they end. An interruption that came meanwhile ends the loop.
 */
import type { Usage } from '../../core/usage.js';
import { ZERO_USAGE, addUsage } from '../../core/usage.js';
import { startIterationTimer } from '../iteration-timer.js';
import { measureDraws, type Measurement } from '../trials.js';
import type { LoopContext } from './context.js';

export interface AfterLoopDraws {
  /** Aborts at the timeout or on the loop's interruption. */
  signal: AbortSignal;
  /** Measures `request` (a request for `text`) with draw numbers `draws`. */
  measure(text: string, request: Parameters<typeof measureDraws>[0], draws: number[]): Promise<Measurement>;
}

/** Runs `body`'s draws; `failed` turns what it threw into its result. */
export async function drawAfterLoop<T>(
  loop: LoopContext,
  body: (draws: AfterLoopDraws) => Promise<T>,
  failed: (err: unknown) => T,
): Promise<T> {
  const { input } = loop;
  const iterationMs = input.options.iterationTimeoutMs;
  const timer = startIterationTimer(
    { iterationMs, budget: { remainingMs: iterationMs, totalMs: iterationMs } },
    input.signal,
  );
  let usage: Usage = ZERO_USAGE;
  const measure: AfterLoopDraws['measure'] = async (text, request, draws) => {
    const m = await measureDraws(request, draws);
    usage = addUsage(usage, m.usage);
    loop.ledger.drew(text, draws[draws.length - 1]! + 1);
    return m;
  };
  let result: T;
  try {
    result = await body({ signal: timer.signal, measure });
  } catch (err) {
    result = failed(err);
  } finally {
    timer.stop();
    loop.spendUnjudged(usage);
  }
  if (input.signal?.aborted) throw loop.interrupted();
  return result;
}
