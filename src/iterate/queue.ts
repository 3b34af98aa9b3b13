// CONTRACT STUB — owned by the foundation helper.
import type { Freshness, IterateOptions } from './ports.js';
import type { SkipList } from './preflight.js';

export interface QueuePlan {
  queue: string[];
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; lastRunAt: Date }>;
}

export async function resolveQueue(
  _options: IterateOptions,
  _skipList: SkipList,
  _explicit: string[] | undefined,
  _freshness: Freshness,
  _now: Date,
): Promise<QueuePlan> {
  throw new Error('not implemented');
}

/** The seed's --dry-run text, byte for byte. */
export function formatDryRunPlan(_plan: QueuePlan, _options: IterateOptions): string {
  throw new Error('not implemented');
}
