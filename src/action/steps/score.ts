/**
 * `mode: score`: on a pull_request event, every skill whose folder the pull request changes is scored at
 * the base and at the head, and ONE comment on the pull request says what the change does (created on the
 * first push, edited on every later one). The config and the models are read from the BASE commit, never
 * from the pull request: its files are scored, not obeyed. Without a model key (a fork's pull request gets
 * no secrets) the scores are structural and the comment says why. The job fails only on a regression
 * beyond the noise margin, unless `fail-on: never`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { regressionsOf, sideScore, type SkillComparison } from '../../core/iterate/pr-score.js';
import { DEFAULT_SKILLS_GLOBS } from '../../core/iterate/skill-layout.js';
import { messageOf } from '../../core/errors.js';
import { inertInline } from '../../core/text/untrusted-text.js';
import { scoreCommentMarker } from '../../github/markers.js';
import { createGitHubClient, describeApiError, httpStatusOf, type RepoRef } from '../../github/octokit.js';
import {
  renderScoreComment,
  upsertScoreComment,
  type ScoringNote,
} from '../../github/action/score-comment.js';
import { changedPathsSince, checkOutBase, repositoryTop, resolveBaseCommit } from '../../git/pr-sides.js';
import { scorePullRequest } from '../../iterate/pr-score.js';
import { createModels } from '../../llm/factory.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import type { SkillModels } from '../../ports/models.js';
import type { ActionContext } from '../context.js';
import { modelEnv, type ActionInputs } from '../inputs.js';
import type { ActionIo, PipelineResult } from '../io.js';
import { checkModelKeysFirst, checkModelsFirst, loadNightModelConfig } from '../models.js';
import { iterateOptions } from '../options.js';
import type { ActionOutputs } from '../outputs.js';
import { secretsOf } from '../secrets.js';
import { hasModelKey } from '../../core/providers.js';

/** What the step reads of the pull_request event payload (GITHUB_EVENT_PATH). */
export interface PullRequestEvent {
  number: number;
  baseSha: string;
  headSha: string;
  /** `owner/name` of the head's repository; differs from the base's on a fork's pull request. */
  headRepo: string | undefined;
  baseRepo: string | undefined;
}

type Json = Record<string, unknown> | undefined;
const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

/** The pull request of the event, or an error naming what is missing. */
export async function readPullRequestEvent(env: NodeJS.ProcessEnv): Promise<PullRequestEvent> {
  const event = env.GITHUB_EVENT_NAME || '(none)';
  const file = env.GITHUB_EVENT_PATH;
  const needs = `mode: score needs a pull_request event (this run's event is ${event})`;
  if (!file) throw new Error(`${needs}: GITHUB_EVENT_PATH is not set`);
  let payload: Json;
  try {
    payload = JSON.parse(await readFile(file, 'utf8')) as Json;
  } catch (err) {
    throw new Error(`${needs}: GITHUB_EVENT_PATH ${file} cannot be read as JSON (${messageOf(err)})`, {
      cause: err,
    });
  }
  const pr = field(payload, 'pull_request');
  const number = field(pr, 'number');
  const baseSha = field(field(pr, 'base'), 'sha');
  const headSha = field(field(pr, 'head'), 'sha');
  if (typeof number !== 'number' || typeof baseSha !== 'string' || typeof headSha !== 'string') {
    throw new Error(`${needs}: the event payload has no pull_request with a number, base.sha and head.sha`);
  }
  const repoName = (side: string) => {
    const name = field(field(field(pr, side), 'repo'), 'full_name');
    return typeof name === 'string' ? name : undefined;
  };
  return { number, baseSha, headSha, headRepo: repoName('head'), baseRepo: repoName('base') };
}

function isFork(event: PullRequestEvent): boolean {
  return event.headRepo !== undefined && event.baseRepo !== undefined && event.headRepo !== event.baseRepo;
}

/** Why only structure was scored, in one sentence a reviewer can act on. */
export function structuralReason(event: PullRequestEvent, hasKey: boolean, baseSha: string): string {
  const local = `Run \`skillclimb score --base ${baseSha.slice(0, 12)}\` on the branch with a model key for the composite scores.`;
  if (isFork(event) && !hasKey) {
    return (
      `This pull request comes from the fork ${inertInline(event.headRepo ?? '', 200)}: GitHub gives workflows on a fork's pull ` +
      `request no secrets, so no model key was available and the evals were not graded. ${local}`
    );
  }
  if (!hasKey) {
    return `No model key was given (anthropic-api-key or openai-api-key), so the evals were not graded. ${local}`;
  }
  return 'The models are the offline provider, which grades structure only.';
}

const OFFLINE_MODELS = (env: NodeJS.ProcessEnv): SkillModels => createModels({ model: 'offline' }, env);

function regressionsJson(comparisons: readonly SkillComparison[]): string {
  return JSON.stringify(
    comparisons.map((c) => ({
      skill: c.skill.name,
      base: sideScore(c.base),
      head: sideScore(c.head),
      needed: c.confirmation?.needed ?? 0,
    })),
  );
}

function outputsOf(comparisons: readonly SkillComparison[], commentUrl: string): ActionOutputs {
  return {
    queue: JSON.stringify(comparisons.map((c) => c.skill.name)),
    shipped: '[]',
    parked: '[]',
    'not-shipped': '[]',
    'summary-path': '',
    'cost-usd': '',
    'result-path': '',
    'pull-request': '',
    'comment-url': commentUrl,
    // Every regression beyond the noise margin, whether or not fail-on lets it fail the job.
    regressions: regressionsJson(regressionsOf(comparisons, 'regression')),
  };
}

