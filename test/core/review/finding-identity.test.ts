/**
 * One finding, known by what it says and where (issue 27): a title worded afresh, a line a fix moved, a
 * file named or not — the same finding; two findings of one place that say different things, or the same
 * words in two files — not. And the words a loop says when its own fix changed nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  findingWords,
  pairFindings,
  sameFinding,
  textSimilarity,
} from '../../../src/core/review/finding-identity.js';
import { whyFixChangedNothing } from '../../../src/core/review/unchanged-fix.js';
import type { FixReport } from '../../../src/core/review/outcome.js';

describe('the words of a finding', () => {
  it('are cut to their stems, without filler, numbers kept', () => {
    expect([...findingWords('NaN inputs are not guarded')]).toEqual(['nan', 'input', 'guard']);
    expect([...findingWords('No guard against NaN input')]).toEqual(['guard', 'against', 'nan', 'input']);
    expect([...findingWords('MAX = 30 still floods the output')]).toEqual(['max', '30', 'flood', 'output']);
    expect(textSimilarity('wave() ignores GREETING', 'wave() ignored the greeting')).toBe(1);
  });
});

describe('the same finding', () => {
  const nan = { title: 'No guard against NaN input', file: 'src/calc.ts', line: 5 };

  it.each([
    ['worded afresh, same place', { title: 'NaN inputs are not guarded', file: 'src/calc.ts', line: 5 }],
    ['worded afresh, moved by a fix', { title: 'Missing NaN guard', file: 'src/calc.ts', line: 9 }],
    [
      'the same words far away in the file',
      { title: 'No guard against NaN input', file: 'src/calc.ts', line: 80 },
    ],
    ['without a file', { title: 'NaN input has no guard', file: null, line: null }],
    ['with ./ before the path', { title: 'No guard against NaN input', file: './src/calc.ts', line: 5 }],
  ])('%s', (_, other) => {
    expect(sameFinding(nan, other)).toBe(true);
    expect(sameFinding(other, nan)).toBe(true);
  });

  it.each([
    ['another file', { title: 'No guard against NaN input', file: 'src/other.ts', line: 5 }],
    [
      'another finding on the next line',
      { title: 'half() lacks a doc comment', file: 'src/calc.ts', line: 6 },
    ],
    ['a loose resemblance far away', { title: 'NaN in the docs', file: 'src/calc.ts', line: 40 }],
  ])('not: %s', (_, other) => {
    expect(sameFinding(nan, other)).toBe(false);
  });

  it('a thin resemblance counts only in the same place', () => {
    const near = { title: 'wave() greeting is hard-coded', file: 'src/greet.ts', line: 23 };
    const thread = { title: 'wave() ignores the greeting', file: 'src/greet.ts', line: 22 };
    expect(sameFinding(near, thread)).toBe(true);
    expect(sameFinding({ ...near, line: 60 }, thread)).toBe(false);
  });
});

describe('pairing a round’s findings with the threads there are', () => {
  it('one thread per finding, the better match first; a finding with no match gets none', () => {
    const threads = [
      { title: 'wave() ignores the greeting', file: 'src/greet.ts', line: 22 },
      { title: 'MAX = 30 floods the output', file: 'src/greet.ts', line: 3 },
    ];
    const findings = [
      { title: 'wave() greeting ignored here too', file: 'src/greet.ts', line: 40 },
      { title: 'wave() still ignores the greeting', file: 'src/greet.ts', line: 23 },
      { title: 'repeat() greets again for every copy', file: 'src/greet.ts', line: 10 },
    ];
    expect(pairFindings(findings, threads)).toEqual([-1, 0, -1]);
  });
});

describe('why a fix changed nothing', () => {
  const fix = (over: Partial<FixReport>): FixReport => ({
    summary: '',
    applied: [],
    rejected: [],
    commit: null,
    skipped: [],
    guidance: null,
    instructions: null,
    ...over,
  });

  it('names each refused edit with its rule, the files of one reason together', () => {
    const reason = 'the fix commit 1234567 did not land: after the update the branch head is aaaaaaa';
    expect(
      whyFixChangedNothing(
        fix({
          rejected: [
            {
              path: '.github/workflows/ci.yml',
              reason: '.github/workflows/ is never edited by the review loop',
            },
            { path: 'src/a.ts', reason },
            { path: 'src/b.ts', reason },
          ],
        }),
      ),
    ).toBe(
      '3 edits were refused: `.github/workflows/ci.yml` (.github/workflows/ is never edited by the review loop); ' +
        `\`src/a.ts\` and \`src/b.ts\` (${reason})`,
    );
  });

  it.each([
    ['nothing-to-fix', 'every finding was skipped or resolved in the debate, so there was nothing to fix'],
    ['no-usable-answer', 'the executor gave no usable answer, twice'],
    ['none-proposed', 'the executor proposed no edit'],
  ] as const)('%s', (noEdit, words) => {
    expect(whyFixChangedNothing(fix({ noEdit }))).toBe(words);
  });
});
