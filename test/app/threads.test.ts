/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * Threads that follow the work, under Probot with the real engine: GitHub's REST and GraphQL and the model
 * APIs intercepted by nock at the HTTP layer. A finding a later round no longer raises has its thread
 * resolved (`resolveReviewThread`); one that stands, or one a maintainer answered "won't fix", stays open;
 * a finding answered on its thread or dismissed with `/review-loop dismiss <n>` goes into the reviewer's
 * memory with its reason and is not raised again — however it is worded, wherever a fix moved it; a
 * finding that comes back reopens its one thread; the round after a push carries the open findings forward.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/app/validation/command.js';
import { parseWeaknessMarker } from '../../src/github/review/review-body.js';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import {
  PR,
  REPO_PATH,
  commentPayload,
  nockNoConfig,
  nockPermission,
  nockToken,
  pullRequestPayload,
  startTestApp,
  engineRunner,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import {
  checkAnswer,
  CALC_BASE,
  CALC_BRANCH,
  HALF_BUG,
  README,
  anthropicReply,
  openaiInputText,
  openaiReply,
  reviewAnswer,
  type Recorded,
} from '../helpers/review-fixtures.js';

const NAN = { title: 'No guard against NaN input', file: 'src/calc.ts', line: 5, severity: 'minor' };
const NO_TESTS = { title: 'No tests for half()', severity: 'major' };

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

async function say(probot: { receive: (e: any) => Promise<void> }, body: string, commentId: number) {
  await probot.receive({
    id: `c${commentId}`,
    name: 'issue_comment',
    payload: commentPayload({ body, commentId }),
  });
}

describe('threads that follow the work', () => {
  it('resolves an addressed finding’s thread, keeps answered ones open, and never raises a dismissed finding again', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    const reviewer: Recorded = { bodies: [] };
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG, NAN, NO_TESTS]), reviewer);
    openaiReply(checkAnswer(true, true, true)); // the finding check
    anthropicReply({
      summary: 'halve',
      edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
    });
    const { probot, queue } = await startTestApp(engineRunner());

    await say(probot, '/review-loop fix: manual rounds: 3', 101);
    await queue.idle();
    expect(fake.reviews).toHaveLength(1);
    // findings 1 and 2 cite lines of the diff: two threads, then the suggestion
    expect(fake.reviews[0].comments.map((c: any) => c.line)).toEqual([6, 5, 6]);
    expect(fake.graphql).toEqual([]); // no thread of the App existed yet: no query

    // a maintainer answers finding 2 on its thread, and dismisses finding 3 with the command
    fake.threadAnswers.set('PRRT_0_1', [
      { login: 'maintainer', association: 'MEMBER', body: "Won't fix: NaN is the caller's contract." },
    ]);
    // a drive-by commenter's "won't fix" counts for nothing
    fake.threadAnswers.set('PRRT_0_0', [
      { login: 'passer-by', association: 'NONE', body: "won't fix, by design" },
    ]);
    await say(probot, '/review-loop dismiss 3 tests land in the follow-up PR', 102);
    await queue.idle();
    expect(fake.replies().at(-1)).toContain('Dismissed weakness 3 of round 1');

    // the author pushes the fix; round 2 words the dismissed findings afresh, and finds one new thing
    openaiReply(
      reviewAnswer(5, 'not ready', [
        { ...NAN, title: 'Missing guard against NaN input' },
        { title: 'No tests cover half()' },
        { title: 'add() lacks a doc comment', file: 'src/calc.ts', line: 1, severity: 'minor' },
      ]),
      reviewer,
    );
    // only the new finding is checked: the dismissed ones are left out before the check
    openaiReply(checkAnswer(true)); // the finding check
    anthropicReply({
      summary: 'doc',
      edits: [
        {
          path: 'src/calc.ts',
          old_string: 'export function add',
          new_string: '/** Adds. */\nexport function add',
        },
      ],
    });
    const pushed = fake.push({ 'src/calc.ts': CALC_BRANCH.replace('n / 3', 'n / 2') });
    await probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    await queue.idle();

    // round 2 reviewed the new commits with round 1's open findings carried forward and the dismissals named
    const prompt = openaiInputText(reviewer.bodies[1]!);
    expect(prompt).toContain('Open findings from your last review');
    expect(prompt).toContain('half() divides by 3');
    expect(prompt).toContain('n / 2');
    expect(prompt).toMatch(
      /No guard against NaN input.*dismissed by maintainer: Won't fix: NaN is the caller's contract\./,
    );
    expect(prompt).toMatch(/No tests for half\(\).*dismissed by maintainer: tests land in the follow-up PR/);
    // the dismissed findings are left out, whatever their wording; the new one is finding 1
    const second = fake.reviews[1];
    const shown = String(second.body).split('<details>')[0]!; // the reviewer's verbatim answer is folded below
    expect(shown).not.toMatch(/NaN|tests/i);
    expect(shown).toContain('1. **minor** · add() lacks a doc comment');
    expect(second.comments.map((c: any) => c.body.split('\n')[1])).not.toContainEqual(
      expect.stringMatching(/NaN|tests/i),
    );
    // finding 1's thread is resolved (addressed); finding 2's stays open (answered "won't fix")
    expect(fake.resolvedThreads).toEqual(['PRRT_0_0']);
    // the reviewer's memory has both dismissals with their reasons
    const memory = (decodeStateBlock(fake.sticky()?.body ?? '') as any)?.review?.memory as string;
    expect(memory).toContain('dismissed by the maintainers');
    expect(memory).toContain("NaN is the caller's contract");
    expect(memory).toContain('tests land in the follow-up PR');
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('resolves every addressed thread of a round in one GraphQL request (aliased mutations)', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG, NAN]));
    openaiReply(checkAnswer(true, true)); // the finding check
    anthropicReply({
      summary: 'halve',
      edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
    });
    const { probot, queue } = await startTestApp(engineRunner());
    await say(probot, '/review-loop fix: manual rounds: 3', 101);
    await queue.idle();
    expect(fake.reviews[0].comments.map((c: any) => c.line).slice(0, 2)).toEqual([6, 5]);

    // the author's push addresses both; round 2 approves
    openaiReply(reviewAnswer(8, 'ready', [], 'Both addressed.'));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const pushed = fake.push({ 'src/calc.ts': CALC_BRANCH.replace('n / 3', 'n / 2') });
    await probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    await queue.idle();

    expect(fake.resolvedThreads).toEqual(['PRRT_0_0', 'PRRT_0_1']);
    const mutations = fake.graphql.filter((body) => String(body.query).includes('resolveReviewThread'));
    expect(mutations).toHaveLength(1);
    expect(mutations[0].variables).toEqual({ t0: 'PRRT_0_0', t1: 'PRRT_0_1' });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('answers `/review-loop dismiss` when there is nothing to dismiss, or no number', async () => {
    const { probot, queue } = await startTestApp(engineRunner());
    const replies: string[] = [];
    const mock = nockToken();
    mock.persist();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    mock
      .post(/\/issues\/comments\/\d+\/reactions$/)
      .reply(201, { id: 1, content: 'eyes' })
      .get(`${REPO_PATH}/issues/${PR}/comments`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/issues/${PR}/comments`, (body: any) => (replies.push(body.body), true))
      .reply(201, { id: 1 });
    await say(probot, '/review-loop dismiss 2', 103);
    await queue.idle();
    await say(probot, '/review-loop dismiss two', 104);
    await queue.idle();
    expect(replies).toEqual([
      'There is no review here yet, so there is nothing to dismiss.',
      expect.stringContaining('`dismiss` takes one weakness number (1, 2, …); got `two`'),
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

/** Every inline finding comment the App posted, as [review number, title, line]. */
function findingComments(fake: FakePull): Array<[number, string, number]> {
  return fake.reviews.flatMap((review, i) =>
    (review.comments ?? []).flatMap((c: any) => {
      const finding = parseWeaknessMarker(c.body);
      return finding ? [[i + 1, finding.title, c.line] as [number, string, number]] : [];
    }),
  );
}

/** The executor of a manual loop: it proposes nothing, so no suggestion joins the finding threads. */
const NOTHING = { summary: 'nothing to propose', edits: [] };

describe('each finding once, matched by what it says and where', () => {
  it('a finding dismissed on its thread never returns, though round 2 words it afresh one line lower', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    fake.interceptParkIssues(mock);
    const reviewer: Recorded = { bodies: [] };
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG, NAN]), reviewer);
    openaiReply(checkAnswer(true, true)); // the finding check
    anthropicReply(NOTHING);
    const { probot, queue } = await startTestApp(engineRunner());

    await say(probot, '/review-loop fix: manual rounds: 2', 101);
    await queue.idle();
    expect(findingComments(fake)).toEqual([
      [1, 'half() divides by 3', 6],
      [1, 'No guard against NaN input', 5],
    ]);
    fake.threadAnswers.set('PRRT_0_1', [
      { login: 'maintainer', association: 'MEMBER', body: "Won't fix: callers never pass NaN." },
    ]);

    // the author documents half() (every line below moves down one) and fixes it; round 2 raises the NaN
    // finding again in other words, on its new line, next to a new finding without a file
    openaiReply(
      reviewAnswer(5, 'not ready', [
        { title: 'NaN inputs are not guarded', file: 'src/calc.ts', line: 6, severity: 'minor' },
        { title: 'half() has no test' },
      ]),
      reviewer,
    );
    openaiReply(checkAnswer(true)); // the finding check: only the new finding (the dismissed one is left out)
    const pushed = fake.push({
      'src/calc.ts': CALC_BRANCH.replace(
        'export function half',
        '/** Halves n. */\nexport function half',
      ).replace('n / 3', 'n / 2'),
    });
    await probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    await queue.idle();

    expect(fake.reviews).toHaveLength(2);
    // not in the review, not as a new thread: round 2's only finding is the test
    const second = String(fake.reviews[1].body);
    expect(second).not.toMatch(/NaN/i);
    expect(second).toContain('1. **major** · half() has no test');
    expect(findingComments(fake)).toHaveLength(2);
    // the fixed finding's thread is resolved; the dismissed one's is left to the people
    expect(fake.resolvedThreads).toEqual(['PRRT_0_0']);
    expect(openaiInputText(reviewer.bodies[1]!)).toMatch(
      /No guard against NaN input.*dismissed by maintainer: Won't fix: callers never pass NaN\./,
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('a finding that comes back after its thread was resolved reopens that thread, with one short reply', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
      head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    fake.interceptParkIssues(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG, NAN]));
    openaiReply(checkAnswer(true, true)); // the finding check
    anthropicReply(NOTHING);
    const { probot, queue } = await startTestApp(engineRunner());
    const push = async (id: string, text: string) => {
      const head = fake.push({ 'src/calc.ts': text });
      await probot.receive({
        id,
        name: 'pull_request',
        payload: pullRequestPayload('synchronize', { head }),
      });
      await queue.idle();
      return head;
    };

    await say(probot, '/review-loop fix: manual rounds: 3', 101);
    await queue.idle();
    // round 2: half() is fixed, NaN stands — its thread is kept, not opened again
    openaiReply(reviewAnswer(5, 'not ready', [{ ...NAN, title: 'Still no guard against NaN input' }]));
    anthropicReply(NOTHING);
    await push('p1', CALC_BRANCH.replace('n / 3', 'n / 2'));
    expect(fake.resolvedThreads).toEqual(['PRRT_0_0']);
    expect(fake.reviews[1].comments ?? []).toEqual([]);
    expect(String(fake.reviews[1].body)).toMatch(/Still no guard against NaN input .*open since round 1/);

    // round 3: the author's next push divides by three again; the reviewer says so in other words
    openaiReply(reviewAnswer(4, 'not ready', [{ ...HALF_BUG, title: 'half() still divides by three' }, NAN]));
    openaiReply(checkAnswer(true)); // the finding check: half()'s was not posted by round 2, so it is checked
    const third = await push('p2', CALC_BRANCH.replace('n / 3', '(n + 0) / 3'));

    expect(fake.reviews).toHaveLength(3);
    // two findings, two threads, over three rounds: half()'s is reopened, nothing new is opened
    expect(findingComments(fake)).toEqual([
      [1, 'half() divides by 3', 6],
      [1, 'No guard against NaN input', 5],
    ]);
    expect(fake.reviews[2].comments ?? []).toEqual([]);
    expect(fake.reopenedThreads).toEqual(['PRRT_0_0']);
    expect(fake.resolvedThreads).toEqual([]);
    expect(fake.threadAnswers.get('PRRT_0_0')).toEqual([
      expect.objectContaining({
        byApp: true,
        body: `Round 3 raises this again on \`${third.slice(0, 7)}\`, so the thread is open again.`,
      }),
    ]);
    // nobody answered on NaN's thread: nothing is said there
    expect(fake.threadAnswers.get('PRRT_0_1')).toBeUndefined();
    const last = String(fake.reviews[2].body);
    expect(last).toMatch(/half\(\) still divides by three .*open since round 1/);
    expect(last).toMatch(/No guard against NaN input .*open since round 1/);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});

describe('`/review-loop dismiss` as the parser reads it', () => {
  it.each([
    ['/review-loop dismiss 2', { kind: 'dismiss', item: 2, reason: '' }],
    [
      '/review-loop DISMISS 3 by design\nthe cache is meant to be stale',
      { kind: 'dismiss', item: 3, reason: 'by design\nthe cache is meant to be stale' },
    ],
  ])('%j', (body, command) => {
    expect(parseCommand(body)).toEqual({ status: 'ok', command });
  });

  it.each([
    ['/review-loop dismiss', '`dismiss` needs the number of a weakness'],
    ['/review-loop dismiss 0 no', '`dismiss` takes one weakness number'],
  ])('%j is malformed', (body, problem) => {
    const parsed = parseCommand(body);
    expect(parsed.status === 'malformed' && parsed.problem).toContain(problem);
  });
});
