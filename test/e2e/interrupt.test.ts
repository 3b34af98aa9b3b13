/**
 * Ctrl+C during `skillclimb iterate`: the run stops, the partial morning summary lands, the lock goes and
 * the process exits 130. The real CLI entry (src/cli/main.ts, bundled with esbuild) runs as a child
 * process on a real git repository with the offline provider, so a real SIGINT reaches it.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import { abortOnSignals, shouldHandleSignals } from '../../src/cli/signals.js';
import { RunInterrupted, interruptionOf, signalExitCode } from '../../src/iterate/interrupt.js';
import { LOCK_FILE } from '../../src/adapters/local/lock.js';
import { buildCli, type ChildEnd } from '../helpers/cli-child.js';
import { cleanupTempDirs, makeProject, tempDir } from '../helpers/engine-fixtures.js';

let cli: string;

beforeAll(async () => {
  cli = await buildCli();
}, 120_000);

afterAll(cleanupTempDirs);

/** Starts `skillclimb iterate`, sends `signal` once results.tsv holds a few rows, and waits for the end. */
function interruptedRun(args: string[], resultsFile: string, signal: NodeJS.Signals): Promise<ChildEnd> {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(ANTHROPIC|OPENAI)_/.test(key)) delete env[key];
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const ended = new Promise<ChildEnd>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, sig) => resolve({ code, signal: sig, stdout, stderr }));
  });
  const poll = setInterval(() => {
    void readFile(resultsFile, 'utf8').then(
      (text) => {
        if (text.split('\n').length >= 5 && child.exitCode === null) {
          clearInterval(poll);
          child.kill(signal);
        }
      },
      () => undefined,
    );
  }, 50);
  return ended.finally(() => clearInterval(poll));
}

describe('skillclimb iterate interrupted by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: partial summary written, lock released, whole rows, exit ${signalExitCode(signal)}`, async () => {
      const project = await makeProject([{ name: 'demo' }]);
      const home = await tempDir('skillclimb-home-');
      const results = path.join(project, '.claude/skills/demo/evals/results.tsv');
      // The offline editor finds no mechanical edit for this skill: a fast stream of reverts to interrupt.
      const end = await interruptedRun(
        ['iterate', '--project', project, '--per-skill-iterations', '1000000', '--worktree-home', home],
        results,
        signal,
      );

      expect(end.signal, end.stderr).toBeNull();
      expect(end.code, end.stderr).toBe(signalExitCode(signal));
      expect(end.stderr).toContain(`warning: ${signal}: stopping the run`);
      expect(end.stderr).toContain(`stopped: interrupted by ${signal}`);

      const runsDir = path.join(project, 'docs', 'skill-iterate-runs');
      const [summaryFile] = await readdir(runsDir);
      expect(end.stdout).toContain(`Morning summary: ${path.join(runsDir, summaryFile!)}`);
      const summary = await readFile(path.join(runsDir, summaryFile!), 'utf8');
      expect(summary).toMatch(
        new RegExp(`\\(partial -- interrupted by ${signal} at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)`),
      );
      expect(summary).toContain(`skipped (interrupted by ${signal})`);

      await expect(readFile(path.join(project, LOCK_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
      const text = await readFile(results, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.trimEnd().split('\n');
      expect(lines.every((line) => line.split('\t').length === 5)).toBe(true);
      const rows = parseResultsTsv(text);
      expect(rows.length).toBe(lines.length - 1);
      expect(rows[0]?.status).toBe('baseline');
      // The worktree with the last kept state stays for the operator.
      expect(await readdir(home)).toEqual([expect.stringMatching(/^worktree_skill-iterate-demo-\d+$/)]);
    }, 60_000);
  }
});

describe('skillclimb iterate --json interrupted by a signal', () => {
  it('prints the partial run as JSON on stdout, then exits 130', async () => {
    const project = await makeProject([{ name: 'demo' }]);
    const home = await tempDir('skillclimb-home-');
    const results = path.join(project, '.claude/skills/demo/evals/results.tsv');
    const end = await interruptedRun(
      [
        'iterate',
        '--json',
        '--project',
        project,
        '--per-skill-iterations',
        '1000000',
        '--worktree-home',
        home,
      ],
      results,
      'SIGINT',
    );

    expect(end.code, end.stderr).toBe(130);
    expect(end.stderr).toContain('stopped: interrupted by SIGINT');
    // --json: stdout is the JSON document alone (the log lines went to stderr).
    const run = JSON.parse(end.stdout) as {
      partial: { reason: string; at: string } | null;
      queue: string[];
      results: Array<{ skill: string; rows: unknown[] }>;
      summaryPath: string | undefined;
    };
    expect(run.partial?.reason).toBe('interrupted by SIGINT');
    expect(run.partial?.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(run.queue).toEqual(['demo']);
    expect(run.results.map((r) => r.skill)).toEqual(['demo']);
    expect(run.results[0]!.rows.length).toBeGreaterThan(0);
    expect(run.summaryPath).toMatch(/docs\/skill-iterate-runs\/.+\.md$/);
  }, 60_000);
});

describe('interrupt helpers', () => {
  it('exit codes are 128 + the signal number', () => {
    expect(signalExitCode('SIGINT')).toBe(130);
    expect(signalExitCode('SIGTERM')).toBe(143);
    expect(new RunInterrupted('interrupted by SIGTERM', 'SIGTERM').exitCode).toBe(143);
    expect(new RunInterrupted('interrupted').exitCode).toBe(130);
  });

  it('an explicit setting wins; by default a host that already listens keeps the signals', () => {
    expect(shouldHandleSignals(true)).toBe(true);
    expect(shouldHandleSignals(false)).toBe(false);
    const host = () => undefined;
    process.on('SIGTERM', host);
    try {
      expect(shouldHandleSignals(undefined)).toBe(false);
    } finally {
      process.removeListener('SIGTERM', host);
    }
  });

  it("wraps a caller's own abort reason", () => {
    const controller = new AbortController();
    controller.abort(new Error('deadline'));
    expect(interruptionOf(controller.signal).reason).toBe('interrupted (deadline)');
    const mine = new RunInterrupted('interrupted by SIGINT', 'SIGINT');
    const again = new AbortController();
    again.abort(mine);
    expect(interruptionOf(again.signal)).toBe(mine);
  });

  it('turns the first signal into an abort and removes its listeners when done', () => {
    const warnings: string[] = [];
    const before = process.listenerCount('SIGINT');
    const controller = new AbortController();
    const remove = abortOnSignals(controller, { warn: (m) => warnings.push(m) });
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    // Only our listener is called (emit does not deliver a real signal).
    const ours = process.listeners('SIGINT').at(-1) as (s: NodeJS.Signals) => void;
    ours('SIGINT');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toMatchObject({ reason: 'interrupted by SIGINT', signal: 'SIGINT' });
    expect(warnings[0]).toMatch(/^SIGINT: stopping the run/);
    remove();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
