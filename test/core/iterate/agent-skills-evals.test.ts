/**
 * The Agent Skills eval format read into skillclimb's model (core/iterate/agent-skills-evals.ts): the two
 * shapes told apart by content, the file validated with its JSON paths, each eval a scenario whose
 * assertions are its own, and the absolute axis scoring them that way.
 */
import { describe, expect, it } from 'vitest';
import { aggregate, decidePairs, planScenario } from '../../../src/core/iterate/absolute.js';
import {
  agentSkillsEvals,
  readEvalsShape,
  type AgentSkillsEvals,
} from '../../../src/core/iterate/agent-skills-evals.js';
import { EvalsFileError } from '../../../src/core/iterate/evals.js';
import { buildGraderPrompt } from '../../../src/core/iterate/grader-prompt.js';
import { buildRenderPrompt } from '../../../src/core/iterate/render-prompt.js';

/** As the Agent Skills documentation's csv-analyzer example writes it, with skill-creator's key on the second. */
const CSV_ANALYZER = {
  skill_name: 'csv-analyzer',
  evals: [
    {
      id: 1,
      prompt:
        'I have a CSV of monthly sales data in data/sales_2025.csv. Can you find the top 3 months by revenue and make a bar chart?',
      expected_output: 'A bar chart image showing the top 3 months by revenue, with labeled axes and values.',
      files: ['evals/files/sales_2025.csv'],
      assertions: [
        'The output includes a bar chart image file',
        'The chart shows exactly 3 months',
        'Both axes are labeled',
      ],
    },
    {
      id: 2,
      prompt: 'there is a csv called customers.csv, some rows have missing emails, clean it up',
      expected_output: 'A cleaned CSV plus a count of how many emails were missing.',
      files: ['evals/files/customers.csv'],
      expectations: ['The output states how many emails were missing'],
      skillclimb: {
        checks: {
          'The output states how many emails were missing': { type: 'regex', value: '\\d+ missing' },
        },
      },
    },
    {
      id: 3,
      prompt: 'Summarise quarterly revenue from data/q.csv',
      expected_output: 'A table of the four quarters with their revenue.',
      skillclimb: { holdout: true },
    },
  ],
};

function shapeOf(value: unknown, hasScenarios = false) {
  return readEvalsShape(JSON.stringify(value), hasScenarios);
}

function agentSkills(value: unknown): AgentSkillsEvals {
  const shape = shapeOf(value);
  if (shape.format !== 'agent-skills') throw new Error(`read as ${shape.format}`);
  return shape.file;
}

function problem(value: unknown, hasScenarios = false): string {
  try {
    shapeOf(value, hasScenarios);
  } catch (err) {
    if (err instanceof EvalsFileError) return err.message;
    throw err;
  }
  throw new Error('no problem found');
}

