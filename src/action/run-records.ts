/** The run records a step writes when the engine did not run (a plan, a dry run, a launch stop). */
import type { RunResult } from '../core/iterate/run-result.js';
import { ZERO_USAGE } from '../core/usage.js';
import type { QueuePlan } from '../iterate/queue.js';
import type { GitHubForge } from '../github/forge.js';
import type { GitHubShipper } from '../github/action/shipper.js';
import { RESULT_FILE_FORMAT, type RunFile } from './result-file.js';

export function emptyRun(startedAt: Date, endedAt: Date, plan?: QueuePlan): RunResult {
  return {
    startedAt,
    endedAt,
    partial: null,
    queue: plan?.queue ?? [],
    results: [],
    excludedBySkipList: plan?.excludedBySkipList ?? [],
    excludedByFreshness: plan?.excludedByFreshness ?? [],
    excludedOther: plan?.excludedOther ?? [],
    outsideSetting: plan?.outsideSetting,
    summaryPath: undefined,
    usage: { ...ZERO_USAGE },
    modelsLabel: '',
  };
}

export function planFile(run: RunResult): RunFile {
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

/** A night's record: the engine's run with the pull requests and issues the GitHub adapters made. */
export function nightRunFile(run: RunResult, shipper: GitHubShipper, forge: GitHubForge): RunFile {
  return {
    format: RESULT_FILE_FORMAT,
    version: 1,
    mode: 'run',
    run,
    shipped: shipper.shipments.flatMap((s) =>
      s.status === 'skipped' || s.pr === undefined || s.url === undefined
        ? []
        : [{ skill: s.skill, pr: s.pr, url: s.url, baseline: s.baseline, final: s.final, status: s.status }],
    ),
    parked: forge.parks.map((p) => ({ skill: p.skill, kind: p.kind, location: p.location, via: p.via })),
    notShipped: shipper.shipments.flatMap((s) =>
      s.status === 'skipped' ? [{ skill: s.skill, reason: s.reason ?? 'skipped' }] : [],
    ),
  };
}
