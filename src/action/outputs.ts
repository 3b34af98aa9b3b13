/** The Action's outputs, all strings (JSON where structured). */
import type { RunFile } from './result-file.js';

export interface ActionOutputs {
  queue: string;
  shipped: string;
  parked: string;
  /** JSON `{skill, reason}` per improved skill not shipped (a PR already as good, base moved, API failed). */
  'not-shipped': string;
  'summary-path': string;
  'cost-usd': string;
  'result-path': string;
  /** `mode: evals-init`: the pull request with the new eval files ('' when none was opened). */
  'pull-request': string;
  /** `mode: score`: the score comment's URL ('' when it could not be written). */
  'comment-url'?: string;
  /** `mode: score`: JSON `{skill, base, head, needed}` per skill that regressed beyond the noise margin. */
  regressions?: string;
}

/** `cost-usd` is empty when the provider reported no price (the offline provider costs nothing: `0`). */
export function formatCost(file: RunFile): string {
  const { usage } = file.run;
  if (usage.costUsd !== null) return usage.costUsd.toFixed(4);
  return usage.calls === 0 || file.run.modelsLabel.startsWith('offline') ? '0' : '';
}

export function buildOutputs(
  file: RunFile,
  paths: { summaryPath?: string; resultPath?: string; pullRequest?: string },
): ActionOutputs {
  return {
    queue: JSON.stringify(file.run.queue),
    shipped: JSON.stringify(
      file.shipped.map((s) => ({
        skill: s.skill,
        pr: s.pr,
        url: s.url,
        baseline: s.baseline,
        final: s.final,
      })),
    ),
    parked: JSON.stringify(file.parked),
    'not-shipped': JSON.stringify(file.notShipped),
    'summary-path': paths.summaryPath ?? '',
    'cost-usd': formatCost(file),
    'result-path': paths.resultPath ?? '',
    'pull-request': paths.pullRequest ?? '',
  };
}
