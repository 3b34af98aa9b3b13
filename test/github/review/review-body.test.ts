/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * A round's PR review as the author reads it: plain words, severity, links into the diff, the summary
 * first, no reviewer memory and no raw model answer, a standing finding linked to its thread, the debate
 * as Markdown, the round's time and cost — and, in manual mode, the executor's fixes as suggested changes
 * on exactly the lines a real unified-diff patch makes commentable.
 */
import { createHash } from 'node:crypto';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoundReviewView } from '../../../src/github/review/review-body.js';
import {
  parseRoundBlock,
  parseWeaknessMarker,
  renderInlineNote,
  renderRoundReview,
} from '../../../src/github/review/review-body.js';
import { postRoundReview } from '../../../src/github/review/round-review.js';
import { API, HEAD, OWNER, PR, REPO, REPO_PATH } from '../../helpers/app-fixtures.js';

const octokit = new ProbotOctokit({
  auth: { token: 't' },
  retry: { enabled: false },
  throttle: { enabled: false },
});
const pr = { owner: OWNER, repo: REPO, number: PR };
const PULL_URL = `https://github.com/${OWNER}/${REPO}/pull/${PR}`;

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/**
 * `git diff` of src/a.ts: line 3 changed and lines 20–21 added, in two hunks with three lines of context —
 * lines 7–16 are outside every hunk.
 */
const PATCH = [
  '@@ -1,6 +1,6 @@',
  ' import x from "x";',
  ' ',
  '-const limit = 10;',
  '+const limit = 11;',
  ' ',
  ' export function run() {',
  '   for (let i = 0; i < limit; i++) {',
  '@@ -17,4 +17,6 @@ export function run() {',
  '   }',
  ' }',
  ' ',
  '+export function stop() {',
  '+}',
  ' // end',
].join('\n');

const view: RoundReviewView = {
  runId: 'run_20260301_0000beef',
  round: 2,
  maxRounds: 4,
  headSha: HEAD,
  reviewerModel: 'openai:gpt-5',
  pullUrl: PULL_URL,
  score: 4,
  verdict: 'not ready',
  decision: 'changes requested',
  summary: 'The loop bound is off by one; the rest holds up.',
  weaknesses: [
    {
      rank: 1,
      title: 'Off by one in the loop',
      severity: 'critical',
      detail: 'limit is 11 but the array has 10 items.',
      minimumFix: 'Set limit back to 10.',
      effort: 'trivial',
      path: 'src/a.ts',
      line: 3,
    },
    {
      rank: 2,
      title: 'Untested stop()',
      severity: 'minor',
      minimumFix: 'Add a test.',
      path: 'src/a.ts',
      line: 9,
    },
  ],
  debate: {
    entries: [
      {
        weakness: 2,
        title: 'Untested stop()',
        stance: 'reject',
        argument: 'stop() is covered by the smoke test.',
        evidence: 'test/smoke.test.ts',
        ruling: { ruling: 'rejected', reason: 'The smoke test never calls it.', required: 'A unit test.' },
      },
    ],
    resolved: [],
  },
  seconds: 83.4,
  usage: { calls: 3, tokens: 18_305, costUsd: 0.0731 },
};

const anchor = (path: string) => `diff-${createHash('sha256').update(path).digest('hex')}`;

