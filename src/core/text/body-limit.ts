/**
 * Bodies under GitHub's size limit (docs/how-it-works.md § Untrusted text and secrets): an issue, pull
 * request or comment body over 65,536 characters is refused (HTTP 422) and the report is lost. A cut must
 * not make anything live that was inert before it: untrusted text is cut BEFORE it is neutralised
 * (truncateText), and a finished body is cut so that it closes what the cut left open (boundBody) — a
 * fenced code block, an inline code span, an HTML comment — before a note says what was cut.
 */
import { ZWJ } from './neutralise.js';

/** GitHub's limit on an issue, pull request or comment body, in characters. */
export const GITHUB_BODY_LIMIT = 65_536;
/** Room for the note and the closers; a smaller limit cannot say what it cut. */
const MIN_LIMIT = 512;
/** A cut moves back to a line end when one is this close, so the body ends on a whole line. */
const LINE_SNAP = 1_000;

export interface Truncated {
  text: string;
  /** Characters left out (0: the text fitted). */
  cutChars: number;
}

/**
 * The first `maxChars` characters of raw text (an ellipsis marks a cut), for untrusted text about to be
 * neutralised: cutting first means the neutralising sees, and disarms, exactly what is shown.
 */
export function truncateText(text: string, maxChars: number): Truncated {
  if (text.length <= maxChars) return { text, cutChars: 0 };
  let at = Math.max(0, maxChars - 1);
  if (isHighSurrogate(text.charCodeAt(at - 1))) at--;
  return { text: `${text.slice(0, at)}…`, cutChars: text.length - at };
}

export interface BoundOptions {
  /** Default GITHUB_BODY_LIMIT. */
  limit?: number;
  /** Where the full text is, for the note: `the state branch (state/verify/last-run.json)`. */
  fullTextAt?: string;
}

