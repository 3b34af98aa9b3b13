/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads and recorded request bodies are untyped JSON */
/**
 * What a person reads back from the App under Probot (`probot.receive`, GitHub intercepted by nock): every
 * status true — no loop is "closed" that never ran, `fix: none` ends "reviewed", the sticky links the
 * park issue — and every command answered: `help`, options without their colon, unknown words, the
 * command word in any case, a configuration file with several problems at once; and the operator's log
 * names the pull request on every progress line.
 */
import http from 'node:http';
import { inspect } from 'node:util';
import nock from 'nock';
import type { Logger } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeStickyBody } from '../../src/github/review/sticky-comment.js';
import {
  HEAD,
  REPO_PATH,
  commentPayload,
  loopState,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  recordingLog,
  scriptedRunner,
  startTestApp,
} from '../helpers/app-fixtures.js';
import { scriptedGitHub } from '../helpers/app-github.js';
import { sign } from '../helpers/app-child.js';
import { closeServer, listenOnLoopback } from '../helpers/local-http.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const NO_LOOP = 'No loop is running on this pull request; start one with `/review-loop`.';

async function say(probot: { receive: (e: any) => Promise<void> }, body: string, commentId = 101) {
  await probot.receive({
    id: `d${commentId}`,
    name: 'issue_comment',
    payload: commentPayload({ body, commentId }),
  });
}

/** The token, no configuration file, and a commenter with write access, `times` over. */
function permitted(times = 1) {
  const mock = nockToken();
  for (let i = 0; i < times; i++) {
    nockNoConfig(mock);
    nockPermission('maintainer', 'write', mock);
  }
  return mock;
}

describe('every status is true', () => {
  it('a note with no loop says no loop is running and keeps it; the sticky never says "closed"', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted();
    const gh = scriptedGitHub({ reactions: true, patchSticky: false });

    await say(probot, '/review-loop note: please keep the comma');
    await queue.idle();

    expect(requests).toHaveLength(0);
    expect(gh.replies).toEqual([`${NO_LOOP} Your note is kept: the first fix of the next loop follows it.`]);
    expect(gh.state()).toMatchObject({ phase: 'idle', guidance: 'please keep the comma' });
    expect(gh.sticky).toContain('No loop is running; start one with `/review-loop`.');
    expect(gh.sticky).not.toMatch(/closed/i);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it.each(['stop', 'go', 'continue'])(
    '`/review-loop %s` with no loop: "no loop is running"',
    async (verb) => {
      const { runner, requests } = scriptedRunner(async () => outcome());
      const { probot, queue } = await startTestApp(runner);
      const mock = permitted();
      const gh = scriptedGitHub({ reactions: true, patchSticky: false });
      await say(probot, `/review-loop ${verb}`);
      await queue.idle();
      expect(requests).toHaveLength(0);
      expect(gh.replies).toEqual([NO_LOOP]);
      expect(mock.pendingMocks()).toStrictEqual([]);
      expect(gh.scope.pendingMocks()).toStrictEqual([]);
    },
  );

  it('`fix: none` ends as reviewed, not as rounds that ran out', async () => {
    const { runner } = scriptedRunner(async () =>
      outcome({
        status: 'reviewed',
        lastScore: 4,
        lastVerdict: 'not ready',
        message: 'Review only: round 1 scored 4/10 (not ready).',
      }),
    );
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted();
    const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });
    await say(probot, '/review-loop fix: none');
    await queue.idle();
    expect(gh.state()).toMatchObject({ phase: 'reviewed' });
    expect(gh.sticky).toContain('Reviewed once');
    expect(gh.sticky).not.toMatch(/ran out|gave up/i);
    expect(gh.checkCalls.at(-1)!.body).toMatchObject({
      conclusion: 'failure',
      output: { title: 'Reviewed once (fix: none): 4/10' },
    });
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('the sticky and the check link the defect-park issue once it is filed, and the log says so', async () => {
    const { runner } = scriptedRunner(async () =>
      outcome({
        status: 'max-rounds',
        lastScore: 4,
        lastVerdict: 'not ready',
        blockers: [{ title: 'tests missing', effort: 'small' }],
        message: 'Gave up after 1 round.',
      }),
    );
    const lines: string[] = [];
    const { probot, queue } = await startTestApp(runner, undefined, { log: recordingLog(lines) });
    const mock = permitted();
    const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true, parkIssues: true });
    await say(probot, '/review-loop rounds: 1');
    await queue.idle();
    expect(gh.issues).toHaveLength(1);
    expect(gh.state()).toMatchObject({ phase: 'gave-up', parkIssue: 12 });
    expect(gh.sticky).toContain('**Defect-park issue:** #12');
    expect(gh.checkCalls.at(-1)!.body.output.summary).toContain('#12');
    expect(
      lines.some((l) => l.includes('Codertocat/Hello-World#7') && l.includes('defect-park issue #12')),
    ).toBe(true);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });
});

