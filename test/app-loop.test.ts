/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * A two-round loop through the App's own machinery, with a scripted runner driving the pull session the
 * way the engine does (round started → review posted → fix committed → next round on the new head →
 * acquittal): one sticky comment edited across rounds, one review per round on its SHA, the fix through
 * the Git Data API, the check superseded on the replaced head and successful only on the acquitted one,
 * the App's own push ignored, and a later push leaving the new head "not reviewed".
 */
import nock from 'nock';
import { afterEach, expect, it } from 'vitest';
import type { RoundReviewView } from '../src/github/review-body.js';
import { decodeStateBlock } from '../src/github/sticky-comment.js';
import {
  APP_ID,
  HEAD,
  PR,
  REPO_PATH,
  commentPayload,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  pullRequestPayload,
  scriptedRunner,
  startTestApp,
} from './helpers/app-fixtures.js';

afterEach(() => nock.cleanAll());

const FIXED = 'c'.repeat(40);
const LATER = 'e'.repeat(40);
const patch = '@@ -1,2 +1,2 @@\n line1\n-line2\n+line2b';

function view(
  round: number,
  headSha: string,
  score: number,
  verdict: RoundReviewView['verdict'],
): RoundReviewView {
  return {
    runId: 'set below',
    round,
    maxRounds: 4,
    headSha,
    reviewerModel: 'openai:gpt-5',
    score,
    verdict,
    weaknesses:
      round === 1 ? [{ title: 'line2b is wrong', minimumFix: 'say line2c', path: 'src/a.ts', line: 2 }] : [],
    memoryUpdate: `round ${round}`,
    raw: `{"score":${score}}`,
  };
}

