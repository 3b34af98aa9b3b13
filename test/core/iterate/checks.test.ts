import { describe, expect, it } from 'vitest';
import { countWords, evaluateCheck } from '../../../src/core/iterate/checks.js';
import { countTextLines } from '../../../src/core/iterate/lines.js';

const RENDER = '## Summary\nWe fixed the Flaky login test.\n\nNext: rerun CI.\n';

describe('evaluateCheck', () => {
  it('contains is case-sensitive and not-contains negates it', () => {
    expect(evaluateCheck({ type: 'contains', value: 'Flaky login' }, RENDER).pass).toBe(true);
    expect(evaluateCheck({ type: 'contains', value: 'flaky login' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'not-contains', value: 'flaky login' }, RENDER).pass).toBe(true);
    expect(evaluateCheck({ type: 'not-contains', value: 'Flaky login' }, RENDER).pass).toBe(false);
  });

  it('icontains ignores case and not-icontains negates it', () => {
    expect(evaluateCheck({ type: 'icontains', value: 'FLAKY LOGIN' }, RENDER).pass).toBe(true);
    expect(evaluateCheck({ type: 'icontains', value: 'deploy' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'not-icontains', value: 'FLAKY LOGIN' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'not-icontains', value: 'deploy' }, RENDER).pass).toBe(true);
  });

  it('regex honours its flags (m anchors per line, i ignores case)', () => {
    expect(evaluateCheck({ type: 'regex', value: '^## Summary$' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'regex', value: '^## Summary$', flags: 'm' }, RENDER).pass).toBe(true);
    expect(evaluateCheck({ type: 'regex', value: 'next: RERUN' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'regex', value: 'next: RERUN', flags: 'i' }, RENDER).pass).toBe(true);
    expect(evaluateCheck({ type: 'not-regex', value: '^## Summary$', flags: 'm' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'not-regex', value: 'TODO' }, RENDER).pass).toBe(true);
  });

  it('a g-flagged regex gives the same answer on every call (no lastIndex carry-over)', () => {
    const check = { type: 'regex' as const, value: 'Summary', flags: 'g' };
    expect(evaluateCheck(check, RENDER).pass).toBe(true);
    expect(evaluateCheck(check, RENDER).pass).toBe(true);
  });

  it('an invalid pattern fails the pair with a reason instead of throwing', () => {
    const verdict = evaluateCheck({ type: 'regex', value: '(unclosed' }, RENDER);
    expect(verdict.pass).toBe(false);
    expect(verdict.reason).toMatch(/invalid pattern/);
    expect(evaluateCheck({ type: 'not-regex', value: '(unclosed' }, RENDER).pass).toBe(false);
  });

  it('max-lines counts lines without the trailing newline or trailing blank lines', () => {
    // RENDER has 4 lines: heading, sentence, blank, "Next: …".
    expect(countTextLines(RENDER)).toBe(4);
    expect(countTextLines(`${RENDER}\n\n`)).toBe(4);
    expect(countTextLines('')).toBe(0);
    expect(countTextLines('a\r\nb\rc')).toBe(3);
    expect(evaluateCheck({ type: 'max-lines', value: 4 }, RENDER).pass).toBe(true);
    const over = evaluateCheck({ type: 'max-lines', value: 3 }, RENDER);
    expect(over.pass).toBe(false);
    expect(over.reason).toContain('4 lines (max 3)');
  });

  it('max-words counts whitespace-separated words', () => {
    // "##", "Summary", "We", "fixed", "the", "Flaky", "login", "test.", "Next:", "rerun", "CI." = 11
    expect(countWords(RENDER)).toBe(11);
    expect(evaluateCheck({ type: 'max-words', value: 11 }, RENDER).pass).toBe(true);
    expect(evaluateCheck({ type: 'max-words', value: 10 }, RENDER).pass).toBe(false);
    expect(countWords('   ')).toBe(0);
  });

  it('is-json accepts a JSON document with surrounding whitespace and rejects prose or fenced JSON', () => {
    expect(evaluateCheck({ type: 'is-json' }, '  {"a": [1, 2]}\n').pass).toBe(true);
    expect(evaluateCheck({ type: 'is-json' }, '42').pass).toBe(true);
    expect(evaluateCheck({ type: 'is-json' }, RENDER).pass).toBe(false);
    expect(evaluateCheck({ type: 'is-json' }, '```json\n{"a":1}\n```').pass).toBe(false);
  });

  it('reasons name the check and what was found', () => {
    expect(evaluateCheck({ type: 'contains', value: 'deploy' }, RENDER).reason).toBe(
      'check contains: output does not contain "deploy"',
    );
  });
});
