import { describe, expect, it } from 'vitest';
import {
  codePointLength,
  frontmatterEnd,
  firstWord,
  inlineSpans,
  isVerbatimCue,
  lineUses,
  isListItem,
  parseFenceLine,
  parseHeading,
  pySplitLines,
  pyStrip,
  scanFences,
  splitSourceLines,
  structuralLines,
} from '../../../src/core/iterate/markdown.js';

describe('pySplitLines (Python str.splitlines)', () => {
  it('treats \\r\\n as one break and \\r alone as a break', () => {
    expect(pySplitLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps no trailing empty line, but keeps inner and doubled ones', () => {
    expect(pySplitLines('a\n')).toEqual(['a']);
    expect(pySplitLines('a\n\n')).toEqual(['a', '']);
    expect(pySplitLines('\n')).toEqual(['']);
    expect(pySplitLines('a\r\n\r\nb')).toEqual(['a', '', 'b']);
  });

  it('breaks on the rarer separators Python knows, but not on \\x1f', () => {
    expect(pySplitLines('a\vb\fc\x1cd\x1de\x1ef\x85g\u2028h\u2029i\x1fj')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i\x1fj',
    ]);
  });

  it('gives no lines for an empty string, while the metrics see one empty line', () => {
    expect(pySplitLines('')).toEqual([]);
    expect(structuralLines('')).toEqual(['']);
  });

  it('drops a byte-order mark before splitting for the metrics', () => {
    expect(structuralLines('\uFEFF# T\r\nx')).toEqual(['# T', 'x']);
    expect(structuralLines('\uFEFF')).toEqual(['']);
  });

  it('records offsets and terminators so edits can slice the original text', () => {
    const text = 'ab\r\ncd\ne';
    const lines = splitSourceLines(text);
    expect(lines.map((line) => [line.text, line.start, line.next, line.eol])).toEqual([
      ['ab', 0, 4, '\r\n'],
      ['cd', 4, 7, '\n'],
      ['e', 7, 8, ''],
    ]);
  });
});

describe('Python string helpers', () => {
  it('strips the whitespace Python strips (including \\x1f and \\x85, not U+FEFF)', () => {
    expect(pyStrip('\x1f\x85\u3000 a b\t\u00a0')).toBe('a b');
    expect(pyStrip('\uFEFFa')).toBe('\uFEFFa');
  });

  it('counts code points like len(): an astral character is one', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
  });
});

describe('line recognisers', () => {
  it('recognises headings of 1–6 hashes followed by whitespace and a title', () => {
    expect(parseHeading('## Steps ')).toEqual({ level: 2, title: 'Steps' });
    expect(parseHeading('######\tDeep')).toEqual({ level: 6, title: 'Deep' });
    expect(parseHeading('####### seven')).toBeNull();
    expect(parseHeading('##NoSpace')).toBeNull();
    // An empty title still makes a heading line (the original counts `#### ` for section depth).
    expect(parseHeading('## ')).toEqual({ level: 2, title: '' });
    expect(parseHeading('##')).toBeNull();
    expect(parseHeading(' ## indented')).toBeNull();
  });

  it('recognises list items on stripped lines', () => {
    expect(['- a', '* a', '+ a', '12. a', '**bold**', '---'].map(isListItem)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['1.5 a', '1.', 'a - b', '1) a'].map(isListItem)).toEqual([false, false, false, false]);
    // Any whitespace after the dot, as the original's `\d+\.\s`.
    expect(['1.\ta', '2.\u00a0a'].map(isListItem)).toEqual([true, true]);
  });

  it("reads the first word as Python's ^[A-Za-z']+\\b", () => {
    expect(
      ["Don't guess", 'Use_case', 'Run2 x', "Dont' do", 'Useé x', 'Run', "'quoted' x", '1 x'].map(firstWord),
    ).toEqual(["Don't", undefined, undefined, 'Dont', undefined, 'Run', "'quoted", undefined]);
  });

  it('recognises fence lines with at most three spaces of indent', () => {
    expect(parseFenceLine('```sh')).toEqual({ ticks: 3, info: 'sh' });
    expect(parseFenceLine('   ````  python x ')).toEqual({ ticks: 4, info: 'python x' });
    expect(parseFenceLine('    ```')).toBeNull();
    expect(parseFenceLine('``')).toBeNull();
    expect(parseFenceLine('~~~')).toBeNull();
  });

  it('pairs fences in order: any fence line closes an open fence', () => {
    const scan = scanFences(['```sh', 'x', '```json', 'prose', '```', 'tail']);
    expect(scan.blocks).toEqual([
      { open: 0, close: 2, info: 'sh' },
      { open: 4, close: null, info: '' },
    ]);
    expect(scan.fenced).toEqual([true, true, true, false, true, true]);
  });

  it('finds the end of a leading frontmatter block', () => {
    expect(frontmatterEnd(['---', 'name: x', '---', 'body'])).toBe(2);
    expect(frontmatterEnd(['# no frontmatter', '---'])).toBe(-1);
    expect(frontmatterEnd(['---', 'never closed'])).toBe(1);
  });
});

