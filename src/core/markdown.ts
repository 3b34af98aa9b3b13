/**
 * The one Markdown reader: line-level recognition of headings, list items, fences and the frontmatter,
 * shared by the structural metrics, the offline editor, the calibration mutations and the frontmatter
 * check that keeps an edit from landing a SKILL.md without a name or description
 * (docs/how-it-works.md § Scoring).
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

// An empty title counts: `#### ` is an H4 for section depth, as the original reads it.
const HEADING = new RegExp(`^(#{1,6})[${PY_WS}]+(.*)$`, 'u');

/** `#`…`######`, whitespace, then a title (possibly empty); recognised on every line, fenced or not. */
export function parseHeading(line: string): Heading | null {
  const match = HEADING.exec(line);
  if (!match) return null;
  return { level: match[1]!.length, title: pyStrip(match[2]!) };
}

// Any whitespace after the dot (`1.<TAB>Run this` is a list item), as the original's `\d+\.\s`.
const ORDERED_ITEM = new RegExp(`^\\p{Nd}+\\.[${PY_WS}]`, 'u');

/** A list item, judged on the stripped line: starts with `-`, `*`, `+` or `<digits>.` and whitespace. */
export function isListItem(stripped: string): boolean {
  return /^[-*+]/.test(stripped) || ORDERED_ITEM.test(stripped);
}

const LEADING_LETTERS = /^[A-Za-z']+/;
const WORD_CHAR = new RegExp(`^[${PY_WORD}]`, 'u');

function isWordAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(index)!));
}

/**
 * The first word of a stripped line as the original reads it, Python's `^[A-Za-z']+\b`: the longest run of
 * letters and apostrophes that ends on a word boundary. `Use_case` and `Run2` have none (the run ends inside
 * a word); `Dont'` gives `Dont`; `Don't` gives `Don't`.
 */
export function firstWord(stripped: string): string | undefined {
  const run = LEADING_LETTERS.exec(stripped)?.[0];
  if (run === undefined) return undefined;
  for (let length = run.length; length > 0; length--) {
    // A boundary where exactly one side is a word character (Python's Unicode-aware `\b`).
    if (isWordAt(stripped, length - 1) !== isWordAt(stripped, length)) return stripped.slice(0, length);
  }
  return undefined;
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
 * The leading YAML frontmatter: undefined when the file does not open with `---`; else the index of its
 * closing `---` line, or null when it is never closed.
 */
export function frontmatterClose(lines: readonly string[]): number | null | undefined {
  if (lines.length === 0 || stripBom(lines[0]!).trimEnd() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trimEnd() === '---') return i;
  }
  return null;
}

/**
 * Index of the line that closes a leading YAML frontmatter block, or -1 when the file has none.
 * An opening `---` that is never closed makes the whole file frontmatter (returns the last index),
 * so nothing in it is treated as editable body text.
 */
export function frontmatterEnd(lines: readonly string[]): number {
  const close = frontmatterClose(lines);
  if (close === undefined) return -1;
  return close ?? lines.length - 1;
}

export type FrontmatterCheck = { valid: true } | { valid: false; reason: string };

const BLOCK_SCALAR = /^[|>][+-]?\d*$/;

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
    return v.slice(1, -1).trim();
  }
  return v;
}

/**
 * The SKILL.md frontmatter is a `---` block at the very top with non-empty top-level `name` and
 * `description` keys. Block scalars (`description: >` followed by indented lines) count as non-empty when
 * the next line is indented text.
 */
export function checkFrontmatter(text: string): FrontmatterCheck {
  const lines = pySplitLines(stripBom(text));
  const close = frontmatterClose(lines);
  if (close === undefined) return { valid: false, reason: 'no frontmatter: first line is not ---' };
  if (close === null) return { valid: false, reason: 'frontmatter is not closed by ---' };
  const block = lines.slice(1, close);
  for (const key of ['name', 'description'] as const) {
    const at = block.findIndex((line) => new RegExp(`^${key}\\s*:`).test(line));
    if (at === -1) return { valid: false, reason: `frontmatter has no ${key}` };
    const value = unquote(block[at]!.replace(new RegExp(`^${key}\\s*:`), ''));
    if (BLOCK_SCALAR.test(value)) {
      const next = block[at + 1];
      if (next === undefined || !/^\s+\S/.test(next))
        return { valid: false, reason: `frontmatter ${key} is empty` };
    } else if (value === '') {
      return { valid: false, reason: `frontmatter ${key} is empty` };
    }
  }
  return { valid: true };
}
