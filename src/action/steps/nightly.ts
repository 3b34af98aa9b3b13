/**
 * `mode: run`: the nightly run (docs/how-it-works.md § Overview). Models checked, the repository and its
 * state branch made ready, the run state restored, then the engine drains the queue one skill at a time
 * with GitHub-backed ports (pull requests, issues, the API kill-switch, state-branch run times); the state,
 * the result file and the job summary are written whatever the engine did.
 */
import type { RunResult } from '../../core/iterate/run-result.js';
import { createGitHubKillSwitch, killSwitchInputReason } from '../../github/action/kill-switch.js';
import { createGitHubClient } from '../../github/octokit.js';
import { openStateStore } from '../../github/action/state-store.js';
import { partialRunOf } from '../../iterate/run-error.js';
import { createModels } from '../../llm/factory.js';
import type { QueuePlan } from '../../core/iterate/queue-plan.js';
import type { ActionContext } from '../context.js';
import { modelEnv, type ActionInputs } from '../inputs.js';
import { saveStateOnSignals } from '../interrupt.js';
import type { ActionIo, PipelineEngine, PipelineResult } from '../io.js';
import { renderJobSummary } from '../job-summary.js';
import { checkModelsFirst, loadNightModelConfig } from '../models.js';
import { updateDashboard } from '../night-dashboard.js';
import { createNightEvents } from '../night-events.js';
import { nightPorts, type Night } from '../night-ports.js';
import {
  foundSkillDirs,
  killSwitchClient,
  launchStop,
  notStarted,
  prepareRepository,
} from '../night-start.js';
import { iterateOptions, resultFilePath } from '../options.js';
import { buildOutputs } from '../outputs.js';
import { writeRunFile } from '../result-file.js';
import { emptyRun, nightRunFile } from '../run-records.js';
import { secretsOf } from '../secrets.js';
import { createSkillGroups } from '../skill-groups.js';
import { createStateSaver } from '../state-saver.js';
import { messageOf } from '../../core/errors.js';
import { ignoringFreshnessOf, readDashboardOrders } from '../dashboard.js';

export async function nightlyStep(
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
  const client = createGitHubClient({
    token: inputs.githubToken,
    apiUrl: ctx.apiUrl,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
  });
  const base = await prepareRepository(client, repo, inputs, options, io);

  const store = await openStateStore({
    project: options.project,
    branch: inputs.stateBranch,
    worktreeParent: ctx.runnerTemp,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
  });
  try {
    const dirs = await foundSkillDirs(options);
    const restored = await store.restoreInto(options.project, dirs);
    if (restored.length)
      io.log.info(`restored results.tsv from ${inputs.stateBranch}: ${restored.join(', ')}`);
    const killSwitch = createGitHubKillSwitch({
      client: killSwitchClient(inputs, ctx, io),
      repo,
      base,
      log: io.log,
      input: inputs.killSwitch,
    });
    const stop = await launchStop(inputs, io, options.project, killSwitch);
    if (stop) return await notStarted(stop.reason, startedAt, ctx, io, stop.failure);
    // The dashboard's orders shape tonight's queue: skips join the skip-list, runs ignore freshness.
    const orders = inputs.dashboard
      ? await readDashboardOrders(client, repo, new Set(Object.keys(dirs)), io.log)
      : undefined;
    return await drainQueue({
      inputs,
      ctx,
      io,
      engine,
      options: orders ? { ...options, skipList: [...options.skipList, ...orders.orders.skip] } : options,
      freshness: ignoringFreshnessOf(store.freshness, orders?.orders.run ?? []),
      orders,
      models,
      client,
      repo,
      base,
      store,
      killSwitch,
      startedAt,
    });
  } finally {
    await store.close();
  }
}

/** The engine over the queue, one log group and one state save per skill (from its events); then the records. */
async function drainQueue(night: Night): Promise<PipelineResult> {
  const { inputs, ctx, io, options, store } = night;
  const groups = createSkillGroups(io.log, io);
  const events = createNightEvents({
    options,
    log: io.log,
    groups,
    stateSaver: (plan) => createStateSaver(store, plan, inputs, ctx, options.project, io),
  });
  const saveState = events.save;
  const { ports, shipper, forge, heldLock } = nightPorts(night, events, groups.log);

  const stopSaving = saveStateOnSignals(saveState, inputs.stateBranch, io.log, async () =>
    heldLock()?.release(),
  );
  let run: RunResult;
  let failure: string | undefined;
  try {
    run = await night.engine.runIterate(options, ports);
  } catch (error) {
    failure = messageOf(error);
    run = partialNight(error, failure, night, events.plan);
  } finally {
    groups.close();
    stopSaving();
  }
  await saveState('end of run', run.results);

  const file = nightRunFile(run, shipper, forge);
  const resultPath = await writeRunFile(resultFilePath(ctx, inputs, 'run'), file, secretsOf(inputs, ctx));
  await io.writeSummary(renderJobSummary(file, ctx.runUrl));
  // A matrix job (one `skill`) honours the orders; the summarize job writes the dashboard.
  if (night.orders && inputs.skill === undefined) await updateDashboard(night, night.orders, file);
  return { outputs: buildOutputs(file, { summaryPath: run.summaryPath, resultPath }), failure };
}

/**
 * The engine attaches what it finished (results, morning summary path): the summary, the outputs and the
 * state save keep every skill already processed. The job still fails.
 */
function partialNight(error: unknown, failure: string, night: Night, plan: QueuePlan | undefined): RunResult {
  const { io, models } = night;
  const partialRun = partialRunOf(error);
  if (partialRun) {
    return {
      ...partialRun,
      partial: partialRun.partial ?? { reason: `exception: ${failure}`, at: io.now() },
      modelsLabel: partialRun.modelsLabel || models.label,
    };
  }
  return {
    ...emptyRun(night.startedAt, io.now(), plan),
    partial: { reason: `exception: ${failure}`, at: io.now() },
    modelsLabel: models.label,
  };
}
