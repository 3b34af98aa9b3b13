/**
 * The stop gate and the independence rule (docs/how-it-works.md § Independence and the stop gate): a
 * verdict is positive when score ≥ 6 AND verdict ∈ {ready, almost}; it acquits only when the reviewer's
 * family and the executor's are both known and differ.
 */
import type { ModelFamily } from '../families.js';
import type { Verdict } from './answers.js';

export const POSITIVE_SCORE = 6;

export type FamilyRelation = 'different' | 'same' | 'unknown';

/** The original's STOP CONDITION: both must hold; a high score with "not ready" does not stop the loop. */
export function isPositive(score: number, verdict: Verdict): boolean {
  return score >= POSITIVE_SCORE && (verdict === 'ready' || verdict === 'almost');
}

export function familyRelation(reviewer: ModelFamily, executor: ModelFamily): FamilyRelation {
  if (reviewer === 'unknown' || executor === 'unknown') return 'unknown';
  return reviewer === executor ? 'same' : 'different';
}

export interface Independence {
  relation: FamilyRelation;
  canAcquit: boolean;
  /** One sentence naming both models and families. */
  sentence: string;
}

export function independenceOf(
  reviewer: { id: string; family: ModelFamily },
  executor: { id: string; family: ModelFamily },
): Independence {
  const relation = familyRelation(reviewer.family, executor.family);
  const who = `reviewer ${reviewer.id} (family ${reviewer.family}) and executor ${executor.id} (family ${executor.family})`;
  switch (relation) {
    case 'different':
      return { relation, canAcquit: true, sentence: `Cross-family review: ${who} differ.` };
    case 'same':
      return {
        relation,
        canAcquit: false,
        sentence: `This run cannot acquit: ${who} are the same family, so the review is not independent.`,
      };
    case 'unknown':
      return {
        relation,
        canAcquit: false,
        sentence: `This run cannot acquit: ${who} — an unknown family cannot be shown to differ, so the review is not independent.`,
      };
  }
}
