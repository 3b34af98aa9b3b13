/**
 * The reviewer skill's findings (docs/how-it-works.md § The nightly engine improves the reviewer): the
 * feedback record of an Agent Skills eval reaches its scenario, and the per-assertion counts become one row
 * per finding, from the confirmation or from the loop's one draw of each text.
 */
import { describe, expect, it } from 'vitest';
import { agentSkillsEvals, readEvalsShape } from '../../../src/core/iterate/agent-skills-evals.js';
import {
  absoluteCountRows,
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
