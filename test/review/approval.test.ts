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
  git,
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
    // Round 2 reviews round 1's own fix and approves: the second look, so no confirmation is asked.
    anthropicReply(reviewAnswer(8, 'ready'), reviews);

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
    // Round 2 reviewed the commit of round 1's fix with the memory and the diff since round 1: no confirmation.
    expect(anthropicUserText(reviews.bodies[1]!)).toContain('[Round 2/4 update]');
    expect(confirmations.bodies).toHaveLength(1);
    expect(h.log.infos.filter((l) => l.startsWith('round 2: a fresh second review'))).toEqual([]);
    // The check read the finding and the file it cites; the executor fixed what the check confirmed.
    const check = anthropicUserText(checks.bodies[0]!);
    expect(check).toMatch(/^1\. \[major\] half\(\) divides by 3 \(src\/calc\.ts:6\)$/m);
    expect(check).toContain('path: src/calc.ts');
    expect(openaiInputText(executor.bodies[0]!)).toContain('half() divides by 3');
    // Five calls, all counted: review, confirmation, check, fix; review.
    expect(outcome.usage.calls).toBe(5);
    expect(outcome.rounds[0]!.usage.calls).toBe(4);
    const receipts = await receiptsOf(dir);
    expect(receipts).toMatchObject([{ round: 2, head: head(dir) }]);
    expect(h.log.infos).toContainEqual(expect.stringMatching(/^round 1: the approval is withheld/));
    // the method the run documents says what it did
    const method = (await stageFile(dir, 'AUTO_REVIEW.md')).split('## Method Description')[1]!;
    expect(method).toContain(
      'by the executor within its fix call when the fix followed at once (it fixed only those that held)',
    );
    expect(method).toContain("an approval on the run's first look at the code it approves");
    expect(method).toContain('was confirmed by a fresh second review of the same head');
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
    const executor: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(4, 'not ready', [HALF_BUG, INVENTED]));
    // The fix follows at once: the executor checks both findings in its fix call, and misses the fix
    // (half() still divides by 3 after round 1's commit).
    openaiReply(
      {
        summary: 'comment',
        edits: [{ path: 'src/calc.ts', old_string: 'return n / 3;', new_string: 'return n / 3; // halves' }],
        ...checkAnswer(true, false),
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

    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(outcome.status).toBe('acquitted');
    const posted = reviewed(h.events).map((r) => r.weaknesses.map((w) => [w.rank, w.title]));
    expect(posted).toEqual([[[1, HALF_BUG.title]], [[1, HALF_BUG.title]], []]);
    // Round 1's fix call was asked to check both findings, numbered; round 2's saw only the one that held,
    // already checked, and was asked to check nothing.
    const first = openaiInputText(executor.bodies[0]!);
    expect(first).toContain('1. [major] half() divides by 3 (src/calc.ts:6)');
    expect(first).toContain('2. [major] add() subtracts its arguments (src/calc.ts:2)');
    expect(first).toMatch(/BEGIN-CHECK-[0-9a-f-]+(?:\\n|\n)1, 2(?:\\n|\n)END-CHECK-/);
    const second = openaiInputText(executor.bodies[1]!);
    expect(second).not.toContain('add() subtracts');
    expect(second).not.toContain('BEGIN-CHECK-');
    // The commit names only the finding that held.
    expect(git(dir, 'log', '-1', '--format=%B', 'HEAD~1')).toContain('1. half() divides by 3');
    expect(git(dir, 'log', '-1', '--format=%B', 'HEAD~1')).not.toContain('add() subtracts');
    // review, fix (with the check) | review, fix | review (round 3 reviews round 2's own fix: no confirmation)
    expect(outcome.usage.calls).toBe(5);
    expect(h.log.infos).toContainEqual(
      expect.stringMatching(/^round 1: left out 1 finding\(s\) .*: "add\(\) subtracts its arguments"$/),
    );
  });

  it('commits nothing when no finding holds up in the fix call, even an edit the executor proposed', async () => {
    const dir = await makeReviewRepo();
    const before = head(dir);
    const confirmations: Recorded = { bodies: [] };
    anthropicReply(reviewAnswer(4, 'not ready', [INVENTED]));
    openaiReply({
      summary: 'Add instead of subtracting.',
      edits: [{ path: 'src/calc.ts', old_string: 'return a + b;', new_string: 'return b + a;' }],
      ...checkAnswer(false),
    });
    // Nothing stood, so round 2 reviews the same head again: not the loop's own fix, so it is confirmed.
    anthropicReply(reviewAnswer(9, 'ready'));
    anthropicReply(reviewAnswer(9, 'ready'), confirmations);

    const h = await harness(dir);
    const outcome = await runReviewLoop(h.options, h.ports);

    expect(head(dir)).toBe(before);
    expect(outcome.status).toBe('acquitted');
    expect(reviewed(h.events).map((r) => [r.round, r.weaknesses.length])).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(reviewed(h.events)[0]!.fix).toMatchObject({
      commit: null,
      applied: [],
      summary: 'nothing to fix: no finding held when the executor checked it against the code',
    });
    expect(confirmations.bodies).toHaveLength(1);
    expect(outcome.usage.calls).toBe(4);
  });

  it('keeps a "ready" from approving while a checked major finding stands', async () => {
    const dir = await makeReviewRepo();
    anthropicReply(reviewAnswer(8, 'ready', [HALF_BUG]));
    anthropicReply(checkAnswer(true));
    openaiReply(HALVE);
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
