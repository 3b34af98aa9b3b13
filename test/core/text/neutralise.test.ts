/** Untrusted text rendered inert in GitHub Markdown: inline (escaped) and as a block (fenced). */
import { describe, expect, it } from 'vitest';
import {
  fenceFor,
  inlineCode,
  neutraliseBlock,
  neutraliseInline,
  ZWJ,
} from '../../../src/core/text/neutralise.js';
import { decodeReferences, HOSTILE, liveParts } from '../../helpers/markdown-liveness.js';

describe('neutraliseInline', () => {
  it.each(HOSTILE)('leaves nothing live in %j', (text) => {
    const out = neutraliseInline(text);
    expect(liveParts(out)).toEqual([]);
    expect(out).not.toMatch(/[\r\n]/);
  });

  it('shows the same characters (the joiners are invisible), on one line', () => {
    for (const text of HOSTILE) {
      const shown = decodeReferences(neutraliseInline(text)).replaceAll(ZWJ, '');
      expect(shown).toBe(text.replace(/\s+/g, ' ').trim());
    }
  });

  it('breaks mentions, references and links with a joiner, and writes syntax as references', () => {
    expect(neutraliseInline('Fixes #1 @octocat <b>')).toBe(`Fixes #${ZWJ}1 @${ZWJ}octocat &lt;b&gt;`);
    expect(neutraliseInline('[t](javascript:x) GH-7 https://x.test')).toBe(
      `&#91;t&#93;(javascript:x) GH${ZWJ}-7 https:${ZWJ}//x.test`,
    );
    expect(neutraliseInline(' \n ')).toBe('_(empty)_');
  });
});

describe('neutraliseInline in a terminal', () => {
  it('writes no &quot; and no &amp; for ordinary text, and still keeps a written reference from decoding', () => {
    expect(neutraliseInline('Say "done" when Q&A & review pass')).toBe('Say "done" when Q&A & review pass');
    const out = neutraliseInline('ping &#64;octocat or &commat;octocat');
    // A numeric one is already broken by the joiner after `#`; a named one is written as a reference.
    expect(out).toBe(`ping &#${ZWJ}64;octocat or &amp;commat;octocat`);
    expect(liveParts(out)).toEqual([]);
  });
});

describe('neutraliseBlock', () => {
  it.each(HOSTILE)('keeps %j verbatim inside one code block', (text) => {
    const block = neutraliseBlock(text);
    expect(liveParts(block)).toEqual([]);
    expect(block.slice(block.indexOf('\n') + 1, block.lastIndexOf('\n'))).toBe(text);
  });

  it('uses a fence longer than any backtick run inside, and a clean info string', () => {
    const text = 'a ```` b\n`````\n@octocat';
    expect(fenceFor(text)).toBe('``````');
    expect(neutraliseBlock(text, 'json`x <b>')).toBe('``````jsonxb\na ```` b\n`````\n@octocat\n``````');
    expect(liveParts(`before\n\n${neutraliseBlock(text)}\n\nafter`)).toEqual([]);
  });
});

describe('inlineCode', () => {
  it('keeps the text verbatim in one span that the text cannot close', () => {
    expect(inlineCode('@octocat `x`')).toBe('`` @octocat `x` ``');
    expect(liveParts(inlineCode(HOSTILE.join(' ')))).toEqual([]);
  });
});

describe('the oracle', () => {
  it('sees what is live in raw text (so the tests above can fail)', () => {
    for (const text of HOSTILE.slice(0, 11)) expect(liveParts(text)).not.toEqual([]);
  });
});
