/**
 * `mode: evals-init`: writes eval files for the skills that have none (or the one `skill` input) with the
 * configured author model, checked before they are written (docs/how-it-works.md § The queue), and opens
 * ONE pull request with them for review. Nothing is committed to the base branch; a dry run only lists
 * the skills it would set up and calls no model.
 */
import path from 'node:path';
import { createAuthor, resolveAuthorModel } from '../../config/author-selection.js';
import { loadProjectModelConfig } from '../../config/project-models.js';
import { DEFAULT_SKILLS_GLOBS } from '../../core/iterate/skill-layout.js';
import { ZERO_USAGE, addUsage, type Usage } from '../../core/usage.js';
import { appendGitignoreLines, ignoredPaths } from '../../git/ignored.js';
import { repositoryRoot } from '../../git/repo.js';
import { findIgnoredEvals, ignoredEvalsHint, unignoreLines } from '../../iterate/ignored-evals.js';
import {
  openEvalsPullRequest,
  type EvalsPullRequestOutcome,
} from '../../github/action/evals-pull-request.js';
import { createGitHubClient, describeApiError, fetchDefaultBranch } from '../../github/octokit.js';
import {
  initSkillEvals,
  repositoryEvalsFormat,
  selectEvalsTargets,
  type EvalsInitResult,
} from '../../iterate/evals-init.js';
import { findSkills, outsideSkillsHint } from '../../iterate/skill-finder.js';
import type { ActionContext } from '../context.js';
import { renderEvalsInitSummary, evalsPullRequestBody } from '../evals-summary.js';
import { modelEnv, type ActionInputs } from '../inputs.js';
import type { ActionIo, PipelineResult } from '../io.js';
import { buildOutputs } from '../outputs.js';
import { emptyRun, planFile } from '../run-records.js';

/**
 * `request`: the named skills, written again over their eval files with `force` (the dashboard's
 * "re-run evals init" order, src/action/dashboard.ts); without it, the `skill` input or every skill
 * without evals.
 */
