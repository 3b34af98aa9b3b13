// CONTRACT STUB — owned by the results/summary helper.
import type { SkillResult } from '../iterate/ports.js';
import type { Usage } from '../llm/port.js';

export interface IterationProgress {
  skill: string;
  /** 0 for the baseline. */
  iteration: number;
  outcome: 'baseline' | 'keep' | 'revert' | 'crash';
  score: number | null;
  /** Against the running high-water mark; null for the baseline or a crash. */
  delta: number | null;
  seconds: number;
  usage: Usage;
}

export function formatIterationLine(_p: IterationProgress): string {
  throw new Error('not implemented');
}

export function formatSkillLine(_r: SkillResult): string {
  throw new Error('not implemented');
}
