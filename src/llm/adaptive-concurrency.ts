/**
 * How many model calls go to one endpoint at once, adapted to what it accepts (docs/how-it-works.md
 * § Models and providers): the engine lets a whole iteration's calls go out together, and when the endpoint
 * answers 429 (rate limited) or 503/529 (overloaded) the limit becomes half of the most calls that were in
 * flight since the last change (once per burst: the calls sent under the old limit fail together); every
 * `limit` calls that succeed after that raise it by one, back up to the maximum (additive increase,
 * multiplicative decrease). Users need not tune `--concurrency` to their rate limits; the retries
 * (src/llm/retry.ts) still wait what the server asks.
 */
import { APICallError } from 'ai';

/** 429 rate limited, 503 unavailable, 529 Anthropic's "overloaded". */
export function isOverload(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  return status === 429 || status === 503 || status === 529;
}

export interface ConcurrencyChange {
  /** The endpoint the limit is for (a base URL). */
  endpoint: string;
  from: number;
  to: number;
  reason: 'overload' | 'recovered';
}

export type Outcome = 'ok' | 'overload' | 'other';

/** One call's hold on a slot: `release` it exactly once, with how the call went. */
export interface Slot {
  release(outcome: Outcome): void;
}

export class AdaptiveConcurrency {
  private limitNow: number;
  private inFlight = 0;
  /** The most calls in flight at once since the limit last changed: the level the endpoint refused. */
  private peak = 0;
  private credit = 0;
  /** Bumped on every decrease: an overload from a call started before it is part of the same burst. */
  private generation = 0;
  private readonly waiting: Array<{ start: () => void }> = [];

  constructor(
    readonly endpoint: string,
    readonly max: number,
    private readonly onChange?: (change: ConcurrencyChange) => void,
  ) {
    this.limitNow = Math.max(1, Math.floor(max));
  }

  get limit(): number {
    return this.limitNow;
  }

  get active(): number {
    return this.inFlight;
  }

  /** Waits for a free slot (in arrival order); rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<Slot> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<Slot>((resolve, reject) => {
      const entry = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
          this.inFlight += 1;
          this.peak = Math.max(this.peak, this.inFlight);
          resolve(this.slot(this.generation));
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.pump();
    });
  }

  private slot(generation: number): Slot {
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        if (outcome === 'overload') this.decrease(generation);
        else if (outcome === 'ok') this.increase();
        this.pump();
      },
    };
  }

  private decrease(generation: number): void {
    // Calls sent under the old limit report the same burst: halve once for it, not once per call.
    if (generation !== this.generation) return;
    const from = this.limitNow;
    const to = Math.max(1, Math.floor(Math.min(from, this.peak) / 2));
    this.generation += 1;
    this.credit = 0;
    this.peak = this.inFlight;
    if (to === from) return;
    this.limitNow = to;
    this.onChange?.({ endpoint: this.endpoint, from, to, reason: 'overload' });
  }

  private increase(): void {
    if (this.limitNow >= this.max) return;
    this.credit += 1;
    if (this.credit < this.limitNow) return;
    this.credit = 0;
    const from = this.limitNow;
    this.limitNow = from + 1;
    this.peak = this.inFlight;
    this.onChange?.({ endpoint: this.endpoint, from, to: this.limitNow, reason: 'recovered' });
  }

  private pump(): void {
    while (this.inFlight < this.limitNow && this.waiting.length > 0) this.waiting.shift()!.start();
  }
}