describe('commands that answer', () => {
  it('`/review-loop help` lists every command and option, and starts nothing', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted();
    const gh = scriptedGitHub({ reactions: true, patchSticky: false });
    await say(probot, '/review-loop help');
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(gh.replies).toHaveLength(1);
    const help = gh.replies[0]!;
    for (const command of ['go', 'skip 1,3', 'continue', 'stop', 'status', 'note: <text>', 'help']) {
      expect(help).toContain(`\`/review-loop ${command}\``);
    }
    for (const option of ['difficulty:', 'rounds:', 'fix:', 'checkpoint:', 'preset:'])
      expect(help).toContain(option);
    expect(gh.sticky).toBeUndefined();
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it.each([
    [
      '/review-loop rounds 3',
      /options take a colon, e.g\. `rounds: 3`; the options are `difficulty:` medium, hard or nightmare; `rounds:` 1 to 10;/,
    ],
    [
      '/review-loop foo: bar',
      /`foo` is not an option; the options are `difficulty:` .*; `preset:` code or research\.$/,
    ],
    ['/review-loop please keep the comma', /`please` is not a command; .*`\/review-loop note: <text>`/],
  ])('%j is answered with what is valid, never kept as guidance', async (body, reply) => {
    const lines: string[] = [];
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner, undefined, { log: recordingLog(lines) });
    const mock = permitted();
    const gh = scriptedGitHub({ list: false, patchSticky: false });
    await say(probot, body);
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(gh.replies).toEqual([expect.stringMatching(reply)]);
    expect(gh.sticky).toBeUndefined();
    // the operator sees the malformed command too, with the pull request it was on
    expect(lines.some((l) => l.includes('Codertocat/Hello-World#7: malformed command'))).toBe(true);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('the command word is matched in any case: `/Review-Loop status`', async () => {
    const { runner } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted();
    const gh = scriptedGitHub({ reactions: true, patchSticky: false });
    await say(probot, '/Review-Loop STATUS');
    await queue.idle();
    expect(gh.replies).toEqual([NO_LOOP]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('a note to a running loop is confirmed', async () => {
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner);
    const mock = permitted();
    const gh = scriptedGitHub({
      sticky: composeStickyBody('## review-loop', loopState({ phase: 'waiting-fix' })),
      reactions: true,
    });
    await say(probot, '/review-loop NOTE: keep the public API\nand the README as it is');
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(gh.replies).toEqual(['Noted: the next fix follows your note.']);
    expect(gh.state().guidance).toBe('keep the public API\nand the README as it is');
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });

  it('a bad .github/review-loop.yml gets every problem at once, each naming its field, and is logged', async () => {
    const lines: string[] = [];
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner, undefined, { log: recordingLog(lines) });
    const mock = nockToken()
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .reply(200, 'rounds: lots\nfix: always\ncolour: blue\n', {
        'content-type': 'text/plain; charset=utf-8',
      });
    nockPermission('maintainer', 'write', mock);
    const gh = scriptedGitHub({ list: false, patchSticky: false });
    await say(probot, '/review-loop');
    await queue.idle();
    expect(requests).toHaveLength(0);
    expect(gh.replies).toHaveLength(1);
    const [first, blank, ...problems] = gh.replies[0]!.split('\n');
    expect([first, blank]).toEqual([
      'The review loop did not start: `.github/review-loop.yml` has 3 problems:',
      '',
    ]);
    expect(problems).toEqual([
      '- `rounds` must be a whole number from 1 to 20; it is `"lots"`.',
      '- `fix` must be one of auto, manual, none; it is `"always"`.',
      expect.stringMatching(
        /^- `colour` is not a field of this file \(the fields are `reviewer_model`, .*`budget`\)\.$/,
      ),
    ]);
    expect(lines.some((l) => l.includes('Codertocat/Hello-World#7: the configuration has problems'))).toBe(
      true,
    );
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });
});

describe('logs an operator can use', () => {
  it('the engine’s progress lines and the fix it committed name the repository and the pull request', async () => {
    const lines: string[] = [];
    const { runner } = scriptedRunner(async (request) => {
      request.session.log.info('round 1/4: score 8/10, ready — 41.2 s');
      return outcome();
    });
    const { probot, queue } = await startTestApp(runner, undefined, { log: recordingLog(lines) });
    const mock = permitted();
    const gh = scriptedGitHub({ reactions: true, pull: pullData(), checks: true });
    await say(probot, '/review-loop');
    await queue.idle();
    expect(lines.filter((l) => l.includes('round 1/4'))).toEqual([
      'Codertocat/Hello-World#7: round 1/4: score 8/10, ready — 41.2 s',
    ]);
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress', 'success'] }]);
    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(gh.scope.pendingMocks()).toStrictEqual([]);
  });
});

/** A logger that keeps each line with its level (Probot's and the App's alike). */
function levelledLog(lines: Array<{ level: string; text: string }>) {
  const log: Record<string, unknown> = { level: 'trace', isLevelEnabled: () => true };
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
    log[level] = (...args: unknown[]) =>
      lines.push({
        level,
        text: args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 6 }))).join(' '),
      });
  }
  log.child = () => log;
  return log as unknown as Logger;
}

