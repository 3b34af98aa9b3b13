import { describe, expect, it } from 'vitest';
import { classifyIteration, type TaxonomyInput } from '../../../src/core/iterate/taxonomy.js';

const base: TaxonomyInput = {
  status: 'ok',
  score: 0.6,
  highWater: 0.5,
  linesDelta: 0,
  refused: false,
};

describe('classifyIteration', () => {
  it('keeps a strict improvement whatever the lines', () => {
    expect(classifyIteration(base)).toBe('keep');
    expect(classifyIteration({ ...base, linesDelta: 5 })).toBe('keep');
  });

  it('keeps a tie that shrank the file (simplicity bias), reverts a tie that did not', () => {
    expect(classifyIteration({ ...base, score: 0.5, linesDelta: -1 })).toBe('keep');
    expect(classifyIteration({ ...base, score: 0.5, linesDelta: 0 })).toBe('revert');
    expect(classifyIteration({ ...base, score: 0.5, linesDelta: 2 })).toBe('revert');
  });

  it('reverts a drop even when lines shrank', () => {
    expect(classifyIteration({ ...base, score: 0.4, linesDelta: -10 })).toBe('revert');
  });

  it('reverts AMBIGUOUS whatever the score', () => {
    expect(classifyIteration({ ...base, status: 'ambiguous', score: null })).toBe('revert');
    expect(classifyIteration({ ...base, status: 'ambiguous', score: 0.9 })).toBe('revert');
  });

  it('crashes when there is no number', () => {
    expect(classifyIteration({ ...base, status: 'unparseable', score: null })).toBe('crash');
    expect(classifyIteration({ ...base, status: 'harness-error', score: null })).toBe('crash');
    expect(classifyIteration({ ...base, status: 'ok', score: null })).toBe('crash');
    expect(classifyIteration({ ...base, status: 'ok', score: Number.NaN })).toBe('crash');
  });

  it('never keeps an edit that broke the frontmatter', () => {
    expect(classifyIteration({ ...base, score: 0.99, refused: true })).toBe('revert');
    expect(classifyIteration({ ...base, score: 0.5, linesDelta: -3, refused: true })).toBe('revert');
  });

  it('treats float noise against the high-water mark as a tie', () => {
    expect(classifyIteration({ ...base, score: 0.1 + 0.2, highWater: 0.3 })).toBe('revert');
  });
});
