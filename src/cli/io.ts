import { programName } from './program-name.js';

/** What a CLI command needs from the process, injected so tests can run commands in-process. */
export interface CliIo {
  /** Standard output. Callers pass whole lines; the process io adds a missing trailing newline. */
  out(text: string): void;
  /** Standard error (diagnostics, warnings, usage errors). */
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** 0 success, 1 unexpected failure, 2 pre-flight halt or bad usage. */
  exitCode: number;
  /** The clock (tests pin it); default `new Date()`. */
  now?: () => Date;
  /**
   * How the commands this CLI prints start (`npx skillclimb`, `skillclimb`, `node '/abs/bin/skillclimb.js'`;
   * docs/cli.md § Printed commands); default `skillclimb`.
   */
  program?: string;
  /** Where interactive answers come from (`review --checkpoint`); default: the process's stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

function writeLine(stream: NodeJS.WriteStream, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** The real process: stdout, stderr, environment and working directory. */
export function createProcessIo(): CliIo {
  return {
    out: (text) => writeLine(process.stdout, text),
    err: (text) => writeLine(process.stderr, text),
    env: process.env,
    cwd: process.cwd(),
    exitCode: 0,
    program: programName(process.argv[1], process.env, process.cwd()),
  };
}
