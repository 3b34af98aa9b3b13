import type { Logger } from '../ports/logger.js';
import type { CliIo } from './io.js';

export interface CliLoggerOptions {
  /** --quiet: drop per-iteration / per-skill progress lines (info and warnings still print). */
  quiet?: boolean;
  /** --json: stdout carries only the JSON document, so every log line goes to stderr. */
  json?: boolean;
}

/** The engine's Logger on a terminal: info and progress on stdout, warnings on stderr as `warning: …`. */
export function createCliLogger(io: CliIo, options: CliLoggerOptions = {}): Logger {
  const write = (text: string): void => (options.json ? io.err(`${text}\n`) : io.out(`${text}\n`));
  return {
    info: write,
    warn: (message) => io.err(`warning: ${message}\n`),
    progress: (message) => {
      if (!options.quiet) write(message);
    },
  };
}