export interface BoundedBody {
  body: string;
  /** Characters of the original body left out (0: it fitted). */
  cutChars: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

const number = new Intl.NumberFormat('en-US');

function noteFor(cutChars: number, total: number, limit: number, fullTextAt: string | undefined): string {
  const where = fullTextAt === undefined ? '' : `; the full text is in ${fullTextAt}`;
  return (
    `\n\n---\n_${number.format(cutChars)} of ${number.format(total)} characters were cut to stay under ` +
    `GitHub's ${number.format(limit)}-character limit${where}._\n`
  );
}

/**
 * Where to cut at or before `at`: not inside a surrogate pair, not between a character and the joiner
 * that disarms it (`@`+ZWJ), not inside a character reference (`&#91;`), and at a line end when one is near.
 */
function safeCut(body: string, at: number): number {
  let cut = Math.max(0, Math.min(at, body.length));
  const newline = body.lastIndexOf('\n', cut - 1);
  if (newline >= 0 && cut - newline <= LINE_SNAP) cut = newline + 1;
  if (cut < body.length && body[cut] === ZWJ) cut--;
  if (isHighSurrogate(body.charCodeAt(cut - 1))) cut--;
  const reference = /&#?[A-Za-z0-9]{0,31}$/.exec(body.slice(Math.max(0, cut - 33), cut));
  if (reference) cut -= reference[0].length;
  return Math.max(0, cut);
}

interface Fence {
  marker: '`' | '~';
  length: number;
}

/** Container markers (block quotes, list items) and indentation before a line's content. */
const CONTAINER = /^(?:[ \t]*(?:>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+))*[ \t]*/;
const LINE_BREAK = /\r\n|\r|\n/;

/** The fenced code block open at the end of `text`, if any (generous: any indentation, any container). */
function openFence(lines: readonly string[]): { fence: Fence | undefined; after: number } {
  let fence: Fence | undefined;
  let after = 0;
  lines.forEach((line, i) => {
    const content = line.replace(CONTAINER, '');
    const run = /^(`{3,}|~{3,})(.*)$/.exec(content);
    if (fence === undefined) {
      if (run && !(run[1]![0] === '`' && run[2]!.includes('`'))) {
        fence = { marker: run[1]![0] as Fence['marker'], length: run[1]!.length };
      }
    } else if (
      run &&
      run[1]![0] === fence.marker &&
      run[1]!.length >= fence.length &&
      run[2]!.trim() === ''
    ) {
      fence = undefined;
      after = i + 1;
    }
  });
  return { fence, after };
}

/**
 * The length of the first backtick run in `text` that no later run of the same length closes, as
 * CommonMark pairs code spans left to right (backslash escapes count outside spans only).
 */
function firstOpenSpan(text: string): number | undefined {
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') {
      i += 2;
    } else if (ch === '`') {
      let end = i;
      while (text[end] === '`') end++;
      const length = end - i;
      const closer = new RegExp(`(?<!\`)\`{${length}}(?!\`)`, 'g');
      closer.lastIndex = end;
      const match = closer.exec(text);
      if (match === null) return length;
      i = match.index + length;
    } else {
      i++;
    }
  }
  return undefined;
}

const BLOCK_START = /^(?:[ \t]{0,3}(?:#{1,6}(?:[ \t]|$)|>|[-+*][ \t]|\d{1,9}[.)][ \t]|\|)|[ \t]*$)/;

/**
 * Backtick runs that close the inline code span a cut left open. Where the paragraph starts decides which
 * runs pair up, and a full Markdown parser is not at hand, so the candidates are the text since the last
 * blank line, since the last line starting a block, and the last line alone; each open span found closes.
 * A closer too many is a literal backtick; a closer missing would make the span's text live.
 */
function spanClosers(lines: readonly string[]): string {
  const lastBlank = lines.findLastIndex((line) => line.trim() === '');
  const lastBlock = lines.findLastIndex((line) => BLOCK_START.test(line) && line.trim() !== '');
  const starts = new Set([lastBlank + 1, Math.max(lastBlank + 1, lastBlock), lines.length - 1]);
  const lengths = new Set<number>();
  for (const start of starts) {
    const open = firstOpenSpan(lines.slice(Math.max(0, start)).join('\n'));
    if (open !== undefined) lengths.add(open);
  }
  return [...lengths]
    .sort((a, b) => a - b)
    .map((length) => ` ${'`'.repeat(length)}`)
    .join('');
}

/** What to append to `prefix` so nothing it opened stays open. */
function closersFor(prefix: string): string {
  const lines = prefix.split(LINE_BREAK);
  const { fence, after } = openFence(lines);
  if (fence !== undefined) {
    const newline = /(?:\r\n|\r|\n)$/.test(prefix) ? '' : '\n';
    return `${newline}${fence.marker.repeat(fence.length)}`;
  }
  let closers = spanClosers(lines.slice(after));
  // An HTML comment left open would hide the note and everything after it.
  if (prefix.lastIndexOf('<!--') > prefix.lastIndexOf('-->')) closers += ' -->';
  return closers;
}

/**
 * `body` as it may be posted: unchanged when it fits `limit`, else cut where nothing is split, closed
 * where the cut left a code block, code span or comment open, and ended with a note of how much was cut
 * (and where the full text is). The result is never longer than `limit`.
 */
export function boundBody(body: string, options: BoundOptions = {}): BoundedBody {
  const limit = options.limit ?? GITHUB_BODY_LIMIT;
  if (!Number.isInteger(limit) || limit < MIN_LIMIT) {
    throw new RangeError(`body limit must be an integer of at least ${MIN_LIMIT}, got ${limit}`);
  }
  if (body.length <= limit) return { body, cutChars: 0 };
  // The longest note this body can need: the cut count has at most as many digits as the total.
  const noteRoom = noteFor(body.length, body.length, limit, options.fullTextAt).length;
  let target = limit - noteRoom;
  for (;;) {
    const cut = safeCut(body, target);
    const prefix = body.slice(0, cut);
    const closers = closersFor(prefix);
    const note = noteFor(body.length - cut, body.length, limit, options.fullTextAt);
    const length = prefix.length + closers.length + note.length;
    if (length <= limit || cut === 0) {
      const bounded = `${prefix}${closers}${note}`;
      return { body: bounded.length <= limit ? bounded : note.slice(0, limit), cutChars: body.length - cut };
    }
    target = Math.min(cut - 1, cut - (length - limit));
  }
}
