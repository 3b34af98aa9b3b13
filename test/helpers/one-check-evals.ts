/** One scenario with one assertion, as loaded: the smallest evals a record kept between nights can key. */
import type { SkillEvals } from '../../src/core/iterate/evals.js';

export const ONE_CHECK_EVALS: SkillEvals = {
  evals: {
    skill: 'demo',
    version: '1',
    categories: [
      {
        name: 'Format',
        weight: 1,
        evals: [{ id: 1, statement: 'Has a Summary.', source: 'SKILL.md', defect_type: 'format' }],
      },
    ],
  } as SkillEvals['evals'],
  scenarios: [{ id: 's1', context: 'The flaky test.', expected_assertions: [1] }],
  requiredSections: undefined,
};
