/**
 * The Action's I/O as the pipeline tests record it (src/action/io.ts): the log lines, the job summaries
 * written and the log groups opened, at a fixed clock; and the files of one scorable skill of a night.
 */
import type { ActionIo } from '../../src/action/io.js';
import { recordingLog } from './github-fixtures.js';
import { VALID_EVALS, VALID_SCENARIOS } from './skill-project.js';

export interface RecordingIo extends ActionIo {
  log: ReturnType<typeof recordingLog>;
  /** `start <name>` and `end`, in order. */
  groups: string[];
  summaries: string[];
}

export function recordingIo(now = new Date('2026-05-24T03:00:00Z')): RecordingIo {
  const groups: string[] = [];
  const summaries: string[] = [];
  return {
    log: recordingLog(),
    groups,
    summaries,
    startGroup: (name) => void groups.push(`start ${name}`),
    endGroup: () => void groups.push('end'),
    writeSummary: async (markdown) => void summaries.push(markdown),
    now: () => now,
  };
}

/** `.claude/skills/<name>/` with a SKILL.md and valid evals/evals.json and test_scenarios.json. */
export const nightSkillFiles = (name: string): Record<string, string> => ({
  [`.claude/skills/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: test skill\n---\n# ${name}\n`,
  [`.claude/skills/${name}/evals/evals.json`]: VALID_EVALS,
  [`.claude/skills/${name}/evals/test_scenarios.json`]: VALID_SCENARIOS,
});
