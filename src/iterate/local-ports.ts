// CONTRACT STUB — owned by the loop/orchestrator helper.
import type { SkillModels } from '../llm/port.js';
import type { IterateOptions, IteratePorts, Logger } from './ports.js';

/** The CLI's ports: local squash-merge shipper, park files, kill-switch file, results.tsv mtime freshness. */
export function createLocalPorts(
  _options: IterateOptions,
  _deps: { models: SkillModels; log: Logger; now?: () => Date },
): IteratePorts {
  throw new Error('not implemented');
}
