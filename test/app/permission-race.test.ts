/**
 * Permission before claim: a read-only user's `/review-loop <text>` racing a writer's `/review-loop`
 * never takes the PR's loop, and is never answered "already running" — the writer's loop always runs.
 * Both orders of delivery, 20 times each, each time on a fresh App (its claims and refusals are in memory).
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commentPayload, outcome, scriptedRunner, startTestApp } from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import { CALC_BASE, CALC_BRANCH } from '../helpers/review-fixtures.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const TRIALS = 20;

async function race(order: 'reader-first' | 'writer-first', trial: number) {
  const fake = new FakePull({ base: { 'src/calc.ts': CALC_BASE }, head: { 'src/calc.ts': CALC_BRANCH } });
  fake.roles = { maintainer: 'write', reader: 'read' };
  const mock = fake.interceptBase();
  const { runner, requests } = scriptedRunner(async () => outcome());
  const { probot, queue } = await startTestApp(runner);
  const writer = commentPayload({ body: '/review-loop', commentId: 500 + trial });
  const reader = commentPayload({
    body: '/review-loop please look at the tests',
    sender: { login: 'reader' },
    commentId: 900 + trial,
  });
  const [first, second] = order === 'reader-first' ? [reader, writer] : [writer, reader];
  await Promise.all([
    probot.receive({ id: `a${trial}`, name: 'issue_comment', payload: first }),
    probot.receive({ id: `b${trial}`, name: 'issue_comment', payload: second }),
  ]);
  await queue.idle();
  const replies = fake.replies();
  nock.cleanAll();
  return { requests: requests.length, replies, pending: mock.pendingMocks() };
}

describe('permission before claim', () => {
  it.each(['reader-first', 'writer-first'] as const)(
    'a read-only comment racing a writer’s (%s, 20 times) never blocks the writer’s loop',
    async (order) => {
      const results = [];
      for (let trial = 0; trial < TRIALS; trial += 1) results.push(await race(order, trial));
      // the writer's loop ran every time; the reader was refused once, never told "already running"
      expect(results.map((r) => r.requests)).toEqual(Array(TRIALS).fill(1));
      expect(results.filter((r) => r.replies.some((text) => text.includes('already running')))).toEqual([]);
      for (const result of results) {
        expect(result.replies).toEqual([expect.stringContaining('Sorry, only collaborators')]);
        expect(result.pending).toStrictEqual([]);
      }
    },
    120_000,
  );
});
