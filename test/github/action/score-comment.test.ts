/** The score comment's body (pure): marker first, the table and sections, inert text, bounded. */
import { describe, expect, it } from 'vitest';
import {
  compareSides,
  type SideMeasurement,
  type SkillComparison,
} from '../../../src/core/iterate/pr-score.js';
import { GITHUB_BODY_LIMIT } from '../../../src/core/text/body-limit.js';
import { firstLine, scoreCommentMarker } from '../../../src/github/markers.js';
import { renderScoreComment, type ScoreCommentInput } from '../../../src/github/action/score-comment.js';
import { HOSTILE, liveParts } from '../../helpers/markdown-liveness.js';

const MARKER = scoreCommentMarker();

/** The body without the renderer's own HTML (the marker, the details wrapper): what is left must be inert. */
function ownHtmlRemoved(body: string): string {
  return body
    .replace(MARKER, '')
    .replace('<details><summary>Per skill</summary>', '')
    .replace('</details>', '')
    .replace(/\[this run\]\([^)]*\)/, '');
}

function side(scores: number[], passes: number[], extra: Partial<SideMeasurement> = {}): SideMeasurement {
  return {
    status: 'ok',
    detail: undefined,
    mode: 'composite',
    scores,
    tallies: passes.map((p, i) => ({
      assertionId: i + 1,
      passes: p,
      total: 3,
      repeatedPairs: 1,
      flippedPairs: 0,
    })),
    ...extra,
  };
}

function comparison(name: string, base: SideMeasurement, head: SideMeasurement): SkillComparison {
  return compareSides({
    skill: { name, repoDir: `.claude/skills/${name}`, change: 'changed' },
    base,
    head,
    margin: 1,
  });
}

function input(comparisons: SkillComparison[], extra: Partial<ScoreCommentInput> = {}): ScoreCommentInput {
  return {
    marker: MARKER,
    comparisons,
    scoring: { kind: 'composite', models: 'anthropic:claude-sonnet-4-5', trials: 3, margin: 1 },
    failOn: 'regression',
    baseSha: 'a'.repeat(40),
    headSha: 'b'.repeat(40),
    runUrl: 'https://github.test/acme/skills/actions/runs/4242',
    ...extra,
  };
}

describe('renderScoreComment', () => {
  it('puts the marker on the first line and shows before → after, the interval, the changed assertions and the uplift', () => {
    const regressed = comparison(
      'pdf',
      side([0.9, 0.91, 0.92], [3, 3], { statements: { '2': 'Names the changed files.' } }),
      side([0.6, 0.61, 0.62], [3, 0], {
        statements: { '2': 'Names the changed files.' },
        uplift: {
          with: { passes: 3, total: 6 },
          without: { passes: 1, total: 2 },
          uplift: 0,
          measurable: false,
          perAssertion: [],
        },
      }),
    );
    const noisy = comparison('calm', side([0.8, 0.7, 0.9], [2, 2]), side([0.75, 0.85, 0.7], [2, 2]));
    const body = renderScoreComment(input([noisy, regressed]));
    expect(firstLine(body)).toBe(MARKER);
    const rows = body.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Skill'));
    // The regression first, whatever the input order.
    expect(rows[0]).toMatch(
      /^\| pdf \| 0\.9100 → 0\.6100 \| -0\.3000 \(90 % interval -0\.\d{4} to -0\.\d{4}\) \| 🔻 regression \|$/,
    );
    expect(rows[1]).toMatch(/^\| calm \| 0\.8000 → 0\.7667 \| .* \| ≈ within noise \|$/);
    expect(body).toContain(
      '- assertion 2 "Names the changed files.": passed 3 of 3 at the base → 0 of 3 at the head',
    );
    expect(body).toContain(
      'Uplift at the head: +0.0 points — checks passed 3 of 6 with the skill, 1 of 2 without it (within the noise).',
    );
    expect(body).toContain('Regressed beyond the noise margin: pdf — the check fails.');
    expect(body).toContain('3 independent draws per side');
    expect(body).toContain('Base aaaaaaa, head bbbbbbb');
    expect(liveParts(ownHtmlRemoved(body))).toEqual([]);
  });

  it('says the check passes under fail-on: never, and gives the structural reason', () => {
    const structural = (s: number): SideMeasurement => ({ ...side([s], []), mode: 'structural' });
    const body = renderScoreComment(
      input([comparison('pdf', structural(0.8), structural(0.7))], {
        failOn: 'never',
        scoring: {
          kind: 'structural',
          models: 'offline',
          trials: 1,
          margin: 1,
          structuralReason: 'This pull request comes from the fork someone/skills: no secrets.',
        },
      }),
    );
    expect(body).toContain(
      '**Structural scores only** (exact: no model grades them). This pull request comes from the fork someone/skills: no secrets.',
    );
    expect(body).toContain('(fail-on: never — the check passes)');
  });

  it('renders every text from the pull request and the models inert', () => {
    const hostile = HOSTILE.join(' ');
    const failed: SideMeasurement = { ...side([], []), status: 'harness-error', detail: hostile };
    const head = side([0.5, 0.5], [0, 0], { statements: { '1': hostile, '2': hostile } });
    const c = compareSides({
      skill: { name: '@octocat', repoDir: `skills/${hostile}`, change: 'changed' },
      base: failed,
      head,
      margin: 1,
    });
    const body = renderScoreComment(
      input([c], {
        runUrl: undefined,
        scoring: { kind: 'composite', models: hostile, trials: 2, margin: 1 },
      }),
    );
    expect(liveParts(ownHtmlRemoved(body))).toEqual([]);
    expect(body.split('\n').filter((l) => l.includes('<!--'))).toEqual([MARKER]);
  });

  it('stays under GitHub limit with 500 skills, regressions never collapsed away', () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      comparison(
        `skill-${String(i).padStart(3, '0')}-${'x'.repeat(60)}`,
        side([0.5, 0.52], [2, 1]),
        side([0.51, 0.5], [1, 2]),
      ),
    );
    const last = comparison('zz-regressed', side([0.9, 0.9], [3]), side([0.1, 0.1], [0]));
    const body = renderScoreComment(input([...many, last]));
    expect(body.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(body).toContain('| zz-regressed |');
    expect(body).toMatch(/… and \d+ more skills/);
  });

  it('says so when no skill folder changed', () => {
    const body = renderScoreComment(input([]));
    expect(body).toContain('This pull request changes no skill folder.');
    expect(body).toContain('No skill regressed beyond the noise margin.');
  });
});

describe('scoreCommentMarker', () => {
  it('names the project when it is not the root, and cannot be closed early', () => {
    expect(scoreCommentMarker('.')).toBe('<!-- skillclimb:score -->');
    expect(scoreCommentMarker('mono/pkg')).toBe('<!-- skillclimb:score project=mono/pkg -->');
    expect(scoreCommentMarker('a-->b').slice('<!--'.length, -' -->'.length)).not.toContain('--');
  });
});
