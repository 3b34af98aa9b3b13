/**
 * The skills a night budget kept from starting (docs/how-it-works.md § Caps and budgets): recorded at the end
 * of a night, read by the next one, whose queue runs them first. The CLI keeps them in a file beside the
 * lock (src/adapters/local/not-started.ts), the Action on its state branch.
 */
export interface NotStartedRecord {
  /** The skills last recorded, in the order they were to run; [] when none. */
  read(): Promise<string[]>;
  /**
   * Replaces the record with `next` of the record as it is when saved (parallel jobs may have changed it
   * since it was read); [] clears it.
   */
  update(next: (current: readonly string[]) => string[]): Promise<void>;
}
