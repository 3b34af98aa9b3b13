#!/usr/bin/env node
/**
 * `npm run demo` (after `npm run build`): the whole skill-iterate pipeline on a throwaway copy of
 * examples/workspace with the offline provider — no key, no network. Copies the workspace to a temporary
 * folder, makes it a git repository on `main`, runs `skillclimb iterate`, then prints the morning summary
 * and the base branch's history, and checks that the deliberately flawed skill was improved and shipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'examples', 'workspace');
const bin = path.join(root, 'bin', 'skillclimb.js');
const CANONICAL =
  /^skill-iterate: \S+: baseline \d+\.\d\d -> final \d+\.\d\d over \d+ iterations \(lines_delta=[+-]\d+\)$/;
const SUMMARY_NAME = /^\d{4}-\d\d-\d\d[b-z]?\.md$/;
// The demo's own commit needs an identity even on a machine without one; the engine has its own fallback.
const IDENTITY = ['-c', 'user.name=skillclimb demo', '-c', 'user.email=demo@skillclimb.invalid'];

function git(dir, ...args) {
  return execFileSync('git', ['-C', dir, ...IDENTITY, ...args], { encoding: 'utf8' });
}

function fail(message) {
  console.error(`\ndemo failed: ${message}`);
  process.exit(1);
}

function heading(text) {
  console.log(`\n=== ${text} ${'='.repeat(Math.max(0, 70 - text.length))}\n`);
}

if (!existsSync(source)) fail(`${source} is missing`);
if (!existsSync(path.join(root, 'build', 'cli', 'main.js')))
  fail('build/ is missing; run `npm run demo`, which builds first');

const started = Date.now();
const work = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-demo-'));
const project = path.join(work, 'workspace');
const worktreeHome = path.join(work, 'worktrees');
await cp(source, project, { recursive: true });
await mkdir(worktreeHome);
git(project, 'init', '-q', '-b', 'main');
git(project, 'add', '-A');
git(project, 'commit', '-q', '-m', 'example workspace');
const baseCommit = git(project, 'rev-parse', 'HEAD').trim();

heading(`skillclimb iterate --project ${project}`);
const args = [
  bin,
  'iterate',
  '--project',
  project,
  '--per-skill-iterations',
  '6',
  '--worktree-home',
  worktreeHome,
  '--model',
  'offline',
];
const run = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: project });
if (run.status !== 0) fail(`skillclimb iterate exited with ${run.status ?? run.signal}`);

const runsDir = path.join(project, 'docs', 'skill-iterate-runs');
const summaries = existsSync(runsDir)
  ? (await readdir(runsDir)).filter((f) => SUMMARY_NAME.test(f)).sort()
  : [];
const summaryFile = summaries.at(-1);
if (!summaryFile) fail(`no morning summary in ${runsDir}`);
const summaryPath = path.join(runsDir, summaryFile);
heading('morning summary');
console.log(summaryPath);
console.log();
console.log(await readFile(summaryPath, 'utf8'));

heading('git log --oneline main');
const log = git(project, 'log', '--oneline', 'main');
console.log(log);

// The demo promises something concrete: check it instead of leaving it to the reader.
const skillsDir = path.join(project, '.claude', 'skills');
const kept = [];
for (const skill of await readdir(skillsDir)) {
  const tsv = path.join(skillsDir, skill, 'evals', 'results.tsv');
  if (!existsSync(tsv)) continue;
  const statuses = (await readFile(tsv, 'utf8'))
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[2]);
  if (statuses.includes('keep')) kept.push(skill);
}
const squashes = git(project, 'log', '--format=%s', `${baseCommit}..main`)
  .split('\n')
  .filter((s) => CANONICAL.test(s));
heading('checks');
if (kept.length === 0) fail('no skill recorded a keep in its results.tsv');
if (squashes.length === 0) fail('main holds no squash commit with the canonical message');
console.log(`keeps recorded for: ${kept.join(', ')}`);
console.log(`squash commits on main: ${squashes.length}`);
for (const s of squashes) console.log(`  ${s}`);
console.log(
  `\ndemo finished in ${((Date.now() - started) / 1000).toFixed(1)}s; the example repository is at ${project}`,
);
