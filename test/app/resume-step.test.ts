/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies and decoded state are untyped JSON */
/**
 * A resumed loop continues from the step it was in (issue 27 item 4; docs/how-it-works.md § The App, "A
 * resumed loop"), and the verdict that sets the check is the one posted on the PR: the App is killed (or
 * shut down) after round 1's review was posted and before its fix landed; the next start makes the fix
 * that review asked for — it does not review the same head again — and round 2 reviews the fix. Under
 * Probot with the real review engine; GitHub and the model APIs are nock at the HTTP layer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import { parseRoundBlock } from '../../src/github/review/review-body.js';
import {
  API,
  HEAD,
  PR,
  REPO_PATH,
  commentPayload,
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
  type Recorded,
} from '../helpers/review-fixtures.js';

const HALVE = {
  summary: 'divide by two',
  edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
};

let dataDir: string;
const apps: Array<Awaited<ReturnType<typeof startTestApp>>> = [];

beforeEach(async () => {
  nock.disableNetConnect();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-data-'));
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.queue.close(2_000)));
  nock.abortPendingRequests();
  nock.cleanAll();
  await rm(dataDir, { recursive: true, force: true });
});

async function start() {
  const app = await startTestApp(engineRunner(), undefined, { dataDir });
  apps.push(app);
  return app;
}

const phaseOf = (fake: FakePull) => (decodeStateBlock(fake.sticky()?.body ?? '') as any)?.phase;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

/** The PR of the calc fixture, with the writes a round makes and the reads a resumed loop makes. */
function calcPull(first?: () => void) {
  const fake = new FakePull({
    base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
    head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
  });
  first?.(); // interceptors that must be matched before the fake's own
  const mock = fake.interceptBase();
  fake.interceptReads(mock);
  fake.interceptThreads(mock);
  return { fake, mock };
}

/** The PR's reviews as GitHub lists them: what a resumed loop reads its posted round back from. */
function listReviews(fake: FakePull) {
  return nock(API)
    .persist()
    .get(`${REPO_PATH}/pulls/${PR}/reviews`)
    .query(true)
    .reply(() => [
      200,
      fake.reviews.map((review, i) => ({
        id: i + 1,
        commit_id: review.commit_id,
        body: review.body,
        user: { login: 'review-loop[bot]', type: 'Bot' },
        html_url: `https://github.com/Codertocat/Hello-World/pull/${PR}#pullrequestreview-${i + 1}`,
      })),
    ]);
}

/**
 * Round 1 of a loop up to its fix: the review (4/10, not ready) is posted, and the fix's first Git Data
 * write is held — the process dies (or shuts down) there. Resolves once the review is on the PR.
 */
async function roundOneUpToItsFix(fake: FakePull, mock: nock.Scope) {
  let release: (() => void) | undefined;
  nock(API)
    .post(`${REPO_PATH}/git/trees`)
    .reply((_uri, _body, callback) => {
      // held: the fix never lands (a kill), or fails once the App is shutting down
      release = () => callback(null, [403, { message: 'the App is shutting down' }]);
    });
  fake.interceptGitData(mock);
  // round 1: the review, its finding checked in the executor's fix call, then the fix's commit
  openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
  anthropicReply(HALVE);
  const first = await start();
  await first.probot.receive({
    id: 'c101',
    name: 'issue_comment',
    payload: commentPayload({ body: '/review-loop', commentId: 101 }),
  });
  await until('round 1 is reviewed and its fix is under way', () => release !== undefined);
  // nothing else was asked of the models in round 1
  expect(nock.pendingMocks().filter((m) => !m.includes('api.github.com'))).toEqual([]);
  return { first, release: () => release!() };
}

/** After the restart: the fix of round 1 (the executor again), then round 2's review of the fixed head. */
function afterRestartModels(): { reviewer: Recorded; executor: Recorded } {
  const reviewer: Recorded = { bodies: [] };
  const executor: Recorded = { bodies: [] };
  anthropicReply(HALVE, executor);
  openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'), reviewer);
  return { reviewer, executor };
}

