/** The `skillclimb` command line: parses argv with commander and maps every outcome to an exit code. */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { RunInterrupted } from '../iterate/interrupt.js';
import { SkillclimbError } from '../core/errors.js';
import { redactSecrets, secretsFromEnv } from '../core/text/redact.js';
import { doctorCommand } from './commands/doctor.js';
import { evalsCommand } from './commands/evals.js';
import { iterateCommand } from './commands/iterate.js';
import { reviewCommand } from './commands/review.js';
import { reviewerCommand } from './commands/reviewer.js';
import { scoreCommand } from './commands/score.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE_OR_HALT } from './errors.js';
import { createProcessIo, type CliIo } from './io.js';

/** Read at run time: the same relative path works from src/cli (tests) and build/cli (the bin). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

export function buildProgram(io: CliIo): Command {
  const program = new Command('skillclimb')
    .description('Hill-climb agent skills against their evals, and run model review loops on pull requests.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
    })
    .showHelpAfterError('(add --help for usage)');
  for (const command of [
    iterateCommand(io),
    scoreCommand(io),
    evalsCommand(io),
    reviewCommand(io),
    reviewerCommand(io),
    doctorCommand(io),
  ]) {
    // addCommand does not inherit exitOverride / output settings the way .command() does.
    command.copyInheritedSettings(program);
    // Nested commands (`evals init`) need them too, or their --help would exit the process.
    for (const sub of command.commands) sub.copyInheritedSettings(command);
    program.addCommand(command);
  }
  return program;
}

function reportFailure(err: unknown, io: CliIo): number {
  if (err instanceof CommanderError) {
    // help and --version "exit" with 0; everything else the parser rejects is bad usage.
    return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE_OR_HALT;
  }
  if (err instanceof RunInterrupted) {
    // Not a failure of the run: the operator stopped it; the partial summary and the lock were handled.
    io.err(`stopped: ${err.reason}\n`);
    return err.exitCode;
  }
  // Bad usage and a pre-flight halt exit 2, whichever class says so (the kinds of src/core/errors.ts).
  if (err instanceof SkillclimbError && (err.kind === 'halt' || err.kind === 'usage')) {
    io.err(`${err.kind === 'halt' ? 'pre-flight halt' : 'error'}: ${err.message}\n`);
    return EXIT_USAGE_OR_HALT;
  }
  const error = err instanceof Error ? err : new Error(String(err));
  const secrets = secretsFromEnv(io.env);
  io.err(`error: ${redactSecrets(error.message, secrets)}\n`);
  if (io.env.SKILLCLIMB_DEBUG && error.stack) io.err(`${redactSecrets(error.stack, secrets)}\n`);
  return EXIT_FAILURE;
}

/**
 * Runs one `skillclimb …` invocation; resolves the exit code (0 ok, 1 unexpected failure, 2 halt / usage,
 * 128+signo when SIGINT/SIGTERM stopped a run after its partial summary was written).
 */
export async function main(argv: string[], io: CliIo = createProcessIo()): Promise<number> {
  io.exitCode = EXIT_OK;
  try {
    await buildProgram(io).parseAsync(argv, { from: 'user' });
  } catch (err) {
    io.exitCode = reportFailure(err, io);
  }
  return io.exitCode;
}
