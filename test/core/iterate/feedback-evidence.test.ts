/**
 * The reviewer skill's findings (docs/how-it-works.md § The nightly engine improves the reviewer): the
 * feedback record of an Agent Skills eval reaches its scenario, and the per-assertion counts become one row
 * per finding, from the confirmation or from the loop's one draw of each text.
 */
import { describe, expect, it } from 'vitest';
import { agentSkillsEvals, readEvalsShape } from '../../../src/core/iterate/agent-skills-evals.js';
import {
  absoluteCountRows,
  acceptedFindingsLost,
  acceptedFindingsWorse,
  acceptedPassCounts,
  acceptedRaised,
  acceptedRecheck,
  acceptedScenariosLost,
  feedbackEvidence,
  feedbackEvidenceLines,
} from '../../../src/core/iterate/feedback-evidence.js';
import type { AbsoluteResult } from '../../../src/core/iterate/score-types.js';

const FILE = JSON.stringify({
  skill_name: 'review-loop-reviewer',
  evals: [
    {
      id: 7,
      prompt: '```diff\n+import fs\n```\nReview this change.',
      assertions: ['The review does not report: Unused import in src/a.js'],
      skillclimb: { feedback: { kind: 'dismissed', title: 'Unused import', file: 'src/a.js', pr: 12 } },
    },
    {
      id: 8,
      prompt: '```diff\n+db.query(x)\n```\nReview this change.',
      assertions: ['The review reports: SQL from input in src/db.ts'],
      skillclimb: {
        holdout: true,
        feedback: { kind: 'accepted', title: 'SQL from input', file: 'src/db.ts', pr: 15 },
      },
    },
    { id: 9, prompt: 'Summarise the change.', assertions: ['The output is short'] },
  ],
});

function scenarios() {
  const shape = readEvalsShape(FILE, false);
  if (shape.format !== 'agent-skills') throw new Error('expected the Agent Skills shape');
  return agentSkillsEvals(shape.file, new Map(), undefined).scenarios;
}

function absolute(passing: number[], failing: number[]): AbsoluteResult {
  return {
    weighted_score: 0,
    passed: passing.length,
    total: passing.length + failing.length,
    categories: [],
    passing_pairs: passing.map((id) => ({ assertion_id: id, scenario_id: String(id + 6) })),
    failed_assertions: failing.map((id) => ({
      assertion_id: id,
      scenario_id: String(id + 6),
      category_name: 'Assertions',
      category_weight: 1,
      statement: '',
      source: '',
      defect_type: 'unspecified',
      grader_reason: '',
    })),
  };
}

describe('feedback evals', () => {
  it('carry their finding to the scenario; an eval without one carries none', () => {
    const [dismissed, accepted, plain] = scenarios();
    expect(dismissed?.feedback).toEqual({
      kind: 'dismissed',
      title: 'Unused import',
      file: 'src/a.js',
      pr: 12,
    });
    expect(accepted?.feedback?.kind).toBe('accepted');
    expect(plain?.feedback).toBeUndefined();
  });

  it("become one row per finding with its eval's counts, from the confirmation", () => {
    const evidence = feedbackEvidence(scenarios(), 'confirmation', [
      { assertionId: 1, before: { passes: 0, total: 3 }, after: { passes: 4, total: 4 } },
      { assertionId: 2, before: { passes: 3, total: 3 }, after: { passes: 3, total: 3 } },
      { assertionId: 3, before: { passes: 1, total: 3 }, after: { passes: 0, total: 4 } },
    ]);
    expect(evidence).toEqual({
      source: 'confirmation',
      findings: [
        {
          kind: 'dismissed',
          title: 'Unused import',
          file: 'src/a.js',
          pr: 12,
          evalId: '7',
          holdout: false,
          before: { passes: 0, total: 3 },
          after: { passes: 4, total: 4 },
        },
        {
          kind: 'accepted',
          title: 'SQL from input',
          file: 'src/db.ts',
          pr: 15,
          evalId: '8',
          holdout: true,
          before: { passes: 3, total: 3 },
          after: { passes: 3, total: 3 },
        },
      ],
    });
  });

  it('are none when no eval carries feedback', () => {
    const plain = scenarios().filter((s) => s.feedback === undefined);
    expect(feedbackEvidence(plain, 'confirmation', [])).toBeUndefined();
  });

  it("from the loop's one draw of each text: the holdout was not drawn, and says so", () => {
    const rows = absoluteCountRows(absolute([3], [1]), absolute([1, 3], []));
    expect(rows).toEqual([
      { assertionId: 1, before: { passes: 0, total: 1 }, after: { passes: 1, total: 1 } },
      { assertionId: 3, before: { passes: 1, total: 1 }, after: { passes: 1, total: 1 } },
    ]);
    const lines = feedbackEvidenceLines(feedbackEvidence(scenarios(), 'loop', rows)!).join('\n');
    expect(lines).toContain("counts are from the loop's own scores");
    expect(lines).toContain('| Unused import | src/a.js | PR 12 | 0 of 1 → 1 of 1 |');
    expect(lines).not.toContain('_None');
    expect(lines).toContain(
      '1 finding was not scored tonight (holdout evals are scored only by the confirmation).',
    );
  });
});

