/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * Only what happened (issue 27 item 4; docs/how-it-works.md § The App), under Probot with the real review
 * engine: GitHub and the model APIs intercepted by nock at the HTTP layer. The final status follows the
 * last verdict; a head pushed after an approval is never called approved; `fix: none` runs and shows one
 * round; a review's GitHub state agrees with its heading (`review_event: comment | approve`); the fix
 * commit says what it changed, never that it addressed anything.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateRepoConfig } from '../../src/app/config.js';
import { parseLoopState } from '../../src/github/review/loop-state.js';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import {
  API,
  HEAD,
  loopState,
  REPO_PATH,
  PR,
  commentPayload,
  pullRequestPayload,
  startTestApp,
  engineRunner,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import {
  CALC_BASE,
  CALC_BRANCH,
  HALF_BUG,
  README,
  checkAnswer,
  anthropicReply,
  openaiReply,
  reviewAnswer,
} from '../helpers/review-fixtures.js';

const HALVE = {
  summary: 'divide by two',
  edits: [{ path: 'src/calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
};

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

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

async function push(probot: { receive: (e: any) => Promise<void> }, head: string, id: string) {
  await probot.receive({
    id,
    name: 'pull_request',
    payload: pullRequestPayload('synchronize', { head }),
  });
}

/** The sticky comment's status line, as the PR shows it. */
function statusLine(fake: FakePull): string {
  return (fake.sticky()?.body ?? '').split('\n').find((line) => line.startsWith('**Status:**')) ?? '';
}

/** The commit messages the App's fixes were written with (Git Data API `POST git/commits`). */
function recordCommitMessages(scope: nock.Scope): string[] {
  const messages: string[] = [];
  scope.on('request', (req: any, _interceptor: unknown, body: string) => {
    if (req.method === 'POST' && String(req.path).endsWith('/git/commits')) {
      messages.push(JSON.parse(body).message);
    }
  });
  return messages;
}

/** Runs round 1 (changes requested, an auto fix) and round 2 (approved, confirmed) with `config`. */
async function approvedInTwoRounds(config?: string) {
  const fake = calcPull();
  if (config !== undefined) fake.config = config;
  const mock = fake.interceptBase();
  fake.interceptReads(mock);
  fake.interceptThreads(mock);
  fake.interceptGitData(mock);
  const commits = recordCommitMessages(mock);
  openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
  openaiReply(checkAnswer(true)); // the finding check
  anthropicReply(HALVE);
  openaiReply(reviewAnswer(8, 'ready', [], 'The division is right now.'));
  openaiReply(reviewAnswer(8, 'ready')); // the confirmation: a fresh second review
  const app = await startTestApp(engineRunner());
  await say(app.probot, '/review-loop', 101);
  await app.queue.idle();
  return { fake, mock, commits, ...app };
}

describe('the final status follows the last verdict', () => {
  it('same-family models: a round that passed 8/10 ends "not approved", never "the rounds ran out"', async () => {
    const fake = calcPull();
    fake.config = 'executor_model: openai:gpt-5-mini\n';
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    openaiReply(reviewAnswer(8, 'ready', [{ ...HALF_BUG, severity: 'minor' }]));
    openaiReply(checkAnswer(true)); // the finding check (one family: no confirmation, it cannot approve)
    const { probot, queue } = await startTestApp(engineRunner());
    await say(probot, '/review-loop', 101);
    await queue.idle();

    const status = statusLine(fake);
    expect(status).not.toMatch(/rounds ran out|changes still requested|Gave up/);
    expect(status).toContain(
      'Not approved: the last review passed the change, but its reviewer is not independent of the executor.',
    );
    expect(status).toContain('Round 1 passed it (8/10, ready).');
    expect(decodeStateBlock(fake.sticky()!.body)).toMatchObject({ phase: 'not-independent' });
    expect(fake.checks.map((c) => [c.conclusion, c.title])).toEqual([
      ['failure', 'Not approved: 8/10, ready, but the reviewer is not independent of the executor'],
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });

  it('rounds that ran out on a round without a verdict say so, not "changes still requested"', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptParkIssues(mock);
    // the reviewer answers twice with nothing the review schema takes: the round has no verdict
    openaiReply({ thoughts: 'I could not decide.' });
    openaiReply({ thoughts: 'Still undecided.' });
    const { probot, queue } = await startTestApp(engineRunner());
    await say(probot, '/review-loop rounds: 1', 101);
    await queue.idle();

    expect(statusLine(fake)).toBe(
      '**Status:** Gave up: the loop ended without an approval. The rounds ran out after 1 round; the last round had no verdict.',
    );
    expect(fake.checks.map((c) => [c.conclusion, c.title])).toEqual([
      ['failure', 'Rounds ran out; the last round had no verdict'],
    ]);
    // both model answers were taken; a review without findings reads no file list for inline comments
    expect(nock.pendingMocks()).toStrictEqual([`GET ${API}:443${REPO_PATH}/pulls/${PR}/files`]);
  });
});

describe('a head not reviewed is never called approved', () => {
  it('after a later push the status names the approved head and says the newest is not reviewed', async () => {
    const { fake, probot, queue, mock } = await approvedInTwoRounds();
    const fixed = fake.head;
    expect(statusLine(fake)).toContain(`Approved: the reviewer passed \`${fixed.slice(0, 7)}\`.`);

    const later = fake.push({ 'src/calc.ts': `${CALC_BRANCH.replace('n / 3', 'n / 2')}// later\n` });
    await push(probot, later, 'p1');
    await queue.idle();
    const status = statusLine(fake);
    expect(status).not.toContain('this head');
    expect(status).not.toContain(later.slice(0, 7));
    expect(status).toBe(
      `**Status:** Approved: the reviewer passed \`${fixed.slice(0, 7)}\`. A later push is not reviewed: comment /review-loop to review the newest head.`,
    );
    expect(fake.checks.at(-1)).toMatchObject({ head_sha: later, conclusion: 'action_required' });
    // `/review-loop status` names the approved head too
    await say(probot, '/review-loop status', 102);
    await queue.idle();
    expect(fake.replies().at(-1)).toMatch(
      new RegExp(`^Review loop \`run_\\w+\`: finished, approved \`${fixed.slice(0, 7)}\`, 2 rounds\\.`),
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('the GitHub state of a review agrees with its heading', () => {
  it('by default (`review_event: comment`) every review is a comment and no heading names a review state', async () => {
    const { fake } = await approvedInTwoRounds();
    expect(fake.reviews.map((r) => r.event)).toEqual(['COMMENT', 'COMMENT']);
    const headings = fake.reviews.map(
      (r) =>
        String(r.body)
          .replace(/^<!--[^\n]*-->\n/, '')
          .split('\n')[0],
    );
    expect(headings).toEqual([
      '### Round 1 of 4: changes needed (4/10, not ready)',
      '### Round 2 of 4: passed (8/10, ready)',
    ]);
    for (const heading of headings) expect(heading).not.toMatch(/approved|changes requested/);
  });

  it('with `review_event: approve` a passing round is an approval and one asking for changes requests them; a later push dismisses the approval', async () => {
    const { fake, probot, queue, mock } = await approvedInTwoRounds('review_event: approve\n');
    expect(fake.reviews.map((r) => r.event)).toEqual(['REQUEST_CHANGES', 'APPROVE']);
    const headings = fake.reviews.map(
      (r) =>
        String(r.body)
          .replace(/^<!--[^\n]*-->\n/, '')
          .split('\n')[0],
    );
    expect(headings).toEqual([
      '### Round 1 of 4: changes requested (4/10, not ready)',
      '### Round 2 of 4: approved (8/10, ready)',
    ]);
    expect(fake.sticky()!.body).toContain('reviews approve or request changes');

    // A push after the approval: GitHub keeps an approval on a moved head unless the repository dismisses
    // stale ones, so the App dismisses its own (review 2) — once, not at every later push.
    const dismissals: any[] = [];
    const dismiss = nock(API)
      .put(`${REPO_PATH}/pulls/${PR}/reviews/2/dismissals`)
      .reply(200, (_uri, body: any) => {
        dismissals.push(body);
        return { id: 2, state: 'DISMISSED' };
      });
    const fixed = fake.head;
    const later = fake.push({ 'src/calc.ts': `${CALC_BRANCH.replace('n / 3', 'n / 2')}// later\n` });
    await push(probot, later, 'p1');
    await queue.idle();
    expect(dismissals).toEqual([
      { message: `This approval was for ${fixed.slice(0, 7)}; a later push is not reviewed.` },
    ]);
    const newest = fake.push({ 'src/calc.ts': `${CALC_BRANCH.replace('n / 3', 'n / 2')}// later still\n` });
    await push(probot, newest, 'p2');
    await queue.idle();
    expect(dismissals).toHaveLength(1);
    expect(dismiss.isDone()).toBe(true);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('fix commits describe the change', () => {
  it('names the file and lines the edit changed and what the executor was asked, never that it addressed it', async () => {
    const { commits } = await approvedInTwoRounds();
    expect(commits).toHaveLength(1);
    const [subject, , ...body] = commits[0]!.split('\n');
    expect(subject).toMatch(/^review-loop: round 1 edits src\/calc\.ts \(run_20260301_[0-9a-f]{8}\)$/);
    const line = CALC_BRANCH.split('\n').indexOf('  return n / 3;') + 1;
    expect(body).toContain(`- src/calc.ts: 1 line replaced (line ${line})`);
    expect(body).toContain(`1. ${HALF_BUG.title}`);
    expect(commits[0]).not.toMatch(/addressed|fixed|resolved/i);
  });
});

describe('`fix: none`', () => {
  it('runs one round and shows one: the check, the review heading and the settings never say 4', async () => {
    const fake = calcPull();
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    openaiReply(reviewAnswer(4, 'not ready', [HALF_BUG]));
    openaiReply(checkAnswer(true)); // the finding check
    const { probot, queue } = await startTestApp(engineRunner());
    await say(probot, '/review-loop fix: none rounds: 4', 101);
    await queue.idle();

    const running = fake.checkRequests.filter((r) => r.body.status === 'in_progress');
    expect(running.map((r) => r.body.output.title)).toEqual(['Round 1 of 1 running']);
    expect(fake.reviews).toHaveLength(1);
    expect(String(fake.reviews[0].body)).toMatch(/^### Round 1 of 1: /);
    const sticky = fake.sticky()!.body;
    expect(sticky).toContain(
      '**Settings:** difficulty medium, one review and no fix (fix none), preset code',
    );
    expect(sticky).not.toMatch(/up to \d+ rounds|of 4/);
    // the round the command asked for is answered, not silently dropped
    expect(
      fake.stickyWrites.some((b) =>
        b.includes('With fix: none the loop reviews once, so rounds: 4 does not apply.'),
      ),
    ).toBe(true);
    expect(decodeStateBlock(sticky)).toMatchObject({
      phase: 'reviewed',
      settings: { rounds: 1, fix: 'none' },
    });
    expect(fake.checks.map((c) => [c.head_sha, c.conclusion])).toEqual([[HEAD, 'failure']]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
  });
});

describe('`review_event` in .github/review-loop.yml and in a stored state', () => {
  it('takes comment or approve in any case, reads the former COMMENT as comment, and refuses REQUEST_CHANGES naming approve', () => {
    expect(validateRepoConfig({ review_event: 'approve' })).toEqual({
      ok: true,
      config: { review_event: 'approve' },
    });
    expect(validateRepoConfig({ review_event: 'COMMENT' })).toEqual({
      ok: true,
      config: { review_event: 'comment' },
    });
    const refused = validateRepoConfig({ review_event: 'REQUEST_CHANGES' });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.problem).toBe(
      '`.github/review-loop.yml`: `review_event` must be `comment` or `approve` (the former `REQUEST_CHANGES` is `approve`: a passing round approves, one asking for changes requests them); it is `"REQUEST_CHANGES"`.',
    );
  });

  it('a state stored with GitHub event names reads as comment, never as approve', () => {
    for (const stored of ['COMMENT', 'REQUEST_CHANGES']) {
      const state = loopState({ settings: { ...loopState().settings!, reviewEvent: stored as any } });
      expect(parseLoopState(JSON.parse(JSON.stringify(state)))?.settings?.reviewEvent).toBe('comment');
    }
  });
});