// eslint-disable-next-line max-lines-per-function -- the mode's steps in order (inputs, models, authoring, pull request, summary); not yet split (issue 30 item 3)
export async function evalsInitStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  request?: { names: string[]; force: boolean },
): Promise<PipelineResult> {
  const startedAt = io.now();
  const project = path.resolve(ctx.workspace, inputs.project);
  const env = modelEnv(inputs, ctx.env);
  const loaded = await loadProjectModelConfig({ project, flags: {}, env, log: io.log });
  const globs = inputs.skills ?? loaded.config.skills ?? DEFAULT_SKILLS_GLOBS;
  const repository = (await repositoryRoot(project)) ?? project;
  const found = await findSkills({ project, repository, globs });
  const hint = outsideSkillsHint(found, {
    project: inputs.project === '.' ? undefined : inputs.project,
    skills: inputs.skills,
  });
  if (hint !== undefined) io.log.warn(hint);
  const force = request?.force ?? false;
  const targets = await selectEvalsTargets(project, found, {
    names: request?.names ?? (inputs.skill ? [inputs.skill] : []),
    all: request === undefined && inputs.skill === undefined,
    force,
    keepScenarios: false,
  });
  if (targets.refused.length > 0) {
    throw new Error(`input skill: ${targets.refused.map((r) => `${r.skill}: ${r.reason}`).join('; ')}`);
  }
  const names = targets.skills.map((s) => s.name);
  // Eval files git ignores: the pull request commits them anyway (a tracked file is not ignored), and
  // adds the .gitignore line that un-ignores them so new ones can be committed too.
  const ignored = await findIgnoredEvals(ignoredPaths, repository, project, targets.skills);
  const outputs = (extra: { pullRequest?: string } = {}) =>
    buildOutputs(planFile({ ...emptyRun(startedAt, io.now()), queue: names }), extra);
  if (inputs.dryRun || names.length === 0) {
    const text =
      names.length === 0
        ? found.skills.length === 0
          ? `No skill folder with a SKILL.md matches the skills setting (${globs.join(', ')}); nothing to write.` +
            (hint === undefined ? '' : `\n\n${hint}`)
          : 'Every skill the skills setting finds already has eval files; nothing to write.'
        : `A real run would write eval files for: ${names.join(', ')} (and open one pull request).` +
          (ignored ? `\n\n${ignoredEvalsHint(ignored)}; a real run adds the line in its pull request.` : '');
    io.log.info(text);
    await io.writeSummary(`## skillclimb evals init${inputs.dryRun ? ' (dry run)' : ''}\n\n${text}\n`);
    return { outputs: outputs(), failure: undefined };
  }
  if (!ctx.repo)
    throw new Error('GITHUB_REPOSITORY is not set: the Action needs "owner/name" to open a pull request');
  if (!inputs.githubToken) throw new Error('input github-token: required to open the pull request');

  // No offline author: the error says how to choose a model, before anything is written.
  const selection = resolveAuthorModel({
    flags: { model: inputs.model, editorModel: inputs.editorModel },
    config: loaded.config,
    env,
  });
  const author = createAuthor(selection, env, loaded.modelOptions);
  io.log.info(`evals init: author ${author.modelId} (${selection.source})`);

  // New files take the shape the repository's skills already use (else the Agent Skills format); a skill
  // written again keeps its own.
  const format = await repositoryEvalsFormat(project, found.skills);
  const results: EvalsInitResult[] = [];
  let usage: Usage = ZERO_USAGE;
  const signal = new AbortController().signal;
  for (const skill of targets.skills) {
    io.startGroup(`evals init: ${skill.name}`);
    try {
      const result = await initSkillEvals(
        skill,
        { project, repository, force, keepScenarios: false, format },
        { author, log: io.log, signal },
      );
      results.push(result);
      usage = addUsage(usage, result.usage);
      if (result.status !== 'written') io.log.warn(`${skill.name}: ${result.status}: ${result.reason ?? ''}`);
    } finally {
      io.endGroup();
    }
  }

  const files = results.flatMap((r) => r.files);
  const notes: string[] = [];
  if (files.length > 0 && ignored !== undefined) {
    const written = await appendGitignoreLines(repository, ignored.lines);
    for (const file of written) {
      files.push(
        path
          .relative(project, path.join(repository, ...file.split('/')))
          .split(path.sep)
          .join('/'),
      );
    }
    notes.push(
      `Git ignored these eval files (${ignored.rules.join('; ')}): this pull request also adds ` +
        `${unignoreLines(ignored)}, so they stay committed and later ones can be added with \`git add\`.`,
    );
    io.log.warn(notes[0]!);
  }
  let pr: EvalsPullRequestOutcome | undefined;
  if (files.length > 0) {
    const client = createGitHubClient({ token: inputs.githubToken, apiUrl: ctx.apiUrl, log: io.log });
    const base =
      inputs.base ??
      (await fetchDefaultBranch(client, ctx.repo).catch((error: unknown) => {
        throw new Error(
          `could not read ${ctx.repo!.owner}/${ctx.repo!.repo} to find its default branch (${describeApiError(error)})`,
        );
      }));
    const written = results.filter((r) => r.status === 'written').map((r) => r.skill);
    pr = await openEvalsPullRequest(
      client,
      ctx.repo,
      {
        project,
        base,
        files,
        message: `skillclimb evals init: eval files for ${written.join(', ')}`,
        title: `skillclimb evals init: eval files for ${written.length} skill${written.length === 1 ? '' : 's'} (review before merging)`,
        body: evalsPullRequestBody(results, author.modelId, usage, ctx.runUrl, notes),
        labels: inputs.labels,
        draft: inputs.draft,
      },
      io.log,
    );
    if (pr.status === 'skipped') io.log.warn(`evals init: no pull request: ${pr.reason}`);
    else io.log.info(`evals init: ${pr.url} (${pr.status})`);
  }
  await io.writeSummary(renderEvalsInitSummary(results, pr, author.modelId, usage, ctx.runUrl, notes));
  const refused = results.filter((r) => r.status === 'refused').map((r) => r.skill);
  const failure =
    refused.length > 0
      ? `evals init: no valid eval files for ${refused.join(', ')} (the job summary says why)`
      : pr?.status === 'skipped'
        ? `evals init: the pull request was not opened: ${pr.reason}`
        : undefined;
  return { outputs: outputs(pr && pr.status !== 'skipped' ? { pullRequest: pr.url } : {}), failure };
}
