/**
 * The Action's pipeline, as a few named steps: plan (queue only, for a matrix), dry run (print the plan),
 * summarize (merge matrix results) and the nightly run (state → queue → one skill at a time → PRs, issues,
 * state, job summary).
 */
import path from 'node:path';
import type { SkillclimbConfig } from '../config/config.js';
import { loadProjectModelConfig, retryWarnings, type ProjectModelConfig } from '../config/project-models.js';
import { applyConfigSettings } from '../config/run-settings.js';
import type { Freshness } from '../ports/freshness.js';
import type { IterateOptions, IteratePorts } from '../iterate/ports.js';
import type { KillSwitch } from '../ports/kill-switch.js';
import type { Logger } from '../ports/logger.js';
import type { RunResult, SkillResult } from '../core/run-result.js';
import { createFileKillSwitch } from '../iterate/kill-switch.js';
import { runPreflight } from '../iterate/preflight.js';
import { formatDryRunPlan, resolveQueue, type QueuePlan } from '../iterate/queue.js';
import { partialRunOf } from '../iterate/run-error.js';
import { runIterate } from '../iterate/run.js';
import { writeMorningSummary } from '../iterate/summary-file.js';
import {
  checkModelKeys,
  checkModels,
  describeDoctorFailures,
  doctorIdWidth,
  doctorMaxAttempts,
  formatDoctorRow,
  selectionIsOffline,
  type DoctorReport,
} from '../llm/doctor.js';
import { createModels } from '../llm/factory.js';
import { ZERO_USAGE } from '../core/usage.js';
import { createGitHubForge } from '../github/forge.js';
import { ensureGitIdentityEnv, remoteDefaultBranch } from '../github/git.js';
import { createGitHubKillSwitch, killSwitchInputReason } from '../github/kill-switch.js';
import { createGitHubClient, describeApiError, fetchDefaultBranch } from '../github/octokit.js';
import { createGitHubShipper } from '../github/shipper.js';
import { openStateStore, readStateBranch, stateFreshness } from '../github/state-store.js';
import { checkStateBranch } from '../github/state-branch-guard.js';
import { redactSecrets, secretsFromEnv } from '../core/redact.js';
import { checkoutBaseNote } from './checkout-base.js';
import { eventRefusal } from './event-guard.js';
import type { ActionContext } from './context.js';
import { modelEnv, type ActionInputs } from './inputs.js';
import { renderJobSummary, renderPlanSummary } from './job-summary.js';
import { buildOutputs, type ActionOutputs } from './outputs.js';
import {
  mergeRunFiles,
  readRunFiles,
  RESULT_FILE_FORMAT,
  writeRunFile,
  type RunFile,
} from './result-file.js';
import { createSkillGroups, withSkillBoundaries } from './skill-groups.js';
import { collectStateUpdates } from './state-sync.js';

/** What the pipeline needs from the runner (the Actions toolkit in production, recorders in tests). */
export interface ActionIo {
  log: Logger;
  startGroup(name: string): void;
  endGroup(): void;
  writeSummary(markdown: string): Promise<void>;
  now(): Date;
}

/** The engine the nightly step drives; tests inject one that throws or records. */
export interface PipelineEngine {
  runIterate: typeof runIterate;
}

const ENGINE: PipelineEngine = { runIterate };

export interface PipelineResult {
  outputs: ActionOutputs;
  /** Set when the job should fail (after the summary and outputs were written). */
  failure: string | undefined;
}

const ITERATION_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * The engine's options from the inputs; `config` (the project's skillclimb.config.json) gives mode,
 * concurrency and the cost budget where no input does (only max-cost-usd is an input).
 */
export function iterateOptions(
  inputs: ActionInputs,
  ctx: ActionContext,
  config: SkillclimbConfig = {},
): IterateOptions {
  const options: IterateOptions = {
    project: path.resolve(ctx.workspace, inputs.project),
    skill: inputs.skill,
    queueFile: inputs.queue ? path.resolve(ctx.workspace, inputs.queue) : undefined,
    perSkillBudgetMs: inputs.perSkillBudgetMs,
    perSkillIterations: inputs.perSkillIterations,
    skipList: inputs.skipList,
    calibrate: inputs.calibrate,
    dryRun: inputs.dryRun,
    mode: 'composite',
    concurrency: 4,
    iterationTimeoutMs: ITERATION_TIMEOUT_MS,
    worktreeHome: ctx.runnerTemp,
    maxCostUsd: inputs.maxCostUsd,
    freshnessWindowMs: inputs.freshnessWindowMs,
  };
  return applyConfigSettings(
    options,
    config,
    (setting) => setting === 'maxCostUsd' && inputs.maxCostUsd !== undefined,
  );
}