describe('a round review in a reviewer’s words', () => {
  const body = renderRoundReview(view);

  it('leads with the decision and the summary, says the pass rule once, and shows time and cost', () => {
    const lines = body.split('\n');
    // filed as a comment (the default): the heading names no GitHub review state
    expect(lines[0]).toBe('### Round 2 of 4: changes needed (4/10, not ready)');
    expect(renderRoundReview({ ...view, filed: 'approve' }).split('\n')[0]).toBe(
      '### Round 2 of 4: changes requested (4/10, not ready)',
    );
    expect(lines[2]).toBe('The loop bound is off by one; the rest holds up.');
    expect(
      body.match(
        /passes at ≥ 6\/10 with the verdict ready or almost, no critical or major finding left, and a fresh second review that finds none\./g,
      ),
    ).toHaveLength(1);
    expect(body).toContain('1 min 23 s · 3 model calls · 18,305 tokens · $0.0731');
    expect(body).toContain('#### 2 open weaknesses');
    expect(body).not.toMatch(/\(s\)/);
  });

  it('shows every weakness with its severity and its file:line as a link into the PR’s diff', () => {
    expect(body).toContain(
      `1. **critical** · Off by one in the loop — [src/a.ts:3](${PULL_URL}/files#${anchor('src/a.ts')}R3) · effort: trivial`,
    );
    expect(body).toContain('   limit is 11 but the array has 10 items.');
    expect(body).toContain(
      `2. **minor** · Untested stop() — [src/a.ts:9](${PULL_URL}/files#${anchor('src/a.ts')}R9)`,
    );
  });

  it('keeps the reviewer’s memory and its raw answer out of the body: every field is said in words', () => {
    expect(body).not.toMatch(/Memory update|memory_update/i);
    expect(body).not.toContain('<details>');
    expect(body).not.toMatch(/```json|"score"\s*:|"verdict"\s*:/);
  });

  it('says since when a standing finding is open and links its thread, which only GitHub’s address may be', () => {
    const [first, second] = view.weaknesses;
    const standing = renderRoundReview({
      ...view,
      weaknesses: [
        { ...first!, thread: { url: `${PULL_URL}#discussion_r101`, since: 1 } },
        { ...second!, thread: { url: 'javascript:alert(1)', since: 2 } },
      ],
    });
    expect(standing).toContain(
      `1. **critical** · Off by one in the loop — [src/a.ts:3](${PULL_URL}/files#${anchor('src/a.ts')}R3) · effort: trivial · open since round 1 ([thread](${PULL_URL}#discussion_r101))`,
    );
    expect(standing).toContain('R9) · open since round 2\n');
    expect(standing).not.toContain('javascript');
    // a new finding says nothing of the kind
    expect(body).not.toContain('open since');
  });

  it('marks an inline finding comment with its round, rank, title, file and line for later rounds', () => {
    const note = renderInlineNote(view.weaknesses[0]!, 0, 2);
    expect(parseWeaknessMarker(note)).toEqual({
      round: 2,
      rank: 1,
      title: 'Off by one in the loop',
      file: 'src/a.ts',
      line: 3,
    });
    // a marker written before the line was kept still reads, without one
    const old = `<!-- skillclimb:review-loop-weakness r=1 n=2 k=${Buffer.from(JSON.stringify({ t: 'x', f: null })).toString('base64')} -->`;
    expect(parseWeaknessMarker(old)).toEqual({ round: 1, rank: 2, title: 'x', file: null, line: null });
  });

  it('renders the debate as Markdown, never as source in a text fence', () => {
    expect(body).not.toContain('```text');
    expect(body).toContain('#### Debate');
    expect(body).toContain('**Weakness 2: Untested stop()**');
    expect(body).toContain(
      '- The reviewer: rejected — The smoke test never calls it. Still needed: A unit test.',
    );
  });

  it('uses no term of the engine: no acquittal, no receipt', () => {
    const approved = renderRoundReview({
      ...view,
      score: 8,
      verdict: 'ready',
      decision: 'approved',
      weaknesses: [],
    });
    expect(approved.split('\n')[0]).toBe('### Round 2 of 4: passed (8/10, ready)');
    const filed = renderRoundReview({
      ...view,
      score: 8,
      verdict: 'ready',
      decision: 'approved',
      weaknesses: [],
      filed: 'approve',
    });
    expect(filed.split('\n')[0]).toBe('### Round 2 of 4: approved (8/10, ready)');
    for (const text of [body, approved, filed]) expect(text).not.toMatch(/acquit|receipt/i);
  });
});

