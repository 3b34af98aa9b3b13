/**
 * The start of a night (docs/how-it-works.md § Overview, § Cleanup and the kill-switch poll): the repository made ready (the
 * base branch, a state branch that is the Action's own, a git identity), the skills whose history is
 * restored, and the kill-switch read at launch — a night that does not start still writes its summary.
 */
import { createFileKillSwitch } from '../adapters/local/kill-switch.js';
import { messageOf } from '../core/errors.js';
import { ensureGitIdentityEnv, remoteDefaultBranch } from '../github/action/git.js';
import { killSwitchRetryPolicy } from '../github/action/kill-switch.js';
import { checkStateBranch } from '../github/action/state-branch-guard.js';
import {
  GITHUB_RETRY_POLICY,
  createGitHubClient,
  describeApiError,
  fetchDefaultBranch,
  type GitHubClient,
  type RepoRef,
} from '../github/octokit.js';
import { repositoryRoot } from '../git/repo.js';
import type { IterateOptions } from '../iterate/options.js';
import { killSwitchUnreadable } from '../iterate/preflight.js';
import { skillsGlobsOf } from '../iterate/queue.js';
import { findSkills } from '../iterate/skill-finder.js';
import type { KillSwitch } from '../ports/kill-switch.js';
import { checkoutBaseNote } from './checkout-base.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, PipelineResult } from './io.js';
import { renderJobSummary } from './job-summary.js';
import { buildOutputs } from './outputs.js';
import type { RunFile } from './result-file.js';
import { emptyRun, planFile } from './run-records.js';
import { secretsOf } from './secrets.js';

/** Every skill the skills setting finds, by name, with its folder: where its history is restored to. */
export async function foundSkillDirs(options: IterateOptions): Promise<Record<string, string>> {
  const repository = (await repositoryRoot(options.project)) ?? options.project;
  const found = await findSkills({ project: options.project, repository, globs: skillsGlobsOf(options) });
  return Object.fromEntries(found.skills.map((s) => [s.name, s.dir]));
}

/**
 * The base branch (the input, else the repository's default), a state branch that is the Action's own,
 * a note on the checkout, and a git identity to commit with.
 */
export async function prepareRepository(
  client: GitHubClient,
  repo: RepoRef,
  inputs: ActionInputs,
  options: IterateOptions,
  io: ActionIo,
): Promise<string> {
  const base =
    inputs.base ??
    (await fetchDefaultBranch(client, repo).catch((error: unknown) => {
      throw new Error(
        `could not read ${repo.owner}/${repo.repo} to find its default branch (${describeApiError(error)})`,
      );
    }));
  // Before anything is restored from it or written to it: the state branch must be the Action's own. With a
  // `base` input the default branch comes from the remote's HEAD (no API call).
  const defaultBranch = inputs.base ? await remoteDefaultBranch(options.project) : base;
  await checkStateBranch({ project: options.project, branch: inputs.stateBranch, base, defaultBranch });
  // Not a repository: the engine's own pre-flight says so more clearly.
  const checkoutNote = await checkoutBaseNote(options.project, base).catch(() => undefined);
  if (checkoutNote) io.log.info(checkoutNote);
  if (await ensureGitIdentityEnv(options.project)) {
    io.log.info('no git identity configured: committing as github-actions[bot]');
  }
  return base;
}

/**
 * The kill-switch at launch, the file's and the API's: why the night does not start (null: it starts). One
 * that cannot be read stops the night and fails the job (`failure`), unless `kill-switch-read-error:
 * continue` says to go on.
 */
export async function launchStop(
  inputs: ActionInputs,
  io: ActionIo,
  project: string,
  killSwitch: KillSwitch,
): Promise<{ reason: string; failure?: string } | null> {
  try {
    const reason = (await createFileKillSwitch(project).check()) ?? (await killSwitch.check());
    return reason ? { reason } : null;
  } catch (error) {
    const message = messageOf(error);
    if (inputs.killSwitchReadError !== 'continue') {
      const reason = killSwitchUnreadable(message);
      return { reason, failure: reason };
    }
    io.log.warn(`${killSwitchUnreadable(message, true)}; continuing (kill-switch-read-error: continue)`);
    return null;
  }
}

/**
 * A kill-switch set at launch: nothing runs, the job stays green, and the summary says why. One that could
 * not be read stops the night too, but fails the job (`failure`): someone has to look.
 */
export async function notStarted(
  reason: string,
  startedAt: Date,
  ctx: ActionContext,
  io: ActionIo,
  failure?: string,
): Promise<PipelineResult> {
  io.log.warn(`${reason}: skill-iterate did not start`);
  const file: RunFile = {
    ...planFile({ ...emptyRun(startedAt, io.now()), partial: { reason, at: io.now() } }),
    mode: 'run',
  };
  await io.writeSummary(renderJobSummary(file, ctx.runUrl));
  return { outputs: buildOutputs(file, {}), failure };
}

/** The kill-switch's own client, with the kill-switch's retry policy (src/github/action/kill-switch.ts). */
export function killSwitchClient(inputs: ActionInputs, ctx: ActionContext, io: ActionIo): GitHubClient {
  return createGitHubClient({
    token: inputs.githubToken,
    apiUrl: ctx.apiUrl,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
    retry: killSwitchRetryPolicy(GITHUB_RETRY_POLICY),
  });
}
