/**
 * Work serialised per key within this process: a call for a key starts once the previous call for that
 * key has ended (resolved or failed). Used where one process must not interleave two read-modify-writes
 * of one thing (the sticky comment of a pull request; the in-memory shared state's locks).
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<R>(key: string, work: () => Promise<R>): Promise<R> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
