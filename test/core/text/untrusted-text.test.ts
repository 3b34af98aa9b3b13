import { describe, expect, it } from 'vitest';
import { GITHUB_BODY_LIMIT } from '../../../src/core/text/body-limit.js';
import {
  BODY_LIMIT,
  clip,
  inertBlock,
  inertInline,
  postable,
} from '../../../src/core/text/untrusted-text.js';

const TOKEN = 'ghs_abcdefghijklmnopqrstuvwxyz123';
const KNOWN = 'my-own-secret-value';

describe('the one renderer of untrusted text', () => {
  it('redacts credential shapes always, and the known secrets the caller passes, inline and in a block', () => {
    const text = `key ${TOKEN} and ${KNOWN}`;
    expect(inertInline(text)).not.toContain(TOKEN);
    expect(inertInline(text)).toContain('my-own-secret-value');
    expect(inertInline(text, 300, [KNOWN])).not.toContain(KNOWN);
    expect(inertBlock(text)).not.toContain(TOKEN);
    expect(inertBlock(text, 20_000, 'text', [KNOWN])).not.toContain(KNOWN);
  });

  it('cuts the raw text before neutralising it, so a cut never leaves half an escape', () => {
    const shown = inertInline('@someone '.repeat(50), 20);
    expect(shown).toContain('…');
    expect(shown).not.toMatch(/(^|\s)@someone\b/);
    // The cut counts characters of the original: the neutralised form may be longer than `max`.
    expect(clip('@someone '.repeat(50), 20)).toHaveLength(20);
  });

  it('fences a block with a fence the text cannot close, with the info string asked for', () => {
    const block = inertBlock('a ``` b', 100, 'text');
    expect(block.startsWith('````text\n')).toBe(true);
  });

  it('keeps every posted body strictly under GitHub’s limit', () => {
    expect(BODY_LIMIT).toBe(GITHUB_BODY_LIMIT - 1);
    expect(postable('x'.repeat(GITHUB_BODY_LIMIT + 10)).length).toBeLessThanOrEqual(BODY_LIMIT);
  });
});
