/**
 * Line-level Markdown recognition shared by the structural metrics and the offline editor.
 *
 * The structural scores must agree with the original Python implementation to 1e-6, so the primitives
 * here reproduce Python's semantics rather than JavaScript's: `str.splitlines`, `str.strip`, `len`
 * (code points, not UTF-16 units) and the Unicode-aware `\s`, `\w`, `\d` of Python's `re`.
 */

/** Every character Python's `str.splitlines` breaks on (`\r\n` counts as one break). */
// eslint-disable-next-line no-control-regex -- Python breaks lines on these control characters
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** Python's `str.isspace()` set, which is also what `re`'s `\s` matches on str patterns. */
export const PY_WS =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_WS = new RegExp(`^[${PY_WS}]+`);
const TRAILING_WS = new RegExp(`[${PY_WS}]+$`);

/** Python's `\w` on str patterns: Unicode letters and numbers plus `_`. */
export const PY_WORD = '\\p{L}\\p{N}_';

export interface SourceLine {
  /** The line without its terminator. */
  text: string;
  /** Offset of the line's first character in the source string. */
  start: number;
  /** Offset just past the line's terminator (== start of the next line, or the source length). */
  next: number;
  /** The terminator itself ('' for a last line without one). */
  eol: string;
}

/** Python's `str.splitlines()` keeping offsets: no trailing empty line, and '' gives no lines at all. */
export function splitSourceLines(source: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  for (let match = LINE_BREAK.exec(source); match !== null; match = LINE_BREAK.exec(source)) {
    const next = match.index + match[0].length;
    lines.push({ text: source.slice(start, match.index), start, next, eol: match[0] });
    start = next;
  }
  if (start < source.length) lines.push({ text: source.slice(start), start, next: source.length, eol: '' });
  return lines;
}

/** Python's `str.splitlines()`. */
export function pySplitLines(source: string): string[] {
  return splitSourceLines(source).map((line) => line.text);
}

/** Drops a leading UTF-8 byte-order mark: the file is read "as UTF-8 without BOM". */
export function stripBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** The lines the structural metrics see: BOM dropped, split like Python, an empty file is one empty line. */
export function structuralLines(text: string): string[] {
  const lines = pySplitLines(stripBom(text));
  return lines.length === 0 ? [''] : lines;
}

/** Python's `str.strip()` with no argument. */
export function pyStrip(text: string): string {
  return text.replace(LEADING_WS, '').replace(TRAILING_WS, '');
}

/** Python's `len(str)`: code points, so an emoji counts once. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

export interface Heading {
  level: number;
  title: string;
}

const HEADING = new RegExp(`^(#{1,6})[${PY_WS}]+(.+)$`, 'u');

/** `#`…`######`, whitespace, then a title; recognised on every line, fenced or not. */
export function parseHeading(line: string): Heading | null {
  const match = HEADING.exec(line);
  if (!match) return null;
  return { level: match[1]!.length, title: pyStrip(match[2]!) };
}

const ORDERED_ITEM = /^\p{Nd}+\. /u;

/** A list item, judged on the stripped line: starts with `-`, `*`, `+` or `<digits>. `. */
export function isListItem(stripped: string): boolean {
  return /^[-*+]/.test(stripped) || ORDERED_ITEM.test(stripped);
}

const FENCE = /^ {0,3}(`{3,})(.*)$/u;

/** A fence line: up to three spaces, then three or more backticks; `info` is the stripped rest. */
export function parseFenceLine(line: string): { ticks: number; info: string } | null {
  const match = FENCE.exec(line);
  if (!match) return null;
  return { ticks: match[1]!.length, info: pyStrip(match[2]!) };
}

export interface FenceBlock {
  /** Line index of the opener. */
  open: number;
  /** Line index of the closer, or null when the fence runs to the end of the file. */
  close: number | null;
  /** The opener's info string ('' when unlabelled). */
  info: string;
}

export interface FenceScan {
  blocks: FenceBlock[];
  /** Per line: true for fence lines and every line between an opener and its closer. */
  fenced: boolean[];
}

/** Pairs fence lines in order: while a fence is open, the next fence line closes it, whatever it says. */
export function scanFences(lines: readonly string[]): FenceScan {
  const blocks: FenceBlock[] = [];
  const fenced = new Array<boolean>(lines.length).fill(false);
  let current: FenceBlock | null = null;
  lines.forEach((line, index) => {
    const fence = parseFenceLine(line);
    if (current) {
      fenced[index] = true;
      if (fence) {
        current.close = index;
        current = null;
      }
    } else if (fence) {
      fenced[index] = true;
      current = { open: index, close: null, info: fence.info };
      blocks.push(current);
    }
  });
  return { blocks, fenced };
}

/**
 * Index of the line that closes a leading YAML frontmatter block, or -1 when the file has none.
 * An opening `---` that is never closed makes the whole file frontmatter (returns the last index),
 * so nothing in it is treated as editable body text.
 */
export function frontmatterEnd(lines: readonly string[]): number {
  if (lines.length === 0 || stripBom(lines[0]!).trimEnd() !== '---') return -1;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trimEnd() === '---') return i;
  }
  return lines.length - 1;
}
