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
import { frontmatterClose } from '../frontmatter.js';

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

// ---------------------------------------------------------------------------------------------------------
// What an editor must leave alone (docs/how-it-works.md § Scoring, the offline provider): code and
// verbatim text, read the way a Markdown renderer reads it (CommonMark's block rules), which is not the
// way the structural metrics read fences. The metrics pair every backtick line; a renderer also knows
// `~~~` fences, indented code, HTML blocks, and that a ``` line inside a `~~~` block is code content.

/** How a line is used, for an editor: `text` may be edited; nothing else may be. */
export type LineUse =
  | 'text'
  /** The opening or closing line of a fenced code block (its info string is not code). */
  | 'fence'
  /** Inside a fenced or indented code block. */
  | 'code'
  | 'html'
  /** A line the skill says to output verbatim, or the line saying it. */
  | 'verbatim';

/** Columns of leading whitespace, a tab advancing to the next multiple of 4 (CommonMark). */
function indentColumns(line: string): number {
  let column = 0;
  for (const ch of line) {
    if (ch === ' ') column++;
    else if (ch === '\t') column += 4 - (column % 4);
    else break;
  }
  return column;
}

const isBlank = (line: string): boolean => line.trim() === '';

const CM_FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const LIST_MARKER = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const HTML_RAW_OPEN = /^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i;
const HTML_RAW_CLOSE = /<\/(?:script|pre|style|textarea)>/i;
const HTML_BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|' +
  'fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|' +
  'link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|' +
  'th|thead|title|tr|track|ul';
const HTML_BLOCK_OPEN = new RegExp(`^ {0,3}</?(?:${HTML_BLOCK_TAGS})(?:[\\s/>]|$)`, 'i');
/** Any other complete tag alone on its line (CommonMark's type 7). */
const HTML_LONE_TAG = /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*)?\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/;

