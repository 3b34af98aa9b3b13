/**
 * The CLI's ports: local squash-merge shipper, park files, kill-switch file, results.tsv mtime freshness,
 * the lock file, git on the checkout and the uplift's record and the baseline's draws beside
 * results.tsv.
 */
import { createGitWorkspace } from '../../git/workspace.js';
import type { IteratePorts, PlanPorts } from '../../ports/iterate.js';
import type { Logger } from '../../ports/logger.js';
import type { SkillModels } from '../../ports/models.js';
import { createLocalForge } from './forge.js';
import { createMtimeFreshness } from './freshness.js';
import { createFileKillSwitch } from './kill-switch.js';
import { createFileLock } from './lock.js';
import { createNotStartedFile } from './not-started.js';
import { createLocalLeftovers, createLocalShipper, type LocalShipperOptions } from './shipper.js';
import { createBaselineDrawsFiles, createUpliftRecordFiles } from './night-records.js';

export interface LocalPortsDeps {
  log: Logger;
  now?: () => Date;
  /** The exact secrets in use (secretsFromEnv of the front-end's env): the files written are redacted with them. */
  secrets?: readonly string[];
  /** The local shipper's settings (the chaos tests' pause hook). */
  shipper?: LocalShipperOptions;
}

/** What a plan (pre-flight and queue, no lock taken) needs on a local checkout. */
export function createLocalPlanPorts(project: string, deps: LocalPortsDeps): PlanPorts {
  const now = deps.now ?? (() => new Date());
  return {
    log: deps.log,
    now,
    killSwitch: createFileKillSwitch(project),
    freshness: createMtimeFreshness(project),
    notStarted: createNotStartedFile(project),
    lock: createFileLock(project, { log: deps.log, now }),
    git: createGitWorkspace(deps.log),
    leftovers: createLocalLeftovers(project, deps.log),
  };
}

export function createLocalPorts(
  options: { project: string },
  deps: LocalPortsDeps & { models: SkillModels },
): IteratePorts {
  return {
    ...createLocalPlanPorts(options.project, deps),
    models: deps.models,
    shipper: createLocalShipper(options.project, deps.log, deps.shipper),
    forge: createLocalForge(options.project, deps.secrets),
    git: createGitWorkspace(deps.log),
    upliftRecords: createUpliftRecordFiles(options.project),
    baselineDraws: createBaselineDrawsFiles(options.project),
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
  };
}
