/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads and recorded request bodies are untyped JSON */
/**
 * One `review-loop` check run per head per run, under Probot (`probot.receive`, GitHub intercepted by
 * nock): created once and updated through its states; when the loop moves past a head the old head's
 * check is superseded (neutral), whatever state it was in — `action_required` included.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HEAD,
  REPO_PATH,
  commentPayload,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  scriptedRunner,
  startTestApp,
} from '../helpers/app-fixtures.js';
import { scriptedGitHub } from '../helpers/app-github.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const FIXED = 'c'.repeat(40);

async function say(probot: { receive: (e: any) => Promise<void> }, body: string, commentId: number) {
  await probot.receive({
    id: `d${commentId}`,
    name: 'issue_comment',
    payload: commentPayload({ body, commentId }),
  });
}

function permitted(times: number) {
  const mock = nockToken();
  for (let i = 0; i < times; i++) {
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
  }
  return mock;
}

describe('one check run per head per run', () => {
  it('checkpoint wait, `continue` (a fix moves the head), wait again, `stop`: one check per head, none left waiting', async () => {
    const { runner, requests } = scriptedRunner(async (request, call) => {
      if (call === 1)
        return outcome({ status: 'awaiting-checkpoint', lastScore: 4, lastVerdict: 'not ready' });
      // the answer's fix landed as FIXED; the engine reviews it in round 2 and waits again
      await request.session.roundStarted(2, FIXED);
      return outcome({
        status: 'awaiting-checkpoint',
        head: FIXED,
        rounds: 2,
        lastScore: 5,
        lastVerdict: 'not ready',
      });
    });
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted(3);
    const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });

    await say(probot, '/review-loop checkpoint: on', 101);
    await queue.idle();
    await say(probot, '/review-loop continue', 102);
    await queue.idle();
    await say(probot, '/review-loop stop', 103);
    await queue.idle();

    expect(requests.map((r) => r.trigger)).toEqual([
      { kind: 'start' },
      { kind: 'answer', answer: { kind: 'go' } },
    ]);
    expect(gh.checkRuns()).toEqual([
      { id: 300, head: HEAD, states: ['in_progress', 'action_required', 'in_progress', 'neutral'] },
      { id: 301, head: FIXED, states: ['in_progress', 'action_required', 'failure'] },
    ]);
    const superseded = gh.checkCalls.find((c) => c.body.conclusion === 'neutral')!;
    expect(superseded.body.output.title).toBe('Superseded by ccccccc');
    expect(gh.checkCalls.at(-1)!.body.output.title).toBe('Stopped');
    expect(gh.state()).toMatchObject({ phase: 'stopped', check: { id: 301, conclusion: 'failure' } });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('a manual wait, `continue` on the same head (answered, no round), `stop`: the one check never shows a round that did not run', async () => {
    const { runner, requests } = scriptedRunner(async () =>
      outcome({ status: 'awaiting-fix', lastScore: 4, lastVerdict: 'not ready' }),
    );
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted(3);
    const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });

    await say(probot, '/review-loop fix: manual', 101);
    await queue.idle();
    await say(probot, '/review-loop continue', 102);
    await queue.idle();
    await say(probot, '/review-loop stop', 103);
    await queue.idle();

    expect(requests).toHaveLength(1);
    expect(gh.replies).toEqual([expect.stringMatching(/^No new commit since the last review `aaaaaaa`/)]);
    expect(gh.checkRuns()).toEqual([
      { id: 300, head: HEAD, states: ['in_progress', 'action_required', 'failure'] },
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('when GitHub will not reopen a completed check, the round retitles it and the verdict still lands on it', async () => {
    const { runner } = scriptedRunner(async (_request, call) =>
      call === 1
        ? outcome({ status: 'awaiting-checkpoint', lastScore: 4, lastVerdict: 'not ready' })
        : outcome(),
    );
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted(2);
    const bodies: any[] = [];
    const gh = scriptedGitHub({ reactions: true, pull: pullData() });
    gh.scope
      .post(`${REPO_PATH}/check-runs`)
      .reply(
        201,
        (_uri: string, body: any) => (bodies.push(body), { id: 300, head_sha: HEAD, html_url: 'u300' }),
      )
      .patch(`${REPO_PATH}/check-runs/300`, (body: any) => (bodies.push(body), true))
      .reply((_uri: string, body: any) =>
        body.status === 'in_progress' && bodies.filter((b) => b.conclusion).length > 0
          ? [422, { message: 'a completed check run cannot be reopened' }]
          : [200, { id: 300 }],
      );

    await say(probot, '/review-loop checkpoint: on', 101);
    await queue.idle();
    await say(probot, '/review-loop go', 102);
    await queue.idle();

    expect(bodies.map((b) => [b.status ?? null, b.conclusion ?? null, b.output.title])).toEqual([
      ['in_progress', null, 'Round 1 of 4 running'],
      ['completed', 'action_required', 'Waiting at the checkpoint'],
      ['in_progress', null, 'Round 1 of 4 running'],
      // refused (422): the same check takes the text, keeping its state
      [null, null, 'Round 1 of 4 running'],
      ['completed', 'success', 'Approved: 8/10, ready'],
    ]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });
});