describe('a delivery with a bad signature', () => {
  it('is one warning line naming the delivery and the fix, without the payload or a stack trace', async () => {
    nock.enableNetConnect('127.0.0.1');
    const lines: Array<{ level: string; text: string }> = [];
    const { runner, requests } = scriptedRunner(async () => outcome());
    const { probot, queue } = await startTestApp(runner, undefined, {
      log: levelledLog(lines),
      webhookSecret: 'the-real-secret',
    });
    const middleware = await probot.getNodeMiddleware();
    const server = http.createServer((req, res) => void middleware(req, res));
    const origin = await listenOnLoopback(server);
    const body = JSON.stringify(commentPayload({ body: '/review-loop PAYLOAD-MARKER' }));
    try {
      const res = await fetch(`${origin}/api/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issue_comment',
          'x-github-delivery': 'delivery-bad-1',
          'x-hub-signature-256': sign('not-the-secret', body),
        },
        body,
      });
      expect(res.status).toBe(400);
    } finally {
      await closeServer(server);
      nock.enableNetConnect();
    }
    await queue.idle();
    expect(requests).toHaveLength(0);
    const about = lines.filter((l) => /signature/i.test(l.text));
    expect(about).toEqual([
      {
        level: 'warn',
        text: "webhook delivery delivery-bad-1 refused: its signature does not match WEBHOOK_SECRET (the App's webhook secret on GitHub must be the same value)",
      },
    ]);
    const all = lines.map((l) => l.text).join('\n');
    expect(all).not.toContain('PAYLOAD-MARKER');
    expect(all).not.toMatch(/\n\s+at /);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