describe('lineUses: what an editor must leave alone', () => {
  const uses = (...rows: string[]) => lineUses(rows);

  it('marks fenced code (backticks and tildes), with a backtick line inside a tilde block as content', () => {
    expect(uses('text', '~~~', '```', 'x', '```', '~~~', 'after')).toEqual([
      'text',
      'fence',
      'code',
      'code',
      'code',
      'fence',
      'text',
    ]);
    // An unclosed fence runs to the end.
    expect(uses('```sh', 'a', '## b')).toEqual(['fence', 'code', 'code']);
  });

  it('marks indented code, but not an indented paragraph continuation or list-item text', () => {
    expect(uses('Para', '    continued', '', '    code', '', '    more code', 'x')).toEqual([
      'text',
      'text',
      'text',
      'code',
      'text',
      'code',
      'text',
    ]);
    expect(uses('# H', '    code right after a heading')).toEqual(['text', 'code']);
    // Inside a list item the content column counts: 4 spaces under "- " is item text, 6 is code.
    expect(uses('- item', '', '    item paragraph', '', '      item code')).toEqual([
      'text',
      'text',
      'text',
      'text',
      'code',
    ]);
  });

  it('marks HTML blocks up to their end condition', () => {
    expect(uses('<div>', '#### x', '</div>', '', 'text')).toEqual(['html', 'html', 'html', 'text', 'text']);
    expect(uses('<!-- note', '', 'still comment -->', 'text')).toEqual(['html', 'html', 'html', 'text']);
    expect(uses('<pre>', '', 'kept', '</pre>', 'text')).toEqual(['html', 'html', 'html', 'html', 'text']);
  });

  it('marks a line saying to output text verbatim and the paragraph it introduces', () => {
    expect(uses('Print exactly:', '', 'Queue empty.', 'Second line.', '', 'Prose.')).toEqual([
      'verbatim',
      'text',
      'verbatim',
      'verbatim',
      'text',
      'text',
    ]);
    // A cue without a colon protects only itself; no output verb, no cue.
    expect(uses('Reply with the error verbatim.', 'Next.')).toEqual(['verbatim', 'text']);
    expect(uses('This is exactly right:', 'Next.')).toEqual(['text', 'text']);
    expect(isVerbatimCue('Output this template verbatim:')).toBe(true);
  });

  it('finds inline code and quoted strings, leaving apostrophes alone', () => {
    const line = "Say \"a b\" then `c d` but don't split 'e f' or ``g ` h``.";
    const spans = inlineSpans(line).map(([a, b]) => line.slice(a, b));
    expect(spans.sort()).toEqual(['"a b"', "'e f'", '``g ` h``', '`c d`'].sort());
  });
});
