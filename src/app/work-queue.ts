/**
 * The background work queue (docs/how-it-works.md § The App). A webhook handler only ENQUEUES: nothing
 * here starts before the current turn of the event loop ends, so the delivery is answered before any API
 * or model call. Loops are claimed per pull request at enqueue — a second start while one is claimed is
 * answered "already running", never run twice — and at most `concurrency` loops run at once; the rest
 * wait for a slot. Short tasks (replies, reactions, state edits) run beside the loops, unthrottled.
 * Nothing is scanned at start-up: a loop resumes from its PR's sticky state on the PR's next event.
 */

export interface QueueLog {
  error(message: string, error: unknown): void;
}

const SEEN_LIMIT = 10_000;

export class WorkQueue {
  readonly #concurrency: number;
  readonly #log: QueueLog;
  readonly #claims = new Map<string, AbortController>();
  readonly #seen = new Set<string>();
  readonly #pending = new Set<Promise<void>>();
  readonly #waiting: Array<() => void> = [];
  #running = 0;
  #closed = false;

  constructor(options: { concurrency: number; log: QueueLog }) {
    this.#concurrency = Math.max(1, options.concurrency);
    this.#log = options.log;
  }

  /** Records `id` (a trigger comment, a delivery) and says whether it was seen before in this process. */
  seenBefore(id: string): boolean {
    if (this.#seen.has(id)) return true;
    this.#seen.add(id);
    if (this.#seen.size > SEEN_LIMIT) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return false;
  }

  isClaimed(key: string): boolean {
    return this.#claims.has(key);
  }

  /** Claims `key`'s loop; false when it is already claimed (a loop is running or about to). */
  claim(key: string): AbortController | undefined {
    if (this.#closed || this.#claims.has(key)) return undefined;
    const controller = new AbortController();
    this.#claims.set(key, controller);
    return controller;
  }

  release(key: string, controller: AbortController): void {
    if (this.#claims.get(key) === controller) this.#claims.delete(key);
  }

  /** Aborts the loop claimed for `key` (stop, closed PR); false when none is. */
  abort(key: string, reason: string): boolean {
    const controller = this.#claims.get(key);
    if (!controller) return false;
    controller.abort(new Error(reason));
    return true;
  }

  /** Runs `work` in the background, after the current turn (so after the webhook is answered). */
  task(name: string, work: () => Promise<void>): void {
    this.#track(name, work);
  }

  /**
   * Runs a claimed loop once a slot is free; the claim is released when it ends, whatever happens.
   * `work` gets the claim's signal, aborted by `abort(key)` or by `close()`.
   */
  loop(
    name: string,
    key: string,
    controller: AbortController,
    work: (signal: AbortSignal) => Promise<void>,
  ): void {
    this.#track(name, async () => {
      try {
        await this.#acquire();
        try {
          // Runs even when aborted while waiting: the work records the stop in the PR's state.
          await work(controller.signal);
        } finally {
          this.#releaseSlot();
        }
      } finally {
        this.release(key, controller);
      }
    });
  }

  /** Loops running now and waiting for a slot. */
  get stats(): { running: number; waiting: number; claimed: number } {
    return { running: this.#running, waiting: this.#waiting.length, claimed: this.#claims.size };
  }

  /** Resolves when every task and loop started so far (and any they started) has ended. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Stops taking claims and aborts the running loops (they save their state); waits up to `ms`. */
  async close(ms: number): Promise<boolean> {
    this.#closed = true;
    for (const controller of this.#claims.values()) controller.abort(new Error('the App is shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const done = await Promise.race([this.idle().then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }

  #track(name: string, work: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => this.#log.error(`${name} failed`, error));
    this.#pending.add(run);
    void run.finally(() => this.#pending.delete(run));
  }

  #acquire(): Promise<void> {
    if (this.#running < this.#concurrency) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(() => resolve()));
  }

  #releaseSlot(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running -= 1;
  }
}
