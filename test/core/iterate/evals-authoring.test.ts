/** The eval-setup rules `skillclimb evals init` checks in code, and the repairs it makes itself. */
import { describe, expect, it } from 'vitest';
import {
  checkAuthored,
  parseSource,
  passingThreshold,
  repairAuthored,
  type AuthoredAnswer,
} from '../../../src/core/iterate/evals-authoring.js';
import { buildEvalsAuthorPrompt } from '../../../src/core/iterate/evals-author-prompt.js';
import { parseSkillEvals } from '../../../src/core/iterate/evals.js';
import { invalidAnswer, releaseNotesSkill, validAnswer } from '../../helpers/authored-evals.js';

const SKILL = releaseNotesSkill('release-notes');
const json = (value: unknown) => JSON.stringify(value);

function check(answer: AuthoredAnswer) {
  return checkAuthored(SKILL, repairAuthored(answer, 'release-notes', undefined), undefined);
}

function withAssertion(
  answer: AuthoredAnswer,
  change: (a: AuthoredAnswer['categories'][number]['evals'][number]) => void,
): AuthoredAnswer {
  const copy = structuredClone(answer);
  change(copy.categories[0]!.evals[0]!);
  return copy;
}

describe('repairAuthored', () => {
  it('numbers the assertions 1..N, follows them in expected_assertions, sets result null and the threshold', () => {
    const files = repairAuthored(validAnswer(), 'release-notes', undefined);
    const evals = files.evals as {
      passing_threshold: string;
      categories: Array<{ evals: Array<{ id: number; result: unknown }> }>;
    };
    expect(evals.categories.flatMap((c) => c.evals.map((a) => a.id))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(evals.categories.flatMap((c) => c.evals.map((a) => a.result))).toEqual(Array(6).fill(null));
    expect(evals.passing_threshold).toBe('4/6');
    expect(files.evals).toMatchObject({ skill: 'release-notes', version: '2.0' });
    const scenarios = files.scenarios as { scenarios: Array<{ id: string; expected_assertions: number[] }> };
    expect(scenarios.scenarios.map((s) => [s.id, s.expected_assertions])).toEqual([
      ['scenario_1', [1, 2, 3, 4, 6]],
      ['scenario_2', [1, 3, 4, 5, 6]],
    ]);
    // Both files pass the existing schemas, cross-checked.
    const parsed = parseSkillEvals({
      evals: json(files.evals),
      scenarios: json(files.scenarios),
      requiredSections: undefined,
    });
    expect(parsed.scenarios).toHaveLength(2);
    expect(passingThreshold(12)).toBe('10/12');
  });

  it('writes category weights that sum to 1, as the prompt asks, rescaling an answer whose weights do not', () => {
    const weightsOf = (files: { evals: Record<string, unknown> }) =>
      (files.evals as { categories: Array<{ weight: number }> }).categories.map((c) => c.weight);
    const ones = validAnswer();
    for (const category of ones.categories) category.weight = 1;
    const files = repairAuthored(ones, 'release-notes', undefined);
    expect(weightsOf(files)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(files.weightsNote).toBe(
      'the category weights summed to 4, so they were rescaled to sum to 1 (0.25, 0.25, 0.25, 0.25)',
    );
    expect(checkAuthored(SKILL, files, undefined).problems).toEqual([]);
    // Thirds: four decimals each, the largest takes the remainder, so the file still sums to 1.
    const thirds = validAnswer();
    thirds.categories = thirds.categories.slice(1);
    thirds.categories.forEach((c, i) => (c.weight = i === 2 ? 2 : 1));
    expect(weightsOf(repairAuthored(thirds, 'release-notes', undefined))).toEqual([0.25, 0.25, 0.5]);
    const uneven = validAnswer();
    uneven.categories.forEach((c) => (c.weight = 3));
    uneven.categories.pop();
    expect(weightsOf(repairAuthored(uneven, 'release-notes', undefined))).toEqual([0.3334, 0.3333, 0.3333]);
    // Weights that already sum to 1 are written as given.
    const valid = repairAuthored(validAnswer(), 'release-notes', undefined);
    expect(weightsOf(valid)).toEqual([0.4, 0.3, 0.2, 0.1]);
    expect(valid.weightsNote).toBeUndefined();
  });

  it('refuses files whose weights do not sum to 1 (what the prompt asks), and all-zero weights', () => {
    const files = repairAuthored(validAnswer(), 'release-notes', undefined);
    const evals = files.evals as { categories: Array<{ weight: number }> };
    for (const category of evals.categories) category.weight = 1;
    expect(checkAuthored(SKILL, files, undefined).problems).toEqual([
      'evals.json: the category weights sum to 4; they must sum to 1',
    ]);
    const zeros = validAnswer();
    for (const category of zeros.categories) category.weight = 0;
    expect(check(zeros).problems).toEqual([
      expect.stringContaining('every categories[].weight is 0 (of the categories with evals)'),
    ]);
  });

  it("keeps the model's ids when the scenarios are kept (they refer to those ids)", () => {
    const files = repairAuthored(validAnswer(), 'release-notes', { scenarios: [] });
    const ids = (files.evals as { categories: Array<{ evals: Array<{ id: number }> }> }).categories.flatMap(
      (c) => c.evals.map((a) => a.id),
    );
    expect(ids).toEqual([10, 11, 12, 13, 14, 15]);
    expect(files.scenarios).toBeUndefined();
  });
});

describe('checkAuthored: the front matter is not the body', () => {
  // Shaped like anthropics/skills `docx` and obra/superpowers `brainstorming`: trigger text with MUST / NOT.
  const withFrontMatter = SKILL.replace(
    'description: Write release notes from the merged pull requests.',
    'description: Use when writing release notes. You MUST use this skill for release notes. Do NOT use it for changelogs.',
  );

  it('asks for no citation of a MUST / NOT in the description: rules come from the body', () => {
    expect(withFrontMatter.split('\n')[2]).toContain('MUST');
    const files = repairAuthored(validAnswer(), 'release-notes', undefined);
    expect(checkAuthored(withFrontMatter, files, undefined).problems).toEqual([]);
    // The prompt lists the body's rule lines only (line numbers still count from the top of the file).
    const prompt = buildEvalsAuthorPrompt({
      skillName: 'release-notes',
      skillMd: withFrontMatter,
      keptScenarios: undefined,
      retry: undefined,
    });
    expect(prompt.user).toContain('Lines with a NEVER / NOT / MUST / IF rule, each to be cited: 21, 22.');
  });

  it('still reads a MUST in the body, and an unclosed front matter as body', () => {
    const body = withFrontMatter.replace('Print exactly:', 'You MUST print exactly:');
    const files = repairAuthored(validAnswer(), 'release-notes', undefined);
    expect(checkAuthored(body, files, undefined).problems).toEqual([]);
    const uncited = `${body}IF asked, you MUST NOT stop.\n`;
    expect(checkAuthored(uncited, files, undefined).problems).toEqual([
      'SKILL.md line 23 states a rule (IF, MUST, NOT) that no assertion cites ("IF asked, you MUST NOT stop."); ' +
        'cite it as "SKILL.md, line 23"',
    ]);
    const unclosed = withFrontMatter.replace('---\n# Release notes', '# Release notes');
    expect(checkAuthored(unclosed, files, undefined).problems).toContain(
      'SKILL.md line 3 states a rule (MUST, NOT) that no assertion cites ("description: Use when writing release notes. You MUST use this skill for release notes. Do NOT use it for changelogs."); cite it as "SKILL.md, line 3"',
    );
  });
});

describe('checkAuthored: the eval-setup rules', () => {
  it('passes a valid answer and says what it holds', () => {
    const result = check(validAnswer());
    expect(result.problems).toEqual([]);
    expect(result.summary).toEqual({ assertions: 6, categories: 4, scenarios: 2, discrimination: 5 / 6 });
  });

  it('refuses citations of lines that do not exist, ranges over 15 lines and sources that are not line citations', () => {
    expect(
      check(withAssertion(validAnswer(), (a) => (a.source = 'SKILL.md, lines 40-45'))).problems,
    ).toContain(
      'assertion 1: source "SKILL.md, lines 40-45" cites lines that do not exist (SKILL.md has 22 lines)',
    );
    expect(
      check(withAssertion(validAnswer(), (a) => (a.source = 'SKILL.md, lines 1-20'))).problems,
    ).toContain('assertion 1: source "SKILL.md, lines 1-20" spans 20 lines; cite at most 15');
    expect(check(withAssertion(validAnswer(), (a) => (a.source = 'the Steps section'))).problems[0]).toMatch(
      /^assertion 1: source "the Steps section" must cite SKILL\.md lines/,
    );
    expect(
      ['SKILL.md, line 7', 'SKILL.md:7-9', 'SKILL.md, lines 3–4', 'SKILL.md lines 2-2'].map(parseSource),
    ).toEqual([
      { first: 7, last: 7 },
      { first: 7, last: 9 },
      { first: 3, last: 4 },
      { first: 2, last: 2 },
    ]);
  });

  it('refuses an unknown defect type and a vague discrimination assertion', () => {
    expect(check(withAssertion(validAnswer(), (a) => (a.defect_type = 'style'))).problems[0]).toMatch(
      /^assertion 1: defect_type "style" is not one of structural, format, /,
    );
    expect(
      check(withAssertion(validAnswer(), (a) => (a.statement = 'The output is well formed.'))).problems,
    ).toContain(
      'assertion 1: "The output is well formed." cannot grade FALSE on a concrete defect; name what would make it false',
    );
  });

  it('needs at least 40 % discrimination assertions', () => {
    const answer = validAnswer();
    for (const category of answer.categories) for (const a of category.evals) a.defect_type = 'n/a-coverage';
    answer.categories[0]!.evals[0]!.defect_type = 'format';
    answer.categories[0]!.evals[1]!.defect_type = 'structural';
    expect(check(answer).problems).toContain(
      'only 33% of the assertions discriminate (defect_type other than n/a-sanity and n/a-coverage); at least 40% must',
    );
  });

  it('needs every NEVER / IF rule line cited, every major section cited, an Anti-patterns category, heading categories', () => {
    const problems = check(invalidAnswer()).problems;
    expect(problems).toContain(
      'SKILL.md line 21 states a rule (NEVER) that no assertion cites ("- NEVER list a pull request twice."); ' +
        'cite it as "SKILL.md, line 21"',
    );
    expect(problems).toContain('evals.json: add an "Anti-patterns" category (what the output must NOT do)');
    const renamed = validAnswer();
    renamed.categories[0]!.name = 'Miscellaneous';
    expect(check(renamed).problems).toContain(
      'category "Miscellaneous" is not one of the skill\'s own headings',
    );
    const uncited = validAnswer();
    uncited.categories[1]!.evals[0]!.source = 'SKILL.md, line 10';
    expect(check(uncited).problems).toContain(
      'the section "Output format" (SKILL.md lines 13-18) has no assertion citing it',
    );
  });

  it('needs 2 to 3 scenarios, each with expected_assertions naming known ids', () => {
    const one = validAnswer();
    one.scenarios = one.scenarios.slice(0, 1);
    expect(check(one).problems).toContain('test_scenarios.json: 1 scenarios; write 2 to 3');
    const empty = validAnswer();
    empty.scenarios[1]!.expected_assertions = [];
    expect(check(empty).problems).toContain(
      'scenario scenario_2: list the assertions whose trigger fires in expected_assertions',
    );
    const unknown = validAnswer();
    unknown.scenarios[0]!.expected_assertions = [10, 99];
    expect(check(unknown).problems[0]).toBe(
      'test_scenarios.json: scenarios[0].expected_assertions[1]: unknown assertion id 99 (not in evals.json)',
    );
  });

  it('with kept scenarios, evals.json must fit their expected_assertions and keep ids 1..N', () => {
    const kept = JSON.stringify({ scenarios: [{ id: 's1', context: 'x', expected_assertions: [1, 7] }] });
    const answer = validAnswer();
    let next = 1;
    for (const c of answer.categories) for (const a of c.evals) a.id = next++;
    const files = repairAuthored(answer, 'release-notes', { scenarios: [] });
    expect(checkAuthored(SKILL, files, kept).problems).toEqual([
      'test_scenarios.json: scenarios[0].expected_assertions[1]: unknown assertion id 7 (not in evals.json)',
    ]);
    const fits = JSON.stringify({ scenarios: [{ id: 's1', context: 'x', expected_assertions: [1, 6] }] });
    expect(checkAuthored(SKILL, files, fits).problems).toEqual([]);
  });
});

describe('the author prompt', () => {
  it('quotes the numbered SKILL.md as data, lists the rule lines, and on a retry the problems', () => {
    const prompt = buildEvalsAuthorPrompt({
      skillName: 'release-notes',
      skillMd: SKILL,
      keptScenarios: undefined,
      retry: { answer: '{"categories": []}', problems: ['evals.json: add an "Anti-patterns" category'] },
    });
    expect(prompt.system).toContain('At least 40% of the assertions are discrimination assertions');
    expect(prompt.user).toContain('<<<SKILL_MD\n 1 | ---\n');
    expect(prompt.user).toContain('21 | - NEVER list a pull request twice.');
    expect(prompt.user).toContain('Lines with a NEVER / NOT / MUST / IF rule, each to be cited: 21, 22.');
    expect(prompt.user).toContain('- evals.json: add an "Anti-patterns" category');
    expect(prompt.user).toContain('<<<PREVIOUS_ANSWER\n{"categories": []}\nPREVIOUS_ANSWER>>>');
  });
});
