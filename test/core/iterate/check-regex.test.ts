/**
 * `regex` checks run on a linear-time engine: a catastrophic pattern cannot hang a run, patterns the
 * engine cannot run are refused when evals.json loads (naming the file and field), and renders are
 * matched only up to a bound.
 */
import { describe, expect, it } from 'vitest';
import {
  CheckRegexError,
  compileCheckRegex,
  MAX_CHECK_INPUT_CHARS,
} from '../../../src/core/iterate/check-regex.js';
import { evaluateCheck } from '../../../src/core/iterate/checks.js';
import { EvalsFileError, parseEvals } from '../../../src/core/iterate/evals.js';

function evalsWith(check: unknown): string {
  return JSON.stringify({
    categories: [
      { name: 'Format', evals: [{ id: 1, statement: 'ok' }] },
      { name: 'Content', evals: [{ id: 2, statement: 'checked', check }] },
    ],
  });
}

function loadError(check: unknown): EvalsFileError {
  try {
    parseEvals(evalsWith(check));
  } catch (err) {
    if (err instanceof EvalsFileError) return err;
    throw err;
  }
  throw new Error('expected an EvalsFileError');
}

describe('a catastrophic check pattern', () => {
  const CATASTROPHIC = '^([\\s\\S]+)+!$';

  it('is matched on a 50,000-character render without hanging, with the right answer', () => {
    const render = 'a'.repeat(50_000);
    const started = Date.now();
    const miss = evaluateCheck({ type: 'regex', value: CATASTROPHIC }, render);
    const hit = evaluateCheck({ type: 'regex', value: CATASTROPHIC }, `${render}!`);
    const negated = evaluateCheck({ type: 'not-regex', value: CATASTROPHIC }, render);
    // A backtracking engine takes longer than the age of the universe here; this is only a sanity bound.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(miss).toEqual({ pass: false, reason: `check regex: output does not match /${CATASTROPHIC}/` });
    expect(hit.pass).toBe(true);
    expect(negated.pass).toBe(true);
  });

  it('loads from evals.json (it is valid, merely slow for a backtracking engine)', () => {
    expect(() => parseEvals(evalsWith({ type: 'regex', value: CATASTROPHIC }))).not.toThrow();
  });
});

describe('patterns the linear-time engine cannot run are refused at load', () => {
  it.each([
    ['(a)\\1', 'backreference \\1 is not supported'],
    ['(?<word>\\w+) \\k<word>', 'backreference \\k<…> is not supported'],
    ['foo(?=bar)', 'not supported: error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?<!un)done', 'not supported: error parsing regexp: invalid named capture'],
    ['\\Astart', '\\A (an RE2 operator, a plain letter in JavaScript) is not supported'],
    ['a{1001}', 'not supported: error parsing regexp: invalid repeat count: `{1001}`'],
  ])('%s', (value, message) => {
    const err = loadError({ type: 'regex', value });
    expect(err.file).toBe('evals.json');
    expect(err.jsonPath).toBe('categories[1].evals[0].check.value');
    expect(err.detail).toContain(message);
    expect(err.message).toMatch(/^evals\.json: categories\[1\]\.evals\[0\]\.check\.value: /);
  });

  it('refuses the v flag, and still names invalid JavaScript patterns as before', () => {
    expect(loadError({ type: 'regex', value: '[a]', flags: 'v' }).detail).toMatch(
      /^the v flag is not supported/,
    );
    expect(loadError({ type: 'not-regex', value: '(' }).detail).toMatch(/^invalid regular expression \(/);
  });

  it('throws CheckRegexError from the compiler itself', () => {
    expect(() => compileCheckRegex('(a)\\1')).toThrow(CheckRegexError);
  });
});

describe('check patterns keep their JavaScript meaning', () => {
  const RENDER = '# Note\n\n## Summary\nAll done (#42).\nNext: rerun the suite\n';

  it.each([
    ['^## Summary$', '', false],
    ['^## Summary$', 'm', true],
    ['NEXT: RERUN', '', false],
    ['NEXT: RERUN', 'i', true],
    ['done.*Next', '', false],
    ['done.*Next', 's', true],
    ['\\(#\\d+\\)', '', true],
    ['^## Reproduction\\s*$[\\s\\S]*^## Fix\\s*$', 'm', false],
    ['(?<num>\\d+)', 'g', true],
    ['\\u0023 Note', 'u', true],
    ['[^]+', '', true],
    ['Summary', 'y', false],
    ['# Note', 'y', true],
    ['\\/path|rerun', '', true],
    ['', '', true],
  ])('/%s/%s', (pattern, flags, expected) => {
    expect(new RegExp(pattern, flags).test(RENDER)).toBe(expected);
    expect(compileCheckRegex(pattern, flags).test(RENDER)).toBe(expected);
  });

  it('gives the same answer on every call with the g flag', () => {
    const check = { type: 'regex' as const, value: 'Summary', flags: 'g' };
    expect(evaluateCheck(check, RENDER).pass).toBe(true);
    expect(evaluateCheck(check, RENDER).pass).toBe(true);
  });
});

describe('the render a check matches is bounded', () => {
  it('fails regex and not-regex alike on a render over the bound, saying why', () => {
    const huge = 'x'.repeat(MAX_CHECK_INPUT_CHARS + 1);
    const regex = evaluateCheck({ type: 'regex', value: 'x' }, huge);
    const negated = evaluateCheck({ type: 'not-regex', value: 'y' }, huge);
    expect(regex).toEqual({
      pass: false,
      reason: `check regex: output too long to match (${MAX_CHECK_INPUT_CHARS + 1} characters, limit ${MAX_CHECK_INPUT_CHARS})`,
    });
    expect(negated.pass).toBe(false);
    expect(evaluateCheck({ type: 'regex', value: 'x' }, huge.slice(1)).pass).toBe(true);
  });
});
