import { redactSecrets, secretsFromEnv } from '../core/text/redact.js';
import type { Logger } from '../ports/logger.js';
import type { CliIo } from './io.js';

export interface CliLoggerOptions {
  /** --quiet: drop per-iteration / per-skill progress lines (info and warnings still print). */
  quiet?: boolean;
  /** --json: stdout carries only the JSON document, so every log line goes to stderr. */
  json?: boolean;
}

/**
 * The engine's Logger on a terminal: info and progress on stdout, warnings on stderr as `warning: …`. Every
 * line is redacted (the keys in the environment, and anything shaped like a credential): logs are pasted
 * into issues and kept by CI systems.
 */
export function createCliLogger(io: CliIo, options: CliLoggerOptions = {}): Logger {
  const secrets = secretsFromEnv(io.env);
  const clean = (text: string): string => redactSecrets(text, secrets);
  const write = (text: string): void =>
    options.json ? io.err(`${clean(text)}\n`) : io.out(`${clean(text)}\n`);
  return {
    info: write,
    warn: (message) => io.err(`warning: ${clean(message)}\n`),
    progress: (message) => {
      if (!options.quiet) write(message);
    },
  };
}
