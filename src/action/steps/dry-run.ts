/**
 * `dry-run: true`: validates what the night validates before its first model call — the config file, the
 * model ids, every real role's key — and fails with the same message, but calls no model and no GitHub
 * API; then prints the plan.
 */
import { createFileKillSwitch } from '../../adapters/local/kill-switch.js';
import { killSwitchInputReason } from '../../github/action/kill-switch.js';
import { planIterate } from '../../iterate/plan.js';
import { ACTION_JOB_LIMIT, formatDryRunPlan, skillsGlobsOf } from '../../iterate/queue.js';
import { createModels } from '../../llm/factory.js';
import type { ActionContext } from '../context.js';
import { modelEnv, type ActionInputs } from '../inputs.js';
import type { ActionIo, PipelineResult } from '../io.js';
import { renderPlanSummary } from '../job-summary.js';
import { checkModelKeysFirst, loadNightModelConfig } from '../models.js';
import { iterateOptions } from '../options.js';
import { buildOutputs } from '../outputs.js';
import { planPorts, readOnlyState } from '../plan-ports.js';
import { emptyRun, planFile } from '../run-records.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import { publishDashboard, readRecordedSkills } from '../dashboard.js';

export async function dryRunStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
): Promise<PipelineResult> {
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
  const plan = await planIterate(options, planPorts(options, await readOnlyState(options, inputs, io), io));
  const text = formatDryRunPlan(plan, options, { limit: ACTION_JOB_LIMIT });
  io.log.info(text);
  await io.writeSummary(renderPlanSummary('skill-iterate dry run', text, plan.queue));
  const file = planFile(emptyRun(startedAt, io.now(), plan));
  // The dashboard a night would write, shown and not written; its orders are not read (no GitHub API).
  if (inputs.dashboard && inputs.skill === undefined) {
    await publishDashboard({
      client: undefined,
      repo: ctx.repo,
      file,
      recorded: await readRecordedSkills(options.project, inputs.stateBranch, io.log),
      ticked: { run: [], skip: [], 'evals-init': [] },
      notes: [
        "A dry run reads no orders (it calls no GitHub API): a night would honour the dashboard's ticked boxes.",
      ],
      freshnessWindowMs: inputs.freshnessWindowMs,
      minGain: options.minGain ?? ITERATE_DEFAULTS.minGain,
      now: io.now(),
      runUrl: ctx.runUrl,
      log: io.log,
      dryRun: true,
      writeSummary: (markdown) => io.writeSummary(markdown),
      skills: { project: options.project, globs: skillsGlobsOf(options) },
    });
  }
  return { outputs: buildOutputs(file, {}), failure: undefined };
}
