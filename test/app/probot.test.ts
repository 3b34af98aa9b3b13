/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads and recorded request bodies are untyped JSON */
/**
 * The App end to end under Probot: `probot.receive` with payloads shaped like @octokit/webhooks-examples,
 * GitHub intercepted by nock. The engine sits behind the LoopRunner seam; here a scripted runner stands in
 * for it, so these tests cover the App's own work: the gate, the queue, the state, the check run, replies.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import {
  API,
  HEAD,
  PR,
  REPO_PATH,
  commentPayload,
  loopState,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  pullRequestPayload,
  rerequestPayload,
  scriptedRunner,
  startTestApp,
  stickyComment,
} from '../helpers/app-fixtures.js';

beforeEach(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

const comments = `${REPO_PATH}/issues/${PR}/comments`;

/** A recorder for bodies posted to an endpoint. */
function recorder() {
  const bodies: any[] = [];
  return { bodies, take: (body: unknown) => (bodies.push(body), true) };
}

describe('permission gate', () => {
  it('runs a loop for a commenter with write access: 👀, sticky comment, check run, runner called', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const sticky = recorder();
    const checks = recorder();
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    mock
      .post(`${REPO_PATH}/issues/comments/101/reactions`, { content: 'eyes' })
      .reply(201, {})
      .get(comments)
      .query(true)
      .reply(200, [])
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData())
      .post(comments, sticky.take)
      .reply(201, { id: 9001, html_url: 'https://github.com/c/9001' })
      // the check run goes in progress on the head, then completes with success there
      .get(comments)
      .query(true)
      .reply(200, () => [{ ...stickyCommentFrom(sticky.bodies.at(-1)), id: 9001 }])
      .post(`${REPO_PATH}/check-runs`, checks.take)
      .reply(201, { id: 77, head_sha: HEAD, html_url: 'https://github.com/check/77' })
      // two edits: the round's start (with the check), the end (with the check as it is concluded)
      .get(comments)
      .query(true)
      .times(3)
      .reply(200, () => [{ ...stickyCommentFrom(sticky.bodies.at(-1)), id: 9001 }])
      .patch(`${REPO_PATH}/issues/comments/9001`, sticky.take)
      .times(2)
      .reply(200, { id: 9001, html_url: 'https://github.com/c/9001' })
      .patch(`${REPO_PATH}/check-runs/77`, checks.take)
      .reply(200, { id: 77 });

    await probot.receive({
      id: 'd1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop rounds: 2' }),
    });
    await queue.idle();

    expect(requests).toHaveLength(1);
    expect(requests[0]?.trigger).toEqual({ kind: 'start' });
    expect(requests[0]?.settings.rounds).toBe(2);
    expect(checks.bodies[0]).toMatchObject({
      name: 'review-loop',
      head_sha: HEAD,
      status: 'in_progress',
      external_id: requests[0]?.runId,
    });
    expect(checks.bodies.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
    const state = decodeStateBlock(sticky.bodies.at(-1).body) as any;
    expect(state.phase).toBe('acquitted');
    expect(state.check).toMatchObject({ id: 77, completed: true, conclusion: 'success' });
    expect(state.handledComments).toContain(101);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('refuses a read-only commenter with one short reply, no reaction and no runner call', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const replies = recorder();
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('reader', 'read', mock);
    mock.post(comments, replies.take).reply(201, { id: 1 });

    await probot.receive({
      id: 'd2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', sender: { login: 'reader' } }),
    });
    await queue.idle();
    // a second attempt by the same user gets no second reply
    nockNoConfig(mock);
    nockPermission('reader', 'read', mock);
    await probot.receive({
      id: 'd3',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', sender: { login: 'reader' }, commentId: 102 }),
    });
    await queue.idle();

    expect(requests).toHaveLength(0);
    expect(replies.bodies).toHaveLength(1);
    expect(replies.bodies[0].body).toBe(
      'Sorry, only collaborators with one of the roles admin, maintain or write can run the review loop here (your role: read).',
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('names the roles `allowed_roles` admits when it refuses', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const replies = recorder();
    const mock = nockToken()
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .reply(200, 'allowed_roles: [admin]\n', { 'content-type': 'text/plain; charset=utf-8' });
    nockPermission('writer', 'write', mock);
    mock.post(comments, replies.take).reply(201, { id: 1 });
    await probot.receive({
      id: 'd4a',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', sender: { login: 'writer' } }),
    });
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(replies.bodies.map((b) => b.body)).toEqual([
      'Sorry, only collaborators with the role admin can run the review loop here (your role: write).',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('honours role_name over permission: triage is refused though it maps to read', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('triager', 'triage', mock);
    mock.post(comments).reply(201, { id: 1 });
    await probot.receive({
      id: 'd4',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', sender: { login: 'triager' } }),
    });
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('ignores bots and the App’s own comments without a single API call', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    // Nothing may be called, not even for a token: every request the App tries is recorded here (the
    // work queue swallows a background error, so a refused connection alone would go unnoticed).
    const tried: string[] = [];
    const onNoMatch = (req: { method?: string; path?: string }) => tried.push(`${req.method} ${req.path}`);
    nock.emitter.on('no match', onNoMatch);
    const mock = nock(API);
    await probot.receive({
      id: 'd5',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', sender: { login: 'dependabot[bot]', type: 'Bot' } }),
    });
    await probot.receive({
      id: 'd6',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', sender: { login: 'renovate', type: 'Bot' } }),
    });
    await probot.receive({
      id: 'd7',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', byApp: true }),
    });
    await probot.receive({
      id: 'd8',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', onIssue: true }),
    });
    await probot.receive({
      id: 'd9',
      name: 'issue_comment',
      payload: commentPayload({ body: 'looks good /review-loop' }),
    });
    await queue.idle();
    nock.emitter.off('no match', onNoMatch);
    expect(tried).toStrictEqual([]);
    expect(requests).toHaveLength(0);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

/** The sticky comment the App just wrote, as the list endpoint returns it. */
function stickyCommentFrom(written: { body: string } | undefined) {
  return {
    body: written?.body ?? '',
    html_url: 'https://github.com/c/9001',
    user: { login: 'review-loop[bot]', type: 'Bot' },
    performed_via_github_app: { id: 4242 },
  };
}

describe('commands', () => {
  it('answers a malformed command with a reply that names the problem', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const replies = recorder();
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'admin', mock);
    mock.post(comments, replies.take).reply(201, { id: 1 });
    await probot.receive({
      id: 'e1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop difficulty: extreme' }),
    });
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(replies.bodies[0].body).toContain('`difficulty` must be medium, hard, nightmare');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('answers a bad .github/review-loop.yml with a comment naming the field, and does not start', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const replies = recorder();
    const mock = nockToken()
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .reply(200, 'rounds: lots\n', { 'content-type': 'text/plain; charset=utf-8' });
    nockPermission('maintainer', 'write', mock);
    mock.post(comments, replies.take).reply(201, { id: 1 });
    await probot.receive({
      id: 'e2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(replies.bodies[0].body).toMatch(/`\.github\/review-loop\.yml`: `rounds` must be a whole number/);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('says "already running" to a second start while the first loop runs, and ignores a redelivery', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { runner, requests } = scriptedRunner(async () => {
      await held;
      return outcome({ status: 'awaiting-fix' });
    });
    const { probot, queue } = await startTestApp(runner);
    const posted = recorder();
    let sticky: { body: string } | undefined;
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    mock
      .persist()
      .post(`${REPO_PATH}/issues/comments/101/reactions`)
      .reply(201, {})
      .get(comments)
      .query(true)
      .reply(200, () => (sticky ? [{ ...stickyCommentFrom(sticky), id: 9001 }] : []))
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData())
      .post(comments, (body: any) => {
        posted.take(body);
        if (body.body.startsWith('<!-- skillclimb:review-loop -->')) sticky = body;
        return true;
      })
      .reply(201, { id: 9001, html_url: 'https://github.com/c/9001' })
      .patch(`${REPO_PATH}/issues/comments/9001`, (body: any) => ((sticky = body), true))
      .reply(200, { id: 9001, html_url: 'https://github.com/c/9001' })
      .post(`${REPO_PATH}/check-runs`)
      .reply(201, { id: 77, head_sha: HEAD, html_url: 'https://github.com/check/77' })
      .patch(`${REPO_PATH}/check-runs/77`)
      .reply(200, { id: 77 });

    const first = commentPayload({ body: '/review-loop' });
    await probot.receive({ id: 'f1', name: 'issue_comment', payload: first });
    // wait until the loop is in the runner
    while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The configuration and the role are read again from the scope above (it persists); the 👀 is new.
    nock(API).post(`${REPO_PATH}/issues/comments/102/reactions`).reply(201, {});
    await probot.receive({
      id: 'f2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop', commentId: 102 }),
    });
    // the same comment delivered again (GitHub's redelivery has a new delivery id)
    await probot.receive({ id: 'f3', name: 'issue_comment', payload: first });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await queue.idle();

    expect(requests).toHaveLength(1);
    const replies = posted.bodies.filter((b) => !b.body.startsWith('<!--'));
    expect(replies).toHaveLength(1);
    expect(replies[0].body).toMatch(/already running/);
    expect((decodeStateBlock(sticky!.body) as any).phase).toBe('waiting-fix');
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
    mock.persist(false);
  });
});

