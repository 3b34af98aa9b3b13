/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * Ghost writes: GitHub carries out a POST and then answers 502. The App's client (src/app/github-client.ts,
 * with Probot's retries on, as `npm start` runs it) looks for the write before it sends it again, so no
 * comment, review, check run or issue is ever duplicated; the content-addressed Git Data writes are sent
 * again harmlessly, and a branch move that landed counts as landed.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appOctokit } from '../../src/app/github-client.js';
import {
  HEAD,
  PR,
  REPO_PATH,
  SETTINGS,
  commentPayload,
  loopState,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  scriptedRunner,
  startTestApp,
  stickyComment,
  engineRunner,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
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

/** The App's client with Probot's 5xx retries on (a millisecond apart) and the throttle off. */
const Octokit = appOctokit({
  policy: { retries: 2, rateLimitRetries: 0, maxRateLimitWaitSeconds: 0, delayUnitMs: 1 },
  throttle: { enabled: false },
});

function calcPull() {
  return new FakePull({
    base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
    head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
  });
}

async function say(probot: { receive: (e: any) => Promise<void> }, body: string, commentId: number) {
  await probot.receive({
    id: `c${commentId}`,
    name: 'issue_comment',
    payload: commentPayload({ body, commentId }),
  });
}

describe('a 502 after a performed write on each POST route', () => {
  it('sticky comment, check run, review, tree (the fix inline), commit and ref: each written once, the loop acquits', async () => {
    const fake = calcPull();
    for (const write of ['comment', 'check', 'review', 'tree', 'commit', 'ref']) fake.ghosts.add(write);
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptGitData(mock);
    fake.interceptLookups(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply({
      summary: 'divide by two',
      edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
    });
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
    const { probot, queue } = await startTestApp(engineRunner(), SETTINGS, { Octokit });

    await say(probot, '/review-loop', 101);
    await queue.idle();

    expect([...fake.ghosted].sort()).toEqual(['check', 'comment', 'commit', 'ref', 'review', 'tree']);
    expect(fake.comments.filter((c) => c.body.startsWith('<!-- skillclimb:review-loop -->'))).toHaveLength(1);
    expect(fake.replies()).toEqual([]);
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD, fake.head]);
    expect(fake.checks.map((c) => [c.head_sha === HEAD, c.status, c.conclusion])).toEqual([
      [true, 'completed', 'neutral'],
      [false, 'completed', 'success'],
    ]);
    expect(fake.commits.size).toBe(3); // base, head, the one fix
    expect(fake.filesAt(fake.head)['src/calc.ts']).toContain('n / 2');
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('a reply and the defect-park issue: each written once', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // the comment and the issue are looked for in the listings the App reads anyway
    fake.interceptParkIssues(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(checkAnswer(true)); // the finding check
    const { probot, queue } = await startTestApp(engineRunner(), SETTINGS, { Octokit });

    // guidance with no loop: the sticky comment is made, then the reply (a ghost the second time)
    await say(probot, '/review-loop note: Keep half() as it is.', 100);
    await queue.idle();
    fake.ghosts.add('comment');
    await say(probot, '/review-loop note: And keep add() too.', 99);
    await queue.idle();
    expect(fake.ghosted).toEqual(['comment']);
    expect(fake.replies()).toEqual([
      expect.stringContaining('Your note is kept'),
      expect.stringContaining('Your note is kept'),
    ]);

    fake.ghosts.add('issue');
    await say(probot, '/review-loop rounds: 1', 101);
    await queue.idle();
    expect(fake.ghosted).toEqual(['comment', 'issue']);
    expect(fake.issues).toHaveLength(1);
    expect(fake.checks.map((c) => c.conclusion)).toEqual(['failure']);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});

describe('a round that ends in any way concludes its check', () => {
  it('the sticky comment keeps failing after the check went in progress: the check completes and says what failed', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const checks: any[] = [];
    let sticky: any;
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    mock
      .post(`${REPO_PATH}/issues/comments/101/reactions`)
      .reply(201, {})
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData())
      .post(`${REPO_PATH}/issues/${PR}/comments`, (body: any) => ((sticky = body), true))
      .reply(201, { id: 9001, html_url: 'https://github.com/c/9001' })
      .post(`${REPO_PATH}/check-runs`, (body: any) => (checks.push(body), true))
      .reply(201, { id: 77, head_sha: HEAD, html_url: 'https://github.com/check/77' })
      .patch(`${REPO_PATH}/check-runs/77`, (body: any) => (checks.push(body), true))
      .reply(200, { id: 77 });
    mock
      .persist()
      .get(`${REPO_PATH}/issues/${PR}/comments`)
      .query(true)
      .reply(() => [200, sticky ? [{ ...stickyComment(loopState()), body: sticky.body, id: 9001 }] : []])
      .patch(`${REPO_PATH}/issues/comments/9001`)
      .reply(502, { message: 'Bad Gateway' });

    await probot.receive({
      id: 'd1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await queue.idle();

    expect(requests).toHaveLength(0); // the round never got going
    expect(checks.map((c) => [c.status, c.conclusion])).toEqual([
      ['in_progress', undefined],
      ['completed', 'failure'],
    ]);
    expect(checks[1].output.title).toBe('The review loop failed');
    expect(checks[1].output.summary).toContain(
      "The loop's state could not be saved in its sticky comment (HTTP 502",
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('the check cannot be concluded: the comment, which recorded it concluded with the end, records it open again', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const states: any[] = [];
    let sticky: any;
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    mock
      .post(`${REPO_PATH}/issues/comments/101/reactions`)
      .reply(201, {})
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData())
      .post(`${REPO_PATH}/issues/${PR}/comments`, (body: any) => ((sticky = body), true))
      .reply(201, { id: 9001, html_url: 'https://github.com/c/9001' })
      .post(`${REPO_PATH}/check-runs`)
      .reply(201, { id: 77, head_sha: HEAD, html_url: 'https://github.com/check/77' })
      .patch(`${REPO_PATH}/check-runs/77`)
      .reply(422, { message: 'Validation Failed' });
    mock
      .persist()
      .get(`${REPO_PATH}/issues/${PR}/comments`)
      .query(true)
      .reply(() => [200, sticky ? [{ ...stickyComment(loopState()), body: sticky.body, id: 9001 }] : []])
      .patch(`${REPO_PATH}/issues/comments/9001`, (body: any) => {
        sticky = body;
        states.push(decodeStateBlock(body.body));
        return true;
      })
      .reply(200, { id: 9001, html_url: 'https://github.com/c/9001' });

    await probot.receive({
      id: 'd3',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await queue.idle();

    expect(requests).toHaveLength(1);
    // the end recorded the check as concluded in the same edit; the conclusion failed, so it is open again
    expect(states.map((s) => [s.phase, s.check?.completed])).toEqual([
      ['running', false],
      ['acquitted', true],
      ['acquitted', false],
    ]);
    expect(states.at(-1).check).toMatchObject({ id: 77, conclusion: null });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('the pull request cannot be read: the command is answered with what failed', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const replies: string[] = [];
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    mock
      .post(`${REPO_PATH}/issues/comments/101/reactions`)
      .reply(201, {})
      .get(`${REPO_PATH}/issues/${PR}/comments`)
      .query(true)
      .reply(200, [])
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(502, { message: 'Bad Gateway' })
      .post(`${REPO_PATH}/issues/${PR}/comments`, (body: any) => (replies.push(body.body), true))
      .reply(201, { id: 1 });

    await probot.receive({
      id: 'd2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await queue.idle();

    expect(requests).toHaveLength(0);
    expect(replies).toEqual([
      expect.stringContaining(
        'The review loop did not start: GitHub did not answer the read of this pull request (HTTP 502',
      ),
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
