/**
 * The real `skillclimb` CLI as a child process (src/cli/main.ts bundled with esbuild), for tests that send
 * it real signals: SIGINT, SIGKILL at a known moment, a hung model server on loopback.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tempDir } from './engine-fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bundles the CLI into a temporary folder; resolves the file to run with `node`. */
export async function buildCli(): Promise<string> {
  const dir = await tempDir('skillclimb-cli-child-');
  const entry = path.join(dir, 'entry.ts');
  await writeFile(
    entry,
    `import { main } from ${JSON.stringify(path.join(ROOT, 'src', 'cli', 'main.ts'))};
process.exitCode = await main(process.argv.slice(2));
`,
  );
  // main.ts reads ../../package.json next to itself (build/cli/main.js in the package).
  const cli = path.join(dir, 'build', 'cli', 'main.mjs');
  await mkdir(path.dirname(cli), { recursive: true });
  await copyFile(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  await bundle(entry, cli);
  return cli;
}

/** `entry` and everything it imports in one ESM file for node. */
async function bundle(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'silent',
  });
}

/**
 * The package's own bin/skillclimb.js beside a compiled build/cli/main.js (what `npm run build` makes in a
 * clone), in a temporary folder whose name has a space; resolves the bin, to run as `node <bin>`.
 */
export async function buildCloneBin(): Promise<string> {
  const dir = path.join(await tempDir('skillclimb-clone-'), 'my clone');
  const bin = path.join(dir, 'bin', 'skillclimb.js');
  await mkdir(path.dirname(bin), { recursive: true });
  await copyFile(path.join(ROOT, 'bin', 'skillclimb.js'), bin);
  await copyFile(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  await bundle(path.join(ROOT, 'src', 'cli', 'main.ts'), path.join(dir, 'build', 'cli', 'main.js'));
  return bin;
}

export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliChild {
  process: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches `pattern` (rejects if the child ends first or after `timeoutMs`). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  ended: Promise<ChildEnd>;
}

/** The environment of a child run: no model keys (the offline provider), plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(ANTHROPIC|OPENAI)_/.test(key)) delete env[key];
  return { ...env, ...extra };
}

export function startCli(cli: string, args: string[], env: NodeJS.ProcessEnv = childEnv()): CliChild {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    for (const listener of listeners) listener();
  });
  const ended = new Promise<ChildEnd>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    process: child,
    stdout: () => stdout,
    stderr: () => stderr,
    ended,
    waitForStderr(pattern, timeoutMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(stderr)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`stderr never matched ${pattern}:\n${stderr}`));
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void ended.then(() => {
          if (!pattern.test(stderr)) {
            done();
            reject(new Error(`the child ended before stderr matched ${pattern}:\n${stderr}`));
          }
        });
        check();
      });
    },
  };
}

/** Runs the CLI to its end. */
export function runCli(cli: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ChildEnd> {
  return startCli(cli, args, env).ended;
}
