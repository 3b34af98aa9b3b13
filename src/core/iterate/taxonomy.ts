/**
 * Steps E and F (docs/how-it-works.md § The hill-climb loop): what one scored iteration means for the branch. Pure: no I/O.
 */
import type { ScoreStatus } from './score-types.js';
import { compareScores } from './ship-gate.js';

export type IterationOutcome = 'keep' | 'revert' | 'crash';

export interface TaxonomyInput {
  status: ScoreStatus;
  /** The iteration's score (the N=3 median when the saturation handler ran). */
  score: number | null;
  /** The running high-water mark: the baseline, then the last kept score. */
  highWater: number;
  /** Lines after the edit minus lines before it (`wc -l`); negative when the edit shrank SKILL.md. */
  linesDelta: number;
  /**
   * True when the edit breaks a rule no score may outweigh: a valid frontmatter made invalid, a new
   * violation of the Agent Skills specification, most of the skill's substance removed (edit-refusal.ts).
   */
  refused: boolean;
}

/**
 * In this order: AMBIGUOUS → revert; no number (unparseable, harness error, null) → crash; then the
 * delta against the high-water mark, with the simplicity bias (fewer lines and delta >= 0 → keep). A
 * refused edit (see `refused`) is never kept, whatever it scores.
 */
export function classifyIteration(input: TaxonomyInput): IterationOutcome {
  if (input.status === 'ambiguous') return 'revert';
  if (input.status !== 'ok' || input.score === null || !Number.isFinite(input.score)) return 'crash';
  if (input.refused) return 'revert';
  const cmp = compareScores(input.score, input.highWater);
  if (cmp > 0) return 'keep';
  if (cmp === 0 && input.linesDelta < 0) return 'keep';
  return 'revert';
}
