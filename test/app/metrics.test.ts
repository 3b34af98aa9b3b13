/**
 * The `/metrics` text (src/app/metrics.ts) and the figures behind it (src/app/monitoring.ts): Prometheus
 * exposition format 0.0.4, byte for byte; the kind of each GitHub request; the queue's figures read from
 * whichever queue the App runs; and the counting of writes on a real Octokit whose requests nock answers.
 */
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { Counter, renderMetrics } from '../../src/app/metrics.js';
import { AppMetrics, queueFigures, writeKindOf } from '../../src/app/monitoring.js';
import { API, OWNER, PR, REPO } from '../helpers/app-fixtures.js';

afterEach(() => {
  nock.cleanAll();
});

describe('renderMetrics', () => {
  it('writes HELP, TYPE and one line per sample, labels quoted, ending in a line feed', () => {
    const text = renderMetrics([
      { name: 'a_total', help: 'Things done.', type: 'counter', samples: [{ value: 3 }] },
      {
        name: 'b',
        help: 'By kind.',
        type: 'gauge',
        samples: [
          { labels: { kind: 'x' }, value: 1.5 },
          { labels: { kind: 'y', side: 'z' }, value: 0 },
        ],
      },
    ]);
    expect(text).toBe(
      [
        '# HELP a_total Things done.',
        '# TYPE a_total counter',
        'a_total 3',
        '# HELP b By kind.',
        '# TYPE b gauge',
        'b{kind="x"} 1.5',
        'b{kind="y",side="z"} 0',
        '',
      ].join('\n'),
    );
  });

  it('escapes backslashes and line feeds in HELP, and quotes too in label values; writes NaN and infinities as Prometheus reads them', () => {
    const text = renderMetrics([
      {
        name: 'c',
        help: 'a\\b\nc',
        type: 'gauge',
        samples: [
          { labels: { v: 'say "hi"\\\n' }, value: Number.NaN },
          { value: Infinity },
          { value: -Infinity },
        ],
      },
    ]);
    expect(text.split('\n')).toStrictEqual([
      '# HELP c a\\\\b\\nc',
      '# TYPE c gauge',
      'c{v="say \\"hi\\"\\\\\\n"} NaN',
      'c +Inf',
      'c -Inf',
      '',
    ]);
  });

  it('shows a family with no sample by its HELP and TYPE alone, and nothing at all for no family', () => {
    expect(renderMetrics([{ name: 'd', help: 'h', type: 'gauge', samples: [] }])).toBe(
      '# HELP d h\n# TYPE d gauge\n',
    );
    expect(renderMetrics([])).toBe('');
  });

  it.each([
    [[{ name: '1abc', help: '', type: 'gauge' as const, samples: [] }], /"1abc" is not a metric name/],
    [[{ name: 'a-b', help: '', type: 'gauge' as const, samples: [] }], /"a-b" is not a metric name/],
    [
      [
        {
          name: 'e',
          help: '',
          type: 'gauge' as const,
          samples: [{ labels: { 'bad-label': 'v' }, value: 1 }],
        },
      ],
      /metric e: "bad-label" is not a label name/,
    ],
    [
      [{ name: 'e', help: '', type: 'gauge' as const, samples: [{ labels: { __name__: 'v' }, value: 1 }] }],
      /"__name__" is not a label name/,
    ],
    [
      [
        { name: 'f', help: '', type: 'gauge' as const, samples: [] },
        { name: 'f', help: '', type: 'gauge' as const, samples: [] },
      ],
      /metric f is given twice/,
    ],
    [
      [{ name: 'g_total', help: '', type: 'counter' as const, samples: [{ value: -1 }] }],
      /counter g_total has the value -1/,
    ],
  ])('refuses what Prometheus would not parse (%#)', (families, message) => {
    expect(() => renderMetrics(families)).toThrow(message);
  });
});

describe('Counter', () => {
  it('counts per label, shows the known labels at 0 before their first increase, and never goes down', () => {
    const counter = new Counter('w_total', 'Writes.', 'kind', ['review', 'comment']);
    counter.inc('review');
    counter.inc('review', 2);
    counter.inc('other');
    expect(counter.value('review')).toBe(3);
    expect(counter.family().samples).toStrictEqual([
      { labels: { kind: 'review' }, value: 3 },
      { labels: { kind: 'comment' }, value: 0 },
      { labels: { kind: 'other' }, value: 1 },
    ]);
    expect(() => counter.inc('review', -1)).toThrow(/cannot be increased by -1/);
    const plain = new Counter('r_total', 'Rounds.');
    expect(plain.family().samples).toStrictEqual([{ value: 0 }]);
  });
});

