/**
 * The offline editor never edits code or verbatim text (docs/how-it-works.md § Scoring): a property test
 * over generated Markdown, and the example skills. Each document is edited until the editor has nothing
 * left to propose; every code block, HTML block, verbatim template, inline code span and quoted string of
 * the original must still be in the result, byte for byte and in order. The blocks are known from the
 * generator (an oracle independent of the Markdown reader under test).
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointLength } from '../../../src/core/iterate/markdown.js';
import { proposeOfflineEdit } from '../../../src/core/iterate/offline-edits.js';
import { splitLongLine } from '../../../src/core/iterate/line-split.js';
import { scoreStructure, type StructuralContext } from '../../../src/core/iterate/structural.js';

const ctx: StructuralContext = {
  skillDir: '/nonexistent-skill',
  requiredSections: undefined,
  exists: () => false,
};

/** Applies every edit the offline editor proposes (at most `limit`), as Step B would, accepting each. */
function editToTheEnd(text: string, limit = 25): { text: string; edits: number } {
  let current = text;
  let edits = 0;
  const reverted: string[] = [];
  for (; edits < limit; edits++) {
    const edit = proposeOfflineEdit({
      skillMd: current,
      structural: scoreStructure(current, ctx),
      revertedDescriptions: reverted,
    });
    if (!edit) break;
    expect(current.split(edit.old_string).length - 1).toBe(1);
    current = current.replace(edit.old_string, () => edit.new_string);
    // A kept edit is never proposed again either: nothing loops.
    reverted.push(edit.description);
  }
  return { text: current, edits };
}

/** Every protected block still appears, byte for byte, in the original order. */
function expectBlocksKept(text: string, blocks: readonly string[]): void {
  let from = 0;
  for (const block of blocks) {
    const at = text.indexOf(block, from);
    expect(at, `block ${JSON.stringify(block.slice(0, 60))} lost or changed`).toBeGreaterThanOrEqual(0);
    from = at + block.length;
  }
}

const word = fc.stringMatching(/^[a-z]{1,9}$/);
/** A line long enough to tempt the line splitter, with spaces (break points) throughout. */
const longLine = fc
  .array(word, { minLength: 35, maxLength: 60 })
  .map((words) => words.join(' '))
  .filter((line) => codePointLength(line) > 160);
const shortLine = fc.array(word, { minLength: 2, maxLength: 8 }).map((words) => words.join(' '));
const codeLine = fc.oneof(
  longLine,
  shortLine,
  longLine.map((l) => `$x = "${l}"`),
  fc.constant('#### Not a heading here'),
  fc.constant('## nor here'),
  fc.constant(''),
);

interface Piece {
  text: string;
  /** The part that must survive byte for byte, or undefined for editable prose. */
  keep: string | undefined;
}

const prose: fc.Arbitrary<Piece> = fc.oneof(longLine, shortLine).map((text) => ({ text, keep: undefined }));

/**
 * A long line whose only break points are inside a quoted string or an inline code span: the line may be
 * edited around it, the span itself must survive byte for byte (never split, never reworded).
 */
const spans: fc.Arbitrary<Piece> = fc
  .tuple(shortLine, longLine, fc.constantFrom('"', '`', '``'))
  .map(([a, l, mark]) => {
    const span = `${mark}${l}${mark}`;
    return { text: `${a} ${span} end.`, keep: span };
  });

const heading: fc.Arbitrary<Piece> = fc
  .tuple(fc.constantFrom('##', '###', '####'), shortLine)
  .map(([hashes, title]) => ({ text: `${hashes} ${title}`, keep: undefined }));

const fenced: fc.Arbitrary<Piece> = fc
  .tuple(fc.constantFrom('```', '```sh', '````', '~~~', '~~~text'), fc.array(codeLine, { maxLength: 6 }))
  .map(([opener, body]) => {
    const marker = opener.startsWith('~') ? '~~~' : opener.startsWith('````') ? '````' : '```';
    // A ~~~ block may hold backtick lines; they are content, not fences.
    const content = marker === '~~~' ? ['```', ...body, '```'] : body;
    const rest = [...content, marker].join('\n');
    // The opener may be labelled by the editor; everything after it is code.
    return { text: `${opener}\n${rest}`, keep: `\n${rest}` };
  });

