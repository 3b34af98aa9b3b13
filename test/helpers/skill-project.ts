/** Temporary projects with `.claude/skills/<name>/evals/…` for the pre-flight, queue and CLI tests. */
import { execFile, spawn } from 'node:child_process';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CliIo } from '../../src/cli/io.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import type { Logger } from '../../src/ports/logger.js';
import { tempDirs } from './temp-dirs.js';

const execFileAsync = promisify(execFile);

export const VALID_EVALS = JSON.stringify({
  skill: 'demo',
  version: '2.0',
  categories: [
    { name: 'Format', weight: 0.5, evals: [{ id: 1, statement: 'Has a summary heading.' }] },
    { name: 'Content', weight: 0.5, evals: [{ id: 2, statement: 'Names the changed files.' }] },
  ],
});

export const VALID_SCENARIOS = JSON.stringify({
  skill: 'demo',
  version: '1.0',
  scenarios: [{ id: 'scenario_1', context: 'We fixed the login test.', expected_assertions: [1, 2] }],
});

const temp = tempDirs('skillclimb-', { resolveLinks: true });

/** A fresh temporary folder (real path, so it compares equal to what git and fs report). */
export const makeTempDir = temp.make;
export const removeTempDirs = temp.removeAll;

export interface SkillSpec {
  /** File content, or false to leave the file out. Default: a valid file. */
  evals?: string | false;
  scenarios?: string | false;
  /** Creates evals/results.tsv with this mtime. */
  resultsMtime?: Date;
}

export function skillPath(project: string, name: string, ...rest: string[]): string {
  return path.join(project, '.claude', 'skills', name, ...rest);
}

export async function addSkill(project: string, name: string, spec: SkillSpec = {}): Promise<void> {
  await addSkillAt(project, `.claude/skills/${name}`, spec);
}

/** A skill at `dir` (relative to the project, `/`-separated), e.g. `skills/foo` or `plugins/a/skills/foo`. */
export async function addSkillAt(project: string, dir: string, spec: SkillSpec = {}): Promise<void> {
  const root = path.join(project, ...dir.split('/'));
  const name = path.basename(root);
  const evalsDir = path.join(root, 'evals');
  await mkdir(evalsDir, { recursive: true });
  await writeFile(path.join(root, 'SKILL.md'), `---\nname: ${name}\ndescription: test skill\n---\n`);
  if (spec.evals !== false) await writeFile(path.join(evalsDir, 'evals.json'), spec.evals ?? VALID_EVALS);
  if (spec.scenarios !== false) {
    await writeFile(path.join(evalsDir, 'test_scenarios.json'), spec.scenarios ?? VALID_SCENARIOS);
  }
  if (spec.resultsMtime) {
    const file = path.join(evalsDir, 'results.tsv');
    await writeFile(file, 'commit\tscore\tstatus\tdescription\twall_seconds\n');
    await utimes(file, spec.resultsMtime, spec.resultsMtime);
  }
}

export function iterateOptions(project: string, overrides: Partial<IterateOptions> = {}): IterateOptions {
  return {
    project,
    skill: undefined,
    queueFile: undefined,
    perSkillBudgetMs: 3_600_000,
    perSkillIterations: 12,
    skipList: [],
    calibrate: false,
    dryRun: false,
    mode: 'composite',
    concurrency: 4,
    iterationTimeoutMs: 600_000,
    worktreeHome: os.homedir(),
    maxCostUsd: undefined,
    ...overrides,
  };
}

export interface RecordingLogger extends Logger {
  infos: string[];
  warnings: string[];
  progressLines: string[];
}

export function recordingLogger(): RecordingLogger {
  const log: RecordingLogger = {
    infos: [],
    warnings: [],
    progressLines: [],
    info: (m) => void log.infos.push(m),
    warn: (m) => void log.warnings.push(m),
    progress: (m) => void log.progressLines.push(m),
  };
  return log;
}

export interface CapturedIo extends CliIo {
  stdout: () => string;
  stderr: () => string;
}

export function captureIo(cwd: string, now?: Date): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    env: {},
    cwd,
    exitCode: 0,
    ...(now ? { now: () => now } : {}),
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', ['-C', cwd, ...args], { encoding: 'utf8' });
  return stdout;
}

/** A git repository with one commit, so worktrees can be added. */
export async function initRepo(project: string): Promise<void> {
  await git(project, 'init', '-q', '-b', 'main');
  await writeFile(path.join(project, 'README.md'), '# test project\n');
  await git(project, 'add', '.');
  await git(project, 'commit', '-q', '-m', 'initial');
}

/** The PID of a process that has exited (so `kill -0` fails with ESRCH). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await new Promise<void>((resolve, reject) => {
    child.once('exit', () => resolve());
    child.once('error', reject);
  });
  if (pid === undefined) throw new Error('could not spawn a child process');
  return pid;
}
