/**
 * Whether two weaknesses are the same finding (docs/how-it-works.md § Review state, memory and receipts):
 * a reviewer words a finding afresh each round, so a finding is matched by the words of its title (and
 * its file, when both name one), never by its rank. Used to leave out a finding a maintainer dismissed
 * and to tell whether a finding of an earlier round still stands.
 */

export interface WeaknessKey {
  title: string;
  file?: string | null | undefined;
}

/** Words that say nothing about which finding it is. */
const FILLER = new Set([
  'the',
  'and',
  'for',
  'with',
  'not',
  'but',
  'are',
  'its',
  'this',
  'that',
  'when',
  'from',
]);

function words(title: string): Set<string> {
  return new Set(
    title
      .toLowerCase()
      .split(/[^\p{L}\p{N}_]+/u)
      .filter((word) => word.length >= 3 && !FILLER.has(word)),
  );
}

/** The share of words the two titles have in common (Jaccard) at which they are the same finding. */
export const SAME_FINDING = 0.5;

export function sameWeakness(a: WeaknessKey, b: WeaknessKey): boolean {
  if (a.file && b.file && a.file !== b.file) return false;
  const x = words(a.title);
  const y = words(b.title);
  if (x.size === 0 || y.size === 0) return a.title.trim().toLowerCase() === b.title.trim().toLowerCase();
  let shared = 0;
  for (const word of x) if (y.has(word)) shared += 1;
  return shared / (x.size + y.size - shared) >= SAME_FINDING;
}
