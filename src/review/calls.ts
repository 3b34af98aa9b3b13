/**
 * Every model call of a round goes through here: its usage is counted (round, invocation), its trace saved
 * under the run's trace folder — the unusable answers too, since they cost tokens and are evidence.
 */
import { UnusableAnswerError, type ModelCall } from '../core/review/answers.js';
import { traceCallName } from '../core/review/log.js';
import { addUsage, ZERO_USAGE, type Usage } from '../core/usage.js';
import type { RunContext } from './start.js';

/** The usage of one round, accumulated call by call. */
export class RoundMeter {
  usage: Usage = { ...ZERO_USAGE };
  constructor(private readonly ctx: RunContext) {}

  add(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
    this.ctx.invocationUsage = addUsage(this.ctx.invocationUsage, usage);
  }
}

export type CallResult<T> = { ok: true; call: ModelCall<T> } | { ok: false; error: UnusableAnswerError };

/**
 * Runs one call, traces it and counts its usage. An unusable answer is returned (not thrown) so the caller
 * decides: retry, record as unavailable, or skip a step. Transport failures and aborts propagate.
 */
export async function tracedCall<T>(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  purpose: string,
  attempt: number,
  run: () => Promise<ModelCall<T>>,
): Promise<CallResult<T>> {
  const name = traceCallName(round, purpose, attempt);
  const traceId = ctx.state.trace_id;
  try {
    const call = await run();
    meter.add(call.usage);
    if (traceId !== null) await ctx.ports.store.writeTrace(traceId, name, call.trace);
    return { ok: true, call };
  } catch (err) {
    if (!(err instanceof UnusableAnswerError)) throw err;
    meter.add(err.usage);
    if (traceId !== null) await ctx.ports.store.writeTrace(traceId, name, err.trace);
    return { ok: false, error: err };
  }
}

/**
 * A call whose unusable answer is asked once more (a garbled answer is often a one-off); the second
 * failure is returned for the caller to record. Both attempts are traced.
 */
export async function callWithOneRetry<T>(
  ctx: RunContext,
  meter: RoundMeter,
  round: number,
  purpose: string,
  run: () => Promise<ModelCall<T>>,
): Promise<CallResult<T>> {
  const first = await tracedCall(ctx, meter, round, purpose, 1, run);
  if (first.ok) return first;
  ctx.ports.log.warn(`round ${round}: ${first.error.message}; asking once more`);
  return tracedCall(ctx, meter, round, purpose, 2, run);
}
