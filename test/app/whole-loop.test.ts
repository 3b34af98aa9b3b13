/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * Issue 20's acceptance test: a whole two-round loop in manual mode that gives up, under Probot with the
 * real engine — GitHub (REST and GraphQL) and the model APIs intercepted by nock at the HTTP layer, the
 * PR's patches real `git diff` hunks. Every body the App posted (reviews, inline comments, the sticky
 * comment and replies, check-run output, the park issue) is collected and read as the author would.
 * Issue 27 adds a four-round `fix: auto` loop whose findings stand across rounds: each finding keeps one
 * thread, each head gets one review, no review carries the model's raw answer, and every edit of the
 * sticky comment changes what it shows.
 */
import { createHash } from 'node:crypto';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWeaknessMarker } from '../../src/github/review/review-body.js';
import {
  HEAD,
  OWNER,
  PR,
  REPO,
  commentPayload,
  pullRequestPayload,
  startTestApp,
  engineRunner,
} from '../helpers/app-fixtures.js';
import { FakePull } from '../helpers/fake-pull.js';
import { startRedis } from '../helpers/redis-server.js';
import {
  checkAnswer,
  README,
  anthropicReply,
  openaiReply,
  reviewAnswer,
} from '../helpers/review-fixtures.js';

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
  openaiReply(checkAnswer(true, true, true)); // the finding check; round 2 raises only findings it confirmed
  anthropicReply(EDITS);
  const { probot, queue } = await startTestApp(engineRunner(), undefined, options);

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

/** The App's finding threads: every inline comment that opens with a finding marker, with its review. */
function findingThreads(fake: FakePull): Array<{ id: string; review: number; title: string; line: number }> {
  return fake.reviews.flatMap((review, i) =>
    (review.comments ?? []).flatMap((c: any, j: number) => {
      const finding = parseWeaknessMarker(c.body);
      return finding ? [{ id: `PRRT_${i}_${j}`, review: i + 1, title: finding.title, line: c.line }] : [];
    }),
  );
}

describe('four rounds with findings that stand (issue 27)', () => {
  it('one thread per finding, one review per head, no raw answer in a review, no sticky edit that shows nothing new', async () => {
    const fake = new FakePull({
      base: { 'README.md': README, 'src/greet.ts': BASE_TEXT },
      head: { 'README.md': README, 'src/greet.ts': HEAD_TEXT },
      gitDiffs: true,
    });
    const mock = fake.interceptBase();
    fake.interceptReads(mock);
    fake.interceptThreads(mock);
    fake.interceptGitData(mock);
    fake.interceptParkIssues(mock);
    // wave()'s thread (the first inline comment of round 1) gets an answer that dismisses nothing
    fake.threadAnswers.set('PRRT_0_0', [
      { login: 'maintainer', association: 'MEMBER', body: 'The greeting is optional for wave(), I think.' },
    ]);
    const DOC = {
      title: 'wave() has no doc comment',
      severity: 'minor',
      file: 'src/greet.ts',
      line: 21,
      minimum_fix: 'Say what wave() returns.',
    };
    // round 1: three findings; the executor fixes MAX
    openaiReply(reviewAnswer(4, 'not ready', [WAVE, FLOOD, REPEAT]));
    openaiReply(checkAnswer(true, true, true)); // the finding check
    anthropicReply({ summary: 'MAX', edits: [EDITS.edits[0]] });
    // round 2: wave() stands (worded afresh), MAX is gone, a new finding; the executor adds the doc comment
    openaiReply(
      reviewAnswer(5, 'not ready', [{ ...WAVE, title: 'wave() still ignores the greeting' }, REPEAT, DOC]),
    );
    openaiReply(checkAnswer(true)); // the finding check: only DOC is new (the others were confirmed)
    anthropicReply({
      summary: 'doc',
      edits: [
        {
          path: 'src/greet.ts',
          old_string: 'export function wave',
          new_string: '/** Waves at someone. */\nexport function wave',
        },
      ],
    });
    // round 3: wave() stands one line lower (the doc comment moved it), worded afresh again; the executor
    // fixes repeat() and sends one edit that does not apply
    openaiReply(
      reviewAnswer(5, 'not ready', [{ ...WAVE, title: 'wave() ignores GREETING', line: 23 }, REPEAT]),
    );
    anthropicReply({
      summary: 'repeat',
      edits: [EDITS.edits[1], { path: 'src/greet.ts', old_string: 'no such text', new_string: 'x' }],
    });
    // round 4, the last: wave() still stands
    openaiReply(reviewAnswer(5, 'not ready', [{ ...WAVE, line: 23 }]));
    const { probot, queue } = await startTestApp(engineRunner());

    await probot.receive({
      id: 'c1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop rounds: 4', commentId: 101 }),
    });
    await queue.idle();

    // four rounds, each on its own head: reviews per head ≤ 1
    expect(fake.reviews).toHaveLength(4);
    const heads = fake.reviews.map((r) => r.commit_id);
    expect(heads[0]).toBe(HEAD);
    expect(new Set(heads).size).toBe(4);
    expect(fake.checks.at(-1)).toMatchObject({ head_sha: fake.head, conclusion: 'failure' });

    // threads = distinct findings on lines of the diff: wave(), MAX (round 1), the doc comment (round 2)
    expect(findingThreads(fake).map((t) => [t.review, t.title])).toEqual([
      [1, 'wave() ignores the greeting'],
      [1, 'MAX = 30 floods the output'],
      [2, 'wave() has no doc comment'],
    ]);
    // MAX's thread resolved in round 2, the doc comment's in round 3; wave()'s stays open
    expect(fake.resolvedThreads).toEqual(['PRRT_0_1', 'PRRT_1_0']);
    expect(fake.reopenedThreads).toEqual([]);
    // one short reply, in round 2, to the person who answered; rounds 3 and 4 had nothing new to say
    const replies = (fake.threadAnswers.get('PRRT_0_0') ?? []).filter((a) => a.byApp);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toMatch(/^Round 2 still raises this on `[0-9a-f]{7}`/);
    expect(replies[0]!.body.length).toBeLessThan(400);

    // a standing finding is not new in the review: it says since when and links its thread
    const last = String(fake.reviews[3].body);
    expect(last).toMatch(/1\. \*\*major\*\* · wave\(\) ignores the greeting .*open since round 1/);
    expect(last).toContain(`(${PULL_URL}#discussion_PRRT_0_0)`);
    expect(fake.reviews[3].comments ?? []).toEqual([]);

    // no raw model answer in any review body
    for (const [i, review] of fake.reviews.entries()) {
      const body = String(review.body);
      expect(body, `review ${i + 1}`).not.toMatch(/"score"\s*:|"weaknesses"\s*:|memory_update|```json/);
      expect(body, `review ${i + 1}`).not.toContain('<details>');
    }

    // every edit of the sticky comment changes what it shows
    const shown = fake.stickyWrites.map(visible);
    expect(shown.length).toBeGreaterThan(2);
    shown.slice(1).forEach((text, i) => expect(text, `sticky write ${i + 2}`).not.toBe(shown[i]));
    expect(visible(fake.sticky()!.body)).toContain('Gave up');

    expect(mock.pendingMocks()).toStrictEqual([]);
    expect(nock.pendingMocks()).toStrictEqual([]);
    await queue.close(5_000);
  });
});
