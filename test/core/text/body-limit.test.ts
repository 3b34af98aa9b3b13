/**
 * Bodies bounded under GitHub's limit: a cut closes what it opened and never makes anything live, with a
 * note of what was cut. Property-based (fast-check) over hostile text, plus the cases issue 13 found.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundBody, GITHUB_BODY_LIMIT, truncateText } from '../../../src/core/text/body-limit.js';
import { inlineCode, neutraliseBlock, neutraliseInline, ZWJ } from '../../../src/core/text/neutralise.js';
import { HOSTILE, liveParts } from '../../helpers/markdown-liveness.js';

/** Strings built from hostile fragments, Markdown syntax characters and arbitrary text. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HOSTILE),
      fc.constantFrom(
        '@',
        '#',
        '`',
        '```',
        '<',
        '>',
        '[',
        ']',
        '(',
        ')',
        '\\',
        '&',
        ';',
        '\n',
        '\n\n',
        ' ',
        ':',
        '/',
        '!',
      ),
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 10 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** A report as the engines write them: trusted headings around untrusted pieces, each in its own paragraph. */
function report(title: string, description: string, edit: string, log: string): string {
  return [
    '## skill-iterate: verify',
    '',
    `**Kept edit:** ${neutraliseInline(description)}`,
    '',
    `1. ${inlineCode(edit)}`,
    '',
    '**Log:**',
    '',
    neutraliseBlock(log),
    '',
    `_${neutraliseInline(title)}_`,
  ].join('\n');
}

describe('boundBody', () => {
  it('keeps a body that fits as it is', () => {
    const body = report('t', 'd', 'e', 'l');
    expect(boundBody(body)).toEqual({ body, cutChars: 0 });
  });

  it('never exceeds the limit and never leaves anything live, whatever the text and wherever the cut', () => {
    fc.assert(
      fc.property(
        hostileText,
        hostileText,
        hostileText,
        hostileText,
        fc.integer({ min: 512, max: 3_000 }),
        (title, description, edit, log, limit) => {
          const body = report(title, description, edit, log);
          expect(liveParts(body)).toEqual([]);
          const bounded = boundBody(body, { limit });
          expect(bounded.body.length).toBeLessThanOrEqual(limit);
          expect(liveParts(bounded.body)).toEqual([]);
          if (body.length <= limit) expect(bounded).toEqual({ body, cutChars: 0 });
          else
            expect(bounded.body).toMatch(
              /characters were cut to stay under GitHub's [\d,]+-character limit\._\n$/,
            );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('closes a long inline code span wherever the cut lands in it', () => {
    fc.assert(
      fc.property(
        hostileText,
        fc.integer({ min: 20, max: 200 }),
        fc.integer({ min: 512, max: 4_000 }),
        (edit, repeat, limit) => {
          // One long line: the cut cannot move back to a line end and lands inside the span.
          const body = `## Kept edits\n\n1. ${inlineCode(`${edit} @octocat Fixes #1 <img src=x> `.repeat(repeat))}\n`;
          const bounded = boundBody(body, { limit });
          expect(bounded.body.length).toBeLessThanOrEqual(limit);
          expect(liveParts(bounded.body)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('closes the inline code span a 70,000-character kept edit is cut inside (issue 13, item 4)', () => {
    const hostile = '@octocat @acme/admins Fixes #1 <img src=x onerror=alert(1)> [x](javascript:alert(1)) ';
    const description = hostile.repeat(Math.ceil(70_000 / hostile.length)).slice(0, 70_000);
    const body = `## Kept edits\n\n1. iteration 3: ${inlineCode(description)}\n\n_end_\n`;
    // Cutting without closing is what made the text live:
    expect(liveParts(body.slice(0, GITHUB_BODY_LIMIT))).not.toEqual([]);
    const bounded = boundBody(body, { fullTextAt: 'the state branch (state/verify/last-run.json)' });
    expect(bounded.body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(bounded.cutChars).toBe(body.length - bounded.body.indexOf(' `\n\n---\n'));
    expect(liveParts(bounded.body)).toEqual([]);
    expect(bounded.body).toMatch(
      /^## Kept edits\n\n1\. iteration 3: `@octocat [^`]*`\n\n---\n_[\d,]+ of [\d,]+ characters were cut to stay under GitHub's 65,536-character limit; the full text is in the state branch \(state\/verify\/last-run\.json\)\._\n$/,
    );
  });

  it('closes a fenced block it cuts, so the note is outside it', () => {
    const log = Array.from({ length: 2_000 }, (_, i) => `line ${i} @octocat <b>#${i}</b>`).join('\n');
    const body = `**Log:**\n\n${neutraliseBlock(log)}\n`;
    const bounded = boundBody(body, { limit: 4_000 });
    expect(bounded.body.length).toBeLessThanOrEqual(4_000);
    expect(bounded.body).toMatch(/\n```\n\n---\n_[\d,]+ of [\d,]+ characters were cut/);
    expect(liveParts(bounded.body)).toEqual([]);
  });

  it('closes an HTML comment the cut leaves open, and cuts no character from its joiner', () => {
    const comment = boundBody(`<!-- ${'x'.repeat(2_000)} -->`, { limit: 600 });
    expect(comment.body).toMatch(/^<!-- x+ -->\n\n---\n_/);
    const mentions = neutraliseInline('@a '.repeat(1_000));
    for (let limit = 600; limit < 640; limit++) {
      const bounded = boundBody(mentions, { limit }).body;
      expect(bounded).not.toMatch(new RegExp(`@(?!${ZWJ})`));
      expect(bounded).not.toMatch(/&#?[a-z0-9]*\n/i);
    }
  });

  it('refuses a limit too small for its note', () => {
    expect(() => boundBody('x', { limit: 100 })).toThrow(
      'body limit must be an integer of at least 512, got 100',
    );
  });
});

describe('truncateText', () => {
  it('cuts raw text before it is neutralised, on a whole character, with an ellipsis', () => {
    expect(truncateText('short', 10)).toEqual({ text: 'short', cutChars: 0 });
    expect(truncateText('abcdefghij', 5)).toEqual({ text: 'abcd…', cutChars: 6 });
    expect(truncateText('abc😀def', 5)).toEqual({ text: 'abc…', cutChars: 5 });
    const cut = truncateText('@octocat '.repeat(100), 50);
    expect(liveParts(neutraliseInline(cut.text))).toEqual([]);
    expect(cut.text.length).toBe(50);
  });
});
