/** `mode: plan`: the queue only, for a matrix of one job per skill (docs/how-it-works.md § The queue). */
import path from 'node:path';
import { createFileKillSwitch } from '../../adapters/local/kill-switch.js';
import { loadConfig } from '../../config/config.js';
import { killSwitchInputReason } from '../../github/action/kill-switch.js';
import { planIterate } from '../../iterate/plan.js';
import { ACTION_JOB_LIMIT, formatDryRunPlan } from '../../iterate/queue.js';
import type { ActionContext } from '../context.js';
import type { ActionInputs } from '../inputs.js';
import type { ActionIo, PipelineResult } from '../io.js';
import { renderPlanSummary } from '../job-summary.js';
import { iterateOptions, resultFilePath } from '../options.js';
import { buildOutputs } from '../outputs.js';
import { planPorts, readOnlyState } from '../plan-ports.js';
import { writeRunFile } from '../result-file.js';
import { emptyRun, planFile } from '../run-records.js';
import { secretsOf } from '../secrets.js';
import { dashboardOrdersForPlan, ignoringFreshnessOf } from '../dashboard.js';

/** A set kill-switch means an empty queue (no job runs), not a failed plan. */
export async function planStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
): Promise<PipelineResult> {
  const startedAt = io.now();
  // The config's settings (the skills setting, the mode) shape the queue as they shape the night's.
  const configured = iterateOptions(
    inputs,
    ctx,
    await loadConfig(path.resolve(ctx.workspace, inputs.project)),
  );
  const killed =
    killSwitchInputReason(inputs.killSwitch) ?? (await createFileKillSwitch(configured.project).check());
  // A matrix's queue honours the dashboard's orders as a night does (docs/how-it-works.md § The dashboard issue).
  const orders = killed ? undefined : await dashboardOrdersForPlan(inputs, ctx, configured, io);
  const options = orders
    ? { ...configured, skipList: [...configured.skipList, ...orders.orders.skip] }
    : configured;
  const state = await readOnlyState(options, inputs, io);
  const freshness = ignoringFreshnessOf(state.freshness, orders?.orders.run ?? []);
  let plan = await planIterate(options, planPorts(options, { ...state, freshness }, io));
  if (killed) {
    io.log.warn(`${killed}: the plan is an empty queue`);
    plan = { ...plan, queue: [] };
  }
  const text = formatDryRunPlan(plan, options, { limit: ACTION_JOB_LIMIT });
  io.log.info(text);
  const file = planFile(emptyRun(startedAt, io.now(), plan));
  const resultPath = await writeRunFile(resultFilePath(ctx, inputs, 'plan'), file, secretsOf(inputs, ctx));
  await io.writeSummary(renderPlanSummary('skill-iterate plan', text, plan.queue));
  return { outputs: buildOutputs(file, { resultPath }), failure: undefined };
}
