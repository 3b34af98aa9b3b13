import { describe, expect, it } from 'vitest';
import { proposedChanges } from '../../../src/core/review/proposed-changes.js';

describe('proposed changes as line runs', () => {
  it('finds each changed run of lines, in head line numbers', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\n';
    const after = 'a\nB\nc\nd\ne\nF1\nF2\ng\n';
    expect(proposedChanges('x.ts', before, after)).toEqual([
      { path: 'x.ts', startLine: 2, endLine: 2, oldLines: ['b'], newLines: ['B'] },
      { path: 'x.ts', startLine: 6, endLine: 6, oldLines: ['f'], newLines: ['F1', 'F2'] },
    ]);
  });

  it('takes the line above a pure insertion along (a suggestion replaces at least one line)', () => {
    expect(proposedChanges('x.ts', 'a\nb\n', 'a\nnew\nb\n')).toEqual([
      { path: 'x.ts', startLine: 1, endLine: 1, oldLines: ['a'], newLines: ['a', 'new'] },
    ]);
    expect(proposedChanges('x.ts', 'a\nb\n', 'top\na\nb\n')).toEqual([
      { path: 'x.ts', startLine: 1, endLine: 1, oldLines: ['a'], newLines: ['top', 'a'] },
    ]);
  });

  it('a deletion replaces the lines with nothing', () => {
    expect(proposedChanges('x.ts', 'a\nb\nc\n', 'a\nc\n')).toEqual([
      { path: 'x.ts', startLine: 2, endLine: 2, oldLines: ['b'], newLines: [] },
    ]);
  });
});
