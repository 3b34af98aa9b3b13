import { decodeReferences, HOSTILE, liveParts } from '../../helpers/markdown-liveness.js';
import { describe, expect, it } from 'vitest';
import {
  formatPullRequestMarker,
  hasParkMarker,
  parkMarker,
  parsePullRequestMarker,
} from '../../../src/github/markers.js';
import { buildPullRequestBody } from '../../../src/github/action/pr-body.js';
import { latestRunRows, renderScoreChart, scorePoints } from '../../../src/github/action/score-chart.js';
import { ROWS, shipRequest } from '../../helpers/github-fixtures.js';

const RUN_URL = 'https://github.com/acme/skills/actions/runs/42';

/** The body without what skillclimb itself makes live: the marker line and the link to the workflow run. */
function ownLinksRemoved(text: string): string {
  return text
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('[Workflow run]('))
    .join('\n');
}

function body(overrides = {}) {
  return buildPullRequestBody({
    request: shipRequest(overrides),
    base: 'main',
    runUrl: RUN_URL,
    runId: '42',
    modelsLabel: 'offline (structural scoring only)',
    rebuiltNote: undefined,
  });
}

describe('PR marker', () => {
  it('round-trips the recorded scores through the hidden comment', () => {
    const text = `${formatPullRequestMarker({ skill: 'a', baseline: 0.5, final: 0.625, run: '7', commit: 'c0ffee' })}\r\nrest`;
    expect(parsePullRequestMarker(text)).toEqual({
      skill: 'a',
      baseline: 0.5,
      final: 0.625,
      run: '7',
      commit: 'c0ffee',
    });
  });

  it('reads the PR marker only from the first line', () => {
    const marker = formatPullRequestMarker({ skill: 'a', baseline: 0.5, final: 0.625 });
    expect(parsePullRequestMarker(`intro\n${marker}`)).toBeUndefined();
    expect(parsePullRequestMarker(`${marker} trailing`)).toBeUndefined();
  });

  it('reads nothing from a body without a marker or with a mangled one', () => {
    expect(parsePullRequestMarker('just text')).toBeUndefined();
    expect(parsePullRequestMarker('<!-- skillclimb:pr {"skill": -->')).toBeUndefined();
    expect(parsePullRequestMarker(null)).toBeUndefined();
  });

  it('keeps "--" out of the HTML comment', () => {
    const marker = formatPullRequestMarker({ skill: 'x--y', baseline: 0, final: 1 });
    expect(marker.slice(4, -3)).not.toContain('--');
    expect(parsePullRequestMarker(marker)?.skill).toBe('x--y');
  });

  it('matches the park marker of exactly one skill', () => {
    const issueBody = `${parkMarker('foo')}\n## report`;
    expect(hasParkMarker(issueBody, 'foo')).toBe(true);
    expect(hasParkMarker(issueBody, 'fo')).toBe(false);
    expect(hasParkMarker(`${parkMarker('foo-bar')}\n`, 'foo')).toBe(false);
    // A copy further down (a model-written description quoting the marker) makes nothing a park issue.
    expect(hasParkMarker(`report\n\n${parkMarker('foo')}`, 'foo')).toBe(false);
    expect(hasParkMarker(`x ${parkMarker('foo')}`, 'foo')).toBe(false);
  });
});

describe('score chart', () => {
  it('plots scored iterations of the latest run and the kept high-water mark', () => {
    const older = [
      { ...ROWS[0]!, score: 0.1, commit: 'old0000' },
      { ...ROWS[1]!, score: 0.2 },
    ];
    const rows = [...older, ...ROWS];
    expect(latestRunRows(rows)).toHaveLength(ROWS.length);
    expect(scorePoints(rows)).toEqual([
      { iteration: 0, score: 0.75, kept: 0.75 },
      { iteration: 1, score: 0.8125, kept: 0.8125 },
      { iteration: 2, score: 0.8, kept: 0.8125 },
      { iteration: 4, score: 0.875, kept: 0.875 },
    ]);
    const chart = renderScoreChart('session-wrap', rows)!;
    expect(chart.split('\n')).toEqual([
      '```mermaid',
      'xychart-beta',
      '  title "session-wrap: score per iteration"',
      '  x-axis "iteration" ["0", "1", "2", "4"]',
      '  y-axis "score" 0.7 --> 0.9',
      '  line [0.75, 0.8125, 0.8, 0.875]',
      '  line [0.75, 0.8125, 0.8125, 0.875]',
      '```',
    ]);
  });

  it('draws nothing for a baseline alone', () => {
    expect(renderScoreChart('x', ROWS.slice(0, 1))).toBeUndefined();
  });
});

