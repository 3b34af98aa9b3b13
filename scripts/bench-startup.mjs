#!/usr/bin/env node
/**
 * `npm run bench:startup`: how long the command and the Action take to start, as a person waits for them.
 *
 * Runs each command many times, interleaved so that a load spike on the machine hits all of them alike,
 * and prints the median and the spread (min / median / max) of:
 *   - `node -e 0`                           a bare Node start, the yardstick
 *   - `skillclimb --version`                target: <= 1.5 x a bare Node start
 *   - `skillclimb --help`                   the CLI and its commands loaded (no target; for comparison)
 *   - the Action's first log line           time from process start to its first line on stdout, running
 *                                            the bundled dist/index.js       target: <= 300 ms
 * --baseline-ref <commit> builds that commit in a temporary git worktree and measures its bin and its
 * committed dist/ the same way, in the same run.
 *
 * Options: --runs <n> (21), --baseline-ref <commit>, --json. Exit code 1 when a target is missed.
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { prepareBaseline } from './lib/baseline-build.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = { versionRatio: 1.5, actionFirstLineMs: 300 };

class UsageError extends Error {}

function parseArgs(argv) {
  const args = { runs: 21, baselineRef: undefined, json: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--runs') {
      args.runs = Number(argv[++i]);
      if (!Number.isInteger(args.runs) || args.runs < 1)
        throw new UsageError('--runs expects a positive integer');
    } else if (flag === '--baseline-ref') {
      args.baselineRef = argv[++i];
      if (!args.baselineRef) throw new UsageError('--baseline-ref expects a commit');
    } else if (flag === '--json') args.json = true;
    else throw new UsageError(`unknown option ${flag} (expected --runs, --baseline-ref, --json)`);
  }
  return args;
}

/** Milliseconds from spawn to exit, or to the first stdout output when `firstLine`. */
function timeOnce(argv, { firstLine = false, env = {}, cwd = REPO } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let first;
    child.stdout.once('data', () => (first = performance.now() - t0));
    child.on('error', reject);
    child.on('close', () => resolve(firstLine ? (first ?? NaN) : performance.now() - t0));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs) => ({ min: Math.min(...xs), median: median(xs), max: Math.max(...xs) });
const fmt = (s) =>
  `${Math.round(s.median)} ms (${Math.round(s.min)} / ${Math.round(s.median)} / ${Math.round(s.max)})`;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const loadAtStart = os.loadavg().map((l) => l.toFixed(2));
  const head = execFileSync('git', ['-C', REPO, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const builds = [];
  let baseline;
  if (args.baselineRef) {
    baseline = await prepareBaseline(REPO, args.baselineRef, (m) => console.error(m));
    builds.push({ label: `baseline ${baseline.sha.slice(0, 7)}`, root: baseline.root, current: false });
  }
  builds.push({ label: `this build (${head})`, root: REPO, current: true });
  try {
    // The Action with no inputs: it prints its first line, then fails on the missing inputs.
    const actionEnv = { GITHUB_ACTIONS: 'true', RUNNER_TEMP: os.tmpdir() };
    const measures = [
      { key: 'node', label: 'node -e 0', argv: () => ['-e', '0'] },
      {
        key: 'version',
        label: 'skillclimb --version',
        argv: (b) => [path.join(b.root, 'bin', 'skillclimb.js'), '--version'],
      },
      {
        key: 'help',
        label: 'skillclimb --help',
        argv: (b) => [path.join(b.root, 'bin', 'skillclimb.js'), '--help'],
      },
      {
        key: 'action',
        label: "the Action's first log line",
        argv: (b) => [path.join(b.root, 'dist', 'index.js')],
        options: { firstLine: true, env: actionEnv },
      },
    ];
    const times = new Map();
    for (let run = 0; run < args.runs; run++)
      for (const b of builds)
        for (const m of measures) {
          const key = `${b.label}|${m.key}`;
          const t = await timeOnce(m.argv(b), m.options);
          times.set(key, [...(times.get(key) ?? []), t]);
        }
    const results = builds.map((b) => {
      const of = (k) => spread(times.get(`${b.label}|${k}`));
      const figures = Object.fromEntries(measures.map((m) => [m.key, of(m.key)]));
      return {
        build: b.label,
        current: b.current,
        ...figures,
        versionRatio: figures.version.median / figures.node.median,
      };
    });
    const current = results.find((r) => r.current);
    const verdicts = [
      {
        what: `skillclimb --version <= ${TARGETS.versionRatio} x node -e 0 (median)`,
        ok: current.versionRatio <= TARGETS.versionRatio,
      },
      {
        what: `the Action's first log line <= ${TARGETS.actionFirstLineMs} ms (median)`,
        ok: current.action.median <= TARGETS.actionFirstLineMs,
      },
    ];
    const loadAtEnd = os.loadavg().map((l) => l.toFixed(2));
    if (args.json) {
      console.log(
        JSON.stringify(
          { runs: args.runs, load: { start: loadAtStart, end: loadAtEnd }, results, verdicts },
          null,
          2,
        ),
      );
    } else {
      console.log(
        `bench:startup — ${args.runs} runs each, interleaved; median (min / median / max); load average ` +
          `${loadAtStart.join(', ')} at the start, ${loadAtEnd.join(', ')} at the end (${os.cpus().length} cores)\n`,
      );
      for (const r of results) {
        console.log(`${r.build}:`);
        for (const m of measures) {
          const extra = m.key === 'version' ? ` = ${r.versionRatio.toFixed(2)} x node -e 0` : '';
          console.log(`  ${m.label.padEnd(30)} ${fmt(r[m.key])}${extra}`);
        }
        console.log('');
      }
      console.log('targets (this build):');
      for (const v of verdicts) console.log(`  ${v.ok ? 'PASS' : 'FAIL'}  ${v.what}`);
    }
    if (verdicts.some((v) => !v.ok)) process.exitCode = 1;
  } finally {
    await baseline?.cleanup();
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`bench:startup: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  console.error(`bench:startup failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
