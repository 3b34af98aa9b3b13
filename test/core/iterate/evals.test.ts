import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EvalsFileError,
  allAssertions,
  formatJsonPath,
  parseEvals,
  parseScenarios,
} from '../../../src/core/iterate/evals.js';
import { loadSkillEvals } from '../../../src/iterate/evals-files.js';
import { addSkill, makeTempDir, removeTempDirs, skillPath } from '../../helpers/skill-project.js';

const EXAMPLE_SKILLS = fileURLToPath(new URL('../../../examples/workspace/.claude/skills/', import.meta.url));

afterEach(removeTempDirs);

function evalsWith(second: unknown): string {
  return JSON.stringify({
    categories: [
      { name: 'A', evals: [{ id: 1, statement: 'first' }] },
      { name: 'B', evals: [second] },
    ],
  });
}

function errorOf(fn: () => unknown): EvalsFileError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(EvalsFileError);
    return err as EvalsFileError;
  }
  throw new Error('expected an EvalsFileError');
}

describe('parseEvals', () => {
  it('reads the original format and applies the documented defaults', () => {
    const evals = parseEvals(
      JSON.stringify({
        skill: 'session-wrap',
        version: '2.0',
        description: 'ignored',
        passing_threshold: 0.8,
        categories: [
          {
            name: 'Output format',
            weight: 0.4,
            evals: [{ id: 1, statement: 'Has ## Summary.', result: null }],
          },
          { name: 'Content', evals: [{ id: 2, statement: 'Names files.', source: 'SKILL.md, lines 4-9' }] },
          { name: 'Safety', evals: [{ id: 3, statement: 'No secrets.', defect_type: 'safety' }] },
        ],
      }),
    );
    expect(evals.categories.map((c) => c.weight)).toEqual([0.4, 1 / 3, 1 / 3]);
    const [a1, a2, a3] = allAssertions(evals);
    expect(a1).toMatchObject({
      id: 1,
      source: '',
      defect_type: 'unspecified',
      category: { name: 'Output format' },
    });
    expect(a2).toMatchObject({ id: 2, source: 'SKILL.md, lines 4-9', defect_type: 'unspecified' });
    expect(a3).toMatchObject({ id: 3, defect_type: 'safety', category: { name: 'Safety' } });
  });

  it('accepts every check kind of DESIGN.md', () => {
    const checks = [
      { type: 'contains', value: '## Summary' },
      { type: 'icontains', value: 'summary' },
      { type: 'not-contains', value: 'TODO' },
      { type: 'not-icontains', value: 'as an ai' },
      { type: 'regex', value: '^## Summary$', flags: 'm' },
      { type: 'not-regex', value: 'lorem' },
      { type: 'max-lines', value: 40 },
      { type: 'max-words', value: 250 },
      { type: 'is-json' },
    ];
    const evals = parseEvals(
      JSON.stringify({
        categories: [
          { name: 'All', evals: checks.map((check, i) => ({ id: i + 1, statement: `s${i}`, check })) },
        ],
      }),
    );
    expect(allAssertions(evals).map((a) => a.check?.type)).toEqual(checks.map((c) => c.type));
  });

  it.each([
    [{ id: '2', statement: 's' }, 'evals.json: categories[1].evals[0].id: expected integer'],
    [{ id: 2.5, statement: 's' }, 'evals.json: categories[1].evals[0].id: expected integer'],
    [{ id: 2 }, 'evals.json: categories[1].evals[0].statement: expected string, received undefined'],
    [
      { id: 2, statement: '' },
      'evals.json: categories[1].evals[0].statement: expected string to have >=1 characters',
    ],
    [
      { id: 1, statement: 'dup' },
      'evals.json: categories[1].evals[0].id: duplicate assertion id 1 (first used at categories[0].evals[0])',
    ],
    [
      { id: 2, statement: 's', check: { type: 'regex', value: 'a', flags: 'q' } },
      'evals.json: categories[1].evals[0].check.flags: expected regular-expression flags',
    ],
    [
      { id: 2, statement: 's', check: { type: 'max-words', value: -1 } },
      'evals.json: categories[1].evals[0].check.value: expected number to be >=0',
    ],
  ])('rejects %j with file and JSON path', (assertion, message) => {
    expect(errorOf(() => parseEvals(evalsWith(assertion))).message).toBe(message);
  });

  it('rejects a regex that does not compile when loading, not mid-run', () => {
    const err = errorOf(() =>
      parseEvals(evalsWith({ id: 2, statement: 's', check: { type: 'not-regex', value: '(' } })),
    );
    expect(err.file).toBe('evals.json');
    expect(err.jsonPath).toBe('categories[1].evals[0].check.value');
    expect(err.detail).toMatch(/^invalid regular expression \(/);
  });

  it('rejects an unknown check type, listing the known ones', () => {
    const err = errorOf(() =>
      parseEvals(evalsWith({ id: 2, statement: 's', check: { type: 'similar-to' } })),
    );
    expect(err.jsonPath).toBe('categories[1].evals[0].check.type');
    expect(err.detail).toContain("'is-json'");
  });

  it.each([
    ['not json', /^evals\.json: not valid JSON \(/],
    ['[]', /^evals\.json: expected object, received array$/],
    ['{"categories": []}', /^evals\.json: categories: expected array to have >=1 items$/],
    [
      '{"categories": [{"name": "A", "weight": "heavy", "evals": []}]}',
      /^evals\.json: categories\[0\]\.weight: expected number, received string$/,
    ],
  ])('rejects file %j', (text, message) => {
    expect(errorOf(() => parseEvals(text)).message).toMatch(message);
  });

  it('tolerates a UTF-8 byte order mark', () => {
    expect(parseEvals(`\uFEFF${evalsWith({ id: 2, statement: 's' })}`).categories).toHaveLength(2);
  });
});

describe('parseScenarios', () => {
  const evals = parseEvals(evalsWith({ id: 2, statement: 'second' }));

  it('reads scenarios with optional expected_assertions and files', () => {
    const scenarios = parseScenarios(
      JSON.stringify({
        skill: 'x',
        scenarios: [
          {
            id: 'scenario_1',
            name: 'n',
            context: 'c',
            expected_assertions: [1, 2],
            files: { 'notes.md': '# n' },
          },
          { id: 'scenario_2', context: 'c2' },
          { id: 3, context: 'numbered' },
        ],
      }),
      evals,
    );
    expect(scenarios.map((s) => s.id)).toEqual(['scenario_1', 'scenario_2', '3']);
    expect(scenarios[0]?.files).toEqual({ 'notes.md': '# n' });
    expect(scenarios[1]?.expected_assertions).toBeUndefined();
  });

  it('rejects expected_assertions naming an unknown assertion id', () => {
    const text = JSON.stringify({ scenarios: [{ id: 's', context: 'c', expected_assertions: [2, 7] }] });
    expect(errorOf(() => parseScenarios(text, evals)).message).toBe(
      'test_scenarios.json: scenarios[0].expected_assertions[1]: unknown assertion id 7 (not in evals.json)',
    );
    // Without the evals file there is nothing to cross-check against.
    expect(parseScenarios(text, undefined)).toHaveLength(1);
  });

  it.each([
    [
      {
        scenarios: [
          { id: 's', context: 'c' },
          { id: 's', context: 'd' },
        ],
      },
      'test_scenarios.json: scenarios[1].id: duplicate scenario id "s"',
    ],
    [
      { scenarios: [{ id: 's' }] },
      'test_scenarios.json: scenarios[0].context: expected string, received undefined',
    ],
    [
      { scenarios: [{ id: '', context: 'c' }] },
      'test_scenarios.json: scenarios[0].id: expected string to have >=1 characters',
    ],
    [{ scenarios: [{ context: 'c' }] }, 'test_scenarios.json: scenarios[0].id: expected a non-empty string'],
    [
      { scenarios: [{ id: 1.5, context: 'c' }] },
      'test_scenarios.json: scenarios[0].id: expected a non-empty string',
    ],
    [
      { scenarios: [{ id: 's', context: 'c', expected_assertions: ['1'] }] },
      'test_scenarios.json: scenarios[0].expected_assertions[0]: expected integer',
    ],
    [
      { scenarios: [{ id: 's', context: 'c', files: { 'a.md': 1 } }] },
      'test_scenarios.json: scenarios[0].files.a.md: expected string, received number',
    ],
    [{ scenarios: [] }, 'test_scenarios.json: scenarios: expected array to have >=1 items'],
  ])('rejects %j', (file, message) => {
    expect(errorOf(() => parseScenarios(JSON.stringify(file), evals)).message).toBe(message);
  });
});

describe('loadSkillEvals', () => {
  it('loads and cross-validates a skill folder, with optional required_sections.json', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'demo');
    const dir = skillPath(project, 'demo');
    const loaded = await loadSkillEvals(dir);
    expect(loaded.scenarios.map((s) => s.id)).toEqual(['scenario_1']);
    expect(loaded.requiredSections).toBeUndefined();
    await writeFile(
      path.join(dir, 'evals', 'required_sections.json'),
      '{"required": ["Steps", "Output format"]}',
    );
    expect((await loadSkillEvals(dir)).requiredSections).toEqual(['Steps', 'Output format']);
    await writeFile(path.join(dir, 'evals', 'required_sections.json'), '{"required": "Steps"}');
    await expect(loadSkillEvals(dir)).rejects.toThrow(
      'required_sections.json: required: expected array, received string',
    );
  });

  it('names the missing file', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'no-scenarios', { scenarios: false });
    await expect(loadSkillEvals(skillPath(project, 'no-scenarios'))).rejects.toThrow(
      'test_scenarios.json: file not found',
    );
    await mkdir(skillPath(project, 'empty'), { recursive: true });
    await expect(loadSkillEvals(skillPath(project, 'empty'))).rejects.toThrow('evals.json: file not found');
  });

  it('loads every skill of the example workspace', async () => {
    const names = (await readdir(EXAMPLE_SKILLS)).sort();
    expect(names).toEqual(['release-notes', 'session-wrap', 'user-debug', 'verify']);
    for (const name of names) {
      const loaded = await loadSkillEvals(path.join(EXAMPLE_SKILLS, name));
      const assertions = allAssertions(loaded.evals);
      expect(assertions.length, name).toBeGreaterThanOrEqual(4);
      expect(assertions.length, name).toBeLessThanOrEqual(8);
      expect(
        assertions.some((a) => a.check !== undefined),
        name,
      ).toBe(true);
      expect(loaded.scenarios.length, name).toBeGreaterThanOrEqual(2);
      expect(loaded.scenarios.length, name).toBeLessThanOrEqual(4);
      const weightSum = loaded.evals.categories.reduce((sum, c) => sum + c.weight, 0);
      expect(weightSum, name).toBeCloseTo(1, 9);
    }
  });
});

describe('formatJsonPath', () => {
  it('writes indexes in brackets and keys with dots', () => {
    expect(formatJsonPath(['categories', 1, 'evals', 0, 'id'])).toBe('categories[1].evals[0].id');
    expect(formatJsonPath([0, 'a'])).toBe('[0].a');
  });
});
