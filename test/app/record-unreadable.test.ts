/**
 * A sticky record that cannot be read is never replaced by an empty one (issue 27 item 2;
 * docs/how-it-works.md § Review state, memory and receipts): its state block is cut mid-loop, as the
 * sink's plain-text redaction used to cut it, and the App rebuilds the rounds from its reviews and the
 * check from its check runs, says so in the comment, and ends the loop with one check per head, none
 * left in progress.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appSecrets } from '../../src/app/app.js';
import { readStateBlock } from '../../src/github/review/sticky-comment.js';
import {
  PRIVATE_KEY,
  SETTINGS,
  commentPayload,
  startTestApp,
  engineRunner,
  APP_MODEL_KEYS as MODEL_KEYS,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  README,
  anthropicReply,
  checkAnswer,
  openaiReply,
  reviewAnswer,
} from '../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** The state line cut the way a plain-text pass over base64 cut it: `[redacted]` in the middle. */
function cutStateBlock(body: string): string {
  const lines = body.trimEnd().split('\n');
  const last = lines.at(-1)!;
  const at = Math.floor(last.length / 2);
  return [...lines.slice(0, -1), `${last.slice(0, at)}[redacted]${last.slice(at + 12)}`].join('\n');
}

describe('a sticky record whose state block does not decode', () => {
  it('is rebuilt from the App’s reviews and check runs mid-loop: both rounds shown, the problem said, one check per head, none left in progress', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptGitData(mock);
    fake.interceptLookups(mock, { ref: false });
    // Round 1's review lands, then its state block is cut before the loop's next write of the comment.
    let cutAt = -1;
    mock.on('replied', (req: { method: string; path: string }) => {
      if (cutAt !== -1 || req.method !== 'POST' || !req.path.endsWith('/pulls/7/reviews')) return;
      const sticky = fake.sticky()!;
      sticky.body = cutStateBlock(sticky.body);
      expect(readStateBlock(sticky.body).kind).toBe('unreadable');
      cutAt = fake.stickyWrites.length;
    });

    openaiReply(
      reviewAnswer(4, 'not ready', [
        {
          title: 'half() divides by three',
          detail: 'half(4) returns 1.33',
          minimum_fix: 'Divide by two',
          file: 'src/calc.ts',
          line: 6,
        },
      ]),
    );
    // the fix call checks the finding; round 2 approves the loop's own fix, so no confirmation
    anthropicReply({
      summary: 'divide by two',
      edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
      ...checkAnswer(true),
    });
    openaiReply(reviewAnswer(8, 'ready'));

    const runner = engineRunner();
    const { probot, queue } = await startTestApp(runner, SETTINGS, {
      secrets: appSecrets({ ...MODEL_KEYS, PRIVATE_KEY }),
    });
    await probot.receive({
      id: 'c101',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 101 }),
    });
    await queue.idle();

    expect(cutAt).toBeGreaterThan(0);
    expect(fake.reviews).toHaveLength(2);
    // every write after the cut has a state that decodes, and none is an empty state
    const after = fake.stickyWrites.slice(cutAt);
    expect(after.length).toBeGreaterThan(0);
    for (const body of after) {
      const read = readStateBlock(body);
      expect(read.kind).toBe('state');
      expect(body).not.toContain('No round has run yet');
    }
    const sticky = fake.sticky()!.body;
    expect(sticky).toContain('**Status:** Approved');
    expect(sticky).toMatch(/^\| 1 \| `[0-9a-f]{7}` \| 4\/10 \| not ready \|/m);
    expect(sticky).toMatch(/^\| 2 \| `[0-9a-f]{7}` \| 8\/10 \| ready \|/m);
    expect(sticky).toContain(
      "**Record:** This comment's record could not be read on 2026-03-01 12:00 UTC (its state block is cut or holds characters base64 does not have). The App rebuilt the rounds from its review on this pull request; the reviewer's memory of the loop is lost, so the loop under way goes on, and its end concludes its check run.",
    );
    // one check per head of this run, each completed: round 1's superseded, round 2's passed
    const reviewed = fake.reviews.map((review) => review.commit_id as string);
    expect(fake.checks.map((check) => [check.head_sha, check.status, check.conclusion])).toEqual([
      [reviewed[0], 'completed', 'neutral'],
      [reviewed[1], 'completed', 'success'],
    ]);
    expect(reviewed[1]).toBe(fake.head);
    expect(sticky).toContain('**Settings:** difficulty medium, up to 4 rounds');
    expect(new Set(fake.checks.map((check) => check.head_sha)).size).toBe(2);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});
