/** Real git repositories for the GitHub-side tests: a bare `origin` and a clone of it, in temp folders. */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readActionContext, type ActionContext } from '../../src/action/context.js';
import type { Logger, ResultsRow, ShipRequest } from '../../src/iterate/ports.js';
import { tempDirs } from './temp-dirs.js';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
}

const temp = tempDirs('skillclimb-gh-', { resolveLinks: true });

export const tempDir = temp.make;
export const cleanupTempDirs = temp.removeAll;

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
}

export interface Remote {
  /** The bare repository standing in for GitHub. */
  origin: string;
  /** A clone of it on `main` (the runner's checkout). */
  checkout: string;
}

/** A bare origin whose `main` holds `files`, and a clone of it. */
export async function makeRemote(files: Record<string, string>): Promise<Remote> {
  const root = await tempDir();
  const origin = path.join(root, 'origin.git');
  const seed = path.join(root, 'seed');
  const checkout = path.join(root, 'checkout');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', seed]);
  await writeFiles(seed, files);
  git(seed, 'add', '-A');
  git(seed, 'commit', '--quiet', '-m', 'initial');
  git(seed, 'remote', 'add', 'origin', origin);
  git(seed, 'push', '--quiet', 'origin', 'main');
  execFileSync('git', ['clone', '--quiet', origin, checkout]);
  return { origin, checkout };
}

/** Commits `files` on origin's `main` through a second clone (someone else pushing during the run). */
export async function pushToOrigin(
  origin: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  const other = path.join(await tempDir(), 'other');
  execFileSync('git', ['clone', '--quiet', origin, other]);
  await writeFiles(other, files);
  git(other, 'add', '-A');
  git(other, 'commit', '--quiet', '-m', message);
  git(other, 'push', '--quiet', 'origin', 'HEAD:main');
  return git(other, 'rev-parse', 'HEAD');
}

export interface RecordingLog extends Logger {
  infos: string[];
  warnings: string[];
}

export function recordingLog(): RecordingLog {
  const infos: string[] = [];
  const warnings: string[] = [];
  return {
    infos,
    warnings,
    info: (m) => void infos.push(m),
    warn: (m) => void warnings.push(m),
    progress: (m) => void infos.push(m),
  };
}

export const ROWS: ResultsRow[] = [
  { commit: 'aaaaaaa', score: 0.75, status: 'baseline', description: 'initial baseline', wallSeconds: 1.5 },
  {
    commit: 'bbbbbbb',
    score: 0.8125,
    status: 'keep',
    description: 'label the fence | as bash',
    wallSeconds: 2,
  },
  { commit: 'ccccccc', score: 0.8, status: 'revert', description: 'drop a paragraph', wallSeconds: 2.25 },
  { commit: 'ddddddd', score: null, status: 'crash', description: 'timeout', wallSeconds: 600 },
  { commit: 'eeeeeee', score: 0.875, status: 'keep', description: 'split the long line', wallSeconds: 1 },
];

export function shipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  return {
    skill: 'session-wrap',
    project: '/unused',
    skillPath: '.claude/skills/session-wrap',
    worktreePath: '/unused/worktree',
    branch: 'skill-iterate/session-wrap-1700000000',
    baseBranch: 'main',
    baseCommit: '0'.repeat(40),
    baselineScore: 0.75,
    finalScore: 0.875,
    iterations: 4,
    linesBaseline: 40,
    linesFinal: 38,
    message: 'skill-iterate: session-wrap: baseline 0.75 -> final 0.88 over 4 iterations (lines_delta=-2)',
    keptEdits: [
      {
        iteration: 1,
        commit: 'bbbbbbb',
        description: 'label the fence as bash',
        score: 0.8125,
        delta: 0.0625,
      },
      { iteration: 4, commit: 'eeeeeee', description: 'split the long line', score: 0.875, delta: 0.0625 },
    ],
    rows: ROWS,
    usage: {
      calls: 12,
      inputTokens: 34567,
      outputTokens: 2345,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.1234,
    },
    ...overrides,
  };
}

/** Where the Action tests' GitHub API answers (nock). */
export const GITHUB_API = 'https://api.github.test';

/** The Action's context for a nightly run on `checkout` (acme/skills, run 77) from the runner's variables; `env` adds to them. */
export async function nightContext(checkout: string, env: NodeJS.ProcessEnv = {}): Promise<ActionContext> {
  return readActionContext(
    {
      GITHUB_WORKSPACE: checkout,
      GITHUB_REPOSITORY: 'acme/skills',
      GITHUB_API_URL: GITHUB_API,
      GITHUB_SERVER_URL: 'https://github.test',
      GITHUB_RUN_ID: '77',
      RUNNER_TEMP: await tempDir('skillclimb-pipeline-runner-'),
      ...env,
    },
    checkout,
  );
}
