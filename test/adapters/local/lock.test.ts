/**
 * The lock must disappear on every exit path a process can observe: release(), a normal exit without
 * release, an uncaught exception, and a killed Action run (SIGINT, SIGTERM: the Action's front-end
 * releases it; the lock adapter itself never listens for signals). Those paths end the process, so they
 * run in a child node process built from the real src/adapters/local/lock.ts and src/action/interrupt.ts
 * with esbuild.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, isPidAlive } from '../../../src/adapters/local/lock.js';
import { exists } from '../../helpers/files.js';
import { deadPid, makeTempDir, removeTempDirs } from '../../helpers/skill-project.js';

const LOCK_MODULE = fileURLToPath(new URL('../../../src/adapters/local/lock.ts', import.meta.url));
const INTERRUPT_MODULE = fileURLToPath(new URL('../../../src/action/interrupt.ts', import.meta.url));
let childScript: string;

beforeAll(async () => {
  const dir = await makeTempDir('skillclimb-lock-child-');
  const entry = path.join(dir, 'entry.ts');
  await writeFile(
    entry,
    `import { acquireLock } from ${JSON.stringify(LOCK_MODULE)};
import { saveStateOnSignals } from ${JSON.stringify(INTERRUPT_MODULE)};
const [file, mode] = process.argv.slice(2);
const log = { info() {}, warn() {}, progress() {} };
const lock = await acquireLock(file, { log, now: () => new Date() });
// The Action's front-end, as src/action/steps/nightly.ts installs it (the state save is a stand-in).
if (mode === 'action') saveStateOnSignals(async () => undefined, 'state', log, () => lock.release());
process.stdout.write('locked\\n');
if (mode === 'listeners') {
  process.stdout.write(\`\${process.listenerCount('SIGINT')} \${process.listenerCount('SIGTERM')}\\n\`);
  process.exit(0);
}
if (mode === 'release') { await lock.release(); process.stdout.write('released\\n'); }
else if (mode === 'exit') process.exit(0);
else if (mode === 'throw') throw new Error('boom after taking the lock');
else setInterval(() => {}, 1000);
`,
  );
  childScript = path.join(dir, 'child.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: childScript,
    logLevel: 'silent',
  });
});

afterAll(removeTempDirs);

interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  lockWhileRunning: string;
  pid: number | undefined;
}

/** Runs the child until it reports "locked", optionally signals it, and waits for it to end. */
function runChild(lockFile: string, mode: string, signal?: NodeJS.Signals): Promise<ChildEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, lockFile, mode], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let lockWhileRunning = '';
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!signalled && stdout.includes('locked\n') && signal) {
        signalled = true;
        readFile(lockFile, 'utf8')
          .then((text) => {
            lockWhileRunning = text;
            child.kill(signal);
          })
          .catch(reject);
      }
    });
    child.on('error', reject);
    child.on('close', (code, sig) =>
      resolve({ code, signal: sig, stdout, lockWhileRunning, pid: child.pid }),
    );
  });
}

describe('lock release on every exit path', () => {
  it('release() removes the lock', async () => {
    const lockFile = path.join(await makeTempDir(), LOCK_FILE);
    const end = await runChild(lockFile, 'release');
    expect(end.stdout).toBe('locked\nreleased\n');
    expect(end.code).toBe(0);
    expect(await exists(lockFile)).toBe(false);
  });

  it('a normal exit without release removes the lock', async () => {
    const lockFile = path.join(await makeTempDir(), LOCK_FILE);
    const end = await runChild(lockFile, 'exit');
    expect(end.code).toBe(0);
    expect(await exists(lockFile)).toBe(false);
  });

  it('an uncaught exception removes the lock', async () => {
    const lockFile = path.join(await makeTempDir(), LOCK_FILE);
    const end = await runChild(lockFile, 'throw');
    expect(end.code).toBe(1);
    expect(await exists(lockFile)).toBe(false);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} to an Action run removes the lock, and the run ends as the signal asked (${code})`, async () => {
      const lockFile = path.join(await makeTempDir(), LOCK_FILE);
      const end = await runChild(lockFile, 'action', signal);
      expect(JSON.parse(end.lockWhileRunning)).toMatchObject({
        pid: end.pid,
        started_at: expect.any(String),
        host: expect.any(String),
      });
      expect(end.code).toBe(code);
      expect(await exists(lockFile)).toBe(false);
    });
  }

  it('holding the lock installs no signal listener: signals belong to the front-ends', async () => {
    const lockFile = path.join(await makeTempDir(), LOCK_FILE);
    const end = await runChild(lockFile, 'listeners');
    expect(end.stdout).toBe('locked\n0 0\n');
    expect(await exists(lockFile)).toBe(false);
  });
});

describe('isPidAlive', () => {
  it('is true for this process and false for an exited one', async () => {
    expect(isPidAlive(process.pid)).toBe(true);
    expect(isPidAlive(await deadPid())).toBe(false);
  });
});