function resultFilePath(ctx: ActionContext, inputs: ActionInputs, mode: string): string {
  return path.join(ctx.runnerTemp, 'skill-iterate', `${mode}-${inputs.skill ?? 'all'}.json`);
}

function emptyRun(startedAt: Date, endedAt: Date, plan?: QueuePlan): RunResult {
  return {
    startedAt,
    endedAt,
    partial: null,
    queue: plan?.queue ?? [],
    results: [],
    excludedBySkipList: plan?.excludedBySkipList ?? [],
    excludedByFreshness: plan?.excludedByFreshness ?? [],
    summaryPath: undefined,
    usage: { ...ZERO_USAGE },
    modelsLabel: '',
  };
}

function planFile(run: RunResult): RunFile {
  return {
    format: RESULT_FILE_FORMAT,
    version: 1,
    mode: 'plan',
    run,
    shipped: [],
    parked: [],
    notShipped: [],
  };
}

/** Never set: the callers read the kill-switch themselves and decide what a set one means for them. */
const NOT_CHECKED: KillSwitch = { check: async () => null };

/** Phase 0 (without the lock) and Phase 1: the queue the run would drain. */
async function planQueue(
  options: IterateOptions,
  freshness: Freshness,
  io: Pick<ActionIo, 'log' | 'now'>,
): Promise<QueuePlan> {
  const preflight = await runPreflight(options, { log: io.log, now: io.now, killSwitch: NOT_CHECKED }, false);
  return resolveQueue(options, preflight.skipList, preflight.explicit, freshness, io.now());
}

/** Read-only view of the state branch; a checkout without it (or without `origin`) plans with no history. */
async function readOnlyFreshness(
  options: IterateOptions,
  inputs: ActionInputs,
  io: ActionIo,
): Promise<Freshness> {
  try {
    return stateFreshness(await readStateBranch({ project: options.project, branch: inputs.stateBranch }));
  } catch (error) {
    io.log.warn(
      `state branch ${inputs.stateBranch} could not be read (${(error as Error).message}); planning without recorded run times`,
    );
    return { lastRunAt: async () => null };
  }
}

/** Plan mode feeds a matrix: a set kill-switch means an empty queue (no job runs), not a failed plan. */
async function planStep(inputs: ActionInputs, ctx: ActionContext, io: ActionIo): Promise<PipelineResult> {
  const startedAt = io.now();
  const options = iterateOptions(inputs, ctx);
  const killed =
    killSwitchInputReason(inputs.killSwitch) ?? (await createFileKillSwitch(options.project).check());
  let plan = await planQueue(options, await readOnlyFreshness(options, inputs, io), io);
  if (killed) {
    io.log.warn(`${killed}: the plan is an empty queue`);
    plan = { ...plan, queue: [] };
  }
  const text = formatDryRunPlan(plan, options);
  io.log.info(text);
  const file = planFile(emptyRun(startedAt, io.now(), plan));
  const resultPath = await writeRunFile(resultFilePath(ctx, inputs, 'plan'), file, secretsOf(inputs, ctx));
  await io.writeSummary(renderPlanSummary('skill-iterate plan', text, plan.queue));
  return { outputs: buildOutputs(file, { resultPath }), failure: undefined };
}

/**
 * The dry run validates what the night validates before its first model call — the config file, the model
 * ids, every real role's key — and fails with the same message, but calls no model and no GitHub API.
 */
