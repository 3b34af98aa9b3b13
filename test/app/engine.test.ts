/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * The App with the real review engine, end to end under Probot: `probot.receive` with payloads shaped
 * like @octokit/webhooks-examples, GitHub AND the model APIs intercepted by nock at the HTTP layer (the
 * reviewer answers in the OpenAI Responses format, the executor in Anthropic Messages), so the App's
 * adapters, the engine, the provider layer and Probot's Octokit all run as in production.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appSecrets } from '../../src/app/app.js';
import { GitHubReviewStore } from '../../src/github/review/review-store.js';
import { createLoopRunner } from '../../src/app/engine.js';
import type { PullSession } from '../../src/github/review/pull-session-port.js';
import type { ReviewState } from '../../src/core/review/state.js';
import { composeStickyBody, decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import { BODY_LIMIT } from '../../src/core/text/untrusted-text.js';
import {
  API,
  HEAD,
  NOW,
  REPO_PATH,
  commentPayload,
  PR,
  PRIVATE_KEY,
  SETTINGS,
  loopState,
  nockPermission,
  recordingLog,
  pullRequestPayload,
  startTestApp,
  engineRunner,
  APP_MODEL_KEYS as MODEL_KEYS,
} from '../helpers/app-fixtures.js';
import { renderLoopLog } from '../../src/github/review/loop-state.js';
import { FakePull } from '../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  HALF_BUG,
  README,
  anthropicUserText,
  openaiInputText,
  openaiReply,
  checkAnswer,
  anthropicReply,
  reviewAnswer,
  type Recorded,
} from '../helpers/review-fixtures.js';

const FIXED_TEXT = CALC_BRANCH.replace('n / 3', 'n / 2');
const HALVE = {
  summary: 'divide by two',
  edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
};

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** The App's secrets as `npm start` computes them from its environment: the model keys and its private key. */
const APP_SECRETS = appSecrets({ ...MODEL_KEYS, PRIVATE_KEY });

/** Everything the App wrote on the pull request, and every log line, as one text to scan for secrets. */
function everythingWritten(fake: FakePull, logs: string[]): string {
  return JSON.stringify([
    fake.comments.map((c) => c.body),
    fake.reviews,
    fake.checkRequests.map((r) => r.body),
    fake.issues,
    logs,
  ]);
}

/** The values that must never appear: each key, and the private key's body line by line. */
function secretValues(): string[] {
  const keyLines = PRIVATE_KEY.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));
  return [...Object.values(MODEL_KEYS), ...keyLines];
}

function calcPull(options: { fork?: boolean } = {}) {
  return new FakePull({
    base: { 'README.md': README, 'src/calc.ts': CALC_BASE },
    head: { 'README.md': README, 'src/calc.ts': CALC_BRANCH },
    ...options,
  });
}

async function say(probot: { receive: (e: any) => Promise<void> }, body: string, commentId: number) {
  await probot.receive({
    id: `c${commentId}`,
    name: 'issue_comment',
    payload: commentPayload({ body, commentId }),
  });
}

function stickyState(fake: FakePull): any {
  return decodeStateBlock(fake.sticky()?.body ?? '');
}

function receiptOf(review: any): any {
  const line = String(review.body).split('\n')[0] ?? '';
  const match = /^<!-- skillclimb:review-loop-receipt ([A-Za-z0-9+/=]+) -->$/.exec(line);
  return match ? JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) : undefined;
}

/** Eight weaknesses of one round, each with a long detail and minimum fix (a verbose reviewer). */
function verboseWeaknesses(round: number) {
  return Array.from({ length: 8 }, (_, i) => ({
    rank: i + 1,
    title: `Round ${round} weakness ${i + 1}`,
    severity: 'major' as const,
    detail: `DETAIL-${round}-${i + 1} `.repeat(120),
    minimum_fix: `FIX-${round}-${i + 1} `.repeat(50),
    effort: 'small' as const,
    file: 'src/calc.ts',
    line: 6,
    source: 'reviewer' as const,
    resolved_by_debate: false,
  }));
}