export async function scoreStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
): Promise<PipelineResult> {
  const event = await readPullRequestEvent(ctx.env);
  if (!ctx.repo) throw new Error('GITHUB_REPOSITORY is not set: the Action needs "owner/name" to comment');
  const repo: RepoRef = ctx.repo;
  const headProject = path.resolve(ctx.workspace, inputs.project);
  const top = await repositoryTop(headProject);
  const prefix = path.relative(top, headProject).split(path.sep).join('/');
  const baseCommit = await resolveBaseCommit(top, event.baseSha);
  io.log.info(
    `pull request #${event.number}: base ${baseCommit.slice(0, 12)}, head ${event.headSha.slice(0, 12)}`,
  );
  const changedPaths = await changedPathsSince(top, baseCommit);
  const base = await checkOutBase(top, baseCommit, ctx.runnerTemp);
  try {
    const baseProject = path.join(base.root, ...(prefix ? prefix.split('/') : []));
    // The base's config and models: a pull request cannot redirect the models (or their keys) by editing
    // skillclimb.config.json.
    const baseInputs = { ...inputs, project: prefix || '.' };
    const baseCtx = { ...ctx, workspace: base.root };
    const env = modelEnv(inputs, ctx.env);
    const hasKey = hasModelKey(env);
    const project = await loadNightModelConfig(baseInputs, baseCtx, env, io);
    let models: SkillModels | undefined;
    try {
      checkModelKeysFirst(project, env);
    } catch (err) {
      // The config names a model, but the run has no key: a fork's pull request, or a missing secret.
      if (hasKey) throw err;
      io.log.warn(`no model key: structural scores only (${messageOf(err)})`);
      models = OFFLINE_MODELS(env);
    }
    if (models === undefined) {
      await checkModelsFirst(project, env, io);
      models = createModels(project.selection, env, project.modelOptions);
    }
    io.log.info(`models: ${models.label}`);
    const options = iterateOptions(baseInputs, baseCtx, project.config);
    const trials = options.trials ?? ITERATE_DEFAULTS.trials;
    const margin = options.margin ?? ITERATE_DEFAULTS.margin;
    const comparisons = await scorePullRequest({
      base: { project: baseProject, repository: base.root },
      head: { project: headProject, repository: top },
      prefix,
      globs: options.skills && options.skills.length > 0 ? options.skills : DEFAULT_SKILLS_GLOBS,
      changedPaths,
      models,
      structural: options.structural,
      trials,
      margin,
      uplift: trials > 1,
      concurrency: options.concurrency,
      signal: new AbortController().signal,
      log: io.log,
    });
    const scoring: ScoringNote = models.structuralOnly
      ? {
          kind: 'structural',
          models: models.label,
          trials: 1,
          margin,
          structuralReason: structuralReason(event, hasKey, baseCommit),
        }
      : { kind: 'composite', models: models.label, trials, margin };
    const marker = scoreCommentMarker(prefix || '.');
    const body = renderScoreComment({
      marker,
      comparisons,
      scoring,
      failOn: inputs.failOn,
      baseSha: baseCommit,
      headSha: event.headSha,
      runUrl: ctx.runUrl,
      secrets: secretsOf(inputs, ctx),
    });
    await io.writeSummary(body);
    let commentUrl = '';
    if (inputs.dryRun) io.log.info('dry run: the comment is in the job summary and was not written');
    else
      commentUrl = await writeComment(inputs, ctx, io, {
        repo,
        pullNumber: event.number,
        marker,
        body,
        // A pull request that touches no skill gets no comment; one that did before gets its comment updated.
        create: comparisons.length > 0,
      });
    const failing = regressionsOf(comparisons, inputs.failOn);
    const failure =
      failing.length === 0
        ? undefined
        : `skill scores: ${failing.map((c) => c.skill.name).join(', ')} regressed beyond the noise margin ` +
          '(fail-on: regression; set fail-on: never to only report)';
    return { outputs: outputsOf(comparisons, commentUrl), failure };
  } finally {
    await base.remove();
  }
}

/**
 * The comment, created or edited. A token that may not write it (a fork's pull request gets a read-only
 * token) is a warning, not a failure: the job summary holds the same body.
 */
async function writeComment(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  comment: { repo: RepoRef; pullNumber: number; marker: string; body: string; create: boolean },
): Promise<string> {
  const { repo, pullNumber, marker, body, create } = comment;
  if (!inputs.githubToken) {
    io.log.warn('input github-token is empty: the scores are in the job summary only');
    return '';
  }
  const client = createGitHubClient({
    token: inputs.githubToken,
    apiUrl: ctx.apiUrl,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
  });
  try {
    const written = await upsertScoreComment(client, repo, pullNumber, marker, body, create);
    if (written === undefined) {
      io.log.info('no skill folder changed and no score comment yet: none is written');
      return '';
    }
    io.log.info(`${written.created ? 'created' : 'updated'} the score comment: ${written.url}`);
    return written.url;
  } catch (err) {
    const status = httpStatusOf(err);
    if (status === 403 || status === 404) {
      io.log.warn(
        `the score comment could not be written (${describeApiError(err)}): a fork's pull request gets a ` +
          'read-only token (permissions: pull-requests: write does not apply to it); the scores are in the job summary',
      );
      return '';
    }
    throw err;
  }
}