async function dryRunStep(inputs: ActionInputs, ctx: ActionContext, io: ActionIo): Promise<PipelineResult> {
  const startedAt = io.now();
  const env = modelEnv(inputs, ctx.env);
  const project = await loadNightModelConfig(inputs, ctx, env, io);
  checkModelKeysFirst(project, env);
  const models = createModels(project.selection, env, project.modelOptions);
  io.log.info(`models: ${models.label}`);
  const options = iterateOptions(inputs, ctx, project.config);
  const killed =
    killSwitchInputReason(inputs.killSwitch) ?? (await createFileKillSwitch(options.project).check());
  if (killed) io.log.warn(`${killed}: a real run would not start`);
  const plan = await planQueue(options, await readOnlyFreshness(options, inputs, io), io);
  const text = formatDryRunPlan(plan, options);
  io.log.info(text);
  await io.writeSummary(renderPlanSummary('skill-iterate dry run', text, plan.queue));
  return { outputs: buildOutputs(planFile(emptyRun(startedAt, io.now(), plan)), {}), failure: undefined };
}

async function summarizeStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
): Promise<PipelineResult> {
  const dir = path.resolve(ctx.workspace, inputs.resultsDir ?? '.');
  const files = await readRunFiles(dir);
  if (files.length === 0) throw new Error(`input results-dir: no skill-iterate result files under ${dir}`);
  const merged = mergeRunFiles(files);
  io.log.info(`merged ${files.length} result files from ${dir}`);
  const summaryPath = await writeMorningSummary(path.resolve(ctx.workspace, inputs.project), merged.run);
  const resultPath = await writeRunFile(
    resultFilePath(ctx, inputs, 'summary'),
    merged,
    secretsOf(inputs, ctx),
  );
  await io.writeSummary(renderJobSummary(merged, ctx.runUrl));
  warnSkippedAndParked(merged, io.log);
  return { outputs: buildOutputs(merged, { summaryPath, resultPath }), failure: undefined };
}

function warnSkippedAndParked(file: RunFile, log: Logger): void {
  const warned = new Set<string>();
  for (const s of file.notShipped) {
    warned.add(s.skill);
    log.warn(`${s.skill}: not shipped: ${s.reason}`);
  }
  for (const r of file.run.results) {
    if (r.status.startsWith('skipped') && !warned.has(r.skill)) log.warn(`${r.skill}: ${r.status}`);
    if (r.status === 'defect-park' || r.status === 'calibration-park') {
      log.warn(`${r.skill}: ${r.status}${r.link ? ` → ${r.link}` : ''}`);
    }
  }
}

const INTERRUPT_SAVE_MS = 5_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const SILENT_LOG: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };

/** The project's config and the role selection; the model inputs act as the CLI's flags over the config. */
function loadNightModelConfig(
  inputs: ActionInputs,
  ctx: ActionContext,
  env: NodeJS.ProcessEnv,
  io: Pick<ActionIo, 'log'>,
): Promise<ProjectModelConfig> {
  return loadProjectModelConfig({
    project: path.resolve(ctx.workspace, inputs.project),
    flags: {
      model: inputs.model,
      editorModel: inputs.editorModel,
      renderModel: inputs.renderModel,
      graderModel: inputs.graderModel,
    },
    env,
    log: io.log,
  });
}

function modelCheckFailed(report: DoctorReport): Error {
  return new Error(
    `model check failed for ${describeDoctorFailures(report)}; nothing was run (check the key, endpoint and model id)`,
  );
}

/** The part of the night's model check that needs no call (ids, keys, endpoints), with its message. */
function checkModelKeysFirst(project: ProjectModelConfig, env: NodeJS.ProcessEnv): void {
  const report = checkModelKeys({ selection: project.selection, env, options: project.modelOptions });
  if (report.failed.length > 0) throw modelCheckFailed(report);
}

/**
 * `skillclimb doctor` before the night: each real model answers one tiny structured call, or the job
 * fails here — naming the role and model — before any GitHub call, push or hour of work.
 */
async function checkModelsFirst(
  project: ProjectModelConfig,
  env: NodeJS.ProcessEnv,
  io: ActionIo,
): Promise<void> {
  if (selectionIsOffline(project.selection)) return;
  const idWidth = doctorIdWidth(project.selection);
  io.startGroup('skillclimb doctor: model checks');
  let report: DoctorReport;
  try {
    report = await checkModels({
      selection: project.selection,
      env,
      // The health call has its own, shorter retry policy: the warnings count against it.
      options: {
        ...project.modelOptions,
        retryHooks: {
          ...project.modelOptions.retryHooks,
          onRetry: retryWarnings(io.log, doctorMaxAttempts(project.modelOptions)),
        },
      },
      now: () => io.now().getTime(),
      onRow: (row) => io.log.info(formatDoctorRow(row, idWidth)),
    });
  } finally {
    io.endGroup();
  }
  if (report.failed.length > 0) throw modelCheckFailed(report);
}

