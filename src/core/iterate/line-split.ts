/**
 * Breaking an over-long prose line (the max_line_length metric, docs/how-it-works.md § Scoring): at a
 * sentence end or a space, never inside inline code, a link, a `[[ref]]`, a URL or a quoted string, and
 * never so that a continuation line turns into a heading, list item, quote, table or fence.
 */
import { codePointLength, inlineSpans } from './markdown.js';
import { IMPERATIVE_VERBS, MAX_LINE_LENGTH } from './structural.js';

/** Spans a line break must not fall inside: inline code, quoted strings, links, [[refs]], bare URLs. */
function protectedSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = inlineSpans(line);
  const patterns = [/!?\[[^\]]*\]\([^)]*\)/g, /\[\[[^\]]*\]\]/g, /https?:\/\/\S+/g];
  for (const pattern of patterns) {
    for (const match of line.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** A continuation line must stay paragraph text, not turn into a heading, list item, quote, table or fence. */
const UNSAFE_LINE_START = /^(?:[#>|=]|[-*+](?:\s|$)|\d+[.)](?:\s|$)|```|~~~|<)/;

/**
 * Which sentence to start a continuation line with, when several fit: continuation lines count as prose
 * for rules-to-rationale, so a split may move the imperative share towards (or away from) its 40 % target.
 */
export type ContinuationPreference = 'any' | 'imperative' | 'plain';

/**
 * Breaks an over-long prose line into pieces of at most `limit` code points, each break at the last
 * sentence end that fits (if it leaves a piece of reasonable length) or else the last space that fits.
 * Continuation lines are indented to the list item's content so they stay in the item. Null when it cannot.
 */
export function splitLongLine(
  line: string,
  prefer: ContinuationPreference = 'any',
  limit: number = MAX_LINE_LENGTH,
): { pieces: string[]; sentence: boolean } | null {
  const marker = /^([ \t]*)((?:[-*+]|\d+[.)])[ \t]+)?/.exec(line)!;
  const continuation = ' '.repeat(
    codePointLength(marker[1]!.replace(/\t/g, '    ')) + codePointLength(marker[2] ?? ''),
  );
  // cp[i] = code points before UTF-16 index i, so every piece length is O(1) even on a huge line.
  const cp = [0];
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i);
    const previous = i > 0 ? line.charCodeAt(i - 1) : 0;
    const lowHalf = unit >= 0xdc00 && unit <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff;
    cp.push(cp[i]! + (lowHalf ? 0 : 1));
  }
  const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t';
  const lastContent = line.trimEnd().length - 1;
  // Both precomputed in one pass each, so every break candidate is O(1): a deeply indented line (a
  // 1,200-level list) must not cost the square of its length.
  const guarded = new Uint8Array(line.length + 1);
  for (const [from, to] of protectedSpans(line)) guarded.fill(1, from + 1, to);
  const nextContent = new Int32Array(line.length + 1);
  nextContent[line.length] = line.length;
  for (let i = line.length - 1; i >= 0; i--) nextContent[i] = isBlank(line[i]) ? nextContent[i + 1]! : i;
  /** Index of the continuation's first character when the line may break at the space `index`, else -1. */
  const continuationStart = (index: number): number => {
    if (line[index] !== ' ' || index >= lastContent) return -1;
    if (guarded[index] === 1) return -1;
    const next = nextContent[index]!;
    return UNSAFE_LINE_START.test(line.slice(next, next + 40)) ? -1 : next;
  };
  const preferred = (next: number): boolean => {
    if (prefer === 'any') return false;
    const word = /^[A-Za-z']+/.exec(line.slice(next, next + 40))?.[0];
    const imperative = word !== undefined && IMPERATIVE_VERBS.has(word);
    return prefer === 'imperative' ? imperative : !imperative;
  };

  const pieces: string[] = [];
  let sentence = true;
  let start = 0;
  let prefixLength = 0;
  while (prefixLength + cp[line.length]! - cp[start]! > limit) {
    let bestPreferred = -1;
    let bestSentence = -1;
    let bestWord = -1;
    let pieceEnd = start;
    // Scan left to right; stop once the piece before the break would exceed the limit.
    for (let i = start + 1; i < line.length; i++) {
      if (!isBlank(line[i - 1])) pieceEnd = i;
      const pieceLength = prefixLength + cp[pieceEnd]! - cp[start]!;
      if (pieceLength > limit) break;
      // A break with nothing before it (inside the indentation) would leave an empty piece.
      if (pieceEnd === start) continue;
      const next = continuationStart(i);
      if (next === -1) continue;
      bestWord = i;
      const endsSentence = /[.!?:;][)"'*_]*$/.test(line.slice(Math.max(start, pieceEnd - 8), pieceEnd));
      if (endsSentence && pieceLength >= 60) {
        bestSentence = i;
        if (preferred(next)) bestPreferred = i;
      }
    }
    const at = bestPreferred !== -1 ? bestPreferred : bestSentence !== -1 ? bestSentence : bestWord;
    if (at === -1) return null;
    if (bestSentence === -1) sentence = false;
    let end = at;
    while (end > start && isBlank(line[end - 1])) end--;
    pieces.push(' '.repeat(prefixLength) + line.slice(start, end));
    start = at;
    while (isBlank(line[start])) start++;
    prefixLength = continuation.length;
  }
  pieces.push(' '.repeat(prefixLength) + line.slice(start));
  return pieces.length > 1 ? { pieces, sentence } : null;
}