const indented: fc.Arbitrary<Piece> = fc
  .array(fc.oneof(longLine, shortLine), { minLength: 1, maxLength: 4 })
  .map((lines) => {
    const text = lines.map((l) => `    ${l}`).join('\n');
    return { text, keep: text };
  });

const html: fc.Arbitrary<Piece> = fc.array(fc.oneof(longLine, shortLine), { maxLength: 4 }).map((lines) => {
  const text = ['<div class="template">', ...lines, '#### inside html', '</div>'].join('\n');
  return { text, keep: text };
});

const verbatim: fc.Arbitrary<Piece> = fc
  .tuple(
    fc.constantFrom('Print exactly:', 'Output this template verbatim:'),
    fc.array(longLine, { minLength: 1, maxLength: 3 }),
  )
  .map(([cue, template]) => {
    const text = [cue, '', ...template].join('\n');
    return { text, keep: text };
  });

const FRONTMATTER = '---\nname: generated\ndescription: A generated skill.\n---\n# Generated\n';

const documents = fc
  .array(fc.oneof(prose, prose, spans, heading, fenced, indented, html, verbatim), {
    minLength: 1,
    maxLength: 12,
  })
  .chain((pieces) =>
    // Duplicate some prose paragraphs, so the duplicate-dropping edit has work around the blocks too.
    fc
      .boolean()
      .map((twice) => (twice ? [...pieces, ...pieces.filter((p) => p.keep === undefined)] : pieces)),
  )
  .map((pieces) => ({
    text: FRONTMATTER + pieces.map((p) => p.text).join('\n\n') + '\n',
    keep: pieces.flatMap((p) => (p.keep === undefined ? [] : [p.keep])),
  }));

describe('the offline editor never edits inside code or verbatim text', () => {
  it('leaves every code block, HTML block, verbatim template, inline code span and quoted string byte-identical (generated Markdown)', () => {
    let editedDocuments = 0;
    fc.assert(
      fc.property(documents, ({ text, keep }) => {
        const result = editToTheEnd(text);
        if (result.edits > 0) editedDocuments++;
        expectBlocksKept(result.text, keep);
      }),
      { numRuns: 150, seed: 20260611 },
    );
    // The property is not vacuous: the editor did edit most documents around the blocks.
    expect(editedDocuments).toBeGreaterThan(50);
  });

  it('leaves the example skills’ code blocks and the templates they say to print exactly as they are', () => {
    const root = path.join(
      import.meta.dirname,
      '..',
      '..',
      '..',
      'examples',
      'workspace',
      '.claude',
      'skills',
    );
    let checked = 0;
    for (const name of fs.readdirSync(root).sort()) {
      const text = fs.readFileSync(path.join(root, name, 'SKILL.md'), 'utf8');
      // The fenced blocks, found with a plain pattern (not the reader under test).
      const blocks = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => `\n${m[1]}\`\`\``);
      const result = editToTheEnd(text);
      expectBlocksKept(result.text, blocks);
      checked += blocks.length;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
  });

  it('splits a long line between quoted strings and inline code, never inside them', () => {
    const quoted = `"${'word '.repeat(10).trim()}"`;
    const code = `\`${'x '.repeat(15).trim()}\``;
    const line = `Say ${quoted} and then run ${code} and finally say ${quoted} once more to end it.`;
    const split = splitLongLine(line, 'any', 80);
    expect(split).not.toBeNull();
    for (const piece of split!.pieces) {
      expect((piece.match(/"/g) ?? []).length % 2).toBe(0);
      expect((piece.match(/`/g) ?? []).length % 2).toBe(0);
    }
    expect(split!.pieces.join(' ').replace(/\s+/g, ' ')).toBe(line);
  });

  it('does not touch a long line in a 4-space-indented code block or a template the skill prints exactly', () => {
    const long = `$message = "${'a long PowerShell string that goes on '.repeat(5).trim()}"`;
    const template = `Queue empty -- nothing to iterate. ${'All scorable skills were skip-listed or fresh. '.repeat(3).trim()}`;
    const text = [
      FRONTMATTER.trimEnd(),
      '## Steps',
      '',
      'Run this:',
      '',
      `    ${long}`,
      '',
      'When nothing is left, print exactly:',
      '',
      template,
      '',
    ].join('\n');
    expect(
      proposeOfflineEdit({ skillMd: text, structural: scoreStructure(text, ctx), revertedDescriptions: [] }),
    ).toBeNull();
  });
});