describe('resume and ending', () => {
  it('a push resumes a loop waiting for a manual fix; the App’s own pushed head never does', async () => {
    const { runner, requests } = scriptedRunner(async () =>
      outcome({ status: 'awaiting-fix', head: 'c'.repeat(40) }),
    );
    const { probot, queue } = await startTestApp(runner);
    const pushed = 'd'.repeat(40);
    const state = loopState({
      phase: 'waiting-fix',
      pushedHeads: [pushed],
      check: { id: 70, headSha: HEAD, url: 'u70', completed: true, conclusion: 'action_required' },
    });
    let sticky = stickyComment(state);
    const checks = recorder();
    const mock = nockToken()
      .persist()
      .get(comments)
      .query(true)
      .reply(200, () => [sticky])
      .patch(
        `${REPO_PATH}/issues/comments/9001`,
        (body: any) => ((sticky = { ...sticky, body: body.body }), true),
      )
      .reply(200, { id: 9001, html_url: 'u' })
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData({ head: 'c'.repeat(40), fork: true }))
      .post(`${REPO_PATH}/check-runs`, checks.take)
      .reply(201, (_uri: string, body: any) => ({ id: 80, head_sha: body.head_sha, html_url: 'u80' }))
      .patch(/\/check-runs\/\d+$/, checks.take)
      .reply(200, {});
    nockNoConfig(mock);

    // the App's own fix commit: ignored
    await probot.receive({
      id: 'g1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: pushed }),
    });
    await queue.idle();
    expect(requests).toHaveLength(0);

    await probot.receive({
      id: 'g2',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: 'c'.repeat(40), sender: { login: 'forker' } }),
    });
    await queue.idle();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.trigger).toEqual({ kind: 'continue' });
    expect(requests[0]?.runId).toBe('run_20260301_0000beef');
    expect(checks.bodies[0]).toMatchObject({ head_sha: 'c'.repeat(40), status: 'in_progress' });
    // the check that asked for the fix on the old head gives way to the new head's
    expect(checks.bodies[1]).toMatchObject({
      conclusion: 'neutral',
      output: { title: 'Superseded by ccccccc' },
    });
    expect(checks.bodies.at(-1)).toMatchObject({ conclusion: 'action_required' });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
    mock.persist(false);
  });

  it('a push after an acquittal leaves the success on the acquitted head and marks the new head not reviewed', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    let sticky = stickyComment(
      loopState({
        phase: 'acquitted',
        check: { id: 70, headSha: HEAD, url: 'u70', completed: true, conclusion: 'success' },
      }),
    );
    const checks = recorder();
    const mock = nockToken()
      .get(comments)
      .query(true)
      .times(3)
      .reply(200, () => [sticky])
      .patch(
        `${REPO_PATH}/issues/comments/9001`,
        (body: any) => ((sticky = { ...sticky, body: body.body }), true),
      )
      .times(2)
      .reply(200, { id: 9001, html_url: 'u' })
      .post(`${REPO_PATH}/check-runs`, checks.take)
      .reply(201, { id: 81, head_sha: 'e'.repeat(40), html_url: 'u81' });
    await probot.receive({
      id: 'h1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: 'e'.repeat(40) }),
    });
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(checks.bodies).toHaveLength(1);
    expect(checks.bodies[0]).toMatchObject({ head_sha: 'e'.repeat(40), conclusion: 'action_required' });
    expect(mock.pendingMocks()).toStrictEqual([]);
  });

  it('after a restart, `/review-loop continue` resumes the loop recorded as running in the sticky state', async () => {
    const { runner, requests } = scriptedRunner(async () =>
      outcome({
        status: 'max-rounds',
        lastScore: 4,
        lastVerdict: 'not ready',
        blockers: [{ title: 'tests missing', effort: 'small' }],
      }),
    );
    const { probot, queue } = await startTestApp(runner);
    let sticky = stickyComment(
      loopState({
        phase: 'running',
        rounds: [
          {
            round: 1,
            head: HEAD,
            score: 4,
            verdict: 'not ready',
            weaknesses: ['x'],
            action: 'fix',
            reviewUrl: null,
          },
        ],
      }),
    );
    const issues = recorder();
    const mock = nockToken()
      .persist()
      .get(comments)
      .query(true)
      .reply(200, () => [sticky])
      .patch(
        `${REPO_PATH}/issues/comments/9001`,
        (body: any) => ((sticky = { ...sticky, body: body.body }), true),
      )
      .reply(200, { id: 9001, html_url: 'u' })
      .post(`${REPO_PATH}/issues/comments/103/reactions`)
      .reply(201, {})
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData())
      .post(`${REPO_PATH}/check-runs`)
      .reply(201, { id: 90, head_sha: HEAD, html_url: 'u90' })
      .patch(`${REPO_PATH}/check-runs/90`)
      .reply(200, {})
      .get(`${REPO_PATH}/issues`)
      .query(true)
      .reply(200, [])
      .post(`${REPO_PATH}/issues`, issues.take)
      .reply(201, { number: 12, html_url: 'https://github.com/i/12' });
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    await probot.receive({
      id: 'i1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop continue', commentId: 103 }),
    });
    await queue.idle();
    expect(requests.map((r) => r.trigger)).toEqual([{ kind: 'continue' }]);
    expect(requests[0]?.runId).toBe('run_20260301_0000beef');
    expect(issues.bodies[0].body).toContain('<!-- skillclimb:review-park pr=7 -->');
    const state = decodeStateBlock(sticky.body) as any;
    expect(state).toMatchObject({ phase: 'gave-up', parkIssue: 12 });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
    mock.persist(false);
  });

  it('the Re-run button runs a round on that head for a permitted requester', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    let sticky = stickyComment(loopState({ phase: 'acquitted' }));
    const mock = nockToken()
      .persist()
      .get(comments)
      .query(true)
      .reply(200, () => [sticky])
      .patch(
        `${REPO_PATH}/issues/comments/9001`,
        (body: any) => ((sticky = { ...sticky, body: body.body }), true),
      )
      .reply(200, { id: 9001, html_url: 'u' })
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(200, pullData())
      .post(`${REPO_PATH}/check-runs`)
      .reply(201, { id: 91, head_sha: HEAD, html_url: 'u91' })
      .patch(`${REPO_PATH}/check-runs/91`)
      .reply(200, {});
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    await probot.receive({ id: 'j1', name: 'check_run', payload: rerequestPayload({}) });
    await queue.idle();
    expect(requests.map((r) => r.trigger)).toEqual([{ kind: 'rerun', headSha: HEAD }]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
    mock.persist(false);
  });
});

