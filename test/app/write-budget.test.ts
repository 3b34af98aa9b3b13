/* eslint-disable @typescript-eslint/no-explicit-any -- decoded sticky state is untyped JSON */
/**
 * The write budget of a round: the sticky comment is edited at phase changes only (a round's start, a
 * wait, the end — a round's end and the fix it pushed go with the next round's start), not on each of
 * the engine's state saves, and a check run is written once per state it takes. Every edit shows what it
 * changed (issue 27): a dismissal, a note, the check run it records; an edit that would change nothing is
 * not made.
 *
 * The write budget of a wave of commands: while a PR's loop runs, any number of further starts get one
 * "already running" reply between them (and the 👀 each), not one comment apiece — each comment creation
 * costs seconds of GitHub's write spacing. Once that loop ends, the next wave is answered again.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoopRunner } from '../../src/app/engine.js';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import {
  API,
  HEAD,
  NOW,
  PR,
  REPO_PATH,
  SETTINGS,
  commentPayload,
  outcome,
  pullRequestPayload,
  recordingLog,
  scriptedRunner,
  startTestApp,
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
  checkAnswer,
} from '../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('"already running" at most once per PR per running loop', () => {
  it('five starts during a running loop: one reply; a start during the next loop: one more', async () => {
    const fake = new FakePull({ base: { 'src/calc.ts': CALC_BASE }, head: { 'src/calc.ts': CALC_BRANCH } });
    const mock = fake.interceptBase();
    let release: () => void = () => undefined;
    const { runner, requests } = scriptedRunner(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return outcome({ status: 'acquitted' });
    });
    const lines: string[] = [];
    const { probot, queue } = await startTestApp(runner, SETTINGS, { log: recordingLog(lines) });
    const say = (commentId: number) =>
      probot.receive({
        id: `c${commentId}`,
        name: 'issue_comment',
        payload: commentPayload({ body: '/review-loop', commentId }),
      });
    const busyReplies = () => fake.replies().filter((text) => text.includes('already running'));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

    await say(101);
    while (requests.length < 1) await settle();
    for (const id of [102, 103, 104, 105, 106]) await say(id);
    // done when every later start was either answered or logged as answered already (bounded wait)
    const answered = () =>
      busyReplies().length + lines.filter((l) => l.includes('answered once already')).length;
    for (let i = 0; i < 100 && answered() < 5; i += 1) await settle();
    expect(busyReplies()).toHaveLength(1);
    expect(fake.reactions).toEqual([101, 102, 103, 104, 105, 106]);
    release();
    await queue.idle();

    // the loop ended (acquitted): a new start runs a new loop, and a start during it is answered once more
    await say(107);
    while (requests.length < 2) await settle();
    await say(108);
    await say(109);
    for (let i = 0; i < 100 && answered() < 7; i += 1) await settle();
    release();
    await queue.idle();
    expect(busyReplies()).toHaveLength(2);
    expect(requests).toHaveLength(2);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('the sticky comment edited at phase changes only', () => {
  it('a two-round fix: auto loop: the engine saves many times, the comment is edited a few times a round, and ends as before', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    fake.interceptGitData(mock);
    const edits: any[] = [];
    mock.on('request', (req: any, _interceptor: unknown, body: string) => {
      if (req.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(req.path))
        edits.push(decodeStateBlock(JSON.parse(body).body));
    });
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply({
      summary: 'divide by two',
      edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
    });
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
    const runner = createLoopRunner(
      { OPENAI_API_KEY: 'sk-openai-app-test-key', ANTHROPIC_API_KEY: 'sk-ant-app-test-key' },
      {
        models: { retryHooks: { sleep: async () => {}, random: () => 0 }, retry: { baseDelayMs: 1 } },
        clock: () => NOW,
      },
    );
    const { probot, queue } = await startTestApp(runner);
    await probot.receive({
      id: 'c1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 101 }),
    });
    await queue.idle();

    // before the budget: 20 edits for these two rounds (one per engine save); then 12 (phase changes, each
    // row and the push apart); now 3 — round 1's start, round 2's start (round 1's row and the fix's head
    // with it), the loop's end (round 2's row, the engine's last saves and the concluded check with it)
    expect(fake.reviews).toHaveLength(2);
    expect(fake.commentEdits).toBe(3);
    // one check write per round and state: round 1's check made, round 2's made, round 1's superseded,
    // round 2's concluded (the engine announcing a round the App started moves no check)
    expect(fake.checkRequests.map((c) => [c.kind, c.id, c.body.conclusion ?? c.body.status])).toEqual([
      ['create', 100, 'in_progress'],
      ['create', 101, 'in_progress'],
      ['update', 100, 'neutral'],
      ['update', 101, 'success'],
    ]);
    // while round 2 runs, the comment shows round 1's row with its fix, the fix's head as the App's own
    const during = edits[1];
    expect(during).toMatchObject({ phase: 'running', head: fake.head, pushedHeads: [fake.head] });
    expect(during.check).toMatchObject({ id: 101, headSha: fake.head, completed: false });
    expect(during.rounds.map((r: any) => [r.round, r.score, r.action])).toEqual([
      [1, 4, expect.stringMatching(/^fixed src\/calc\.ts in [0-9a-f]{7}$/)],
    ]);
    // what the author sees at the end is unchanged: both rounds, the outcome, the engine's final state
    const state: any = decodeStateBlock(fake.sticky()!.body);
    expect(state).toMatchObject({
      phase: 'acquitted',
      head: fake.head,
      pushedHeads: [fake.head],
      inlineThreads: true,
      check: { id: 101, headSha: fake.head, completed: true, conclusion: 'success' },
    });
    expect(state.rounds.map((r: any) => [r.round, r.score, r.verdict])).toEqual([
      [1, 4, 'not ready'],
      [2, 8, 'ready'],
    ]);
    expect(state.review.state).toMatchObject({ status: 'completed', outcome: 'acquitted' });
    expect(state.review.memory).toContain('The division is right now.');
    expect(fake.checks.map((c) => c.conclusion)).toEqual(['neutral', 'success']);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

/** What a reader sees of a sticky body: hidden blocks are not shown. */
const visible = (body: string) => body.replace(/<!--[\s\S]*?-->/g, '');