/** A kill-switch set at launch: nothing runs, the job stays green, and the summary says why. */
async function notStarted(
  reason: string,
  startedAt: Date,
  ctx: ActionContext,
  io: ActionIo,
): Promise<PipelineResult> {
  io.log.warn(`${reason}: skill-iterate did not start`);
  const file: RunFile = {
    ...planFile({ ...emptyRun(startedAt, io.now()), partial: { reason, at: io.now() } }),
    mode: 'run',
  };
  await io.writeSummary(renderJobSummary(file, ctx.runUrl));
  return { outputs: buildOutputs(file, {}), failure: undefined };
}

async function nightlyStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  engine: PipelineEngine,
): Promise<PipelineResult> {
  const startedAt = io.now();
  // The input is fixed at job start: checked first, it costs no model check, API call or push.
  const inputReason = killSwitchInputReason(inputs.killSwitch);
  if (inputReason) return notStarted(inputReason, startedAt, ctx, io);
  if (!ctx.repo)
    throw new Error('GITHUB_REPOSITORY is not set: the Action needs "owner/name" to open pull requests');
  if (!inputs.githubToken) throw new Error('input github-token: required to open pull requests and issues');
  const env = modelEnv(inputs, ctx.env);
  const project = await loadNightModelConfig(inputs, ctx, env, io);
  await checkModelsFirst(project, env, io);
  const models = createModels(project.selection, env, project.modelOptions);
  io.log.info(`models: ${models.label}`);
  const options = iterateOptions(inputs, ctx, project.config);
  const repo = ctx.repo;
  const client = createGitHubClient({ token: inputs.githubToken, apiUrl: ctx.apiUrl });
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

  const store = await openStateStore({
    project: options.project,
    branch: inputs.stateBranch,
    worktreeParent: ctx.runnerTemp,
    log: io.log,
  });
  try {
    const restored = await store.restoreInto(options.project);
    if (restored.length)
      io.log.info(`restored results.tsv from ${inputs.stateBranch}: ${restored.join(', ')}`);

    const killSwitch = createGitHubKillSwitch({ client, repo, base, log: io.log, input: inputs.killSwitch });
    const launchReason = (await createFileKillSwitch(options.project).check()) ?? (await killSwitch.check());
    if (launchReason) return notStarted(launchReason, startedAt, ctx, io);

    // The engine resolves the same queue; this copy names the log groups and the state saves.
    const plan = await planQueue(options, store.freshness, { ...io, log: SILENT_LOG });
    // The engine says "Queue empty" itself; a non-empty plan is worth a look before hours of work.
    if (plan.queue.length > 0) io.log.info(formatDryRunPlan(plan, options));
    const sync = { project: options.project, store, runId: ctx.runId, runUrl: ctx.runUrl };
    const saveState = async (label: string, results?: SkillResult[]) => {
      try {
        const updates = await collectStateUpdates(sync, plan.queue, io.now(), results);
        const saved = await store.save(
          updates,
          `skill-iterate state: ${label}${ctx.runId ? ` (run ${ctx.runId})` : ''}`,
        );
        if (saved.status === 'pushed') {
          io.log.info(
            `state saved to ${inputs.stateBranch} (${saved.commit.slice(0, 7)}): ${updates.map((u) => u.skill).join(', ')}`,
          );
        }
      } catch (error) {
        io.log.warn(`state could not be saved to ${inputs.stateBranch}: ${(error as Error).message}`);
      }
    };
    const groups = createSkillGroups(io.log, io);
    const shipper = createGitHubShipper({
      client,
      repo,
      base,
      labels: inputs.labels,
      draft: inputs.draft,
      runUrl: ctx.runUrl,
      runId: ctx.runId,
      modelsLabel: models.label,
      log: groups.log,
    });
    const forge = createGitHubForge({
      client,
      repo,
      project: options.project,
      log: groups.log,
      runUrl: ctx.runUrl,
    });
    const ports: IteratePorts = {
      models,
      shipper,
      forge,
      killSwitch: withSkillBoundaries(killSwitch, {
        afterSkill: async (index) => {
          groups.close();
          await saveState(plan.queue[index] ?? `skill ${index + 1}`);
        },
        beforeSkill: (index) => {
          if (index < plan.queue.length) groups.next(`skill-iterate: ${plan.queue[index]}`);
        },
      }),
      freshness: store.freshness,
      log: groups.log,
      now: io.now,
    };

    // A cancelled or timed-out job gets SIGINT, then SIGTERM 7.5 s later: save the rows the skill in
    // progress has recorded so far, within that window, then end as the signal asked. A persistent
    // listener: with none left, the engine's lock re-raises the signal and the process dies at once.
    let interrupted = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupted) return;
      interrupted = true;
      io.log.warn(`${signal}: saving the state recorded so far to ${inputs.stateBranch}`);
      void Promise.race([saveState(`interrupted by ${signal}`), sleep(INTERRUPT_SAVE_MS)]).finally(() =>
        process.exit(signal === 'SIGINT' ? 130 : 143),
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    let run: RunResult;
    let failure: string | undefined;
    try {
      run = await engine.runIterate(options, ports);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      // The engine attaches what it finished (results, morning summary path): the summary, the outputs
      // and the state save below keep every skill already processed. The job still fails.
      const partialRun = partialRunOf(error);
      run = partialRun
        ? {
            ...partialRun,
            partial: partialRun.partial ?? { reason: `exception: ${failure}`, at: io.now() },
            modelsLabel: partialRun.modelsLabel || models.label,
          }
        : {
            ...emptyRun(startedAt, io.now(), plan),
            partial: { reason: `exception: ${failure}`, at: io.now() },
            modelsLabel: models.label,
          };
    } finally {
      groups.close();
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
    await saveState('end of run', run.results);

    const file: RunFile = {
      format: RESULT_FILE_FORMAT,
      version: 1,
      mode: 'run',
      run,
      shipped: shipper.shipments.flatMap((s) =>
        s.status === 'skipped' || s.pr === undefined || s.url === undefined
          ? []
          : [
              {
                skill: s.skill,
                pr: s.pr,
                url: s.url,
                baseline: s.baseline,
                final: s.final,
                status: s.status,
              },
            ],
      ),
      parked: forge.parks.map((p) => ({ skill: p.skill, kind: p.kind, location: p.location, via: p.via })),
      notShipped: shipper.shipments.flatMap((s) =>
        s.status === 'skipped' ? [{ skill: s.skill, reason: s.reason ?? 'skipped' }] : [],
      ),
    };
    const resultPath = await writeRunFile(resultFilePath(ctx, inputs, 'run'), file, secretsOf(inputs, ctx));
    await io.writeSummary(renderJobSummary(file, ctx.runUrl));
    return { outputs: buildOutputs(file, { summaryPath: run.summaryPath, resultPath }), failure };
  } finally {
    await store.close();
  }
}

/** The token and keys of the inputs (and of the environment): never written to outputs or result files. */
function secretsOf(inputs: ActionInputs, ctx: ActionContext): string[] {
  return [inputs.githubToken, inputs.anthropicApiKey, inputs.openaiApiKey, ...secretsFromEnv(ctx.env)].filter(
    (value): value is string => Boolean(value),
  );
}

export function redactOutputs(outputs: ActionOutputs, secrets: readonly string[]): ActionOutputs {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, value]) => [name, redactSecrets(value, secrets)]),
  ) as unknown as ActionOutputs;
}

async function runMode(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  engine: PipelineEngine,
): Promise<PipelineResult> {
  if (inputs.mode === 'summarize') return summarizeStep(inputs, ctx, io);
  if (inputs.mode === 'plan') return planStep(inputs, ctx, io);
  if (inputs.dryRun) return dryRunStep(inputs, ctx, io);
  return nightlyStep(inputs, ctx, io, engine);
}

export async function runPipeline(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  engine: PipelineEngine = ENGINE,
): Promise<PipelineResult> {
  // Every mode: plan and summarize read the same checkout, and a dry run loads its config.
  const refused = eventRefusal(ctx.env, inputs.allowEvents);
  if (refused) throw new Error(refused);
  const result = await runMode(inputs, ctx, io, engine);
  // Outputs land in later steps' logs and expressions, where the job's masking may no longer apply.
  return { ...result, outputs: redactOutputs(result.outputs, secretsOf(inputs, ctx)) };
}