it('runs two rounds with an auto fix, binding the success to the acquitted head', async () => {
  const { runner, requests } = scriptedRunner(async ({ session, runId }) => {
    await session.roundStarted(1, HEAD);
    await session.postReview({ ...view(1, HEAD, 4, 'not ready'), runId });
    const fix = await session.commitFix(
      [{ path: 'src/a.ts', old_string: 'line2b', new_string: 'line2c' }],
      'review-loop: round 1 fix',
      HEAD,
    );
    expect(fix).toMatchObject({ status: 'committed', sha: FIXED });
    await session.saveReviewState({ state: { round: 1 } }, [
      {
        round: 1,
        head: HEAD,
        score: 4,
        verdict: 'not ready',
        weaknesses: ['line2b is wrong'],
        action: 'fixed',
        reviewUrl: null,
      },
    ]);
    await session.roundStarted(2, FIXED);
    await session.postReview({ ...view(2, FIXED, 8, 'ready'), runId });
    return outcome({ runId, head: FIXED, rounds: 2 });
  });
  const { probot, queue } = await startTestApp(runner);

  let sticky: any;
  let stickyPosts = 0;
  const reviews: any[] = [];
  const checks: Array<{ method: string; id: number; body: any }> = [];
  let nextCheck = 100;
  const mock = nockToken()
    .persist()
    .post(`${REPO_PATH}/issues/comments/101/reactions`)
    .reply(201, {})
    .get(`${REPO_PATH}/issues/${PR}/comments`)
    .query(true)
    .reply(200, () =>
      sticky
        ? [
            {
              id: 9001,
              body: sticky,
              html_url: 'u',
              user: { login: 'review-loop[bot]', type: 'Bot' },
              performed_via_github_app: { id: APP_ID },
            },
          ]
        : [],
    )
    .post(`${REPO_PATH}/issues/${PR}/comments`, (b: any) => ((sticky = b.body), (stickyPosts += 1), true))
    .reply(201, { id: 9001, html_url: 'u' })
    .patch(`${REPO_PATH}/issues/comments/9001`, (b: any) => ((sticky = b.body), true))
    .reply(200, { id: 9001, html_url: 'u' })
    .get(`${REPO_PATH}/pulls/${PR}`)
    .reply(200, pullData())
    .get(`${REPO_PATH}/pulls/${PR}/files`)
    .query(true)
    .reply(200, [{ filename: 'src/a.ts', patch, status: 'modified', additions: 1, deletions: 1 }])
    .post(`${REPO_PATH}/pulls/${PR}/reviews`, (b: any) => (reviews.push(b), true))
    .reply(200, () => ({ id: reviews.length, html_url: `r${reviews.length}` }))
    .post(
      `${REPO_PATH}/check-runs`,
      (b: any) => (checks.push({ method: 'POST', id: nextCheck, body: b }), true),
    )
    .reply(201, (_uri: string, b: any) => {
      const id = nextCheck++;
      return { id, head_sha: b.head_sha, html_url: `https://github.com/checks/${id}` };
    })
    .patch(/\/check-runs\/\d+$/, (b: any) => (checks.push({ method: 'PATCH', id: 0, body: b }), true))
    .reply(200, {})
    // the fix through the Git Data API
    .get(`${REPO_PATH}/git/commits/${HEAD}`)
    .reply(200, { sha: HEAD, tree: { sha: 'tree-a' } })
    .get(`${REPO_PATH}/git/trees/tree-a`)
    .reply(200, { tree: [{ path: 'src', type: 'tree', mode: '040000', sha: 'src-a' }] })
    .get(`${REPO_PATH}/git/trees/src-a`)
    .reply(200, { tree: [{ path: 'a.ts', type: 'blob', mode: '100644', sha: 'blob-a' }] })
    .get(`${REPO_PATH}/git/blobs/blob-a`)
    .reply(200, { content: Buffer.from('line1\nline2b\n').toString('base64'), encoding: 'base64' })
    .post(`${REPO_PATH}/git/blobs`)
    .reply(201, { sha: 'blob-c' })
    .post(`${REPO_PATH}/git/trees`)
    .reply(201, { sha: 'tree-c' })
    .post(`${REPO_PATH}/git/commits`)
    .reply(201, { sha: FIXED })
    .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`, { sha: FIXED, force: false })
    .reply(200, {});
  nockNoConfig(mock);
  nockPermission('maintainer', 'write', mock);

  await probot.receive({
    id: 'loop-1',
    name: 'issue_comment',
    payload: commentPayload({ body: '/review-loop' }),
  });
  await queue.idle();

  expect(requests).toHaveLength(1);
  // one sticky comment, created once and then only edited
  expect(stickyPosts).toBe(1);
  const state = decodeStateBlock(sticky) as any;
  expect(state).toMatchObject({ phase: 'acquitted', head: FIXED, pushedHeads: [FIXED] });
  expect(state.rounds).toHaveLength(1);
  // one review per round, each on its SHA; round 1's cited line became an inline comment
  expect(reviews.map((r) => r.commit_id)).toEqual([HEAD, FIXED]);
  expect(reviews[0].comments).toEqual([expect.objectContaining({ path: 'src/a.ts', line: 2 })]);
  // checks: in progress on HEAD, then on FIXED (HEAD's superseded, neutral, linking FIXED's), success on FIXED
  const created = checks.filter((c) => c.method === 'POST').map((c) => c.body);
  expect(created.map((c) => [c.head_sha, c.status])).toEqual([
    [HEAD, 'in_progress'],
    [FIXED, 'in_progress'],
  ]);
  const completed = checks.filter((c) => c.method === 'PATCH').map((c) => c.body);
  expect(completed).toContainEqual(
    expect.objectContaining({
      conclusion: 'neutral',
      output: expect.objectContaining({ summary: expect.stringContaining('checks/101') }),
    }),
  );
  expect(completed.at(-1)).toMatchObject({ conclusion: 'success' });
  expect(created.every((c) => c.external_id === requests[0]?.runId)).toBe(true);

  // GitHub's push webhook for the App's own fix: no new round
  await probot.receive({
    id: 'loop-2',
    name: 'pull_request',
    payload: pullRequestPayload('synchronize', {
      head: FIXED,
      sender: { login: 'review-loop[bot]', type: 'Bot' },
    }),
  });
  await probot.receive({
    id: 'loop-3',
    name: 'pull_request',
    payload: pullRequestPayload('synchronize', { head: FIXED }),
  });
  await queue.idle();
  expect(requests).toHaveLength(1);

  // a later push by a person: the acquittal is stale for the new head
  const before = checks.length;
  await probot.receive({
    id: 'loop-4',
    name: 'pull_request',
    payload: pullRequestPayload('synchronize', { head: LATER }),
  });
  await queue.idle();
  expect(requests).toHaveLength(1);
  expect(checks.slice(before).map((c) => c.body)).toEqual([
    expect.objectContaining({ head_sha: LATER, status: 'completed', conclusion: 'action_required' }),
  ]);
  mock.persist(false);
});