describe('the accepted findings as a floor (a reviewer skill may not catch fewer of them)', () => {
  const finding = (kind: 'dismissed' | 'accepted', title: string, before: number, after: number, of = 3) => ({
    kind,
    title,
    pr: 15,
    evalId: title,
    holdout: false,
    before: { passes: before, total: of },
    after: { passes: after, total: of },
  });

  it('refuses a change whose pooled accepted pass rate drops, naming the findings caught less often', () => {
    const evidence = {
      source: 'confirmation' as const,
      findings: [
        finding('dismissed', 'Unused import', 0, 3),
        finding('accepted', 'SQL from input', 3, 0),
        finding('accepted', 'Token in the log', 3, 3),
      ],
    };
    expect(acceptedFindingsLost(evidence)).toBe(
      "it catches the team's accepted findings less often: 6 of 6 → 3 of 6 passing draws (SQL from input)",
    );
  });

  it('at the ship gate, refuses only on the findings a re-measure misses again', () => {
    const evidence = {
      source: 'confirmation' as const,
      findings: [finding('accepted', 'SQL from input', 3, 1), finding('accepted', 'Token in the log', 3, 3)],
    };
    expect(acceptedFindingsWorse(evidence).map((f) => f.title)).toEqual(['SQL from input']);
    expect(acceptedFindingsLost(evidence, { lost: [] })).toBeUndefined();
    expect(acceptedFindingsLost(evidence, { lost: ['SQL from input (raised in 0 of 3 fresh draws)'] })).toBe(
      "it catches the team's accepted findings less often: 6 of 6 → 4 of 6 passing draws (SQL from input), " +
        'and misses them again when re-measured: SQL from input (raised in 0 of 3 fresh draws)',
    );
  });

  it('lets a change through when the pooled rate holds, though one accepted eval flipped by noise', () => {
    const evidence = {
      source: 'confirmation' as const,
      findings: [finding('accepted', 'SQL from input', 3, 2), finding('accepted', 'Token in the log', 2, 3)],
    };
    expect(acceptedFindingsLost(evidence)).toBeUndefined();
    expect(acceptedFindingsLost(undefined)).toBeUndefined();
    expect(
      acceptedFindingsLost({ source: 'loop', findings: [finding('dismissed', 'Unused import', 3, 0)] }),
    ).toBeUndefined();
  });

  it('counts the accepted assertions of one draw of each text, and nothing else', () => {
    // Assertion 2 is the accepted finding's; 1 is a dismissed one's, 3 an ordinary eval's.
    const before = absolute([2, 3], [1]);
    const after = absolute([1, 3], [2]);
    expect(acceptedPassCounts(scenarios(), before, after)).toEqual({
      before: { passes: 1, total: 1 },
      after: { passes: 0, total: 1 },
    });
  });

  it("names the accepted findings' scenarios lost on the candidate's draw, none when the pooled count held", () => {
    const lost = acceptedScenariosLost(scenarios(), absolute([2, 3], [1]), absolute([1, 3], [2]));
    expect(lost.map((s) => s.id)).toEqual(['8']);
    expect(acceptedScenariosLost(scenarios(), absolute([2], [1, 3]), absolute([1, 2], [3]))).toEqual([]);
    // A dismissed finding lost is not the floor's business.
    expect(acceptedScenariosLost(scenarios(), absolute([1, 2], [3]), absolute([2], [1, 3]))).toEqual([]);
  });

  it('reads one draw of an accepted scenario as raising its finding only when its assertion passed', () => {
    const sql = scenarios().find((s) => s.id === '8')!;
    expect(acceptedRaised(sql, absolute([2], []))).toBe(true);
    expect(acceptedRaised(sql, absolute([], [2]))).toBe(false);
    expect(acceptedRaised(sql, absolute([1, 3], []))).toBe(false);
  });

  it('decides a lost accepted finding on the majority of five fresh draws, as soon as it is certain', () => {
    expect(acceptedRecheck({ raised: 0, missed: 0 })).toBe('continue');
    expect(acceptedRecheck({ raised: 2, missed: 2 })).toBe('continue');
    expect(acceptedRecheck({ raised: 3, missed: 0 })).toBe('held');
    expect(acceptedRecheck({ raised: 3, missed: 2 })).toBe('held');
    expect(acceptedRecheck({ raised: 0, missed: 3 })).toBe('lost');
    expect(acceptedRecheck({ raised: 1, missed: 3 })).toBe('lost');
  });
});