/**
 * A pull request on a scripted GitHub: comments (the sticky one and replies), the PR, reactions and check
 * runs, recorded in order. Every interceptor persists, so each test registers only the parts it uses
 * (an interceptor never called stays pending and fails the test).
 */
function scriptedPull(parts: {
  post?: boolean;
  sticky?: any;
  reactions?: boolean;
  pull?: boolean;
  checks?: boolean;
  patchSticky?: boolean;
}) {
  const live = {
    sticky: parts.sticky as { id: number; body: string } | undefined,
    replies: [] as string[],
    checks: [] as Array<{ id: number; body: any }>,
  };
  const listed = () => (live.sticky ? [{ ...stickyCommentFrom(live.sticky), id: 9001 }] : []);
  const mock = nock(API).persist().get(comments).query(true).reply(200, listed);
  if (parts.post ?? true) {
    mock
      .post(comments, () => true)
      .reply(201, (_uri: string, body: any) => {
        if (String(body.body).startsWith('<!-- skillclimb:review-loop -->'))
          live.sticky = { id: 9001, body: body.body };
        else live.replies.push(body.body);
        return { id: 9001, html_url: 'https://github.com/c/9001' };
      });
  }
  if (parts.patchSticky ?? true) {
    mock
      .patch(`${REPO_PATH}/issues/comments/9001`)
      .reply(
        200,
        (_uri: string, body: any) => (
          (live.sticky = { id: 9001, body: body.body }),
          { id: 9001, html_url: 'u' }
        ),
      );
  }
  if (parts.reactions) mock.post(/\/issues\/comments\/\d+\/reactions$/).reply(201, {});
  if (parts.pull) mock.get(`${REPO_PATH}/pulls/${PR}`).reply(200, pullData());
  if (parts.checks) {
    mock
      .post(`${REPO_PATH}/check-runs`)
      .reply(201, (_uri: string, body: any) => {
        const id = 77 + live.checks.filter((c) => c.body.head_sha).length;
        live.checks.push({ id, body });
        return { id, head_sha: body.head_sha, html_url: `https://github.com/check/${id}` };
      })
      .patch(/\/check-runs\/\d+$/)
      .reply(200, (uri: string, body: any) => {
        const id = Number(uri.split('/').at(-1));
        live.checks.push({ id, body });
        return { id };
      });
  }
  return Object.assign(live, { scope: mock });
}

