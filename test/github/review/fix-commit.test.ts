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
  it('a ref update whose answer lacks the new commit, with the branch still on the old head, is "did not land"', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // GitHub answers the update without the commit, and the branch read back is still the reviewed head.
    fake.interceptGitData(mock, { refNotMoved: true });
    fake.interceptParkIssues(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply(HALVE);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
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
    // every review and every check is on the branch head; none on the commit that did not land
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD, HEAD]);
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([[HEAD, 'failure']]);
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
