/**
 * A real `redis-server` (Debian's package) on a free loopback port, for the tests of the App's shared
 * state: no persistence, its own temporary folder, stopped by `stop()`. `.ci/run` installs the package
 * when it is missing; a test file that needs it calls `startRedis()` in `beforeAll`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisProcess {
  port: number;
  url: string;
  /** Stops the server (SIGTERM, then SIGKILL after 2 s) and removes its folder. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would; `restart()` brings it back on the same port. */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`redis-server did not listen on 127.0.0.1:${port} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'skillclimb-redis-'));
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    child.once('error', () => undefined);
    await waitForPort(port, 10_000);
  };
  await launch();
  const kill = async () => {
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited(child);
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