describe('writeKindOf', () => {
  it.each([
    ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', undefined, 'review'],
    ['POST', `/repos/${OWNER}/${REPO}/pulls/7/reviews`, undefined, 'review'],
    ['POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', undefined, 'comment'],
    ['PATCH', '/repos/o/r/issues/comments/55', undefined, 'comment edit'],
    ['POST', '/repos/o/r/issues/comments/55/reactions', undefined, 'reaction'],
    ['POST', '/repos/o/r/check-runs', undefined, 'check-run create'],
    ['PATCH', '/repos/o/r/check-runs/9', undefined, 'check-run update'],
    ['POST', '/repos/o/r/git/blobs', undefined, 'git data'],
    ['POST', '/repos/o/r/git/trees', undefined, 'git data'],
    ['POST', '/repos/o/r/git/commits', undefined, 'git data'],
    ['PATCH', '/repos/o/r/git/refs/heads%2Fpr-1', undefined, 'branch move'],
    ['POST', '/repos/o/r/issues', undefined, 'issue'],
    ['POST', '/app/installations/1/access_tokens', undefined, 'installation token'],
    ['POST', '/graphql', { query: 'mutation($id: ID!) { resolveReviewThread }' }, 'graphql mutation'],
    ['POST', '/graphql', { query: 'query { viewer { login } }' }, undefined],
    ['GET', '/repos/o/r/pulls/7/reviews', undefined, undefined],
    ['PUT', '/repos/o/r/something', undefined, 'other'],
  ])('%s %s is %s', (method, url, body, kind) => {
    expect(writeKindOf(method, url, body)).toBe(kind);
  });
});

describe('queueFigures', () => {
  const figures = { running: 2, waiting: 5, claimed: 7 };

  it("reads the shared queue's asynchronous snapshot() first, the in-memory queue's stats otherwise", async () => {
    const shared = { snapshot: async () => figures, stats: { running: 0, waiting: 0, claimed: 0 } };
    await expect(queueFigures(shared)).resolves.toStrictEqual(figures);
    await expect(queueFigures({ stats: figures })).resolves.toStrictEqual(figures);
    await expect(queueFigures({})).rejects.toThrow(/neither snapshot\(\) nor stats/);
  });
});

describe('AppMetrics on a real Octokit', () => {
  it('counts the writes GitHub accepted by kind, a posted review as a completed round, and no read', async () => {
    const metrics = new AppMetrics();
    const Octokit = ProbotOctokit.plugin(metrics.octokitPlugin);
    const octokit = new Octokit({
      auth: 'ghs_test_token',
      throttle: { enabled: false },
      retry: { enabled: false },
      request: { fetch: globalThis.fetch },
    });
    const mock = nock(API)
      .post(`/repos/${OWNER}/${REPO}/pulls/${PR}/reviews`)
      .reply(200, { id: 1 })
      .get(`/repos/${OWNER}/${REPO}/pulls/${PR}/reviews`)
      .reply(200, [])
      .post(`/repos/${OWNER}/${REPO}/check-runs`)
      .reply(500, { message: 'boom' })
      .post('/graphql')
      .reply(200, { data: { viewer: { login: 'x' } } })
      .post('/graphql')
      .reply(200, { data: { resolveReviewThread: { thread: { id: 't' } } } });

    const repo = { owner: OWNER, repo: REPO };
    await octokit.rest.pulls.createReview({ ...repo, pull_number: PR, body: 'round 1', event: 'COMMENT' });
    await octokit.rest.pulls.listReviews({ ...repo, pull_number: PR });
    await expect(
      octokit.rest.checks.create({ ...repo, name: 'review-loop', head_sha: 'a'.repeat(40) }),
    ).rejects.toThrow();
    await octokit.graphql('query { viewer { login } }');
    await octokit.graphql(
      'mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }',
      {
        id: 't',
      },
    );

    expect(metrics.rounds.value()).toBe(1);
    expect(metrics.writes.value('review')).toBe(1);
    // A write GitHub refused was not carried out: not counted.
    expect(metrics.writes.value('check-run create')).toBe(0);
    expect(metrics.writes.value('graphql mutation')).toBe(1);
    const total = metrics.writes.family().samples.reduce((sum, sample) => sum + sample.value, 0);
    expect(total).toBe(2);
    expect(mock.pendingMocks()).toStrictEqual([]);
  });
});