const USAGE = {
  calls: 1,
  inputTokens: 100,
  outputTokens: 10,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
};

/** Nine rounds in the engine's history and a tenth waiting at the checkpoint, all of them verbose. */
function verboseEngineState(runId: string): ReviewState {
  return {
    run_id: runId,
    round: 9,
    threadId: null,
    status: 'in_progress',
    last_score: 4,
    last_verdict: 'not ready',
    pending_experiments: [],
    timestamp: NOW.toISOString(),
    difficulty: 'medium',
    reviewer_model: SETTINGS.reviewerModel!,
    reviewer_family: 'openai',
    executor_model: SETTINGS.executorModel!,
    executor_family: 'anthropic',
    family_relation: 'different',
    trace_id: null,
    base: 'b'.repeat(40),
    reviewed_head: HEAD,
    awaiting: 'checkpoint',
    pending: {
      round: 10,
      head: HEAD,
      score: 4,
      verdict: 'not ready',
      summary: 'Still wrong. '.repeat(200),
      raw: 'RAW ANSWER '.repeat(3000),
      verifier_raw: null,
      memory_update: 'Watch the division. '.repeat(100),
      weaknesses: verboseWeaknesses(10),
      debate: null,
      seconds: 10,
      usage: USAGE,
      started_at: NOW.toISOString(),
    },
    settings: { max_rounds: 12, fix: 'auto', checkpoint: true, preset: 'code' },
    history: Array.from({ length: 9 }, (_, i) => ({
      round: i + 1,
      head: HEAD,
      score: 4,
      verdict: 'not ready' as const,
      positive: false,
      seconds: 10,
      usage: USAGE,
      weaknesses: verboseWeaknesses(i + 1),
      commit: null,
    })),
    usage: USAGE,
    outcome: null,
  };
}