function expectFixThenReviewOfTheFix(fake: FakePull, reviewer: Recorded, executor: Recorded) {
  // exactly one review of the first head, then the fix commit, then one review of the fixed head
  const fixed = fake.head;
  expect(fixed).not.toBe(HEAD);
  expect(fake.commits.get(fixed)?.parent).toBe(HEAD);
  expect(fake.refUpdates).toHaveLength(1);
  expect(fake.reviews.map((r) => [r.commit_id, parseRoundBlock(r.body)?.record.round])).toEqual([
    [HEAD, 1],
    [fixed, 2],
  ]);
  // the executor was asked for round 1's finding, from the review on the PR; the reviewer saw the fix only
  expect(executor.bodies).toHaveLength(1);
  expect(JSON.stringify(executor.bodies[0])).toContain(HALF_BUG.title);
  expect(reviewer.bodies).toHaveLength(1);
  const state: any = decodeStateBlock(fake.sticky()!.body);
  expect(state.phase).toBe('acquitted');
  expect(state.rounds.map((r: any) => [r.round, r.head, r.score, r.verdict])).toEqual([
    [1, HEAD, 4, 'not ready'],
    [2, fixed, 8, 'ready'],
  ]);
  expect(state.rounds[0].action).toMatch(/^fixed src\/calc\.ts in [0-9a-f]{7}$/);
  expect(state.rounds[0].reviewUrl).toMatch(/#pullrequestreview-1$/);
  // the check follows the verdict posted on each head: round 1's superseded, round 2's approval
  expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([
    [HEAD, 'neutral'],
    [fixed, 'success'],
  ]);
  expect(fake.checks.at(-1)!.title).toBe('Approved: 8/10, ready');
  // round 1's finding thread is resolved by round 2, which no longer raises it
  expect(fake.resolvedThreads).toHaveLength(1);
}

describe('a loop interrupted in its fix step resumes at the fix', () => {
  it('killed after round 1’s review was posted, before its fix landed: the restart makes that fix, then round 2 reviews it', async () => {
    const { fake, mock } = calcPull();
    const { first } = await roundOneUpToItsFix(fake, mock);
    await first.queue.abandon(); // killed: the running-loops record stays as it was
    apps.splice(0);
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD]);
    expect(decodeStateBlock(fake.sticky()!.body)).toMatchObject({ phase: 'running', rounds: [] });

    listReviews(fake);
    const { reviewer, executor } = afterRestartModels();
    const second = await start();
    await until('the resumed loop ended', () => phaseOf(fake) === 'acquitted');
    await second.queue.idle();

    expectFixThenReviewOfTheFix(fake, reviewer, executor);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
  it('shut down after round 1’s review was posted, while its fix was being written: the next start makes that fix, then round 2 reviews it', async () => {
    const { fake, mock } = calcPull();
    const { first, release } = await roundOneUpToItsFix(fake, mock);
    // SIGTERM: the loop is aborted; the fix's write under way fails, and the loop is handed on
    const closing = first.queue.close(10_000);
    await sleep(20);
    release();
    expect(await closing).toBe(true);
    apps.splice(0);
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD]);
    expect(fake.refUpdates).toEqual([]);
    expect(decodeStateBlock(fake.sticky()!.body)).toMatchObject({ phase: 'running' });

    listReviews(fake);
    const { reviewer, executor } = afterRestartModels();
    const second = await start();
    await until('the resumed loop ended', () => phaseOf(fake) === 'acquitted');
    await second.queue.idle();

    expectFixThenReviewOfTheFix(fake, reviewer, executor);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('killed after round 1’s fix landed, before round 2 began: the restart records that fix and round 2 reviews it — no second fix, no second review of either head', async () => {
    let roundTwo = false;
    // round 2's check run on the fixed head is never created: the App dies there
    const { fake, mock } = calcPull(() =>
      nock(API)
        .post(`${REPO_PATH}/check-runs`, (body: any) => body.head_sha !== HEAD)
        .reply(() => {
          roundTwo = true;
          return new Promise(() => undefined) as never;
        }),
    );
    fake.interceptGitData(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    anthropicReply(HALVE);
    const first = await start();
    await first.probot.receive({
      id: 'c101',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 101 }),
    });
    await until('round 1’s fix landed and round 2 is starting', () => roundTwo);
    await first.queue.abandon();
    apps.splice(0);
    const fixed = fake.head;
    expect(fixed).not.toBe(HEAD);
    expect(decodeStateBlock(fake.sticky()!.body)).toMatchObject({ phase: 'running', rounds: [] });

    listReviews(fake);
    const reviewer: Recorded = { bodies: [] };
    // round 2 is the second look at the loop's own fix: no confirmation call
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'), reviewer);
    const second = await start();
    await until('the resumed loop ended', () => phaseOf(fake) === 'acquitted');
    await second.queue.idle();

    expect(fake.refUpdates).toHaveLength(1);
    expect(fake.reviews.map((r) => [r.commit_id, parseRoundBlock(r.body)?.record.round])).toEqual([
      [HEAD, 1],
      [fixed, 2],
    ]);
    expect(reviewer.bodies).toHaveLength(1);
    const state: any = decodeStateBlock(fake.sticky()!.body);
    expect(state.rounds.map((r: any) => [r.round, r.head, r.score, r.action])).toEqual([
      [1, HEAD, 4, `fixed src/calc.ts in ${fixed.slice(0, 7)}`],
      [2, fixed, 8, 'approved'],
    ]);
    // the fix's head is the App's own, so its push webhook starts nothing
    expect(state.pushedHeads).toEqual([fixed]);
    expect(fake.checks.at(-1)).toMatchObject({ head_sha: fixed, conclusion: 'success' });
    expect(fake.checks.filter((c) => c.head_sha === fixed)).toHaveLength(1);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});

describe('the verdict that sets the check is the one posted on the PR', () => {
  it('killed after the approving review was posted, before the loop ended: the restart concludes the check from that review, with no model call and no second review', async () => {
    let ending = false;
    // the loop's end (the sticky comment's edit that records the approval) never lands: the App dies there
    const { fake, mock } = calcPull(() =>
      nock(API)
        .patch(
          /\/issues\/comments\/\d+$/,
          (body: any) => (decodeStateBlock(body.body) as any)?.phase === 'acquitted',
        )
        .reply(() => {
          ending = true;
          return new Promise(() => undefined) as never;
        }),
    );
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const first = await start();
    await first.probot.receive({
      id: 'c101',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 101 }),
    });
    await until('the approving review is posted and the loop is ending', () => ending);
    await first.queue.abandon();
    apps.splice(0);
    expect(fake.reviews.map((r) => [r.commit_id, String(r.body).split('\n')[1]])).toEqual([
      [HEAD, '### Round 1 of 4: passed (8/10, ready)'],
    ]);
    expect(fake.checks.map((c) => [c.head_sha, c.status])).toEqual([[HEAD, 'in_progress']]);

    listReviews(fake);
    const second = await start();
    await until('the resumed loop ended', () => phaseOf(fake) === 'acquitted');
    await second.queue.idle();

    // no model was asked again (nock refuses any call not registered), no second review was posted
    expect(fake.reviews).toHaveLength(1);
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion, c.title])).toEqual([
      [HEAD, 'success', 'Approved: 8/10, ready'],
    ]);
    const state: any = decodeStateBlock(fake.sticky()!.body);
    expect(state.rounds.map((r: any) => [r.round, r.head, r.score, r.verdict, r.reviewUrl])).toEqual([
      [1, HEAD, 8, 'ready', expect.stringMatching(/#pullrequestreview-1$/)],
    ]);
    // a round without findings reads no file list and no thread
    expect(mock.pendingMocks().filter((m) => !/\/files$|graphql/.test(m))).toStrictEqual([]);
    expect(nock.pendingMocks().filter((m) => !/\/files$|graphql/.test(m))).toStrictEqual([]);
  });

  it('a round review without the round block (an App from before it): the head reviewed again to another verdict gets that review posted too, so the check follows the last review on the PR', async () => {
    const { fake, mock } = calcPull();
    const { first } = await roundOneUpToItsFix(fake, mock);
    await first.queue.abandon();
    apps.splice(0);
    // as an App without the round block posted it
    fake.reviews[0].body = String(fake.reviews[0].body).replace(
      /\n<!-- skillclimb:review-loop-round [^\n]*-->$/,
      '',
    );
    expect(parseRoundBlock(fake.reviews[0].body)).toBeUndefined();

    listReviews(fake);
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation
    const second = await start();
    await until('the resumed loop ended', () => phaseOf(fake) === 'acquitted');
    await second.queue.idle();

    const headings = fake.reviews.map((r) => [
      r.commit_id,
      String(r.body)
        .replace(/^<!--[^\n]*-->\n/, '')
        .split('\n')[0],
    ]);
    expect(headings).toEqual([
      [HEAD, '### Round 1 of 4: changes needed (4/10, not ready)'],
      [HEAD, '### Round 1 of 4: passed (8/10, ready)'],
    ]);
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([[HEAD, 'success']]);
    const state: any = decodeStateBlock(fake.sticky()!.body);
    expect(state.rounds.map((r: any) => [r.round, r.score, r.reviewUrl])).toEqual([
      [1, 8, expect.stringMatching(/#pullrequestreview-2$/)],
    ]);
    // no fix was made (the review on the PR now approves), so neither the Git Data API nor the threads
    expect(fake.refUpdates).toEqual([]);
    expect(mock.pendingMocks().filter((m) => !/graphql|\/git\//.test(m))).toStrictEqual([]);
    expect(nock.pendingMocks().filter((m) => !/graphql|\/git\//.test(m))).toStrictEqual([]);
  });

  it('a stop that arrives while the approving review is being posted: the check passes as the review says, and the status does not say the stop ended the loop', async () => {
    let posting = false;
    let release: () => void = () => undefined;
    const { fake, mock } = calcPull(() =>
      nock(API)
        .post(`${REPO_PATH}/pulls/${PR}/reviews`)
        .reply((_uri, body: any, callback) => {
          posting = true;
          release = () => {
            fake.reviews.push(body);
            callback(null, [
              200,
              { id: 1, html_url: `https://github.com/Codertocat/Hello-World/pull/${PR}#pullrequestreview-1` },
            ]);
          };
        }),
    );
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation
    const app = await start();
    await app.probot.receive({
      id: 'c101',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 101 }),
    });
    await until('the approving review is being posted', () => posting);
    await app.probot.receive({
      id: 'c102',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop stop', commentId: 102 }),
    });
    // the stop is taken (the running loop aborted) once the comment is recorded as handled
    await until('the stop is taken', () =>
      ((decodeStateBlock(fake.sticky()?.body ?? '') as any)?.handledComments ?? []).includes(102),
    );
    release();
    await app.queue.idle();

    expect(fake.reviews.map((r) => String(r.body).split('\n')[1])).toEqual([
      '### Round 1 of 4: passed (8/10, ready)',
    ]);
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion, c.title])).toEqual([
      [HEAD, 'success', 'Approved: 8/10, ready'],
    ]);
    const status = (fake.sticky()?.body ?? '').split('\n').find((line) => line.startsWith('**Status:**'));
    expect(status).toMatch(/^\*\*Status:\*\* Approved: the reviewer passed `aaaaaaa`\. /);
    expect(status).not.toContain('Ended by');
    expect(status).toContain('came after the loop had ended so');
    expect(phaseOf(fake)).toBe('acquitted');
    // (the fake's own review route is not used: the held one above took the review)
    expect(mock.pendingMocks().filter((m) => !/\/files$|graphql|\/reviews$/.test(m))).toStrictEqual([]);
  });
});
