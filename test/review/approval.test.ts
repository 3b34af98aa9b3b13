/**
 * Approval under noise (docs/how-it-works.md § Approval under noise), end to end: the real engine, the
 * local store and target on a real git repository, and the reviewer's, checker's and executor's answers
 * served by nock in the providers' wire formats.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RoundReport } from '../../src/core/review/outcome.js';
import type { ReviewEvent } from '../../src/ports/review.js';
import { runReviewLoop } from '../../src/review/run.js';
import { strictNock } from '../helpers/nock-frame.js';
import {
  anthropicReply,
  anthropicUserText,
  checkAnswer,
  HALF_BUG,
  harness,
  head,
  makeReviewRepo,
  openaiInputText,
  openaiReply,
  receiptsOf,
  removeReviewDirs,
  reviewAnswer,
  stageFile,
  type Recorded,
} from '../helpers/review-fixtures.js';

strictNock();
afterEach(removeReviewDirs);

const HALVE = {
  summary: 'Divide by two.',
  edits: [{ path: 'src/calc.ts', old_string: 'return n / 3;', new_string: 'return n / 2;' }],
};

/** A finding about code that is correct: add() returns the sum. */
const INVENTED = {
  title: 'add() subtracts its arguments',
  minimum_fix: 'Return a + b.',
  file: 'src/calc.ts',
  line: 2,
};

function reviewed(events: readonly ReviewEvent[]): RoundReport[] {
  return events.flatMap((e) => (e.type === 'round-reviewed' ? [e.report] : []));
}

describe('the confirmation', () => {
  it('catches a flipped approval: a fresh review finds the bug, the check confirms it, and the round fixes it', async () => {
    const dir = await makeReviewRepo();
    const reviews: Recorded = { bodies: [] };
    const confirmations: Recorded = { bodies: [] };
    const checks: Recorded = { bodies: [] };
    const executor: Recorded = { bodies: [] };
    // Round 1: the reviewer says "ready" although half() divides by 3.
    anthropicReply(reviewAnswer(8, 'ready', [], 'Looks fine.'), reviews);
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]), confirmations);
    anthropicReply(checkAnswer(true), checks);
    openaiReply(HALVE, executor);
    // Round 2: fixed; the reviewer and the confirmation agree.
    anthropicReply(reviewAnswer(8, 'ready'), reviews);
    anthropicReply(reviewAnswer(9, 'ready'), confirmations);

    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    expect(outcome.rounds.map((r) => [r.round, r.score, r.verdict, r.positive])).toEqual([
      [1, 4, 'not ready', false],
      [2, 8, 'ready', true],
    ]);
    // The round-1 review as posted carries the confirmed finding and says why it did not approve.
    const [first] = reviewed(h.events);
    expect(first!.weaknesses).toMatchObject([{ rank: 1, title: HALF_BUG.title, source: 'verifier' }]);
    expect(first!.summary).toContain('a fresh second review of this head found a blocker');
    // The confirmation was fresh: round 1's shape, no memory, no open findings, nothing of the first verdict.
    const fresh = anthropicUserText(confirmations.bodies[0]!);
    expect(fresh).toContain('[Round 1/4 of autonomous review loop]');
    expect(fresh).not.toContain('Reviewer Memory');
    expect(fresh).not.toContain('Looks fine.');
    // Round 2's confirmation too, although round 2's own review had the memory and the diff since round 1.
    expect(anthropicUserText(reviews.bodies[1]!)).toContain('[Round 2/4 update]');
    expect(anthropicUserText(confirmations.bodies[1]!)).toContain('[Round 2/4 of autonomous review loop]');
    expect(anthropicUserText(confirmations.bodies[1]!)).not.toContain('Reviewer Memory');
    // The check read the finding and the file it cites; the executor fixed what the check confirmed.
    const check = anthropicUserText(checks.bodies[0]!);
    expect(check).toMatch(/^1\. \[major\] half\(\) divides by 3 \(src\/calc\.ts:6\)$/m);
    expect(check).toContain('path: src/calc.ts');
    expect(openaiInputText(executor.bodies[0]!)).toContain('half() divides by 3');
    // Six calls, all counted: review, confirmation, check, fix; review, confirmation.
    expect(outcome.usage.calls).toBe(6);
    expect(outcome.rounds[0]!.usage.calls).toBe(4);
    const receipts = await receiptsOf(dir);
    expect(receipts).toMatchObject([{ round: 2, head: head(dir) }]);
    expect(h.log.infos).toContainEqual(expect.stringMatching(/^round 1: the approval is withheld/));
    // the method the run documents says what it did
    const method = (await stageFile(dir, 'AUTO_REVIEW.md')).split('## Method Description')[1]!;
    expect(method).toContain(
      "a fresh call of the reviewer's model checked each one against the code at the head",
    );
    expect(method).toContain('confirmed by a fresh second review of the same head');
  });

  it('lets the approval stand when the blocker the fresh review raises does not hold up against the code', async () => {
    const dir = await makeReviewRepo();
    const before = head(dir);
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply(reviewAnswer(5, 'not ready', [INVENTED]));
    anthropicReply(checkAnswer(false));

    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    expect(outcome.rounds).toMatchObject([
      { round: 1, score: 9, verdict: 'ready', positive: true, weaknesses: [] },
    ]);
    expect(head(dir)).toBe(before);
    expect(outcome.usage.calls).toBe(3);
    expect(h.log.infos).toContainEqual(
      expect.stringMatching(
        /^round 1: left out 1 finding\(s\) a check against the code .* "add\(\) subtracts/,
      ),
    );
  });

  it('withholds an approval nobody could confirm: an unreadable fresh review twice is not a pass', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply('this is not JSON');
    anthropicReply('neither is this');
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply(reviewAnswer(9, 'ready'));

    const h = await harness(dir, { options: { maxRounds: 2 } });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.rounds.map((r) => [r.round, r.positive])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(reviewed(h.events)[0]!.summary).toContain(
      'the fresh second review that confirms an approval gave no usable answer',
    );
    expect(outcome.status).toBe('acquitted');
  });
});

