/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * A head is reviewed once (issue 27): under Probot with the real engine, GitHub and the model APIs
 * intercepted by nock at the HTTP layer. When a round's own fix changes nothing — every edit refused — the
 * loop does not review that head again: it waits for a fix and says why in plain words, naming each
 * refused edit and the rule that refused it; `continue` without a push reviews nothing either; the
 * author's push is reviewed. The reviewer's raw answer is in the App's log, redacted, and in no review.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import {
  HEAD,
  SETTINGS,
  commentPayload,
  pullRequestPayload,
  recordingLog,
  startTestApp,
  engineRunner,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  HALF_BUG,
  README,
  anthropicReply,
  openaiReply,
  reviewAnswer,
} from '../helpers/review-fixtures.js';

/** A secret of the App's environment that looks like nothing in particular: redacted by its value. */
const APP_SECRET = 'plain-looking-app-secret-4711';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('a head is reviewed once', () => {
  it('a fix whose every edit is refused: the loop waits and says why; continue without a push reviews nothing; the push is reviewed', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    // the reviewer's memory (never shown) echoes a secret of the App's environment
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG], `The deploy key is ${APP_SECRET}.`));
    anthropicReply({
      summary: 'two edits',
      edits: [
        { path: '.github/workflows/ci.yml', old_string: 'node 18', new_string: 'node 20' },
        { path: 'src/calc.ts', old_string: 'n / 4', new_string: 'n / 2' },
      ],
    });
    const logs: string[] = [];
    const { probot, queue } = await startTestApp(engineRunner(), SETTINGS, {
      log: recordingLog(logs),
      secrets: [APP_SECRET],
    });

    await probot.receive({
      id: 'c1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop rounds: 3', commentId: 101 }),
    });
    await queue.idle();

    // one review, on the head it reviewed; nothing pushed; the loop waits for a fix
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD]);
    expect(fake.head).toBe(HEAD);
    const why =
      "Round 1's fix changed nothing: 2 edits were refused: `.github/workflows/ci.yml` (.github/workflows/ is " +
      'never edited by the review loop); `src/calc.ts` (old_string does not occur in the file). `aaaaaaa` was ' +
      'reviewed already, so it is not reviewed again. Push a fix and round 2 reviews it, or comment ' +
      '`/review-loop stop`.';
    let state = decodeStateBlock(fake.sticky()!.body) as any;
    expect(state).toMatchObject({ phase: 'waiting-fix', message: why });
    expect(state.rounds.map((r: any) => r.action)).toEqual(['no edit applied; 2 edits refused']);
    expect(fake.checks.at(-1)).toMatchObject({
      head_sha: HEAD,
      conclusion: 'action_required',
      title: 'Waiting for a fix',
      summary: expect.stringContaining(why),
    });

    // the raw answer is the log's — redacted — and in no review
    const answer = logs.find((line) => line.includes("round 1: the reviewer's answer:"));
    expect(answer).toContain('"memory_update"');
    expect(answer).not.toContain(APP_SECRET);
    expect(answer).toContain('[redacted]');
    expect(String(fake.reviews[0].body)).not.toMatch(/memory_update|"score"|<details>/);

    // `continue` without a push: no model is called, no review is posted, and the loop says why
    await probot.receive({
      id: 'c2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop continue', commentId: 102 }),
    });
    await queue.idle();
    expect(fake.reviews).toHaveLength(1);
    state = decodeStateBlock(fake.sticky()!.body) as any;
    // the record still waits for the fix; the answer is a reply that says why and what to do
    expect(state).toMatchObject({
      phase: 'waiting-fix',
      message: expect.stringContaining("Round 1's fix changed nothing"),
    });
    expect(fake.comments.at(-1)!.body).toBe(
      "No new commit since round 1 reviewed `aaaaaaa`, so there is nothing new to review yet. Push your fix to this pull request's branch (apply the review's suggestions, or commit your own): the push starts round 2 by itself.",
    );

    // the author's push is the new head round 2 reviews
    openaiReply(reviewAnswer(8, 'ready', [], 'Halved now.'));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const pushed = fake.push({ 'src/calc.ts': CALC_BRANCH.replace('n / 3', 'n / 2') });
    await probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    await queue.idle();
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD, pushed]);
    expect(fake.checks.at(-1)).toMatchObject({ head_sha: pushed, conclusion: 'success' });
    expect(logs.join('\n')).not.toContain(APP_SECRET);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});
