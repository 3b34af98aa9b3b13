/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * Issue 20's acceptance test: a whole two-round loop in manual mode that gives up, under Probot with the
 * real engine — GitHub (REST and GraphQL) and the model APIs intercepted by nock at the HTTP layer, the
 * PR's patches real `git diff` hunks. Every body the App posted (reviews, inline comments, the sticky
 * comment and replies, check-run output, the park issue) is collected and read as the author would.
 */
import { createHash } from 'node:crypto';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoopRunner } from '../../src/app/engine.js';
import {
  NOW,
  OWNER,
  PR,
  REPO,
  commentPayload,
  pullRequestPayload,
  startTestApp,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import { startRedis } from '../helpers/redis-server.js';
import { README, anthropicReply, openaiReply, reviewAnswer } from '../helpers/review-fixtures.js';

const MODEL_KEYS = { OPENAI_API_KEY: 'sk-openai-app-test-key', ANTHROPIC_API_KEY: 'sk-ant-app-test-key' };
const PULL_URL = `https://github.com/${OWNER}/${REPO}/pull/${PR}`;
const GITHUB_LIMIT = 65_536;

const BASE_TEXT = [
  '// greet.ts',
  "export const GREETING = 'Hello';",
  'export const MAX = 3;',
  '',
  'export function greet(name: string): string {',
  '  return `${GREETING}, ${name}`;',
  '}',
  '',
  'export function repeat(name: string): string[] {',
  '  return Array.from({ length: MAX }, () => greet(name));',
  '}',
  '',
  'export function shout(name: string): string {',
  '  return greet(name).toUpperCase();',
  '}',
  '',
  'export function whisper(name: string): string {',
  '  return greet(name).toLowerCase();',
  '}',
  '// end',
  '',
].join('\n');
/** The PR: line 3 changed, `wave()` added as lines 20–23; `git diff` shows lines 1–6 and 17–24, not 7–16. */
const HEAD_TEXT = BASE_TEXT.replace('MAX = 3;', 'MAX = 30;').replace(
  '}\n// end',
  '}\n\nexport function wave(name: string): string {\n  return `${name} o/`;\n}\n// end',
);

const WAVE = {
  title: 'wave() ignores the greeting',
  severity: 'major',
  file: 'src/greet.ts',
  line: 22,
  minimum_fix: 'Greet with GREETING.',
};
const FLOOD = {
  title: 'MAX = 30 floods the output',
  severity: 'critical',
  file: 'src/greet.ts',
  line: 3,
  minimum_fix: 'Keep MAX at 3.',
};
const REPEAT = {
  title: 'repeat() greets again for every copy',
  severity: 'minor',
  file: 'src/greet.ts',
  line: 10,
  minimum_fix: 'Greet once.',
};
const EDITS = {
  summary: 'three fixes',
  edits: [
    { path: 'src/greet.ts', old_string: 'MAX = 30;', new_string: 'MAX = 3;' },
    {
      path: 'src/greet.ts',
      old_string: '  return Array.from({ length: MAX }, () => greet(name));',
      new_string: '  const line = greet(name);\n  return Array.from({ length: MAX }, () => line);',
    },
    {
      path: 'src/greet.ts',
      old_string: '  return `${name} o/`;',
      new_string: '  return `${GREETING}, ${name} o/`;',
    },
  ],
};

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Every body the App wrote on the pull request and its issue, each named by where it went. */
function everyBody(fake: FakePull): Array<{ where: string; text: string }> {
  return [
    ...fake.reviews.flatMap((review, i) => [
      { where: `review ${i + 1}`, text: String(review.body) },
      ...(review.comments ?? []).map((c: any, j: number) => ({
        where: `review ${i + 1} comment ${j + 1}`,
        text: c.body,
      })),
    ]),
    ...fake.comments.map((c) => ({ where: `comment ${c.id}`, text: c.body })),
    ...fake.checkRequests.flatMap((r) =>
      r.body.output
        ? [
            {
              where: `check ${r.id} ${r.kind}`,
              text: [r.body.output.title, r.body.output.summary, r.body.output.text ?? ''].join('\n'),
            },
          ]
        : [],
    ),
    ...fake.issues.flatMap((issue) => [
      { where: `issue ${issue.number}`, text: `${issue.title}\n${issue.body}` },
      ...issue.comments.map((text) => ({ where: `issue ${issue.number} comment`, text })),
    ]),
  ];
}

/** What a reader sees: hidden comments (state, markers) are not shown. */
const visible = (text: string) => text.replace(/<!--[\s\S]*?-->/g, '');

describe('a whole loop as the author reads it', () => {
  it('two manual rounds with one-click suggestions, then a give-up: plain words, severity, links, inert, bounded', async () => {
    await wholeLoop({});
  });

  it('the same loop with the shared state and the loop queue in Redis (BullMQ): the same bodies, nothing twice', async () => {
    const redis = await startRedis();
    try {
      await wholeLoop({ redisUrl: redis.url });
    } finally {
      await redis.stop();
    }
  });
});

/** The loop, with the App's shared state in memory (no options) or in Redis. */
async function wholeLoop(options: { redisUrl?: string }): Promise<void> {
  const fake = new FakePull({
    base: { 'README.md': README, 'src/greet.ts': BASE_TEXT },
    head: { 'README.md': README, 'src/greet.ts': HEAD_TEXT },
    gitDiffs: true,
  });
  const mock = fake.interceptBase();
  fake.interceptReads(mock);
  fake.interceptThreads(mock);
  fake.interceptParkIssues(mock);
  openaiReply(reviewAnswer(4, 'not ready', [WAVE, REPEAT, FLOOD]));
  anthropicReply(EDITS);
  const { probot, queue } = await startTestApp(
    createLoopRunner(MODEL_KEYS, {
      models: { retryHooks: { sleep: async () => {}, random: () => 0 }, retry: { baseDelayMs: 1 } },
      clock: () => NOW,
    }),
    undefined,
    options,
  );

  await probot.receive({
    id: 'c1',
    name: 'issue_comment',
    payload: commentPayload({ body: '/review-loop fix: manual rounds: 2', commentId: 101 }),
  });
  await queue.idle();
  expect(fake.head).toBe('a'.repeat(40)); // manual: nothing pushed

  // the author applies the two suggestions and pushes; round 2 still finds repeat() and gives up
  const pushed = fake.push({
    'src/greet.ts': HEAD_TEXT.replace('MAX = 30;', 'MAX = 3;').replace(
      '${name} o/',
      '${GREETING}, ${name} o/',
    ),
  });
  openaiReply(
    reviewAnswer(5, 'not ready', [REPEAT, { ...FLOOD, title: 'MAX = 30 still floods the output' }]),
  );
  await probot.receive({
    id: 'p1',
    name: 'pull_request',
    payload: pullRequestPayload('synchronize', { head: pushed }),
  });
  await queue.idle();

  expect(fake.reviews).toHaveLength(2);
  expect(fake.issues).toHaveLength(1);
  expect(fake.checks.at(-1)).toMatchObject({ head_sha: pushed, conclusion: 'failure' });

  // suggestion blocks on exactly the lines they replace (3 and 22 are in the diff; 10 is not)
  const [first, second] = fake.reviews;
  const suggestions = first.comments.filter((c: any) => c.body.includes('```suggestion'));
  expect(suggestions.map((c: any) => [c.line, c.side, c.start_line])).toEqual([
    [3, 'RIGHT', undefined],
    [22, 'RIGHT', undefined],
  ]);
  expect(suggestions[0].body).toContain('```suggestion\nexport const MAX = 3;\n```');
  expect(suggestions[1].body).toContain('```suggestion\n  return `${GREETING}, ${name} o/`;\n```');
  // the fix outside the diff is listed with its file and a diff
  expect(first.body).toContain(
    '```diff\n@@ -10,1 +10,2 @@\n-  return Array.from({ length: MAX }, () => greet(name));\n+  const line = greet(name);\n+  return Array.from({ length: MAX }, () => line);\n```',
  );
  // findings on changed lines are inline comments; the one on line 10 is not
  const findings = first.comments.filter((c: any) => !c.body.includes('```suggestion'));
  expect(findings.map((c: any) => c.line)).toEqual([22, 3]);

  // links into the PR's diff, severity on every finding (body and inline)
  const anchor = createHash('sha256').update('src/greet.ts').digest('hex');
  expect(first.body).toContain(`[src/greet.ts:10](${PULL_URL}/files#diff-${anchor}R10)`);
  expect(first.body).toContain(`[src/greet.ts:22](${PULL_URL}/files#diff-${anchor}R22)`);
  for (const [body, severity] of [
    [first.body, '**major** · wave() ignores the greeting'],
    [first.body, '**minor** · repeat() greets again for every copy'],
    [first.body, '**critical** · MAX = 30 floods the output'],
    [second.body, '**minor** · repeat() greets again for every copy'],
    [findings[0].body, '**major** · wave() ignores the greeting'],
    [findings[1].body, '**critical** · MAX = 30 floods the output'],
  ]) {
    expect(body).toContain(severity);
  }
  // the reviewer's memory stays out of the review, even out of the folded answer
  expect(first.body).not.toContain('memory_update');
  // nothing said twice: the sticky status and the check summaries each say a thing once
  const sticky = visible(fake.sticky()!.body);
  expect(sticky).toContain('Gave up');
  expect(sticky.match(/changes still requested/gi)).toHaveLength(1);
  for (const check of fake.checks) {
    expect(check.summary.match(/\d+\/10, not ready/g)?.length ?? 0, check.title).toBeLessThanOrEqual(1);
  }
  expect(sticky).not.toContain('waiting for a fix'); // round 2 was the last: no fix was awaited
  // round 2 no longer raises wave(): its thread is resolved; MAX still stands, so its thread stays open
  expect(fake.resolvedThreads).toEqual(['PRRT_0_0']);

  const bodies = everyBody(fake);
  expect(bodies.length).toBeGreaterThan(10);
  for (const { where, text } of bodies) {
    // plain words: none of the engine's terms on the pull request
    expect(visible(text), where).not.toMatch(/acquit|receipt/i);
    // Markdown is Markdown: no ```text fence around it
    expect(text, where).not.toContain('```text');
    expect(text, where).not.toMatch(/\(s\)/);
    expect(text.length, where).toBeLessThan(GITHUB_LIMIT);
  }
  expect(mock.pendingMocks()).toStrictEqual([]);
  expect(nock.pendingMocks()).toStrictEqual([]);
  await queue.close(5_000);
}
