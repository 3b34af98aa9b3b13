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