describe('buildPullRequestBody', () => {
  it('records the scores in the marker for the closed-unmerged rule', () => {
    expect(parsePullRequestMarker(body())).toMatchObject({
      skill: 'session-wrap',
      baseline: 0.75,
      final: 0.875,
      iterations: 4,
      run: '42',
    });
  });

  it('states baseline → final, delta, iterations, lines delta, usage and cost', () => {
    const text = body();
    expect(text).toContain('| Baseline → final | 0.750000 → 0.875000 |');
    expect(text).toContain('| Delta | +0.125000 |');
    expect(text).toContain('| Iterations | 4 |');
    expect(text).toContain('| Lines delta | -2 (40 → 38) |');
    expect(text).toContain('| Tokens | 12 calls, input 34,567, output 2,345 |');
    expect(text).toContain('| Cost | $0.1234 (estimated) |');
    expect(text).toContain('| Models | offline (structural scoring only) |');
  });

  it('lists each kept edit and every iteration row, escaping table pipes', () => {
    const text = body();
    expect(text).toContain('1. iteration 1 (bbbbbbb, 0.812500, +0.062500): label the fence as bash');
    expect(text).toContain('2. iteration 4 (eeeeeee, 0.875000, +0.062500): split the long line');
    expect(text).toContain('| 1 | bbbbbbb | 0.812500 | keep | label the fence &#124; as bash | 2.000 |');
    expect(text).toContain('| 3 | ddddddd | NULL | crash | timeout | 600.000 |');
  });

  it('renders model-written descriptions as inert text: no mentions, references, images or markers', () => {
    const hostile =
      'Fixes #1 @org/team ![x](https://evil.test/p.png) <!-- skillclimb:pr {"skill":"x","baseline":0,"final":9} --> ``';
    const rows = [{ ...ROWS[1]!, description: hostile }];
    const text = body({
      keptEdits: [{ iteration: 1, commit: 'bbbbbbb', description: hostile, score: 0.9, delta: 0.1 }],
      rows,
    });
    expect(liveParts(ownLinksRemoved(text))).toEqual([]);
    // Shown as the characters it is made of, and the marker the PR is known by is still the real one.
    expect(decodeReferences(text)).toContain('@\u200Dorg/team');
    expect(parsePullRequestMarker(text)).toMatchObject({ skill: 'session-wrap', final: 0.875 });
  });

  it('a 70,000-character hostile kept-edit description stays inert and the body fits (issue 13, item 4)', () => {
    const hostile = `${'x'.repeat(60_000)} ${HOSTILE.join(' ')} ${'y'.repeat(10_000)}`;
    const near = `${'a'.repeat(230)} @octocat @acme/admins Fixes #1 <img src=x onerror=alert(1)> [c](javascript:alert(1))`;
    // First: the hostile text where the old cut left it, inside a code span the cut never closed.
    const first = `${HOSTILE.join(' ')} ${'x'.repeat(70_000 - HOSTILE.join(' ').length - 1)}`;
    expect(first).toHaveLength(70_000);
    for (const description of [first, hostile, near, `\`${hostile}`, hostile.slice(0, 70_000)]) {
      const many = Array.from({ length: 40 }, (_, i) => ({
        iteration: i + 1,
        commit: 'bbbbbbb',
        description,
        score: 0.9,
        delta: 0.1,
      }));
      const rows = Array.from({ length: 500 }, () => ({ ...ROWS[1]!, description }));
      const text = body({ keptEdits: many, rows });
      expect(text.length).toBeLessThan(65_536);
      expect(liveParts(ownLinksRemoved(text))).toEqual([]);
      expect(parsePullRequestMarker(text)).toMatchObject({ skill: 'session-wrap' });
    }
  });

  it('embeds the Mermaid chart and links the workflow run', () => {
    const text = body();
    expect(text).toContain('```mermaid\nxychart-beta');
    expect(text).toContain(`[Workflow run](${RUN_URL})`);
  });

  it('says when the squash was rebuilt on a moved base, and when the provider reports no price', () => {
    const text = buildPullRequestBody({
      request: shipRequest({
        usage: {
          calls: 0,
          inputTokens: 0,
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: null,
        },
      }),
      base: 'main',
      runUrl: undefined,
      runId: undefined,
      modelsLabel: undefined,
      rebuiltNote: 'rebuilt on the new base',
    });
    expect(text).toContain('> rebuilt on the new base');
    expect(text).toContain('| Cost | not reported by the provider |');
    expect(text).not.toContain('Workflow run');
  });

  it('stays under the API limit with a very long run', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      ...ROWS[2]!,
      description: `edit ${i} ${'x'.repeat(200)}`,
    }));
    const text = body({ rows: [ROWS[0]!, ...rows] });
    expect(text.length).toBeLessThanOrEqual(60_000);
    expect(text).toMatch(/more rows in results\.tsv/);
  });
});