/** A runner held until the loop's signal aborts; it then returns what the engine returns when interrupted. */
function heldUntilAborted() {
  return scriptedRunner(
    (request) =>
      new Promise((resolve) =>
        request.signal.addEventListener('abort', () =>
          resolve(
            outcome({ status: 'interrupted', message: 'Interrupted during round 1.', lastScore: undefined }),
          ),
        ),
      ),
  );
}

async function whileRunning(requests: unknown[]) {
  while (requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('ending a loop, status, checkpoint answers and Re-run', () => {
  it('`/review-loop stop` during a running round ends the loop: check failure "Stopped", sticky phase stopped', async () => {
    const { runner, requests } = heldUntilAborted();
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    // both commands read the configuration and the commenter's role
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    const live = scriptedPull({ reactions: true, pull: true, checks: true });

    await probot.receive({
      id: 's1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await whileRunning(requests);
    await probot.receive({
      id: 's2',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop stop', commentId: 102 }),
    });
    await queue.idle();

    expect(requests).toHaveLength(1);
    expect(requests[0]!.signal.aborted).toBe(true);
    expect(
      live.checks.map((c) => [c.id, c.body.status, c.body.conclusion ?? null, c.body.output?.title]),
    ).toEqual([
      [77, 'in_progress', null, expect.any(String)],
      [77, 'completed', 'failure', 'Stopped'],
    ]);
    const state = decodeStateBlock(live.sticky!.body) as any;
    expect(state).toMatchObject({ phase: 'stopped', message: 'Ended by `/review-loop stop`.' });
    expect(state.handledComments).toEqual([101, 102]);
    expect(live.replies).toEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(live.scope.pendingMocks()).toStrictEqual([]);
  });

  it('closing the pull request during a running round ends the loop: check cancelled, sticky phase closed', async () => {
    const { runner, requests } = heldUntilAborted();
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    const live = scriptedPull({ reactions: true, pull: true, checks: true });

    await probot.receive({
      id: 'x1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await whileRunning(requests);
    await probot.receive({
      id: 'x2',
      name: 'pull_request',
      payload: pullRequestPayload('closed', { merged: true }),
    });
    await queue.idle();

    expect(requests[0]!.signal.aborted).toBe(true);
    expect(live.checks.at(-1)).toMatchObject({
      id: 77,
      body: { status: 'completed', conclusion: 'cancelled', output: { title: 'Pull request closed' } },
    });
    expect(decodeStateBlock(live.sticky!.body)).toMatchObject({ phase: 'closed' });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(live.scope.pendingMocks()).toStrictEqual([]);
  });

  it('`/review-loop status` replies with where the loop is, and runs nothing', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    const state = loopState({
      phase: 'waiting-fix',
      rounds: [
        {
          round: 1,
          head: HEAD,
          score: 4,
          verdict: 'not ready',
          weaknesses: ['x'],
          action: 'waiting for a fix',
          reviewUrl: null,
        },
      ],
    });
    const live = scriptedPull({ sticky: stickyComment(state), reactions: true, patchSticky: false });

    await probot.receive({
      id: 't1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop status', commentId: 103 }),
    });
    await queue.idle();

    expect(requests).toHaveLength(0);
    expect(live.replies).toEqual([
      'Review loop `run_20260301_0000beef`: waiting for a fix, 1 round. Last round: 4/10, not ready.',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(live.scope.pendingMocks()).toStrictEqual([]);
  });

  it('`/review-loop skip 2` at a checkpoint resumes the loop with that answer', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome({ status: 'awaiting-fix' }));
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
    const state = loopState({
      phase: 'waiting-checkpoint',
      check: { id: 70, headSha: HEAD, url: 'u70', completed: true },
    });
    const live = scriptedPull({
      sticky: stickyComment(state),
      post: false,
      reactions: true,
      pull: true,
      checks: true,
    });

    await probot.receive({
      id: 'k1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop skip 2', commentId: 104 }),
    });
    await queue.idle();

    expect(requests.map((r) => r.trigger)).toEqual([
      { kind: 'answer', answer: { kind: 'skip', items: [2] } },
    ]);
    expect(requests[0]?.runId).toBe('run_20260301_0000beef');
    expect(decodeStateBlock(live.sticky!.body)).toMatchObject({
      phase: 'waiting-fix',
      handledComments: [104],
    });
    expect(live.replies).toEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(live.scope.pendingMocks()).toStrictEqual([]);
  });

  it('a Re-run by a read-only user gets one refusal, however often it is clicked, and runs nothing', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    const replies = recorder();
    for (let i = 0; i < 2; i++) {
      nockNoConfig(mock);
      nockPermission('reader', 'read', mock);
    }
    mock.post(comments, replies.take).reply(201, { id: 1 });

    for (const id of ['r1', 'r2']) {
      await probot.receive({
        id,
        name: 'check_run',
        payload: rerequestPayload({ sender: { login: 'reader' } }),
      });
      await queue.idle();
    }

    expect(requests).toHaveLength(0);
    expect(replies.bodies.map((b) => b.body)).toEqual([
      'Sorry, only collaborators with one of the roles admin, maintain or write can run the review loop here (your role: read).',
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
