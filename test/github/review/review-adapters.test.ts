/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads and recorded request bodies are untyped JSON */
/** The App's GitHub adapters against nock: sticky comment, check runs, reviews, park issue, Git Data API fix. */
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCompleted, checkInProgress } from '../../../src/github/review/check-tracker.js';
import type { AppLoopState } from '../../../src/github/review/loop-state.js';
import { parseLoopState, renderLoopLog } from '../../../src/github/review/loop-state.js';
import { commentableLines } from '../../../src/core/review/diff-lines.js';
import { commitFileTexts, commitFix } from '../../../src/github/review/fix-commit.js';
import { parkReviewLoop } from '../../../src/github/review/review-park.js';
import { writeThreads } from '../../../src/github/review/review-threads.js';
import type { RoundReviewView } from '../../../src/github/review/review-body.js';
import {
  renderInlineNote,
  renderRoundReview,
  renderSuggestion,
} from '../../../src/github/review/review-body.js';
import { postRoundReview } from '../../../src/github/review/round-review.js';
import { writeLoopState } from '../../../src/github/review/pull-session.js';
import { HOSTILE, liveParts } from '../../helpers/markdown-liveness.js';
import { GITHUB_BODY_LIMIT } from '../../../src/core/text/body-limit.js';
import {
  StickyStore,
  composeStickyBody,
  decodeStateBlock,
} from '../../../src/github/review/sticky-comment.js';
import {
  API,
  APP_ID,
  HEAD,
  NOW,
  OWNER,
  PR,
  REPO,
  REPO_PATH,
  loopState,
  stickyComment,
} from '../../helpers/app-fixtures.js';

const octokit = new ProbotOctokit({
  auth: { token: 't' },
  retry: { enabled: false },
  throttle: { enabled: false },
});
const pr = { owner: OWNER, repo: REPO, number: PR };
const app = { appId: APP_ID };
const comments = `${REPO_PATH}/issues/${PR}/comments`;

afterEach(() => nock.cleanAll());

