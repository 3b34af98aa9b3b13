import { describe, expect, it } from 'vitest';
import { screenedOut, screeningBatch } from '../../../src/core/iterate/screening.js';

const SIX = ['s1', 's2', 's3', 's4', 's5', 's6'];
const fails = (...ids: string[]) => ids.map((scenario_id) => ({ scenario_id }));

describe('screeningBatch (docs/how-it-works.md § Decisions under noise, "Screening")', () => {
  it('with no spread measured: the failing scenarios plus the first passing one, in file order', () => {
    expect(screeningBatch(SIX, fails('s4', 's2', 's4'))).toEqual(['s1', 's2', 's4']);
  });

  it('with no spread measured, every scenario failing something: no batch (nothing to save)', () => {
    expect(screeningBatch(SIX, fails(...SIX))).toBeUndefined();
  });

  it('with a spread measured: the half where the kept text fails the most checks, file order among equals', () => {
    // s5 fails 3 checks, s2 and s6 two each, the rest one: s5, then s2 and s6; returned in file order.
    const failing = fails('s1', 's2', 's2', 's3', 's4', 's5', 's5', 's5', 's6', 's6');
    expect(screeningBatch(SIX, failing, true)).toEqual(['s2', 's5', 's6']);
    // All equal: the first half in file order.
    expect(screeningBatch(SIX, fails(...SIX), true)).toEqual(['s1', 's2', 's3']);
  });

  it('with a spread measured: the half is rounded up, and fewer than three scenarios are never screened', () => {
    expect(screeningBatch(['a', 'b', 'c', 'd', 'e'], fails('e'), true)).toEqual(['a', 'b', 'e']);
    expect(screeningBatch(['a', 'b', 'c'], fails('c', 'c', 'a'), true)).toEqual(['a', 'c']);
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
});
