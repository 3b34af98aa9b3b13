/** A skill shaped like those in public collections, and model answers for `skillclimb evals init`. */
import type { AuthoredAnswer } from '../../src/core/iterate/evals-authoring.js';

/**
 * Line numbers matter (the answers cite them):
 *  7 ## Steps · 9-11 the steps · 13 ## Output format · 15 Print exactly: · 17 the template ·
 * 19 ## Constraints · 21 NEVER rule · 22 IF/THEN rule.
 */
export function releaseNotesSkill(name: string): string {
  return [
    '---',
    `name: ${name}`,
    'description: Write release notes from the merged pull requests.',
    '---',
    '# Release notes',
    '',
    '## Steps',
    '',
    '1. List the pull requests merged since the last tag.',
    '2. Group them under Features, Fixes and Internal.',
    '3. Write one line per pull request, ending with its number.',
    '',
    '## Output format',
    '',
    'Print exactly:',
    '',
    '    ## Release <version>',
    '',
    '## Constraints',
    '',
    '- NEVER list a pull request twice.',
    '- IF a pull request has no user-facing change, THEN put it under Internal.',
    '',
  ].join('\n');
}

/**
 * An answer that follows every rule for releaseNotesSkill (ids deliberately not 1..N: code renumbers them),
 * with the expected outputs the Agent Skills format asks for (the original's files leave them out).
 */
export function validAnswer(): AuthoredAnswer {
  return {
    categories: [
      {
        name: 'Steps',
        weight: 0.4,
        evals: [
          {
            id: 10,
            statement: "Every pull request line ends with the pull request's number, e.g. '(#123)'.",
            source: 'SKILL.md, line 11',
            defect_type: 'format',
          },
          {
            id: 11,
            statement: 'The output has the headings Features, Fixes AND Internal.',
            source: 'SKILL.md, line 10',
            defect_type: 'structural',
          },
          {
            id: 12,
            statement: 'The output is not empty.',
            source: 'SKILL.md, lines 7-11',
            defect_type: 'n/a-sanity',
          },
        ],
      },
      {
        name: 'Output format',
        weight: 0.3,
        evals: [
          {
            id: 13,
            statement: "The output's first line is '## Release ' followed by the version.",
            source: 'SKILL.md, lines 15-17',
            defect_type: 'required-content',
          },
        ],
      },
      {
        name: 'Constraints',
        weight: 0.2,
        evals: [
          {
            id: 14,
            statement:
              'A pull request without a user-facing change is listed under Internal, not Features or Fixes.',
            source: 'SKILL.md, line 22',
            defect_type: 'conditional-behavior',
          },
        ],
      },
      {
        name: 'Anti-patterns',
        weight: 0.1,
        evals: [
          {
            id: 15,
            statement: 'No pull request number appears on two lines.',
            source: 'SKILL.md, line 21',
            defect_type: 'anti-pattern',
          },
        ],
      },
    ],
    scenarios: [
      {
        id: 'main',
        name: 'A normal release',
        description: 'Three merged pull requests, one of each kind.',
        context:
          'Since v1.2.0 we merged #41 "Add CSV export", #42 "Fix login timeout", #43 "Bump eslint". Version 1.3.0.',
        expected_assertions: [10, 11, 12, 13, 15],
        expected_output:
          'Release notes headed "## Release 1.3.0" with #41 under Features, #42 under Fixes and #43 under Internal.',
      },
      {
        id: 'internal-only',
        name: 'Only internal changes',
        description: 'The IF/THEN branch: nothing user-facing.',
        context:
          'Since v1.3.0 we merged only #44 "Refactor CI cache" and #45 "Rename a test helper". Version 1.3.1.',
        expected_assertions: [10, 12, 13, 14, 15],
        expected_output: 'Release notes headed "## Release 1.3.1" listing #44 and #45 under Internal only.',
      },
    ],
  };
}

/** An answer the checks refuse: a line that does not exist, no Anti-patterns category, one scenario. */
export function invalidAnswer(): AuthoredAnswer {
  const answer = validAnswer();
  return {
    categories: answer.categories
      .filter((c) => c.name !== 'Anti-patterns')
      .map((c, i) =>
        i === 0
          ? { ...c, evals: [{ ...c.evals[0]!, source: 'SKILL.md, lines 40-45' }, ...c.evals.slice(1)] }
          : c,
      ),
    scenarios: answer.scenarios.slice(0, 1),
  };
}
