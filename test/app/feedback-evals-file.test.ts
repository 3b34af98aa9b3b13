/**
 * The feedback evals file (src/app/feedback-evals.ts): the hunk a finding was about, holdouts, bounds, and
 * what the App refuses to append to.
 */
import { describe, expect, it } from 'vitest';
import { readEvalsShape } from '../../src/core/iterate/agent-skills-evals.js';
import {
  HUNK_MAX_LINES,
  MAX_EVALS_PER_FILE,
  MAX_EVALS_PER_REVIEWED_PR,
  appendFeedbackEvals,
  evalsPathOf,
  hunkFor,
  readAppendable,
  type FeedbackItem,
} from '../../src/app/feedback-evals.js';

function diffOf(file: string, hunks: Array<{ start: number; lines: string[] }>): string {
  return [
    `diff --git a/${file} b/${file}`,
    `--- a/${file}`,
    `+++ b/${file}`,
    ...hunks.flatMap((h) => [`@@ -${h.start},1 +${h.start},${h.lines.length} @@`, ...h.lines]),
    '',
  ].join('\n');
}

function item(title: string, pr = 3, kind: 'dismissed' | 'accepted' = 'dismissed'): FeedbackItem {
  return {
    feedback: { kind, title, file: `src/${title}.ts`, line: 1, pr, by: 'maintainer' },
    hunk: '@@ -1 +1 @@\n+x',
  };
}

const words = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
];

describe('hunkFor', () => {
  const diff =
    diffOf('src/a.ts', [
      { start: 1, lines: ['+first'] },
      { start: 40, lines: ['+second', ' context'] },
    ]) + diffOf('src/b.ts', [{ start: 1, lines: ['+other file'] }]);

  it('takes the hunk holding the line, in the finding’s file only', () => {
    expect(hunkFor(diff, 'src/a.ts', 41)).toBe('@@ -40,1 +40,2 @@\n+second\n context');
    expect(hunkFor(diff, 'src/a.ts', 2)).toBe('@@ -1,1 +1,1 @@\n+first');
    expect(hunkFor(diff, 'src/b.ts', null)).toBe('@@ -1,1 +1,1 @@\n+other file');
    expect(hunkFor(diff, 'src/c.ts', 1)).toBeUndefined();
  });

  it('cuts a long hunk to the lines around the finding', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `+line ${i + 1}`);
    const hunk = hunkFor(diffOf('src/a.ts', [{ start: 1, lines }]), 'src/a.ts', 200)!;
    const body = hunk.split('\n').slice(1);
    expect(body).toHaveLength(HUNK_MAX_LINES);
    expect(body).toContain('+line 200');
    expect(body).not.toContain('+line 1');
  });
});

describe('appendFeedbackEvals', () => {
  const path = evalsPathOf('.github/skills/review-loop-reviewer/');

  it('marks every fifth eval a holdout and bounds one reviewed pull request', () => {
    const items = words.map((w) => item(w));
    const result = appendFeedbackEvals({
      current: undefined,
      onDefault: undefined,
      skillName: 'r',
      items,
      secrets: [],
    });
    expect(result.added).toHaveLength(MAX_EVALS_PER_REVIEWED_PR);
    expect(result.added.filter((e) => e.skillclimb?.holdout).map((e) => e.id)).toEqual([5, 10]);
    expect(result.leftOut).toHaveLength(items.length - MAX_EVALS_PER_REVIEWED_PR);
    expect(result.leftOut[0]).toMatch(/"kilo" of #3: #3 gave 10 evals/);
    const shape = readEvalsShape(result.text!, false, path);
    expect(shape.format).toBe('agent-skills');
  });

  it('adds nothing to a full file, and says so', () => {
    const full = {
      evals: Array.from({ length: MAX_EVALS_PER_FILE }, (_, i) => ({
        id: i + 1,
        prompt: 'p',
        assertions: ['a'],
      })),
    };
    const result = appendFeedbackEvals({
      current: full,
      onDefault: full,
      skillName: 'r',
      items: [item('alpha')],
      secrets: [],
    });
    expect(result.text).toBeUndefined();
    expect(result.leftOut).toEqual([
      'dismissed finding "alpha" of #3: the file holds 200 evals, the most the App writes to',
    ]);
  });

  it('never leaves only holdouts: the loop needs one eval to climb on', () => {
    // Four feedback evals a person marked holdouts: the App's next would be the fifth, a holdout too.
    const current = {
      evals: [1, 2, 3, 4].map((id) => ({
        id,
        prompt: 'p',
        assertions: ['a'],
        skillclimb: { holdout: true, feedback: { kind: 'dismissed', title: words[id]!, pr: 1 } },
      })),
    };
    const result = appendFeedbackEvals({
      current,
      onDefault: undefined,
      skillName: 'r',
      items: [item('zulu')],
      secrets: [],
    });
    expect(result.added.map((e) => e.id)).toEqual([5]);
    expect(result.added[0]?.skillclimb?.holdout).toBeUndefined();
    expect(readEvalsShape(result.text!, false).format).toBe('agent-skills');
  });

  it('refuses an evals file in the original format or one that does not parse', () => {
    expect(() => readAppendable('{"categories": []}', path)).toThrow(/original eval format/);
    expect(() => readAppendable('{"evals": [', path)).toThrow(/not valid JSON/);
    expect(readAppendable(undefined, path)).toBeUndefined();
  });
});
