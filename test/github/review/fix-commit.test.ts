/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * A fix is reported only when it landed: the App with the real review engine under Probot, GitHub and the
 * models intercepted by nock. GitHub takes the ref update but its answer does not carry the new commit,
 * and the ref read back is still the reviewed head: nothing may say the fix was committed, remember it as
 * the App's head, or put a verdict on a commit that is not the branch head.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoopRunner } from '../../../src/app/engine.js';
import { decodeStateBlock } from '../../../src/github/review/sticky-comment.js';
import {
  HEAD,
  NOW,
  SETTINGS,
  commentPayload,
  recordingLog,
  startTestApp,
} from '../../helpers/app-fixtures.js';
import { FakePull } from '../../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  HALF_BUG,
  README,
  anthropicReply,
  checkAnswer,
  openaiReply,
  reviewAnswer,
} from '../../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const HALVE = {
  summary: 'divide by two',
  edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
};

describe('a fix reported only when it landed', () => {
  it('a ref update whose answer lacks the new commit, with the branch still on the old head, is "did not land" — and that head is not reviewed again', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // GitHub answers the update without the commit, and the branch read back is still the reviewed head.
    fake.interceptGitData(mock, { refNotMoved: true });
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply({ ...HALVE, ...checkAnswer(true) }); // the fix call checks the finding
    const logs: string[] = [];
    const runner = createLoopRunner(
      { OPENAI_API_KEY: 'sk-openai-app-test-key', ANTHROPIC_API_KEY: 'sk-ant-app-test-key' },
      {
        models: { retryHooks: { sleep: async () => {}, random: () => 0 }, retry: { baseDelayMs: 1 } },
        clock: () => NOW,
      },
    );
    const { probot, queue } = await startTestApp(runner, SETTINGS, { log: recordingLog(logs) });

    await probot.receive({
      id: 'c101',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop rounds: 2', commentId: 101 }),
    });
    await queue.idle();

    expect(fake.refUpdates).toHaveLength(1);
    expect(fake.head).toBe(HEAD);
    const state = decodeStateBlock(fake.sticky()?.body ?? '') as any;
    expect(state.pushedHeads).toEqual([]);
    expect(state.head).toBe(HEAD);
    // the review and the check are on the branch head; none on the commit that did not land — and the
    // head round 1 reviewed is not reviewed again: the loop waits for a fix and says why
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD]);
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([[HEAD, 'action_required']]);
    expect(state.phase).toBe('waiting-fix');
    expect(state.message).toMatch(
      /^Round 1's fix changed nothing: 1 edit was refused: `src\/calc\.ts` \(the fix commit [0-9a-f]{7} did not land: after the update the branch head is aaaaaaa\)\. `aaaaaaa` was reviewed already, so it is not reviewed again\. Push a fix and round 2 reviews it/,
    );
    expect(fake.checks.some((c) => c.conclusion === 'success')).toBe(false);
    expect(state.rounds[0].action).not.toMatch(/^fixed/);
    // said on the PR and in the log, never "committed"
    expect(fake.checkRequests.some((r) => String(r.body.output?.summary).includes('did not land'))).toBe(
      true,
    );
    expect(logs.some((l) => l.includes('Codertocat/Hello-World#7: fix did not land on feature/thing'))).toBe(
      true,
    );
    expect(logs.some((l) => /committed fix/.test(l))).toBe(false);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});
