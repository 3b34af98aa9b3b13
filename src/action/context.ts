/** What the runner tells the Action through its environment (GITHUB_*, RUNNER_TEMP). */
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_API_URL, parseRepository, type RepoRef } from '../github/octokit.js';

export interface ActionContext {
  /** `GITHUB_WORKSPACE` (the checkout), or the current directory when run locally. */
  workspace: string;
  repo: RepoRef | undefined;
  apiUrl: string;
  serverUrl: string;
  runId: string | undefined;
  /** `${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID}`. */
  runUrl: string | undefined;
  /** Worktrees and scratch files go here (`RUNNER_TEMP`, else the OS temp folder). */
  runnerTemp: string;
  env: NodeJS.ProcessEnv;
}

export function readActionContext(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ActionContext {
  const repo = env.GITHUB_REPOSITORY ? parseRepository(env.GITHUB_REPOSITORY) : undefined;
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const runId = env.GITHUB_RUN_ID || undefined;
  return {
    workspace: path.resolve(env.GITHUB_WORKSPACE || cwd),
    repo,
    apiUrl: env.GITHUB_API_URL || DEFAULT_API_URL,
    serverUrl,
    runId,
    runUrl: repo && runId ? `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}` : undefined,
    runnerTemp: path.resolve(env.RUNNER_TEMP || os.tmpdir()),
    env,
  };
}