describe('the shape of evals/evals.json, by content', () => {
  it('categories is the original format, an evals list the Agent Skills format', () => {
    expect(shapeOf({ categories: [] }).format).toBe('original');
    expect(shapeOf(CSV_ANALYZER).format).toBe('agent-skills');
  });

  it('a file in neither shape is named with what was expected, not read as either', () => {
    expect(problem({ name: 'csv', tests: [{ input: 'x' }] })).toBe(
      'evals.json: not an eval file skillclimb reads: expected the original format\'s "categories" (with ' +
        'test_scenarios.json beside it) or the Agent Skills format\'s "evals" list ({"skill_name": …, "evals": ' +
        '[{"id": 1, "prompt": …, "expected_output": …, "assertions": […]}]}); found the keys "name", "tests"',
    );
    expect(problem([{ prompt: 'x' }])).toMatch(/; found a JSON array$/);
    expect(() => readEvalsShape('{"evals": [', false)).toThrow(/^evals\.json: not valid JSON \(/);
  });

  it('beside a test_scenarios.json a file without categories is the original one (its schema says what is missing)', () => {
    expect(shapeOf({ skill: 'x' }, true).format).toBe('original');
  });

  it('validation names the JSON path of each problem', () => {
    const entry = CSV_ANALYZER.evals[0]!;
    expect(problem({ evals: [] })).toMatch(/^evals\.json: evals: /);
    expect(problem({ evals: [{ ...entry, prompt: ' ' }] })).toBe(
      'evals.json: evals[0].prompt: expected a non-empty prompt',
    );
    expect(problem({ evals: [entry, { ...entry }] })).toBe(
      'evals.json: evals[1].id: duplicate eval id 1 (first used at evals[0])',
    );
    expect(problem({ evals: [{ ...entry, expectations: ['x'] }] })).toMatch(
      /^evals\.json: evals\[0\]\.expectations: both "assertions" and "expectations": keep one list/,
    );
    expect(problem({ evals: [{ id: 4, prompt: 'p' }] })).toBe(
      'evals.json: evals[0]: nothing to grade: add "assertions" (or "expectations"), or an "expected_output"',
    );
    expect(problem({ evals: [{ ...entry, files: ['../secrets.txt'] }] })).toBe(
      'evals.json: evals[0].files[0]: expected a path inside the skill folder, relative to it (e.g. evals/files/input.csv)',
    );
    expect(problem({ evals: [{ ...entry, files: ['/etc/passwd'] }] })).toMatch(
      /evals\[0\]\.files\[0\]: expected a path/,
    );
    expect(
      problem({ evals: [{ ...entry, skillclimb: { checks: { 'Not an assertion': { type: 'is-json' } } } }] }),
    ).toBe(
      'evals.json: evals[0].skillclimb.checks: "Not an assertion" is not one of this eval\'s assertions ' +
        "(a check is keyed by the assertion's exact text)",
    );
    expect(problem({ evals: [{ ...entry, skillclimb: { holdout: true } }] })).toMatch(
      /^evals\.json: evals: every eval is a holdout/,
    );
  });
});

describe('an Agent Skills file as skillclimb scores it', () => {
  const inputs = new Map([
    ['evals/files/sales_2025.csv', 'month,revenue\nJan,10\n'],
    ['evals/files/customers.csv', 'name,email\nAda,\n'],
  ]);
  const evals = agentSkillsEvals(agentSkills(CSV_ANALYZER), inputs, undefined);

  it('each eval is a scenario: its prompt, its input files, its expected output, its own assertions', () => {
    expect(evals.format).toBe('agent-skills');
    expect(evals.scenarios.map((s) => [s.id, s.expected_assertions, s.holdout])).toEqual([
      ['1', [1, 2, 3], undefined],
      ['2', [4], undefined],
      ['3', [5], true],
    ]);
    expect(evals.scenarios[0]?.files).toEqual({ 'evals/files/sales_2025.csv': 'month,revenue\nJan,10\n' });
    expect(evals.evals.categories).toHaveLength(1);
    expect(evals.evals.categories[0]?.weight).toBe(1);
    expect(evals.evals.categories[0]?.evals.map((a) => a.statement)).toEqual([
      'The output includes a bar chart image file',
      'The chart shows exactly 3 months',
      'Both axes are labeled',
      'The output states how many emails were missing',
      // An eval without assertions is graded on its expected output.
      'The output delivers what this eval expects: A table of the four quarters with their revenue.',
    ]);
    expect(evals.evals.categories[0]?.evals[3]?.check).toEqual({ type: 'regex', value: '\\d+ missing' });
  });

  it('the render gets the prompt and the input files, never the expected output; the grader gets it as a hint', () => {
    const scenario = evals.scenarios[0]!;
    const render = buildRenderPrompt('# CSV analyzer', scenario);
    expect(render.user).toContain('data/sales_2025.csv. Can you find the top 3 months');
    expect(render.user).toContain('File `evals/files/sales_2025.csv`:\n```\nmonth,revenue\nJan,10\n\n```');
    expect(render.user).not.toContain('labeled axes and values');
    const grader = buildGraderPrompt(
      { scenario, output: 'chart.png', assertions: [{ id: 1, statement: 'x', category: 'Assertions' }] },
      'M1',
    );
    expect(grader.prefix).toContain(
      'expected output (a hint for the grader, not an assertion):\nA bar chart image showing the top 3 months',
    );
  });

  it("an eval's assertions are pairs of that eval only, equally weighted: no vacuous passes from the others", () => {
    const plans = evals.scenarios.map((s) => planScenario(evals.evals, s, evals.format));
    expect(plans.map((p) => p.pairs.map((pair) => pair.assertion.id))).toEqual([[1, 2, 3], [4], [5]]);
    expect(plans[1]?.pairs[0]?.route).toBe('check');
    // Eval 1 passes one of three, eval 2's check passes, eval 3 fails: 2 of 5 pairs.
    const renders = new Map([
      ['1', 'chart.png'],
      ['2', '3 missing'],
      ['3', 'no table'],
    ]);
    const verdict = (pass: boolean) => ({ pass, reason: 'scripted' });
    const trial = new Map([
      ['1\u00001', verdict(true)],
      ['2\u00001', verdict(false)],
      ['3\u00001', verdict(false)],
      ['5\u00003', verdict(false)],
    ]);
    const result = aggregate(evals.evals, plans, decidePairs(plans, renders, [trial]));
    expect([result.passed, result.total]).toEqual([2, 5]);
    expect(result.weighted_score).toBeCloseTo(2 / 5, 12);
    // Read as the original format would read it (every assertion of every scenario, the rest vacuous),
    // the same verdicts would count 12 of 15.
    const original = evals.scenarios.map((s) => planScenario(evals.evals, s));
    expect(aggregate(evals.evals, original, decidePairs(original, renders, [trial])).passed).toBe(12);
  });
});