describe('PR body: how sure the gain is (issue 19)', () => {
  const measurement = {
    keepRule: 'noise-aware' as const,
    noise: { trials: 3, scores: [0, 0.5, 0], mean: 1 / 6, sd: 0.2887, flipping: [] },
    confirmation: {
      trials: 3,
      baselineScores: [0, 0, 0.5],
      finalScores: [0.5, 0.5, 1],
      baseline: 1 / 6,
      final: 2 / 3,
      gain: 0.5,
      needed: 0.2357,
      low: 0.1123,
      high: 0.8877,
      evidence: [{ assertionId: 1, before: { passes: 0, total: 3 }, after: { passes: 3, total: 3 } }],
      holdout: { before: { passes: 3, total: 6 }, after: { passes: 4, total: 6 } },
    },
    findings: [{ assertionId: 2, kind: 'flaky' as const, evidence: 'verdict changed on 1 of 1' }],
    statements: { '1': 'The output has a | Summary heading.', '2': 'Names the test.' },
  };

  it('shows the confirmed gain with its interval and trials, the evidence table, the holdout and the findings', () => {
    const text = body({ measurement });
    expect(text).toContain('### How sure this is');
    expect(text).toContain(
      '- Confirmed gain: +0.5000 (90 % interval +0.1123 to +0.8877), baseline 0.1667 -> final 0.6667 over 3 fresh trials of each text',
    );
    expect(text).toContain('| #1 "The output has a &#124; Summary heading." | 0 of 3 | 3 of 3 |');
    expect(text).toContain(
      '- Holdout scenarios (never shown to the editor): 3 of 6 -> 4 of 6 passing checks',
    );
    expect(text).toContain('  - #2 "Names the test.": flaky (verdict changed on 1 of 1)');
  });

  it("says when some of the baseline's trials, which the confirmation reused, were drawn on an earlier night", () => {
    const reused = {
      ...measurement,
      baselineStored: { draws: 2, drawnAt: '2026-12-06T02:10:00.000Z' },
      confirmation: { ...measurement.confirmation, reusedBaseline: true },
    };
    expect(body({ measurement })).not.toContain('earlier night');
    const text = body({ measurement: reused });
    expect(text).toContain(
      '(trials: 0.0000, 0.5000, 0.0000); trial 1 was drawn tonight, trials 2 and 3 on an earlier night ' +
        '(2026-12-06) and reused: the SKILL.md, evals, prompts, models and model endpoints are unchanged since',
    );
    expect(text).toContain(
      "and the baseline's 3 trials from before the loop (reused: no selection chose them; 2 of them drawn on " +
        'an earlier night (2026-12-06))',
    );
  });

  it('has no such section without a measurement (the original keep rule with one draw)', () => {
    expect(body()).not.toContain('How sure this is');
  });
});

