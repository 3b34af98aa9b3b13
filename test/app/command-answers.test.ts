/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads and recorded request bodies are untyped JSON */
/**
 * Every command gets an answer that is true (docs/how-it-works.md § The App), under Probot
 * (`probot.receive`, GitHub intercepted by nock): `continue` without a push is told what the loop waits
 * for instead of running a round that reviews nothing; an option without its colon gets one answer
 * wherever it stands; `help` and the option lists name the round limit a start actually enforces; every
 * form the checkpoint advertises is a command the App takes, and once answered the checkpoint's "the fix
 * waits for your answer" is gone.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/app/validation/command.js';
import { composeStickyBody } from '../../src/github/review/sticky-comment.js';
import {
  HEAD,
  OWNER,
  REPO_PATH,
  commentPayload,
  loopState,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  pullRequestPayload,
  scriptedRunner,
  startTestApp,
} from '../helpers/app-fixtures.js';
import { scriptedGitHub } from '../helpers/app-github.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const FIXED = 'c'.repeat(40);
/** What the engine's outcome says while a round waits at the checkpoint (engine-events.ts pullMessage). */
const WAITING_WORDS = 'Round 1 requested changes; the fix waits for your answer.';

async function say(probot: { receive: (e: any) => Promise<void> }, body: string, commentId: number) {
  await probot.receive({
    id: `d${commentId}`,
    name: 'issue_comment',
    payload: commentPayload({ body, commentId }),
  });
}

/** The token, then `times` over: the repository's configuration (`config` as the file, or none) and a writer. */
function permitted(times: number, config?: string) {
  const mock = nockToken();
  for (let i = 0; i < times; i++) {
    if (config === undefined) nockNoConfig(mock);
    else {
      mock
        .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
        .reply(200, config, { 'content-type': 'text/plain; charset=utf-8' });
    }
    nockPermission('maintainer', 'write', mock);
  }
  return mock;
}

/** Every `/review-loop …` command a text shows in code spans. */
function advertised(text: string): string[] {
  return [...text.matchAll(/`(\/review-loop[^`]*)`/g)].map((m) => m[1]!);
}

describe('`continue` without a push', () => {
  it('while the loop waits for a manual fix: answered with what it waits for, no round runs, the check stays; after a push it runs', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted(3);
    const waiting = loopState({
      phase: 'waiting-fix',
      settings: { ...loopState().settings!, fix: 'manual' },
      message:
        'Round 1 requested changes: apply the suggested changes or push your own, and round 2 reviews them.',
      check: {
        id: 70,
        headSha: HEAD,
        url: 'u70',
        completed: true,
        conclusion: 'action_required',
        runId: 'run_20260301_0000beef',
      },
      rounds: [
        {
          round: 1,
          head: HEAD,
          score: 4,
          verdict: 'not ready',
          weaknesses: ['the parser drops the last line'],
          action: 'waiting for a fix',
          reviewUrl: 'https://github.com/Codertocat/Hello-World/pull/7#pullrequestreview-1',
        },
      ],
    });
    const sticky = composeStickyBody('## review-loop', waiting);
    const gh = scriptedGitHub({ sticky, reactions: true, checks: true });
    let pull = pullData();
    gh.scope.get(`${REPO_PATH}/pulls/7`).reply(200, () => pull);

    await say(probot, '/review-loop continue', 101);
    await queue.idle();
    await say(probot, '/review-loop go', 102);
    await queue.idle();

    const answer =
      "No new commit since round 1 reviewed `aaaaaaa`, so there is nothing new to review yet. Push your fix to this pull request's branch (apply the review's suggestions, or commit your own): the push starts round 2 by itself.";
    expect(gh.replies).toEqual([answer, answer]);
    expect(requests).toHaveLength(0);
    // no round that never ran on the check, no edit of the sticky comment
    expect(gh.checkCalls).toEqual([]);
    expect(gh.sticky).toBe(sticky);

    // the fix is pushed (its event missed): `continue` now runs round 2 on the new head
    pull = pullData({ head: FIXED });
    await say(probot, '/review-loop continue', 103);
    await queue.idle();
    expect(requests.map((r) => r.trigger)).toEqual([{ kind: 'continue' }]);
    expect(gh.replies).toHaveLength(2);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('the push itself still resumes the loop without a comment', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome({ head: FIXED }));
    const { probot, queue } = await startTestApp(runner);
    const mock = nockToken();
    nockNoConfig(mock);
    const gh = scriptedGitHub({
      sticky: composeStickyBody('## review-loop', loopState({ phase: 'waiting-fix' })),
      checks: true,
      pull: pullData({ head: FIXED }),
    });
    await probot.receive({
      id: 'push-1',
      name: 'pull_request',
      payload: pullRequestPayload('synchronize', { head: FIXED }),
    });
    await queue.idle();
    expect(requests.map((r) => r.trigger)).toEqual([{ kind: 'continue' }]);
    expect(gh.replies).toEqual([]);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('an option without its colon', () => {
  it.each([
    ['/review-loop rounds 3', '/review-loop fix: manual rounds 3', '`rounds: 3`'],
    ['/review-loop difficulty hard', '/review-loop rounds: 2 difficulty hard', '`difficulty: hard`'],
    ['/review-loop rounds=3', '/review-loop checkpoint: on rounds=3', '`rounds: 3`'],
  ])('%j and %j get the same answer, with the form to write', async (first, later, form) => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted(2);
    const gh = scriptedGitHub({ list: false, patchSticky: false });
    await say(probot, first, 101);
    await queue.idle();
    await say(probot, later, 102);
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(gh.replies).toHaveLength(2);
    expect(gh.replies[1]).toBe(gh.replies[0]);
    expect(gh.replies[0]).toBe(
      `\`/review-loop\`: options take a colon, e.g. ${form}; the options are \`difficulty:\` medium, hard or nightmare; \`rounds:\` 1 to 10; \`fix:\` auto, manual or none; \`checkpoint:\` on or off; \`preset:\` code or research.`,
    );
    expect(gh.sticky).toBeUndefined();
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });
});

