/**
 * What an interrupted earlier run of skillclimb left behind in the checkout, recognised by a marker it
 * writes itself (docs/how-it-works.md § Shipping). The pre-flight asks first, before it decides anything:
 * a real run cleans them up with a warning, a dry run only says what a real run would clean. Nothing that
 * skillclimb did not make is ever touched.
 */
export interface Leftovers {
  /** One line per leftover, without changing anything. */
  find(): Promise<string[]>;
  /** Cleans them up; resolves one line per thing done. */
  clean(): Promise<string[]>;
}