describe("PR body: the reviewer skill's findings (issue 31 item 3)", () => {
  const base = {
    keepRule: 'noise-aware' as const,
    findings: [],
    statements: {},
  };
  type Finding = {
    kind: 'dismissed' | 'accepted';
    title: string;
    file?: string;
    pr: number;
    before: [number, number];
    after: [number, number];
    holdout?: boolean;
  };
  const feedback = (findings: Finding[]) => ({
    source: 'confirmation' as const,
    findings: findings.map((f, i) => ({
      kind: f.kind,
      title: f.title,
      ...(f.file === undefined ? {} : { file: f.file }),
      pr: f.pr,
      evalId: String(i + 1),
      holdout: f.holdout === true,
      before: { passes: f.before[0], total: f.before[1] },
      after: { passes: f.after[0], total: f.after[1] },
    })),
  });

  it('lists the dismissed findings it stops raising and the accepted ones it still catches, and says what it still raises and misses', () => {
    const text = body({
      measurement: {
        ...base,
        feedback: feedback([
          {
            kind: 'dismissed',
            title: 'Unused import',
            file: 'src/vendor/a.js',
            pr: 12,
            before: [0, 3],
            after: [3, 3],
          },
          {
            kind: 'dismissed',
            title: 'Missing null check',
            file: 'src/api.ts',
            pr: 14,
            before: [2, 3],
            after: [1, 3],
          },
          {
            kind: 'accepted',
            title: 'SQL built from input',
            file: 'src/db.ts',
            pr: 15,
            before: [3, 3],
            after: [2, 3],
          },
          {
            kind: 'accepted',
            title: 'Token in the log',
            pr: 17,
            before: [3, 3],
            after: [0, 3],
            holdout: true,
          },
        ]),
      },
    });
    const section = text.slice(text.indexOf('### Review findings'), text.indexOf('### Kept edits'));
    expect(section).toContain("This skill's evals include 4 findings from code review");
    expect(section).toContain(
      [
        '**Dismissed findings it stops raising**',
        '',
        '| finding | file | pull request | before → after (passes of draws) |',
        '| --- | --- | --- | --- |',
        '| Unused import | src/vendor/a.js | PR 12 | 0 of 3 → 3 of 3 |',
        '',
        'It still raises 1 finding the team dismissed: Missing null check (src/api.ts, PR 14: 2 of 3 → 1 of 3, worse than before).',
      ].join('\n'),
    );
    expect(section).toContain(
      [
        '**Accepted findings it still catches**',
        '',
        '| finding | file | pull request | before → after (passes of draws) |',
        '| --- | --- | --- | --- |',
        '| SQL built from input | src/db.ts | PR 15 | 3 of 3 → 2 of 3 |',
        '',
        'It misses 1 finding the team accepted: Token in the log _(holdout)_ (PR 17: 3 of 3 → 0 of 3, worse than before).',
      ].join('\n'),
    );
  });

  it('keeps the tables bounded and every title inert', () => {
    const many: Finding[] = Array.from({ length: 20 }, (_, i) => ({
      kind: 'dismissed',
      title: HOSTILE[i % HOSTILE.length]!,
      file: `src/${HOSTILE[(i + 1) % HOSTILE.length]!}`,
      pr: 100 + i,
      before: [0, 3],
      after: [3, 3],
    }));
    const text = body({ measurement: { ...base, feedback: feedback(many) } });
    const section = text.slice(text.indexOf('### Review findings'), text.indexOf('### Kept edits'));
    expect(section.split('\n').filter((l) => /\| PR 1\d\d \|/.test(l))).toHaveLength(15);
    expect(section).toContain('_5 more not shown._');
    // Nothing is live: the pull requests are named as plain text (no "mentioned" entry on each), titles and files inert.
    expect(liveParts(section)).toEqual([]);
    expect(section).not.toContain('"kind"');
  });

  it('has no such section for a skill whose evals carry no feedback', () => {
    const text = body({ measurement: { ...base } });
    expect(text).not.toContain('Review findings');
    expect(text).not.toContain('Dismissed findings');
  });
});