describe('the App with the review engine', () => {
  it('runs two rounds: review, an auto fix committed through the Git Data API, acquittal on the new head', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // round 1 left finding threads: later rounds read them (GraphQL)
    fake.interceptThreads(mock);
    fake.interceptGitData(mock);
    const reviewer: Recorded = { bodies: [] };
    const executor: Recorded = { bodies: [] };
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]), reviewer);
    anthropicReply({ ...HALVE, ...checkAnswer(true) }, executor); // the fix call checks the finding
    openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'), reviewer);
    const logs: string[] = [];
    const { probot, queue } = await startTestApp(engineRunner(), SETTINGS, {
      secrets: APP_SECRETS,
      log: recordingLog(logs),
    });

    // Guidance before any loop: kept, and the next fix follows it.
    await say(probot, '/review-loop note: Keep the signature of half() as it is.', 100);
    await queue.idle();
    expect(fake.replies()).toEqual([expect.stringContaining('Your note is kept')]);

    await say(probot, '/review-loop', 101);
    await queue.idle();

    const fixed = fake.head;
    expect(fixed).not.toBe(HEAD);
    expect(fake.filesAt(fixed)['src/calc.ts']).toBe(FIXED_TEXT);
    expect(fake.refUpdates).toEqual([{ sha: fixed, force: false }]);
    // the reviewer saw the PR's title and body as claims; the executor the weakness and the guidance
    expect(openaiInputText(reviewer.bodies[0]!)).toContain('Add the thing');
    const fixPrompt = anthropicUserText(executor.bodies[0]!);
    expect(fixPrompt).toContain('half() divides by 3');
    expect(fixPrompt).toContain('Keep the signature of half() as it is.');
    // round 2 was shown the diff since round 1, never the executor's summary
    expect(openaiInputText(reviewer.bodies[1]!)).toContain('n / 2');
    expect(openaiInputText(reviewer.bodies[1]!)).not.toContain('divide by two');

    // one review per round, on its SHA; round 1's cited line is an inline comment
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD, fixed]);
    expect(fake.reviews[0].comments).toEqual([expect.objectContaining({ path: 'src/calc.ts', line: 6 })]);
    // round 2 no longer raises round 1's finding: its thread is resolved
    expect(fake.resolvedThreads).toEqual(['PRRT_0_0']);
    expect(fake.reviews[0].body).toContain('4/10, not ready');
    const state = stickyState(fake);
    const runId = state.runId as string;
    expect(runId).toMatch(/^run_20260301_[0-9a-f]{8}$/);
    // the acquitting review carries the engine's receipt, bound to the acquitted head and this run
    expect(receiptOf(fake.reviews[1])).toMatchObject({
      run_id: runId,
      round: 2,
      verdict: 'ready',
      head: fixed,
      head_sha: fixed,
      reviewer_family: 'openai',
      executor_family: 'anthropic',
    });

    // checks: in progress on HEAD, superseded (neutral, linking) when the fix replaced it, success on the fix
    expect(fake.checks.map((c) => [c.head_sha, c.status, c.conclusion])).toEqual([
      [HEAD, 'completed', 'neutral'],
      [fixed, 'completed', 'success'],
    ]);
    expect(fake.checks[0]!.summary).toContain(`runs/${fake.checks[1]!.id}`);
    expect(fake.checks.every((c) => c.external_id === runId)).toBe(true);

    // one sticky comment, created once and then only edited, with a row per round
    expect(fake.comments.filter((c) => c.body.startsWith('<!-- skillclimb:review-loop -->'))).toHaveLength(1);
    // (how few edits a round takes is pinned in write-budget.test.ts)
    expect(fake.commentEdits).toBeGreaterThan(0);
    expect(state).toMatchObject({ phase: 'acquitted', head: fixed, pushedHeads: [fixed], guidance: null });
    expect(state.rounds.map((r: any) => [r.round, r.score, r.verdict])).toEqual([
      [1, 4, 'not ready'],
      [2, 8, 'ready'],
    ]);
    expect(state.rounds[0].action).toContain('fixed src/calc.ts');
    expect(state.review.state).toMatchObject({ run_id: runId, status: 'completed', outcome: 'acquitted' });

    // GitHub's webhook for the App's own fix starts nothing
    await probot.receive({
      id: 'p1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', {
        head: fixed,
        sender: { login: 'review-loop[bot]', type: 'Bot' },
      }),
    });
    await queue.idle();
    expect(fake.checks).toHaveLength(2);

    // a person's later push: the acquittal does not carry over; the new head is marked not reviewed
    const later = fake.push({ 'src/calc.ts': `${FIXED_TEXT}// later\n` });
    await probot.receive({
      id: 'p2',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: later }),
    });
    await queue.idle();
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([
      [HEAD, 'neutral'],
      [fixed, 'success'],
      [later, 'action_required'],
    ]);
    expect(fake.checks[2]!.title).toBe('Not reviewed: the approval was for an earlier commit');
    // and another: its sentence is the same (no edit for it), the check of the newest head is new (shown)
    const newest = fake.push({ 'src/calc.ts': `${FIXED_TEXT}// later still\n` });
    await probot.receive({
      id: 'p3',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: newest }),
    });
    await queue.idle();
    expect(fake.checks.at(-1)).toMatchObject({ head_sha: newest, conclusion: 'action_required' });
    // every edit of the sticky comment, from the note before the loop to the last push, changed what it shows
    const shown = fake.stickyWrites.map((body) => body.replace(/<!--[\s\S]*?-->/g, ''));
    shown.slice(1).forEach((text, i) => expect(text, `sticky write ${i + 2}`).not.toBe(shown[i]));
    expect(shown.at(-1)).toContain(`**Check run:** [on \`${newest.slice(0, 7)}\`]`);

    // no key and no part of the private key in anything posted (comments, reviews, checks, issues) or logged
    expect(logs.join('\n')).toContain('committed fixes to src/calc.ts');
    const written = everythingWritten(fake, logs);
    for (const secret of secretValues()) expect(written).not.toContain(secret);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('keeps a fork PR manual: no push to it, and the author’s push resumes the loop', async () => {
    const fake = calcPull({ fork: true });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // round 1 left finding threads: later rounds read them (GraphQL)
    fake.interceptThreads(mock);
    const reviewer: Recorded = { bodies: [] };
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]), reviewer);
    openaiReply(checkAnswer(true)); // the finding check
    // The executor still proposes its fix: it becomes a one-click suggestion, never a push.
    anthropicReply(HALVE);
    const { probot, queue } = await startTestApp(engineRunner());

    await say(probot, '/review-loop', 101);
    await queue.idle();
    expect(fake.refUpdates).toEqual([]);
    expect(fake.reviews[0].comments).toContainEqual(
      expect.objectContaining({
        path: 'src/calc.ts',
        line: 6,
        side: 'RIGHT',
        body: expect.stringContaining('```suggestion\n  return n / 2;\n```'),
      }),
    );
    expect(stickyState(fake)).toMatchObject({ phase: 'waiting-fix', settings: { fix: 'manual' } });
    expect(stickyState(fake).message).toContain('fork');
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([[HEAD, 'action_required']]);
    expect(fake.head).toBe(HEAD);

    openaiReply(reviewAnswer(9, 'ready'), reviewer);
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    const pushed = fake.push({ 'src/calc.ts': FIXED_TEXT });
    await probot.receive({
      id: 'p3',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed, sender: { login: 'forker' } }),
    });
    await queue.idle();

    expect(reviewer.bodies).toHaveLength(2);
    expect(openaiInputText(reviewer.bodies[1]!)).toContain('n / 2');
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD, pushed]);
    // the check that asked for the fix gives way to the pushed head's, and links it
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([
      [HEAD, 'neutral'],
      [pushed, 'success'],
    ]);
    expect(fake.checks[0]!.title).toBe(`Superseded by ${pushed.slice(0, 7)}`);
    expect(fake.checks[0]!.summary).toContain(`runs/${fake.checks[1]!.id}`);
    expect(new Set(fake.checks.map((c) => c.external_id)).size).toBe(1);
    expect(stickyState(fake)).toMatchObject({ phase: 'acquitted', head: pushed });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('gives up when the rounds run out: one defect-park issue, commented on at the next give-up', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // round 1 left finding threads: later rounds read them (GraphQL)
    fake.interceptThreads(mock);
    fake.interceptParkIssues(mock, { comment: true });
    openaiReply(
      reviewAnswer(4, 'not ready', [
        { ...HALF_BUG, effort: 'trivial' },
        { title: 'No tests', effort: 'large' },
      ]),
    );
    openaiReply(checkAnswer(true, true)); // the finding check
    const { probot, queue } = await startTestApp(engineRunner());

    await say(probot, '/review-loop rounds: 1', 101);
    await queue.idle();
    expect(fake.issues).toHaveLength(1);
    const issue = fake.issues[0]!;
    expect(issue.body.split('\n')[0]).toBe('<!-- skillclimb:review-park pr=7 -->');
    expect(issue.body).toContain('half() divides by 3');
    expect(issue.body).toMatch(/No tests.*large/);
    expect(issue.labels).toEqual(['defect-park']);
    const first = stickyState(fake);
    expect(first).toMatchObject({ phase: 'gave-up', parkIssue: issue.number });
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion, c.title])).toEqual([
      [HEAD, 'failure', 'Rounds ran out with changes still requested'],
    ]);

    openaiReply(reviewAnswer(5, 'not ready', [{ title: 'Still no tests', minimum_fix: 'Add one.' }]));
    openaiReply(checkAnswer(true)); // the finding check
    await say(probot, '/review-loop rounds: 1', 102);
    await queue.idle();
    expect(fake.issues).toHaveLength(1);
    expect(issue.comments).toEqual([expect.stringContaining('Still no tests')]);
    const second = stickyState(fake);
    expect(second.runId).not.toBe(first.runId);
    expect(issue.comments[0]).toContain(second.runId);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('waits at the checkpoint; a note there is the answer the fix follows', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    // round 1 left finding threads: later rounds read them (GraphQL)
    fake.interceptThreads(mock);
    fake.interceptGitData(mock);
    const executor: Recorded = { bodies: [] };
    openaiReply(
      reviewAnswer(4, 'not ready', [HALF_BUG, { title: 'No test for half()', minimum_fix: 'Add one.' }]),
    );
    openaiReply(checkAnswer(true, true)); // the finding check
    const { probot, queue } = await startTestApp(engineRunner());

    await say(probot, '/review-loop checkpoint: on', 101);
    await queue.idle();
    expect(stickyState(fake)).toMatchObject({ phase: 'waiting-checkpoint' });
    expect(fake.reviews).toHaveLength(1); // the review is posted while the loop waits
    expect(fake.checks.map((c) => [c.conclusion, c.title])).toEqual([
      ['action_required', 'Waiting at the checkpoint'],
    ]);

    anthropicReply(HALVE, executor);
    openaiReply(reviewAnswer(9, 'ready'));
    await say(probot, '/review-loop note: Fix only the division; the test can wait.', 102);
    await queue.idle();

    const fixPrompt = anthropicUserText(executor.bodies[0]!);
    expect(fixPrompt).toContain('Fix only the division; the test can wait.');
    expect(fake.filesAt(fake.head)['src/calc.ts']).toBe(FIXED_TEXT);
    expect(fake.reviews.map((r) => r.commit_id)).toEqual([HEAD, fake.head]);
    expect(stickyState(fake)).toMatchObject({
      phase: 'acquitted',
      guidance: null,
      handledComments: [101, 102],
    });
    expect(fake.checks.at(-1)).toMatchObject({ head_sha: fake.head, conclusion: 'success' });
    expect(stickyState(fake).rounds.map((r: any) => r.reviewUrl)).toEqual([
      expect.stringContaining('pullrequestreview-1'),
      expect.stringContaining('pullrequestreview-2'),
    ]);
    // The check never names a round that is not running: after the answer, round 1's fix runs on HEAD
    // ("Round 2 of 4 running" there would name a round whose review had not started).
    const running = fake.checkRequests
      .map((r) => [/^Round (\d+) of \d+ running$/.exec(r.body.output?.title ?? '')?.[1], r.id] as const)
      .filter(([round]) => round !== undefined)
      .map(
        ([round, id]) => `round ${round} on ${fake.checks.find((c) => c.id === id)!.head_sha.slice(0, 7)}`,
      );
    expect(new Set(running)).toEqual(
      new Set([`round 1 on ${HEAD.slice(0, 7)}`, `round 2 on ${fake.head.slice(0, 7)}`]),
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('says in the sticky comment and the check run which model key the App lacks; continue retries', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    const env: NodeJS.ProcessEnv = { ANTHROPIC_API_KEY: 'sk-ant-only' };
    const { probot, queue } = await startTestApp(
      createLoopRunner(env, { models: { retry: { baseDelayMs: 1 } }, clock: () => NOW }),
    );
    await say(probot, '/review-loop', 101);
    await queue.idle();
    const reason = 'reviewer model openai:gpt-5 needs OPENAI_API_KEY in the App’s environment';
    const failed = stickyState(fake);
    expect(failed).toMatchObject({ phase: 'failed', message: expect.stringContaining(reason) });
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion, c.title])).toEqual([
      [HEAD, 'failure', 'The review loop failed'],
    ]);
    expect(fake.checks[0]!.summary).toContain(reason);
    expect(fake.reviews).toHaveLength(0);

    // The operator adds the key; `/review-loop continue` runs the same run.
    env.OPENAI_API_KEY = 'sk-openai-added-later';
    fake.interceptReads(mock);
    openaiReply(reviewAnswer(9, 'ready', [{ ...HALF_BUG, severity: 'minor' }]));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    openaiReply(checkAnswer(true)); // the finding check
    await say(probot, '/review-loop continue', 102);
    await queue.idle();
    expect(stickyState(fake)).toMatchObject({ phase: 'acquitted', runId: failed.runId });
    expect(fake.checks.at(-1)).toMatchObject({ conclusion: 'success', external_id: failed.runId });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('never acquits with two models of one family, and says why on the PR', async () => {
    const fake = calcPull();
    fake.config = 'executor_model: openai:gpt-5-mini\n';
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    openaiReply(reviewAnswer(9, 'ready', [{ ...HALF_BUG, severity: 'minor' }]));
    // one family: no confirmation (the run cannot approve), but the finding is checked before it is posted
    openaiReply(checkAnswer(true)); // the finding check
    const { probot, queue } = await startTestApp(engineRunner());
    await say(probot, '/review-loop', 101);
    await queue.idle();
    const why = 'the same family, so the review is not independent';
    expect(stickyState(fake)).toMatchObject({
      phase: 'not-independent',
      message: expect.stringContaining(why),
    });
    expect(fake.checks.map((c) => [c.conclusion, c.title])).toEqual([
      ['failure', 'Not approved: 9/10, ready, but the reviewer is not independent of the executor'],
    ]);
    expect(fake.reviews[0].body).toContain(why);
    // said while the round ran, too
    expect(
      fake.checkRequests.some((r) => r.body.status === 'in_progress' && r.body.output.summary.includes(why)),
    ).toBe(true);
    expect(receiptOf(fake.reviews[0])).toBeUndefined();
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('adopts the run id of the run the engine resumes, on the sticky state and every check', async () => {
    const fake = calcPull({ fork: true });
    const engineRun = 'run_20260301_cafecafe';
    const state = loopState({
      phase: 'waiting-fix',
      runId: 'run_20260301_0000beef',
      settings: { ...loopState().settings!, fix: 'manual' },
      review: {
        state: {
          run_id: engineRun,
          round: 1,
          status: 'in_progress',
          timestamp: NOW.toISOString(),
          reviewed_head: HEAD,
          awaiting: 'fix',
          last_score: 4,
          last_verdict: 'not ready',
        },
      },
    });
    fake.comments.push({ id: 9001, body: composeStickyBody(renderLoopLog(state), state), byApp: true });
    const mock = fake.interceptBase(undefined, { commands: false });
    fake.interceptReads(mock);
    openaiReply(reviewAnswer(9, 'ready', [{ ...HALF_BUG, severity: 'minor' }]));
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    openaiReply(checkAnswer(true)); // the finding check
    const { probot, queue } = await startTestApp(engineRunner());
    const pushed = fake.push({ 'src/calc.ts': FIXED_TEXT });
    await probot.receive({
      id: 'p9',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed, sender: { login: 'forker' } }),
    });
    await queue.idle();
    expect(stickyState(fake)).toMatchObject({ phase: 'acquitted', runId: engineRun });
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion, c.external_id])).toEqual([
      [pushed, 'success', engineRun],
    ]);
    expect(receiptOf(fake.reviews[0])).toMatchObject({ run_id: engineRun, round: 2, head_sha: pushed });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('answers a bad .github/review-loop.yml with a comment naming the field, and calls no model', async () => {
    const replies: any[] = [];
    const mock = nock(API)
      .post('/app/installations/1/access_tokens')
      .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z', permissions: {} })
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .reply(200, 'fix: sometimes\nrounds: 3\n', { 'content-type': 'text/plain; charset=utf-8' })
      .get(`${REPO_PATH}/collaborators/maintainer/permission`)
      .reply(200, { permission: 'write', role_name: 'write' })
      .post(`${REPO_PATH}/issues/7/comments`, (body) => (replies.push(body), true))
      .reply(201, { id: 1 });
    const { probot, queue } = await startTestApp(engineRunner());
    await say(probot, '/review-loop', 101);
    await queue.idle();
    expect(replies).toHaveLength(1);
    expect(replies[0].body).toMatch(
      /^The review loop did not start: `\.github\/review-loop\.yml`: `fix` must be one of auto, manual, none/,
    );
    expect(replies[0].body).toContain('sometimes');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('resumes after a restart: a new App instance continues the run a shutdown interrupted from the sticky state', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    let answerHeld: () => void = () => undefined;
    let reviewStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (reviewStarted = resolve));
    nock('https://api.openai.com')
      .post('/v1/responses')
      .reply((_uri, _body, callback) => {
        reviewStarted();
        // Held: the App shuts down while the reviewer is still thinking.
        answerHeld = () => callback(null, [500, { error: { message: 'too late' } }]);
      });
    const before = await startTestApp(engineRunner());
    await say(before.probot, '/review-loop', 101);
    await started;
    expect(await before.queue.close(10_000)).toBe(true);
    answerHeld();
    // Handed on, not ended: the state stays running and the check in progress (this App keeps no record
    // of running loops, so a comment continues it; restart-resume.test.ts resumes one from DATA_DIR).
    const interrupted = stickyState(fake);
    expect(interrupted.phase).toBe('running');
    expect(interrupted.review.state).toMatchObject({ status: 'in_progress', round: 0 });
    expect(fake.checks.map((c) => c.conclusion ?? c.status)).toEqual(['in_progress']);

    // A new process: nothing in memory, only the PR's sticky state.
    nock.abortPendingRequests();
    const reviewer: Recorded = { bodies: [] };
    openaiReply(reviewAnswer(9, 'ready', [{ ...HALF_BUG, severity: 'minor' }]), reviewer);
    openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
    openaiReply(checkAnswer(true)); // the finding check
    const after = await startTestApp(engineRunner());
    await say(after.probot, '/review-loop continue', 102);
    await after.queue.idle();

    const resumed = stickyState(fake);
    expect(resumed.phase).toBe('acquitted');
    expect(resumed.runId).toBe(interrupted.runId);
    expect(reviewer.bodies).toHaveLength(1);
    expect(fake.reviews).toHaveLength(1);
    expect(receiptOf(fake.reviews[0])).toMatchObject({ run_id: interrupted.runId, round: 1, head_sha: HEAD });
    // one check run on the head for the whole run: the one that asked to continue is the one that passed
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion, c.external_id])).toEqual([
      [HEAD, 'success', interrupted.runId],
    ]);
    expect(fake.head).toBe(HEAD);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
  it('bounds the engine state: 10 rounds of 8 verbose weaknesses fit the sticky comment and the loop resumes from it', async () => {
    const runId = 'run_20260301_0000beef';
    // The engine writes its state through the App's store, as after round 10's review.
    let records: unknown;
    const session = {
      pr: { pr: { owner: 'o', repo: 'r', number: PR } },
      loadReviewState: async () => records,
      saveReviewState: async (review: unknown) => void (records = review),
    } as unknown as PullSession;
    const store = new GitHubReviewStore(session);
    const memory = Array.from(
      { length: 10 },
      (_, i) => `## Round ${i + 1} — Score: 4/10\n${'suspect the division; '.repeat(90)}\n`,
    );
    await store.appendMemory(`# Reviewer Memory — ${runId}\n\n${memory.join('')}`);
    await store.writeState(verboseEngineState(runId));
    const state = loopState({
      runId,
      phase: 'waiting-checkpoint',
      settings: { ...loopState().settings!, rounds: 12, checkpoint: true },
      rounds: Array.from({ length: 10 }, (_, i) => ({
        round: i + 1,
        head: HEAD,
        score: 4,
        verdict: 'not ready',
        weaknesses: [`Round ${i + 1} weakness 1`, `Round ${i + 1} weakness 2`, `Round ${i + 1} weakness 3`],
        action: i === 9 ? 'reviewed' : 'no edit applied',
        reviewUrl: `https://github.com/o/r/pull/7#pullrequestreview-${i + 1}`,
      })),
      review: records,
    });
    const body = composeStickyBody(renderLoopLog(state), state);
    expect(body.length).toBeLessThanOrEqual(BODY_LIMIT);
    expect(body.split('\n').at(-1)!.length).toBeLessThan(45_000);

    // A new App instance resumes from that comment: `go` fixes round 10's weaknesses, round 11 acquits.
    const fake = calcPull();
    fake.comments.push({ id: 9001, body, byApp: true });
    // the sticky comment exists: only the permission and the 👀, no new comment
    const mock = fake.interceptBase(undefined, { commands: false });
    nockPermission('maintainer', 'write', mock);
    mock.post(`${REPO_PATH}/issues/comments/101/reactions`).reply(201, {});
    fake.interceptReads(mock);
    fake.interceptGitData(mock);
    const reviewer: Recorded = { bodies: [] };
    const executor: Recorded = { bodies: [] };
    anthropicReply(HALVE, executor);
    openaiReply(reviewAnswer(9, 'ready'), reviewer);
    const { probot, queue } = await startTestApp(engineRunner(), { ...SETTINGS, maxRounds: 12 });
    await say(probot, '/review-loop go', 101);
    await queue.idle();

    // round 10's weaknesses reached the fix with their detail; nothing reviewed round 10 again
    expect(executor.bodies).toHaveLength(1);
    const fixPrompt = anthropicUserText(executor.bodies[0]!);
    expect(fixPrompt).toContain('DETAIL-10-8');
    expect(fixPrompt).toContain('FIX-10-1');
    expect(reviewer.bodies).toHaveLength(1);
    expect(openaiInputText(reviewer.bodies[0]!)).toContain('suspect the division');
    const resumed = stickyState(fake);
    expect(resumed).toMatchObject({ phase: 'acquitted', runId });
    expect(resumed.review.state).toMatchObject({ run_id: runId, round: 11, outcome: 'acquitted' });
    expect(resumed.review.state.history).toHaveLength(11);
    expect(fake.sticky()!.body.length).toBeLessThanOrEqual(BODY_LIMIT);
    expect(receiptOf(fake.reviews[0])).toMatchObject({ run_id: runId, round: 11 });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
  it('redacts a model key the provider echoes in its error: the failure on the PR and in the logs shows it hidden', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock, { reviewed: false });
    nock('https://api.openai.com')
      .post('/v1/responses')
      .reply(401, {
        error: {
          message: `Incorrect API key provided: ${MODEL_KEYS.OPENAI_API_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    const logs: string[] = [];
    const { probot, queue } = await startTestApp(engineRunner(), SETTINGS, {
      secrets: APP_SECRETS,
      log: recordingLog(logs),
    });
    await say(probot, '/review-loop', 101);
    await queue.idle();

    const failed = stickyState(fake);
    expect(failed.phase).toBe('failed');
    expect(failed.message).toContain('Incorrect API key provided: [redacted]');
    expect(fake.checks.at(-1)).toMatchObject({ conclusion: 'failure', title: 'The review loop failed' });
    expect(fake.checks.at(-1)!.summary).toContain('Incorrect API key provided: [redacted]');
    expect(logs.join('\n')).toContain('Incorrect API key provided: [redacted]');
    const written = everythingWritten(fake, logs);
    for (const secret of secretValues()) expect(written).not.toContain(secret);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});
