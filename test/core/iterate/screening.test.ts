import { describe, expect, it } from 'vitest';
import { screenedOut, screeningBatch } from '../../../src/core/iterate/screening.js';

const SIX = ['s1', 's2', 's3', 's4', 's5', 's6'];
const fails = (...ids: string[]) => ids.map((scenario_id) => ({ scenario_id }));

describe('screeningBatch (docs/how-it-works.md § Decisions under noise, "Screening")', () => {
  it('with no spread measured: the failing scenarios plus the first passing one, in file order', () => {
    expect(screeningBatch(SIX, fails('s4', 's2', 's4'))).toEqual(['s1', 's2', 's4']);
  });

  it('with a spread measured: the third where the kept text fails the most checks, file order among equals', () => {
    // s5 fails 3 checks, s2 and s6 two each, the rest one: s5, then s2 (before s6 in file order).
    const failing = fails('s1', 's6', 's2', 's2', 's3', 's4', 's5', 's5', 's5', 's6');
    expect(screeningBatch(SIX, failing, true)).toEqual(['s2', 's5']);
    // All equal: the first third in file order.
    expect(screeningBatch(SIX, fails(...SIX), true)).toEqual(['s1', 's2']);
    // Failing only in s4: s4, then the first in file order; the rule is the same when nearly all pass.
    expect(screeningBatch(SIX, fails('s4'), true)).toEqual(['s1', 's4']);
  });

  it('with no spread measured, every scenario failing something: the third that fails most, not every scenario', () => {
    // The rule above would be all six: nothing saved. A noisy night's first iteration looks like this.
    const failing = fails('s1', 's2', 's3', 's4', 's5', 's5', 's6', 's6', 's6');
    expect(screeningBatch(SIX, failing)).toEqual(['s5', 's6']);
    // Five failing and one passing is every scenario too.
    expect(screeningBatch(SIX, fails('s1', 's2', 's3', 's4', 's4', 's6'))).toEqual(['s1', 's4']);
    // Fewer: the rule without noise, however many scenarios that is.
    expect(screeningBatch(SIX, fails('s2', 's3', 's4', 's6'))).toEqual(['s1', 's2', 's3', 's4', 's6']);
  });

  it('the third is rounded up to at least two scenarios, and fewer than three scenarios are never screened', () => {
    const nine = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    expect(screeningBatch(nine, fails('i', 'h', 'h'), true)).toEqual(['a', 'h', 'i']);
    expect(screeningBatch(['a', 'b', 'c', 'd', 'e'], fails('e'), true)).toEqual(['a', 'e']);
    expect(screeningBatch(['a', 'b', 'c', 'd'], fails('d', 'c', 'c'), true)).toEqual(['c', 'd']);
    expect(screeningBatch(['a', 'b', 'c'], fails('c', 'c', 'a'), true)).toEqual(['a', 'c']);
    expect(screeningBatch(['a', 'b', 'c'], fails('a', 'b', 'c'))).toEqual(['a', 'b']);
    expect(screeningBatch(['a', 'b'], fails('a'), true)).toBeUndefined();
    expect(screeningBatch(SIX, undefined, true)).toBeUndefined();
  });
});

describe('screenedOut', () => {
  it('reverts only a candidate with fewer passing checks on the batch; a tie goes on', () => {
    expect(screenedOut(1, 2)).toBe(true);
    expect(screenedOut(2, 2)).toBe(false);
    expect(screenedOut(3, 2)).toBe(false);
  });

  it('with ties out (a flip rate where promising edits are re-drawn), only more passing checks go on', () => {
    expect(screenedOut(1, 2, true)).toBe(true);
    expect(screenedOut(2, 2, true)).toBe(true);
    expect(screenedOut(3, 2, true)).toBe(false);
  });
});
