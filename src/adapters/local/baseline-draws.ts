/**
 * The CLI's record of the baseline's extra draws (docs/how-it-works.md § Baseline):
 * `<skill folder>/evals/baseline-draws.json`, beside results.tsv, so the next run on the same checkout
 * reuses them. The Action uses it on its checkout too and carries the file on its state branch. Never read
 * or written through a symbolic link.
 */
import { baselineDrawsPath } from '../../core/iterate/skill-layout.js';
import type { BaselineDrawsRecords } from '../../ports/uplift-records.js';
import { createRecordFiles } from './uplift-records.js';

export function createBaselineDrawsFiles(project: string): BaselineDrawsRecords {
  return createRecordFiles((skill) => baselineDrawsPath(project, skill));
}