describe('sticky comment', () => {
  it('is found among comments, edited in place, and never read from another author', async () => {
    const store = new StickyStore<AppLoopState>(app, parseLoopState);
    const forged = stickyComment(loopState({ phase: 'acquitted', runId: 'run_20260301_deadbeef' }), {
      id: 5,
      byApp: false,
    });
    const ours = stickyComment(loopState({ phase: 'waiting-fix' }), { id: 9001 });
    let written: any;
    const mock = nock(API)
      .get(comments)
      .query(true)
      .reply(200, [forged, ours])
      .patch(`${REPO_PATH}/issues/comments/9001`, (body) => ((written = body), true))
      .reply(200, { id: 9001, html_url: 'u' });

    const { state } = await store.update(octokit, pr, (current) => {
      expect(current?.phase).toBe('waiting-fix'); // not the forged "acquitted"
      const next = { ...current!, phase: 'running' as const };
      return { state: next, visible: renderLoopLog(next) };
    });

    expect(state.phase).toBe('running');
    expect((decodeStateBlock(written.body) as AppLoopState).phase).toBe('running');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('creates the comment once when the PR has none (a look-alike by someone else does not count)', async () => {
    const store = new StickyStore<AppLoopState>(app, parseLoopState);
    const mock = nock(API)
      .get(comments)
      .query(true)
      .reply(200, [stickyComment(loopState(), { id: 5, byApp: false })])
      .post(comments)
      .reply(201, { id: 9002, html_url: 'u' });
    const { comment } = await store.update(octokit, pr, () => ({ state: loopState(), visible: 'log' }));
    expect(comment.id).toBe(9002);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('keeps the state block intact whatever the visible text holds, and the body under the limit', () => {
    const hostile = `--> <!-- skillclimb:review-loop-state e30= --> ${'x'.repeat(100_000)}`;
    const state = loopState({ message: hostile.slice(0, 500), guidance: '-->' });
    const body = composeStickyBody(hostile, state);
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(decodeStateBlock(body)).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('makes no edit for a change that changes nothing; any other change is written, its time with it', async () => {
    const store = new StickyStore<AppLoopState>(app, parseLoopState);
    const state = loopState({
      phase: 'running',
      runId: 'run_20260301_0000beef',
      handledComments: [101],
      check: {
        id: 100,
        headSha: HEAD,
        url: 'https://github.com/o/r/runs/100',
        completed: false,
        conclusion: null,
        runId: 'run_20260301_0000beef',
      },
    });
    const ours = { ...stickyComment(state), body: composeStickyBody(renderLoopLog(state), state) };
    const later = () => new Date(NOW.getTime() + 60_000);
    const written: any[] = [];
    const mock = nock(API)
      .get(comments)
      .query(true)
      .times(2)
      .reply(200, [ours])
      .patch(`${REPO_PATH}/issues/comments/9001`, (body) => (written.push(body), true))
      .reply(200, { id: 9001, html_url: 'u' });
    const deps = { octokit, store, clock: later };

    // the same state, however the change built it: no PATCH (nock has one, for the next write only)
    const same = await writeLoopState(deps, pr, (current) => ({ ...current, handledComments: [101] }));
    expect(same.updatedAt).toBe(NOW.toISOString());
    expect(written).toEqual([]);
    // a change is written (the handled comment must survive a restart), with its time
    const next = await writeLoopState(deps, pr, (current) => ({
      ...current,
      handledComments: [...current.handledComments, 102],
    }));
    expect(next.updatedAt).toBe(later().toISOString());
    expect((decodeStateBlock(written[0].body) as AppLoopState).handledComments).toEqual([101, 102]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('shows what the state records: this run’s check run, the dismissed findings, a note waiting', () => {
    const check = {
      id: 100,
      headSha: HEAD,
      url: 'https://github.com/o/r/runs/100',
      completed: true,
      conclusion: 'action_required' as const,
      runId: 'run_20260301_0000beef',
    };
    const shown = renderLoopLog(
      loopState({
        runId: 'run_20260301_0000beef',
        phase: 'waiting-fix',
        check,
        guidance: 'keep the API',
        dismissals: [{ title: 'No tests @team', file: null, reason: 'later', by: 'octocat' }],
      }),
    );
    expect(shown).toContain('**Check run:** [on `aaaaaaa`](https://github.com/o/r/runs/100), waits for you.');
    expect(shown).toContain('**Dismissed, left out of later rounds:** No tests @\u200Dteam (by octocat).');
    expect(shown).toContain('**A note waits for the next fix.**');
    expect(shown).not.toContain('keep the API'); // the note is the person's, said in their comment
    // an earlier run's check is not this run's: not shown
    const fresh = renderLoopLog(loopState({ runId: 'run_20260302_0000cafe', check }));
    expect(fresh).not.toContain('Check run');
  });

  it('condenses older rounds to keep the log within its budget', () => {
    const rounds = Array.from({ length: 40 }, (_, i) => ({
      round: i + 1,
      head: HEAD,
      score: 5,
      verdict: 'not ready',
      weaknesses: ['w'.repeat(120), 'v'.repeat(120), 'u'.repeat(120)],
      action: 'fix',
      reviewUrl: 'https://github.com/r',
    }));
    const log = renderLoopLog(loopState({ rounds }), 8000);
    expect(log.length).toBeLessThanOrEqual(8000);
    expect(log).toContain('| 40 |');
    const full = renderLoopLog(loopState({ rounds }), 1_000_000);
    expect(full.length).toBeGreaterThan(8000);
  });
});

describe('check runs', () => {
  const target = { octokit, repo: pr, runId: 'run_20260301_0000beef', detailsUrl: undefined, now: NOW };

  it('moves in_progress → success on the same head, and supersedes an older head with a neutral link', async () => {
    const bodies: any[] = [];
    const take = (b: unknown) => (bodies.push(b), true);
    const mock = nock(API)
      .post(`${REPO_PATH}/check-runs`, take)
      .reply(201, { id: 1, head_sha: HEAD, html_url: 'https://github.com/c/1' })
      .patch(`${REPO_PATH}/check-runs/1`, take)
      .reply(200, {})
      // a new head: new check in progress, the old one neutral
      .post(`${REPO_PATH}/check-runs`, take)
      .reply(201, { id: 2, head_sha: 'f'.repeat(40), html_url: 'https://github.com/c/2' })
      .patch(`${REPO_PATH}/check-runs/1`, take)
      .reply(200, {});

    const first = await checkInProgress(target, null, HEAD, { title: 'Round 1', summary: 's' });
    await checkCompleted(target, { ...first, completed: false }, HEAD, 'action_required', {
      title: 'wait',
      summary: 's',
    });
    await checkInProgress(target, { ...first, completed: false }, 'f'.repeat(40), {
      title: 'Round 2',
      summary: 's',
    });

    expect(bodies[0]).toMatchObject({
      name: 'review-loop',
      external_id: 'run_20260301_0000beef',
      status: 'in_progress',
      head_sha: HEAD,
    });
    expect(bodies[1]).toMatchObject({ status: 'completed', conclusion: 'action_required' });
    expect(bodies[2]).toMatchObject({ head_sha: 'f'.repeat(40), status: 'in_progress' });
    expect(bodies[3]).toMatchObject({ conclusion: 'neutral' });
    expect(bodies[3].output.summary).toContain('https://github.com/c/2');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('supersedes a completed action_required check of a replaced head; never a success or a failure', async () => {
    const bodies: any[] = [];
    const take = (b: unknown) => (bodies.push(b), true);
    const next = 'f'.repeat(40);
    const mock = nock(API)
      .post(`${REPO_PATH}/check-runs`, take)
      .times(3)
      .reply(201, { id: 5, head_sha: next, html_url: 'https://github.com/c/5' })
      .patch(`${REPO_PATH}/check-runs/1`, take)
      .reply(200, {});
    const waiting = {
      id: 1,
      headSha: HEAD,
      url: 'u',
      completed: true,
      conclusion: 'action_required' as const,
    };
    const text = { title: 'Round 2', summary: 's' };
    expect(await checkInProgress(target, waiting, next, text)).toEqual({
      id: 5,
      headSha: next,
      url: 'https://github.com/c/5',
      completed: false,
      conclusion: null,
      runId: target.runId,
    });
    await checkInProgress(target, { ...waiting, id: 2, conclusion: 'success' }, next, text);
    await checkInProgress(target, { ...waiting, id: 3, conclusion: 'failure' }, next, text);
    expect(bodies.map((b) => b.conclusion ?? b.status)).toEqual([
      'in_progress',
      'neutral',
      'in_progress',
      'in_progress',
    ]);
    expect(bodies[1].output).toMatchObject({ title: 'Superseded by fffffff' });
    expect(bodies[1].output.summary).toContain('https://github.com/c/5');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('a check from a state that did not record its run is never reopened once completed: the next verdict is a new check run', async () => {
    const mock = nock(API)
      .post(`${REPO_PATH}/check-runs`, (b) => b.conclusion === 'success')
      .reply(201, { id: 3, head_sha: HEAD, html_url: 'u' });
    const ref = await checkCompleted(
      target,
      { id: 1, headSha: HEAD, url: 'u', completed: true },
      HEAD,
      'success',
      { title: 't', summary: 's' },
    );
    expect(ref).toMatchObject({ id: 3, completed: true, conclusion: 'success' });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

const view: RoundReviewView = {
  runId: 'run_20260301_0000beef',
  round: 1,
  maxRounds: 4,
  headSha: HEAD,
  reviewerModel: 'openai:gpt-5',
  score: 5,
  verdict: 'not ready',
  weaknesses: [
    { title: 'Off by one in the loop @org/team', minimumFix: 'use <=', path: 'src/a.ts', line: 3 },
    { title: 'Outside the diff', minimumFix: 'x', path: 'src/a.ts', line: 40 },
    { title: 'No line', minimumFix: 'y' },
  ],
};
const patch = '@@ -1,3 +1,4 @@\n line1\n-line2\n+line2b\n+line3\n line4';

describe('round review', () => {
  it('maps diff lines to the right side only', () => {
    expect([...commentableLines(patch)]).toEqual([1, 2, 3, 4]);
    expect([...commentableLines('@@ -10,2 +20,1 @@\n-a\n-b\n+c')]).toEqual([20]);
  });

  it('posts one review on the reviewed SHA with inline comments for cited lines in the diff', async () => {
    let posted: any;
    const mock = nock(API)
      .get(`${REPO_PATH}/pulls/${PR}/files`)
      .query(true)
      .reply(200, [{ filename: 'src/a.ts', patch }])
      .post(`${REPO_PATH}/pulls/${PR}/reviews`, (b) => ((posted = b), true))
      .reply(200, { id: 10, html_url: 'u' });
    const result = await postRoundReview(octokit, pr, view);
    expect(result).toMatchObject({ inline: 1, fellBack: false });
    expect(posted.commit_id).toBe(HEAD);
    expect(posted.event).toBe('COMMENT');
    expect(posted.comments).toEqual([expect.objectContaining({ path: 'src/a.ts', line: 3, side: 'RIGHT' })]);
    expect(posted.body).toContain('5/10, not ready');
    expect(posted.body).not.toContain('<details>'); // the raw answer is the log's, not the review's
    expect(posted.body).toContain('Off by one in the loop @\u200Dorg/team'); // the mention is not live
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('posts again without inline comments when GitHub answers 422', async () => {
    const attempts: any[] = [];
    const mock = nock(API)
      .get(`${REPO_PATH}/pulls/${PR}/files`)
      .query(true)
      .reply(200, [{ filename: 'src/a.ts', patch }])
      .post(`${REPO_PATH}/pulls/${PR}/reviews`, (b) => (attempts.push(b), true))
      .reply(422, { message: 'Unprocessable Entity', errors: ['Line could not be resolved'] })
      .post(`${REPO_PATH}/pulls/${PR}/reviews`, (b) => (attempts.push(b), true))
      .reply(200, { id: 11, html_url: 'u' });
    const result = await postRoundReview(octokit, pr, view);
    expect(result).toMatchObject({ id: 11, inline: 0, fellBack: true });
    expect(attempts[0].comments).toHaveLength(1);
    expect(attempts[1].comments).toBeUndefined();
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

/** The App's own markup in a body (folds, hidden blocks, links into the PR's diff): everything else must be inert. */
function withoutOwnMarkup(body: string): string {
  return body
    .replace(
      /\]\(https:\/\/github\.com\/Codertocat\/Hello-World\/pull\/7\/files#diff-[0-9a-f]{64}(?:R\d+)?\)/g,
      '] ',
    )
    .replace(/^<sub>|<\/sub>$/gm, '')
    .split('\n')
    .filter(
      (line) =>
        !/^<\/?details>$|^<summary>[\w ]+<\/summary>$|^<!-- skillclimb:[\w-]+(?: [A-Za-z0-9+/= ]*)? -->$/.test(
          line,
        ),
    )
    .join('\n');
}

describe('untrusted text in everything the App posts', () => {
  const hostile = HOSTILE.join(' ');
  const hostileView: RoundReviewView = {
    runId: 'run_20260301_0000beef',
    round: 2,
    maxRounds: 4,
    headSha: HEAD,
    reviewerModel: `openai-compatible:${hostile.replace(/\s/g, '')}`,
    score: 4,
    verdict: 'not ready',
    weaknesses: HOSTILE.map((text, i) => ({
      title: text,
      minimumFix: text,
      effort: text,
      path: text,
      line: 3,
      // a standing finding's thread address is GitHub's; a hostile one is never linked
      ...(i === 0 ? { thread: { url: text, since: 1 } } : {}),
    })),
    summary: hostile,
    pullUrl: 'https://github.com/Codertocat/Hello-World/pull/7',
    debate: {
      entries: [
        {
          weakness: 1,
          title: hostile,
          stance: hostile,
          argument: hostile,
          evidence: hostile,
          ruling: { ruling: hostile, reason: hostile, required: hostile },
        },
      ],
      resolved: [1],
    },
    gateNote: hostile,
    proposed: [{ path: hostile, startLine: 3, endLine: 3, oldLines: [hostile], newLines: [hostile] }],
    receipt: { run_id: 'run_20260301_0000beef', round: 2, head_sha: HEAD, note: '--> @octocat' },
  };

  it('a review: mentions, references, HTML, links and images never live; the receipt block intact', () => {
    const body = renderRoundReview(hostileView);
    expect(liveParts(withoutOwnMarkup(body))).toEqual([]);
    const receipt = body.split('\n')[0]!;
    expect(receipt).toMatch(/^<!-- skillclimb:review-loop-receipt [A-Za-z0-9+/=]+ -->$/);
    expect(liveParts(withoutOwnMarkup(renderInlineNote(hostileView.weaknesses[0]!, 0, 2)))).toEqual([]);
    // a one-click suggestion holds model text in a fence it cannot close
    const suggestion = renderSuggestion(
      { path: hostile, startLine: 3, endLine: 3, oldLines: ['x'], newLines: [...HOSTILE, '````', '```'] },
      2,
    );
    expect(liveParts(suggestion)).toEqual([]);
    expect(suggestion).toMatch(/^`{5,}suggestion$/m);
  });

  it('a review of a huge answer stays under 65,536 characters, still closed and still inert', () => {
    const huge = {
      ...hostileView,
      raw: `${'`'.repeat(5)}${hostile.repeat(2000)}`,
      summary: hostile.repeat(500),
    };
    huge.weaknesses = Array.from({ length: 200 }, () => ({ title: hostile, minimumFix: hostile }));
    const body = renderRoundReview(huge);
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(liveParts(withoutOwnMarkup(body))).toEqual([]);
    expect(body.split('\n')[0]).toMatch(/^<!-- skillclimb:review-loop-receipt /);
  });

  it('the sticky log and the park issue: inert, and under the limit', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      round: i + 1,
      head: HEAD,
      score: 4,
      verdict: 'not ready',
      weaknesses: HOSTILE.slice(0, 3),
      action: hostile,
      reviewUrl: null,
    }));
    const body = composeStickyBody(renderLoopLog(loopState({ rounds: rows, message: hostile })), loopState());
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(liveParts(withoutOwnMarkup(body))).toEqual([]);

    let created: any;
    const mock = nock(API)
      .get(`${REPO_PATH}/issues`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/issues`, (b) => ((created = b), true))
      .reply(201, { number: 12, html_url: 'https://github.com/i/12' });
    await parkReviewLoop(octokit, app, {
      pr,
      prTitle: hostile,
      runId: 'run_20260301_0000beef',
      rounds: 4,
      lastScore: 4,
      lastVerdict: hostile,
      headSha: HEAD,
      blockers: Array.from({ length: 500 }, () => ({ title: hostile, effort: hostile })),
    });
    expect(created.body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(created.body.split('\n')[0]).toBe('<!-- skillclimb:review-park pr=7 -->');
    // The one live reference is the App's own link to the pull request.
    expect(created.body).toContain('Pull request #7 (');
    expect(liveParts(withoutOwnMarkup(created.body.replace('Pull request #7 (', '(')))).toEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('defect-park issue', () => {
  const input = {
    pr,
    prTitle: 'Add the thing',
    runId: 'run_20260301_0000beef',
    rounds: 4,
    lastScore: 4,
    lastVerdict: 'not ready',
    headSha: HEAD,
    blockers: [{ title: 'tests missing', effort: 'small' }],
  };

  it('is created once, then later give-ups comment on it (found by its marker in the App’s own issue)', async () => {
    let created: any;
    const mock = nock(API)
      .get(`${REPO_PATH}/issues`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/issues`, (b) => ((created = b), true))
      .reply(201, { number: 12, html_url: 'https://github.com/i/12' });
    expect(await parkReviewLoop(octokit, app, input)).toMatchObject({ number: 12, action: 'created' });
    expect(created.body.split('\n')[0]).toBe('<!-- skillclimb:review-park pr=7 -->');
    expect(created.body).toContain('tests missing');
    expect(created.labels).toEqual(['defect-park']);

    const issue = (by: 'app' | 'user', number: number) => ({
      number,
      html_url: `https://github.com/i/${number}`,
      body: created.body,
      user: { login: by === 'app' ? 'review-loop[bot]' : 'mallory', type: by === 'app' ? 'Bot' : 'User' },
      performed_via_github_app: by === 'app' ? { id: APP_ID } : null,
    });
    let comment: any;
    mock
      .get(`${REPO_PATH}/issues`)
      .query(true)
      .reply(200, [issue('user', 13), issue('app', 12)])
      .post(`${REPO_PATH}/issues/12/comments`, (b) => ((comment = b), true))
      .reply(201, { html_url: 'https://github.com/i/12#c' });
    expect(await parkReviewLoop(octokit, app, { ...input, runId: 'run_20260302_0000cafe' })).toMatchObject({
      number: 12,
      action: 'commented',
    });
    expect(comment.body).toContain('run_20260302_0000cafe');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('fix commit through the Git Data API', () => {
  const moved = 'c'.repeat(40);
  const base = {
    repo: pr,
    branch: 'feature/thing',
    expectedHead: HEAD,
    edits: [{ path: 'src/a.ts', old_string: 'line2', new_string: 'line2 fixed' }],
    message: 'review-loop: fix round 1',
    isFork: false,
    pathProblem: () => undefined,
  };

  function treeFor(scope: nock.Scope, commit: string, text: string, tag: string) {
    return scope
      .get(`${REPO_PATH}/git/commits/${commit}`)
      .reply(200, { sha: commit, tree: { sha: `tree-${tag}` } })
      .get(`${REPO_PATH}/git/trees/tree-${tag}`)
      .reply(200, { tree: [{ path: 'src', type: 'tree', mode: '040000', sha: `src-${tag}` }] })
      .get(`${REPO_PATH}/git/trees/src-${tag}`)
      .reply(200, { tree: [{ path: 'a.ts', type: 'blob', mode: '100755', sha: `blob-${tag}` }] })
      .get(`${REPO_PATH}/git/blobs/blob-${tag}`)
      .reply(200, { content: Buffer.from(text).toString('base64'), encoding: 'base64' });
  }

  it('one tree with the text inline → commit → ref with force: false, keeping the file mode; no blob written', async () => {
    let tree: any;
    let ref: any;
    const mock = treeFor(nock(API), HEAD, 'line1\nline2\n', 'a')
      .post(`${REPO_PATH}/git/trees`, (b) => ((tree = b), true))
      .reply(201, { sha: 'newtree' })
      .post(`${REPO_PATH}/git/commits`, (b) => b.parents[0] === HEAD && b.tree === 'newtree')
      .reply(201, { sha: 'newcommit' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`, (b) => ((ref = b), true))
      .reply(200, { ref: 'refs/heads/feature/thing', object: { sha: 'newcommit' } });
    const result = await commitFix(octokit, base);
    expect(result).toMatchObject({ status: 'committed', sha: 'newcommit', rebuilt: false });
    expect(tree).toMatchObject({
      base_tree: 'tree-a',
      tree: [{ path: 'src/a.ts', mode: '100755', type: 'blob', content: 'line1\nline2 fixed\n' }],
    });
    expect(tree.tree[0]).not.toHaveProperty('sha');
    expect(ref).toEqual({ sha: 'newcommit', force: false });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it.each([
    ['the branch read back is the commit: landed', 'newcommit', { status: 'committed', sha: 'newcommit' }],
    [
      'the branch read back is another commit: not landed',
      HEAD,
      { status: 'not-landed', head: HEAD, reason: expect.stringContaining('did not land') },
    ],
  ])('a ref update whose answer lacks the commit: %s', async (_what, readBack, expected) => {
    const mock = treeFor(nock(API), HEAD, 'line1\nline2\n', 'a')
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, { sha: 'newtree' })
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, { sha: 'newcommit' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`)
      .reply(200, {})
      .get(`${REPO_PATH}/git/ref/heads%2Ffeature%2Fthing`)
      .reply(200, { object: { sha: readBack } });
    expect(await commitFix(octokit, base)).toMatchObject(expected);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('on 422 (the head moved) rebuilds once on the new head; never forces', async () => {
    const refs: any[] = [];
    const mock = treeFor(nock(API), HEAD, 'line1\nline2\n', 'a')
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, { sha: 'tree1' })
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, { sha: 'commit1' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`, (b) => (refs.push(b), true))
      .reply(422, { message: 'Update is not a fast forward' })
      .get(`${REPO_PATH}/git/ref/heads%2Ffeature%2Fthing`)
      .reply(200, { object: { sha: moved } });
    treeFor(mock, moved, 'line0\nline1\nline2\n', 'b')
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, { sha: 'tree2' })
      .post(`${REPO_PATH}/git/commits`, (b) => b.parents[0] === moved)
      .reply(201, { sha: 'commit2' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`, (b) => (refs.push(b), true))
      .reply(200, { object: { sha: 'commit2' } });
    const result = await commitFix(octokit, base);
    expect(result).toMatchObject({ status: 'committed', sha: 'commit2', parent: moved, rebuilt: true });
    expect(refs.every((r) => r.force === false)).toBe(true);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('reports instead of forcing when the edit no longer applies on the moved head', async () => {
    const mock = treeFor(nock(API), HEAD, 'line1\nline2\n', 'a')
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, { sha: 'tree1' })
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, { sha: 'commit1' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`)
      .reply(422, { message: 'Update is not a fast forward' })
      .get(`${REPO_PATH}/git/ref/heads%2Ffeature%2Fthing`)
      .reply(200, { object: { sha: moved } });
    treeFor(mock, moved, 'rewritten\n', 'b');
    const result = await commitFix(octokit, base);
    expect(result).toMatchObject({ status: 'head-moved', head: moved });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  function treeOnly(scope: nock.Scope, commit: string, tag: string, blob: string) {
    return scope
      .get(`${REPO_PATH}/git/commits/${commit}`)
      .reply(200, { sha: commit, tree: { sha: `tree-${tag}` } })
      .get(`${REPO_PATH}/git/trees/tree-${tag}`)
      .reply(200, { tree: [{ path: 'src', type: 'tree', mode: '040000', sha: `src-${tag}` }] })
      .get(`${REPO_PATH}/git/trees/src-${tag}`)
      .reply(200, { tree: [{ path: 'a.ts', type: 'blob', mode: '100644', sha: blob }] });
  }

  function firstAttemptRejected(scope: nock.Scope) {
    return scope
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, { sha: 'tree1' })
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, { sha: 'commit1' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`)
      .reply(422, { message: 'Update is not a fast forward' })
      .get(`${REPO_PATH}/git/ref/heads%2Ffeature%2Fthing`)
      .reply(200, { object: { sha: moved } });
  }

  const texts = { ...base, files: [{ path: 'src/a.ts', text: 'line1\nline2 fixed\n' }] };

  it('whole file texts: rebuilt on a moved head when those files did not change there', async () => {
    const mock = firstAttemptRejected(treeOnly(nock(API), HEAD, 'a', 'same-blob'));
    treeOnly(mock, moved, 'b', 'same-blob')
      .post(`${REPO_PATH}/git/trees`, (b) => b.base_tree === 'tree-b')
      .reply(201, { sha: 'tree2' })
      .post(`${REPO_PATH}/git/commits`, (b) => b.parents[0] === moved)
      .reply(201, { sha: 'commit2' })
      .patch(`${REPO_PATH}/git/refs/heads%2Ffeature%2Fthing`, { sha: 'commit2', force: false })
      .reply(200, { object: { sha: 'commit2' } });
    expect(await commitFileTexts(octokit, texts)).toMatchObject({
      status: 'committed',
      sha: 'commit2',
      rebuilt: true,
    });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('whole file texts: reported, not committed, when the moved head changed those files', async () => {
    const mock = firstAttemptRejected(treeOnly(nock(API), HEAD, 'a', 'old-blob'));
    treeOnly(mock, moved, 'b', 'their-blob');
    expect(await commitFileTexts(octokit, texts)).toMatchObject({ status: 'head-moved', head: moved });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('refuses workflow files, paths the policy refuses, and fork PRs without a single API call', async () => {
    const mock = nock(API);
    expect(
      await commitFix(octokit, {
        ...base,
        edits: [{ path: '.github/workflows/ci.yml', old_string: 'a', new_string: 'b' }],
      }),
    ).toMatchObject({ status: 'refused' });
    expect(await commitFix(octokit, { ...base, pathProblem: () => 'not allowed' })).toEqual({
      status: 'refused',
      reason: 'not allowed',
    });
    expect(await commitFix(octokit, { ...base, isFork: true })).toMatchObject({ status: 'refused' });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('review threads written in one request', () => {
  it('aliases one mutation per thread (20 a request); a thread GitHub refused is reported, the others count', async () => {
    const ids = Array.from({ length: 21 }, (_, i) => `PRRT_${i}`);
    const documents: any[] = [];
    const mock = nock(API)
      .post('/graphql', (body) => (documents.push(body), true))
      .reply(200, (_uri, body: any) => ({
        data: Object.fromEntries(
          Object.entries(body.variables as Record<string, string>).map(([alias, id]) => [
            alias,
            id === 'PRRT_1' ? null : { thread: { id, isResolved: true } },
          ]),
        ),
        errors: [{ type: 'FORBIDDEN', path: ['t1'], message: 'Resource not accessible by integration' }],
      }))
      .post('/graphql', (body) => (documents.push(body), true))
      .reply(200, { data: { t0: { thread: { id: 'PRRT_20', isResolved: true } } } });

    const result = await writeThreads(octokit, { resolve: ids, reopen: [], reply: [] });

    expect(documents).toHaveLength(2);
    expect(Object.keys(documents[0].variables)).toHaveLength(20);
    expect(documents[0].query).toContain('t19: resolveReviewThread(input: { threadId: $t19 })');
    expect(documents[1].variables).toEqual({ t0: 'PRRT_20' });
    expect(result.resolved).toEqual(ids.filter((id) => id !== 'PRRT_1'));
    expect(result.failed).toEqual([
      {
        id: 'PRRT_1',
        kind: 'resolve',
        reason: expect.stringContaining('Resource not accessible by integration'),
      },
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('resolves, reopens and answers in one document, each write its own alias and variables', async () => {
    const documents: any[] = [];
    const mock = nock(API)
      .post('/graphql', (body) => (documents.push(body), true))
      .reply(200, {
        data: {
          t0: { thread: { id: 'PRRT_a', isResolved: true } },
          u1: { thread: { id: 'PRRT_b', isResolved: false } },
          r2: { comment: { id: 'PRRC_1' } },
          r3: null,
        },
        errors: [{ type: 'NOT_FOUND', path: ['r3'], message: 'Could not resolve to a node' }],
      });
    const result = await writeThreads(octokit, {
      resolve: ['PRRT_a'],
      reopen: ['PRRT_b'],
      reply: [
        { id: 'PRRT_b', body: 'Round 3 raises this again.' },
        { id: 'PRRT_gone', body: 'Round 3 still raises this.' },
      ],
    });
    expect(documents).toHaveLength(1);
    expect(documents[0].variables).toEqual({
      t0: 'PRRT_a',
      u1: 'PRRT_b',
      r2: 'PRRT_b',
      b2: 'Round 3 raises this again.',
      r3: 'PRRT_gone',
      b3: 'Round 3 still raises this.',
    });
    expect(documents[0].query).toContain('u1: unresolveReviewThread(input: { threadId: $u1 })');
    expect(documents[0].query).toContain(
      'r2: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $r2, body: $b2 })',
    );
    expect(result).toEqual({
      resolved: ['PRRT_a'],
      reopened: ['PRRT_b'],
      replied: ['PRRT_b'],
      failed: [
        { id: 'PRRT_gone', kind: 'reply', reason: expect.stringContaining('Could not resolve to a node') },
      ],
    });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
