/**
 * The write budget of a wave of commands: while a PR's loop runs, any number of further starts get one
 * "already running" reply between them (and the 👀 each), not one comment apiece — each comment creation
 * costs seconds of GitHub's write spacing. Once that loop ends, the next wave is answered again.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SETTINGS,
  commentPayload,
  outcome,
  recordingLog,
  scriptedRunner,
  startTestApp,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import { CALC_BASE, CALC_BRANCH } from '../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('"already running" at most once per PR per running loop', () => {
  it('five starts during a running loop: one reply; a start during the next loop: one more', async () => {
    const fake = new FakePull({ base: { 'src/calc.ts': CALC_BASE }, head: { 'src/calc.ts': CALC_BRANCH } });
    const mock = fake.interceptBase();
    let release: () => void = () => undefined;
    const { runner, requests } = scriptedRunner(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return outcome({ status: 'acquitted' });
    });
    const lines: string[] = [];
    const { probot, queue } = await startTestApp(runner, SETTINGS, { log: recordingLog(lines) });
    const say = (commentId: number) =>
      probot.receive({
        id: `c${commentId}`,
        name: 'issue_comment',
        payload: commentPayload({ body: '/review-loop', commentId }),
      });
    const busyReplies = () => fake.replies().filter((text) => text.includes('already running'));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

    await say(101);
    while (requests.length < 1) await settle();
    for (const id of [102, 103, 104, 105, 106]) await say(id);
    // done when every later start was either answered or logged as answered already (bounded wait)
    const answered = () =>
      busyReplies().length + lines.filter((l) => l.includes('answered once already')).length;
    for (let i = 0; i < 100 && answered() < 5; i += 1) await settle();
    expect(busyReplies()).toHaveLength(1);
    expect(fake.reactions).toEqual([101, 102, 103, 104, 105, 106]);
    release();
    await queue.idle();

    // the loop ended (acquitted): a new start runs a new loop, and a start during it is answered once more
    await say(107);
    while (requests.length < 2) await settle();
    await say(108);
    await say(109);
    for (let i = 0; i < 100 && answered() < 7; i += 1) await settle();
    release();
    await queue.idle();
    expect(busyReplies()).toHaveLength(2);
    expect(requests).toHaveLength(2);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
