/** What a CLI command needs from the process, injected so tests can run commands in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** 0 success, 1 unexpected failure, 2 pre-flight halt or bad usage. */
  exitCode: number;
}