describe('`help` shows the limits a start enforces', () => {
  it.each([
    ['the App’s default budget', undefined],
    ['a repository budget of 4 rounds', 'budget:\n  max_rounds: 4\n'],
  ])(
    'with %s: the most rounds help names starts, one more is refused, every command it shows parses',
    async (_case, config) => {
      const { runner, requests } = scriptedRunner(async () => outcome({ status: 'awaiting-fix' }));
      const { probot, queue } = await startTestApp(runner);
      const mock = permitted(4, config);
      const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });

      await say(probot, '/review-loop help', 101);
      await queue.idle();
      const help = gh.replies[0]!;
      const limit = /`rounds:` 1 to (\d+)/.exec(help)?.[1];
      expect(limit).toBe(config ? '4' : '10');
      for (const command of advertised(help)) expect(parseCommand(command).status).toBe('ok');

      await say(probot, '/review-loop colour: red', 102);
      await queue.idle();
      expect(gh.replies[1]).toContain(`\`rounds:\` 1 to ${limit}`);

      await say(probot, `/review-loop rounds: ${Number(limit) + 1}`, 103);
      await queue.idle();
      expect(gh.replies[2]).toBe(
        `\`/review-loop\`: \`rounds: ${Number(limit) + 1}\` is over this repository's budget of ${limit} (\`rounds:\` takes 1 to ${limit} here).`,
      );
      expect(requests).toHaveLength(0);

      await say(probot, `/review-loop rounds: ${limit} fix: manual`, 104);
      await queue.idle();
      expect(requests.map((r) => r.settings.rounds)).toEqual([Number(limit)]);
      expect(gh.replies).toHaveLength(3);
      expect(mock.pendingMocks()).toStrictEqual([]);
      expect(gh.scope.pendingMocks()).toStrictEqual([]);
    },
  );
});

describe('the checkpoint', () => {
  /** A loop started with `checkpoint: on` and waiting there; `answer` is the runner's second call. */
  async function atCheckpoint(answer: () => Promise<ReturnType<typeof outcome>>) {
    const { runner, requests } = scriptedRunner(async (_request, call) =>
      call === 1
        ? outcome({
            status: 'awaiting-checkpoint',
            lastScore: 4,
            lastVerdict: 'not ready',
            message: WAITING_WORDS,
          })
        : answer(),
    );
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted(2);
    const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });
    await say(probot, '/review-loop checkpoint: on', 101);
    await queue.idle();
    expect(gh.state()).toMatchObject({ phase: 'waiting-checkpoint' });
    return { probot, queue, requests, gh, mock };
  }

  it('every form it advertises is a command the App takes as the answer', async () => {
    const first = await atCheckpoint(async () => outcome());
    const forms = advertised(first.gh.sticky!.split('\n').find((l) => l.startsWith('**Status:**'))!);
    expect(forms.length).toBeGreaterThanOrEqual(4);
    for (const form of forms) expect(parseCommand(form)).toMatchObject({ status: 'ok' });
    nock.cleanAll();

    const taken: unknown[] = [];
    for (const form of forms) {
      const { probot, queue, requests, gh, mock } = await atCheckpoint(async () => outcome());
      await say(probot, form, 102);
      await queue.idle();
      // an answer resumes the loop with it; `stop` ends the loop where it waits
      taken.push(requests[1]?.trigger ?? gh.state().phase);
      expect(gh.replies).toEqual([]);
      expect(mock.pendingMocks()).toStrictEqual([]);
      nock.cleanAll();
    }
    expect(taken).toEqual([
      { kind: 'answer', answer: { kind: 'go' } },
      { kind: 'answer', answer: { kind: 'skip', items: [1, 3] } },
      'stopped',
      { kind: 'answer', answer: { kind: 'guidance', text: '<what the fix should do>' } },
    ]);
  });

  it('once answered, it no longer says the fix waits for the answer', async () => {
    let during: string | undefined;
    const { probot, queue, requests, gh, mock } = await atCheckpoint(async () => {
      during = gh.sticky;
      return outcome();
    });
    expect(gh.sticky).toContain(WAITING_WORDS);

    await say(probot, `/review-loop note: keep the public API of ${OWNER}'s parser`, 102);
    await queue.idle();
    expect(requests[1]?.trigger).toEqual({
      kind: 'answer',
      answer: { kind: 'guidance', text: "keep the public API of Codertocat's parser" },
    });
    // while the fix runs, and after the loop ends
    expect(during).toContain('**Status:** A round is running.');
    expect(during).not.toContain('waits for your answer');
    expect(gh.sticky).not.toContain('waits for your answer');
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });
});
