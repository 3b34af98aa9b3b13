/**
 * Whether two findings are the same one (docs/how-it-works.md § Review rounds, "Each finding once"): a
 * reviewer words a finding afresh every round and a fix moves the lines around it, so a finding is known
 * by its content and its place — the words of its title, normalised, and its file and line — never by its
 * round or its rank. Used to keep a standing finding on its one thread, to resolve the thread of one that
 * was fixed, and to leave out a finding the maintainers dismissed, whatever its wording this time.
 */

export interface FindingKey {
  title: string;
  file?: string | null | undefined;
  line?: number | null | undefined;
}

/** Lines apart at which two findings in one file are still in the same place (a fix shifts a few lines). */
export const NEARBY_LINES = 6;
/** The share of title words two findings must have in common (Jaccard) when their place does not help. */
export const SAME_FINDING = 0.5;
/** The share that suffices for two findings in the same file a few lines apart. */
export const SAME_PLACE = 0.25;

/** Words that say nothing about which finding it is (left out before and after `stem`). */
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
  'still',
  'again',
  'also',
  'does',
  'should',
  'must',
  'can',
  'will',
  'has',
  'have',
  'was',
  'were',
  'been',
  'into',
  'only',
  'any',
  'all',
  'than',
  'then',
  'there',
  'which',
  'yet',
  'now',
  'just',
  'very',
]);

/**
 * A word without its common English endings, so "guarded", "guards" and "guard" are one word: a
 * deterministic cut (no dictionary), the same on both sides of every comparison.
 */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** The words that name a finding: lower case, letters and digits only, endings cut, filler left out. */
export function findingWords(text: string): Set<string> {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((word) => (/^\p{N}+$/u.test(word) || word.length >= 3) && !FILLER.has(word))
    .map(stem)
    .filter((word) => !FILLER.has(word));
  return new Set(words);
}

/** The share of words two texts have in common (Jaccard over `findingWords`), 0–1. */
export function textSimilarity(a: string, b: string): number {
  const x = findingWords(a);
  const y = findingWords(b);
  if (x.size === 0 || y.size === 0) {
    return a.trim().toLowerCase() === b.trim().toLowerCase() && a.trim() !== '' ? 1 : 0;
  }
  let shared = 0;
  for (const word of x) if (y.has(word)) shared += 1;
  return shared / (x.size + y.size - shared);
}

function normalisedFile(file: string | null | undefined): string | undefined {
  const trimmed = file?.trim().replace(/^\.\//, '');
  return trimmed ? trimmed : undefined;
}

/** Two findings in one file whose lines are at most NEARBY_LINES apart. */
function samePlace(a: FindingKey, b: FindingKey): boolean {
  const file = normalisedFile(a.file);
  if (!file || file !== normalisedFile(b.file)) return false;
  if (!a.line || !b.line) return false;
  return Math.abs(a.line - b.line) <= NEARBY_LINES;
}

/**
 * How alike two findings are, or undefined when they are not the same finding: never across two files
 * (a finding without a file can be any file's); at SAME_PLACE in the same place, else at SAME_FINDING.
 * The score orders candidates (a nearer line wins a tie).
 */
export function findingMatch(a: FindingKey, b: FindingKey): number | undefined {
  const fileA = normalisedFile(a.file);
  const fileB = normalisedFile(b.file);
  if (fileA && fileB && fileA !== fileB) return undefined;
  const similarity = textSimilarity(a.title, b.title);
  const near = samePlace(a, b);
  if (similarity < (near ? SAME_PLACE : SAME_FINDING)) return undefined;
  const distance = near ? Math.abs(a.line! - b.line!) : NEARBY_LINES + 1;
  return similarity + (near ? 1 : 0) - distance / 1000;
}

export function sameFinding(a: FindingKey, b: FindingKey): boolean {
  return findingMatch(a, b) !== undefined;
}

/**
 * Pairs each finding with at most one known finding and each known one with at most one finding, best
 * matches first: two findings of one round never share a thread. Returns, per finding, the index of its
 * known finding or -1.
 */
export function pairFindings(findings: readonly FindingKey[], known: readonly FindingKey[]): number[] {
  const candidates: Array<{ finding: number; known: number; score: number }> = [];
  findings.forEach((finding, i) =>
    known.forEach((other, j) => {
      const score = findingMatch(finding, other);
      if (score !== undefined) candidates.push({ finding: i, known: j, score });
    }),
  );
  candidates.sort((x, y) => y.score - x.score || x.finding - y.finding || x.known - y.known);
  const paired = findings.map(() => -1);
  const taken = new Set<number>();
  for (const { finding, known: j } of candidates) {
    if (paired[finding] !== -1 || taken.has(j)) continue;
    paired[finding] = j;
    taken.add(j);
  }
  return paired;
}