describe('every edit of the sticky comment shows what it changed', () => {
  it('a waiting loop, then a dismissal, a note and a stop: each edit changes what the comment shows', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(checkAnswer(true)); // the finding check
    anthropicReply({ summary: 'nothing', edits: [] });
    const runner = createLoopRunner(
      { OPENAI_API_KEY: 'sk-openai-app-test-key', ANTHROPIC_API_KEY: 'sk-ant-app-test-key' },
      {
        models: { retryHooks: { sleep: async () => {}, random: () => 0 }, retry: { baseDelayMs: 1 } },
        clock: () => NOW,
      },
    );
    const { probot, queue } = await startTestApp(runner);
    const say = async (body: string, commentId: number) => {
      await probot.receive({
        id: `c${commentId}`,
        name: 'issue_comment',
        payload: commentPayload({ body, commentId }),
      });
      await queue.idle();
    };

    await say('/review-loop fix: manual', 101);
    expect(visible(fake.sticky()!.body)).toContain('**Check run:** [on `aaaaaaa`](');
    expect(visible(fake.sticky()!.body)).toContain(', waits for you.');
    await say('/review-loop dismiss 1 the divisor is configurable', 102);
    expect(visible(fake.sticky()!.body)).toContain(
      '**Dismissed, left out of later rounds:** half() divides by 3 (by maintainer).',
    );
    await say('/review-loop note: keep the public API as it is', 103);
    expect(visible(fake.sticky()!.body)).toContain('**A note waits for the next fix.**');
    await say('/review-loop stop', 104);
    expect(visible(fake.sticky()!.body)).toContain('**Status:** Stopped.');
    expect(visible(fake.sticky()!.body)).toContain(', failed.');

    const shown = fake.stickyWrites.map(visible);
    expect(shown.length).toBeGreaterThanOrEqual(6);
    shown.slice(1).forEach((text, i) => expect(text, `sticky write ${i + 2}`).not.toBe(shown[i]));
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});

describe('what waits for the next phase change is never lost', () => {
  it("the engine stops right after its fix (budget spent): the loop's one end edit remembers the pushed head, and that push's webhook, deferred while the loop ran, starts nothing", async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptGitData(mock);
    fake.interceptParkIssues(mock);
    const files = nock(API)
      .get(`${REPO_PATH}/pulls/${PR}/files`)
      .query(true)
      .reply(200, [{ filename: 'src/calc.ts', status: 'modified', additions: 1, deletions: 1 }]);
    let deliverPush: () => Promise<void> = async () => undefined;
    const { runner, requests } = scriptedRunner(async (request) => {
      const result = await request.session.commitFiles(
        [{ path: 'src/calc.ts', text: CALC_BRANCH.replace('n / 3', 'n / 2') }],
        'review-loop: fix round 1',
        HEAD,
      );
      expect(result.status).toBe('committed');
      // GitHub's webhook for the App's own commit arrives while the loop still holds the PR
      await deliverPush();
      return outcome({ status: 'budget', head: fake.head, lastScore: 4, lastVerdict: 'not ready' });
    });
    const { probot, queue } = await startTestApp(runner);
    deliverPush = () =>
      probot.receive({
        id: 'p1',
        name: 'pull_request',
        payload: pullRequestPayload('synchronize', {
          head: fake.head,
          sender: { login: 'review-loop[bot]', type: 'Bot' },
        }),
      });
    await probot.receive({
      id: 'c1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 101 }),
    });
    await queue.idle();

    expect(fake.head).not.toBe(HEAD);
    expect(requests).toHaveLength(1);
    const state: any = decodeStateBlock(fake.sticky()!.body);
    expect(state).toMatchObject({ phase: 'gave-up', head: fake.head, pushedHeads: [fake.head] });
    // the round's start, the end (with the pushed head), then the check the verdict needed on the new head
    expect(fake.commentEdits).toBe(3);
    expect(fake.checks.map((c) => [c.head_sha === HEAD, c.conclusion])).toEqual([
      [true, 'neutral'],
      [false, 'failure'],
    ]);
    expect(state.check).toMatchObject({ headSha: fake.head, completed: true, conclusion: 'failure' });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(files.pendingMocks()).toStrictEqual([]);
  });
});
