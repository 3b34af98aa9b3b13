/**
 * What the runner tells the Action about the run: @actions/github's `context` (repository, run id, API and
 * server URLs) and the environment it also reads (GITHUB_WORKSPACE, RUNNER_TEMP, the event variables).
 */
import os from 'node:os';
import path from 'node:path';
import { context } from '@actions/github';
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

/** The part of @actions/github's `context` the Action reads (tests build their own). */
export interface GitHubRunContext {
  /** Throws when neither GITHUB_REPOSITORY nor the event payload names the repository. */
  readonly repo: RepoRef;
  /** NaN when GITHUB_RUN_ID is not set (a local run). */
  runId: number;
  apiUrl: string;
  serverUrl: string;
}

/** The repository: a malformed GITHUB_REPOSITORY names itself; else the event payload's, or none. */
function repositoryOf(run: GitHubRunContext, env: NodeJS.ProcessEnv): RepoRef | undefined {
  if (env.GITHUB_REPOSITORY) return parseRepository(env.GITHUB_REPOSITORY);
  try {
    return run.repo;
  } catch {
    return undefined;
  }
}

export function readActionContext(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  run: GitHubRunContext = context,
): ActionContext {
  const repo = repositoryOf(run, env);
  const serverUrl = (run.serverUrl || 'https://github.com').replace(/\/+$/, '');
  const runId = Number.isFinite(run.runId) ? String(run.runId) : undefined;
  return {
    workspace: path.resolve(env.GITHUB_WORKSPACE || cwd),
    repo,
    apiUrl: run.apiUrl || DEFAULT_API_URL,
    serverUrl,
    runId,
    runUrl: repo && runId ? `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}` : undefined,
    runnerTemp: path.resolve(env.RUNNER_TEMP || os.tmpdir()),
    env,
  };
}
