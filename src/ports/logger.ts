/** Where the engines and adapters report: the CLI prints it, the Action groups it, tests record it. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** One line per iteration and per skill; silenced by --quiet. */
  progress(message: string): void;
}
