/** `mode: summarize`: merges the result files of a matrix into one morning summary and job summary. */
import path from 'node:path';
import { writeMorningSummary } from '../../iterate/summary-file.js';
import type { Logger } from '../../ports/logger.js';
import type { ActionContext } from '../context.js';
import type { ActionInputs } from '../inputs.js';
import type { ActionIo, PipelineResult } from '../io.js';
import { renderJobSummary } from '../job-summary.js';
import { resultFilePath } from '../options.js';
import { buildOutputs } from '../outputs.js';
import { mergeRunFiles, readRunFiles, writeRunFile, type RunFile } from '../result-file.js';
import { secretsOf } from '../secrets.js';
import { createGitHubClient } from '../../github/octokit.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import { publishDashboard, readDashboardOrders, readRecordedSkills, runOrderNotes } from '../dashboard.js';
import { skillNames } from '../dashboard-model.js';

export async function summarizeStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
): Promise<PipelineResult> {
  const dir = path.resolve(ctx.workspace, inputs.resultsDir ?? '.');
  const files = await readRunFiles(dir);
  if (files.length === 0) throw new Error(`input results-dir: no skill-iterate result files under ${dir}`);
  const merged = mergeRunFiles(files);
  io.log.info(`merged ${files.length} result files from ${dir}`);
  const summaryPath = await writeMorningSummary(
    path.resolve(ctx.workspace, inputs.project),
    merged.run,
    secretsOf(inputs, ctx),
  );
  const resultPath = await writeRunFile(
    resultFilePath(ctx, inputs, 'summary'),
    merged,
    secretsOf(inputs, ctx),
  );
  await io.writeSummary(renderJobSummary(merged, ctx.runUrl));
  warnSkippedAndParked(merged, io.log);
  if (inputs.dashboard) await summarizeDashboard(inputs, ctx, io, merged);
  return { outputs: buildOutputs(merged, { summaryPath, resultPath }), failure: undefined };
}

/**
 * The matrix's dashboard: the plan and the jobs honoured the "run" and "skip" orders, so the runs are
 * cleared here; "re-run evals init" is honoured by a `mode: run` night without `skill` and stays ticked.
 */
async function summarizeDashboard(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  merged: RunFile,
): Promise<void> {
  const client =
    ctx.repo && inputs.githubToken
      ? createGitHubClient({
          token: inputs.githubToken,
          apiUrl: ctx.apiUrl,
          log: io.log,
          secrets: secretsOf(inputs, ctx),
        })
      : undefined;
  const orders =
    client && ctx.repo
      ? await readDashboardOrders(client, ctx.repo, new Set(skillNames(merged, [])), io.log)
      : undefined;
  const pending = orders?.orders['evals-init'] ?? [];
  const notes = [
    ...(orders?.notes ?? []),
    ...(orders ? runOrderNotes(orders.orders, merged) : []),
    ...pending.map(
      (skill) =>
        `\`${skill}\` is ordered to re-run evals init, which a \`mode: run\` night without \`skill\` does (not the matrix); the box stays ticked.`,
    ),
  ];
  await publishDashboard({
    client,
    repo: ctx.repo,
    file: merged,
    recorded: await readRecordedSkills(
      path.resolve(ctx.workspace, inputs.project),
      inputs.stateBranch,
      io.log,
    ),
    ticked: { run: [], skip: orders?.orders.skip ?? [], 'evals-init': pending },
    notes,
    freshnessWindowMs: inputs.freshnessWindowMs,
    minGain: inputs.minGain ?? ITERATE_DEFAULTS.minGain,
    now: io.now(),
    runUrl: ctx.runUrl,
    log: io.log,
    dryRun: inputs.dryRun,
    writeSummary: (markdown) => io.writeSummary(markdown),
  });
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