describe('one-click suggestions (manual mode)', () => {
  it('posts a fix inside the diff as a suggested change on its lines, and lists one outside with its diff', async () => {
    let posted: any;
    const mock = nock(API)
      .get(`${REPO_PATH}/pulls/${PR}/files`)
      .query(true)
      .reply(200, [{ filename: 'src/a.ts', patch: PATCH }])
      .post(`${REPO_PATH}/pulls/${PR}/reviews`, (b) => ((posted = b), true))
      .reply(200, { id: 10, html_url: 'u' });
    const manual: RoundReviewView = {
      ...view,
      proposed: [
        {
          path: 'src/a.ts',
          startLine: 3,
          endLine: 3,
          oldLines: ['const limit = 11;'],
          newLines: ['const limit = 10;'],
        },
        {
          path: 'src/a.ts',
          startLine: 20,
          endLine: 21,
          oldLines: ['export function stop() {', '}'],
          newLines: ['export function stop(): void {', '  running = false;', '}'],
        },
        // lines 8–9 lie between the hunks: GitHub cannot take a suggestion there
        { path: 'src/a.ts', startLine: 8, endLine: 9, oldLines: ['a', 'b'], newLines: ['c'] },
      ],
    };
    const result = await postRoundReview(octokit, pr, manual);
    expect(result).toMatchObject({ inline: 3, fellBack: false });
    const suggestions = posted.comments.filter((c: any) => c.body.includes('```suggestion'));
    expect(suggestions).toEqual([
      expect.objectContaining({ path: 'src/a.ts', line: 3, side: 'RIGHT' }),
      expect.objectContaining({
        path: 'src/a.ts',
        start_line: 20,
        start_side: 'RIGHT',
        line: 21,
        side: 'RIGHT',
      }),
    ]);
    expect(suggestions[0].start_line).toBeUndefined();
    expect(suggestions[0].body).toContain('```suggestion\nconst limit = 10;\n```');
    expect(suggestions[1].body).toContain(
      '```suggestion\nexport function stop(): void {\n  running = false;\n}\n```',
    );
    // the weakness on line 3 is an inline comment too; the one on line 9 (outside the hunks) stays in the body
    expect(posted.comments.filter((c: any) => !c.body.includes('```suggestion'))).toEqual([
      expect.objectContaining({ path: 'src/a.ts', line: 3, side: 'RIGHT' }),
    ]);
    expect(posted.body).toContain('2 suggested changes sit on the lines they change');
    expect(posted.body).toContain('```diff\n@@ -8,2 +8,1 @@\n-a\n-b\n+c\n```');
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});

describe('the round block a resumed loop reads back', () => {
  const record = {
    round: 2,
    head: HEAD,
    score: 4,
    verdict: 'not ready' as const,
    positive: false,
    summary: 'half() is wrong.',
    weaknesses: [
      {
        rank: 1,
        title: 'the key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 is in the config',
        severity: 'major' as const,
        detail: 'd'.repeat(5000),
        minimum_fix: 'Remove it.',
        effort: 'small' as const,
        file: 'src/calc.ts',
        line: 6,
        source: 'reviewer' as const,
        resolved_by_debate: false,
      },
    ],
  };

  it('is the body’s last line, decodes to the round with its findings bounded and redacted, and leaves the heading first', () => {
    const body = renderRoundReview({ ...view, round: 2, record });
    expect(body.split('\n')[0]).toMatch(/^### Round 2 of /);
    expect(body.split('\n').at(-1)).toMatch(/^<!-- skillclimb:review-loop-round [A-Za-z0-9+/=]+ -->$/);
    const read = parseRoundBlock(body);
    expect(read?.runId).toBe(view.runId);
    expect(read?.record).toMatchObject({ round: 2, head: HEAD, score: 4, positive: false });
    expect(read?.record.weaknesses[0]!.title).not.toContain('sk-ant-api03');
    expect(read?.record.weaknesses[0]!.detail.length).toBeLessThanOrEqual(800);
    expect(parseRoundBlock(body.replace(/review-loop-round [A-Za-z0-9+/=]+/, 'review-loop-round e30='))).toBe(
      undefined,
    );
  });
});
