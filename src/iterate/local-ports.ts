/** The CLI's ports: local squash-merge shipper, park files, kill-switch file, results.tsv mtime freshness. */
import type { SkillModels } from '../ports/models.js';
import { createMtimeFreshness } from './freshness.js';
import { createFileKillSwitch } from './kill-switch.js';
import { createLocalForge } from './local-forge.js';
import { createLocalShipper } from './local-shipper.js';
import type { IterateOptions, IteratePorts } from './ports.js';
import type { Logger } from '../ports/logger.js';

export function createLocalPorts(
  options: IterateOptions,
  deps: { models: SkillModels; log: Logger; now?: () => Date },
): IteratePorts {
  return {
    models: deps.models,
    shipper: createLocalShipper(options.project, deps.log),
    forge: createLocalForge(options.project),
    killSwitch: createFileKillSwitch(options.project),
    freshness: createMtimeFreshness(options.project),
    log: deps.log,
    now: deps.now ?? (() => new Date()),
  };
}