describe('the finding check', () => {
  it('drops an invented finding before it is posted or fixed, keeps the real one, and does not check it again', async () => {
    const dir = await makeReviewRepo();
    const checks: Recorded = { bodies: [] };
    const executor: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG, INVENTED]));
    anthropicReply(checkAnswer(true, false), checks);
    // The executor misses: half() still divides by 3 after round 1's fix.
    openaiReply(
      {
        summary: 'comment',
        edits: [{ path: 'src/calc.ts', old_string: 'return n / 3;', new_string: 'return n / 3; // halves' }],
      },
      executor,
    );
    // Round 2 raises the confirmed finding again: no second check. Then the fix lands and round 3 approves.
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(
      {
        summary: 'halve',
        edits: [{ path: 'src/calc.ts', old_string: 'n / 3; // halves', new_string: 'n / 2;' }],
      },
      executor,
    );
    anthropicReply(reviewAnswer(8, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready'));

    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    const posted = reviewed(h.events).map((r) => r.weaknesses.map((w) => [w.rank, w.title]));
    expect(posted).toEqual([[[1, HALF_BUG.title]], [[1, HALF_BUG.title]], []]);
    // The check saw both findings, numbered; the executor only the one that holds.
    const check = anthropicUserText(checks.bodies[0]!);
    expect(check).toContain('1. [major] half() divides by 3 (src/calc.ts:6)');
    expect(check).toContain('2. [major] add() subtracts its arguments (src/calc.ts:2)');
    expect(checks.bodies).toHaveLength(1);
    for (const body of executor.bodies) expect(openaiInputText(body)).not.toContain('add() subtracts');
    // review, check, fix | review, fix | review, confirmation
    expect(outcome.usage.calls).toBe(7);
    expect(h.log.infos).toContainEqual(
      expect.stringMatching(/^round 1: left out 1 finding\(s\) .*: "add\(\) subtracts its arguments"$/),
    );
  });

  it('keeps a "ready" from approving while a checked major finding stands', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(8, 'ready', [HALF_BUG]));
    anthropicReply(checkAnswer(true));
    openaiReply(HALVE);
    anthropicReply(reviewAnswer(8, 'ready'));
    anthropicReply(reviewAnswer(8, 'ready'));

    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.rounds.map((r) => [r.round, r.verdict, r.positive])).toEqual([
      [1, 'ready', false],
      [2, 'ready', true],
    ]);
    expect(reviewed(h.events)[0]!.summary).toContain('a major finding stands ("half() divides by 3")');
    expect(outcome.status).toBe('acquitted');
  });

  it('posts the findings unchecked when the check gives no usable answer twice, and says so', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply('garbled');
    anthropicReply('garbled again');

    const h = await harness(dir, { options: { fix: 'none' } });
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('reviewed');
    expect(outcome.rounds[0]!.weaknesses.map((w) => w.title)).toEqual([HALF_BUG.title]);
    expect(h.log.warnings).toContainEqual(
      expect.stringMatching(
        /^round 1: the finding check gave no usable answer \(twice\): .*; its 1 finding\(s\) stand unchecked$/,
      ),
    );
  });
});
