/**
 * The dashboard shows the Agent Skills rules the skills break (issue 29 item 2): the Action's dry run, whose
 * plan lists them too, through the real pipeline. GitHub is nock (no request is made on a dry run); git is
 * real (a bare origin).
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parseInputs } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { fakeIssues } from '../helpers/dashboard-github.js';
import { GITHUB_API as API, makeRemote, nightContext, recordingLog } from '../helpers/github-fixtures.js';
import { looseNock } from '../helpers/nock-frame.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';

looseNock();

describe('the dashboard of a dry run', () => {
  it('lists each rule a SKILL.md breaks with its file and field, and the plan does too', async () => {
    const fake = fakeIssues(API);
    nock(API).persist().get(/.*/).reply(404, { message: 'Not Found' });
    const { checkout } = await makeRemote(
      {
        '.claude/skills/alpha/SKILL.md': '---\nname: Alpha\ndescription: Sorts the inbox.\n---\n# Alpha\n',
        '.claude/skills/alpha/evals/evals.json': VALID_EVALS,
        '.claude/skills/alpha/evals/test_scenarios.json': VALID_SCENARIOS,
        '.claude/skills/beta/SKILL.md':
          '---\nname: beta\ndescription: Files receipts.\nowner: ops\n---\n# Beta\n',
      },
      { checkout: 'actions' },
    );
    const summaries: string[] = [];
    const log = recordingLog();
    const io: ActionIo = {
      log,
      startGroup: () => undefined,
      endGroup: () => undefined,
      writeSummary: async (markdown) => void summaries.push(markdown),
      now: () => new Date('2026-05-24T03:00:00Z'),
    };
    const values: Record<string, string> = { 'github-token': 'ghs_t', base: 'main', 'dry-run': 'true' };
    await runPipeline(
      parseInputs((name) => values[name] ?? ''),
      await nightContext(checkout),
      io,
    );
    expect(fake.requests).toEqual([]);
    const alpha =
      '.claude/skills/alpha/SKILL.md: name: "Alpha" may hold only lowercase letters, digits and hyphens';
    const beta =
      '.claude/skills/beta/SKILL.md: owner: not a field of the specification (line 4; it knows name, description, ' +
      'license, compatibility, metadata, allowed-tools; put your own under metadata)';
    const shown = summaries.join('\n');
    expect(shown).toContain('## Agent Skills specification');
    expect(shown).toContain('3 rules of the [specification](https://agentskills.io/specification) broken');
    // Repository text is made inert in the issue body; quotes need no entity (src/core/text/neutralise.ts).
    expect(shown).toContain(`- ${alpha}`);
    expect(shown).toContain(`- ${beta}`);
    expect(log.infos.join('\n')).toContain(`Agent Skills specification (the skills still run):\n  ${alpha}`);
  });
});