/** The end of an HTML block that starts at `line`, as a test on later lines; undefined when none starts. */
function htmlBlockEnd(line: string): ((later: string) => boolean) | 'blank' | undefined {
  if (HTML_RAW_OPEN.test(line)) return (later) => HTML_RAW_CLOSE.test(later);
  if (/^ {0,3}<!--/.test(line)) return (later) => later.includes('-->');
  if (/^ {0,3}<\?/.test(line)) return (later) => later.includes('?>');
  if (/^ {0,3}<![A-Za-z]/.test(line)) return (later) => later.includes('>');
  if (/^ {0,3}<!\[CDATA\[/.test(line)) return (later) => later.includes(']]>');
  if (HTML_BLOCK_OPEN.test(line) || HTML_LONE_TAG.test(line)) return 'blank';
  return undefined;
}

/**
 * A line that says the text it introduces (or carries) is to be output exactly: an output verb and a
 * verbatim word together ("Print exactly:", "Output this template verbatim", "reply word for word").
 */
const OUTPUT_VERB =
  /\b(?:print|prints|printed|output|outputs|emit|emits|say|says|reply|replies|respond|responds|return|returns|write|writes|show|shows|display|displays|copy|render|renders|send|produce|produces|use|paste|type|answer)\b/i;
const VERBATIM_WORD =
  /\b(?:verbatim|exactly|exact(?: text| wording| words| string| line| lines| template| format)|literal(?:ly)?|word[- ]for[- ]word|byte[- ]for[- ]byte|character[- ]for[- ]character|as[- ]is|unchanged|unmodified)\b/i;

export function isVerbatimCue(line: string): boolean {
  return OUTPUT_VERB.test(line) && VERBATIM_WORD.test(line);
}

/** A cue that introduces what follows: it ends with a colon (before closing emphasis or a parenthesis). */
function introducesBlock(line: string): boolean {
  return /:[\s*_)]*$/.test(line);
}

/**
 * How each line is used (see LineUse), from line `from` on (the frontmatter before it is `text`: the
 * editor never touches it anyway). Errs on the side of protection: a line it cannot place is code.
 */
export function lineUses(lines: readonly string[], from = 0): LineUse[] {
  const uses = lines.map((): LineUse => 'text');
  let container = 0;
  let previousBlank = true;
  // An indented line right after paragraph text continues the paragraph; anywhere else it is code.
  let inParagraph = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) {
      previousBlank = true;
      inParagraph = false;
      continue;
    }
    const indent = indentColumns(line);
    const relative = indent - container;
    if (relative >= 4 && !inParagraph) {
      uses[i] = 'code';
      previousBlank = false;
      continue;
    }
    const dedented = relative >= 0 && relative < 4 ? line.slice(Math.min(indent, container)) : line;
    const fence = CM_FENCE.exec(dedented);
    if (fence && !(fence[2]![0] === '`' && fence[3]!.includes('`'))) {
      uses[i] = 'fence';
      const marker = fence[2]!;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(
          lines[j]!.slice(Math.min(indentColumns(lines[j]!), container)),
        );
        if (close && close[1]![0] === marker[0] && close[1]!.length >= marker.length) {
          uses[j] = 'fence';
          break;
        }
        uses[j] = 'code';
      }
      i = j;
      previousBlank = false;
      inParagraph = false;
      continue;
    }
    const html = relative < 4 ? htmlBlockEnd(dedented) : undefined;
    if (html !== undefined) {
      let j = i;
      for (; j < lines.length; j++) {
        if (html === 'blank' ? isBlank(lines[j]!) : false) break;
        uses[j] = 'html';
        if (html !== 'blank' && html(lines[j]!)) break;
      }
      i = html === 'blank' ? j - 1 : j;
      previousBlank = false;
      inParagraph = false;
      continue;
    }
    const item = LIST_MARKER.exec(line);
    if (item && relative < 4) {
      container = indentColumns(item[1]!) + item[2]!.length + Math.max(1, indentColumns(item[3]!) || 1);
    } else if (indent < container && previousBlank) {
      // Text back at the margin after a blank line ends the list.
      container = 0;
    }
    previousBlank = false;
    // A heading or a thematic break is a block of its own; other text is a paragraph.
    inParagraph =
      parseHeading(dedented.trimStart()) === null && !/^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(dedented);
  }
  markVerbatim(lines, uses, from);
  return uses;
}

/** The cue lines and what they introduce: the next paragraph, or a cued heading's whole section. */
function markVerbatim(lines: readonly string[], uses: LineUse[], from: number): void {
  for (let i = from; i < lines.length; i++) {
    if (uses[i] !== 'text' || !isVerbatimCue(lines[i]!)) continue;
    uses[i] = 'verbatim';
    const heading = parseHeading(lines[i]!);
    let j = i + 1;
    if (heading) {
      for (; j < lines.length; j++) {
        const next = parseHeading(lines[j]!);
        if (next && next.level <= heading.level) break;
        if (uses[j] === 'text') uses[j] = 'verbatim';
      }
      continue;
    }
    if (!introducesBlock(lines[i]!)) continue;
    while (j < lines.length && isBlank(lines[j]!)) j++;
    for (; j < lines.length && !isBlank(lines[j]!); j++) {
      if (uses[j] === 'text') uses[j] = 'verbatim';
    }
  }
}

/**
 * Spans of a line that must stay on one line: inline code (backtick runs matched by length, as
 * CommonMark pairs them), and quoted strings ("…", “…”, and '…' when the quotes are not apostrophes).
 * Half-open [start, end) offsets; an unmatched opener protects nothing.
 */
export function inlineSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of line.matchAll(/(`+)[\s\S]*?(?<!`)\1(?!`)/g)) {
    spans.push([match.index, match.index + match[0].length]);
  }
  for (const match of line.matchAll(
    /"[^"]*"|\u201c[^\u201d]*\u201d|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu,
  )) {
    spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}
