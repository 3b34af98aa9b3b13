/**
 * The night budget through the Action's `mode: run` (issue 28 item 4; docs/action.md § Night budget): the
 * first night stops starting skills once its spend reaches `night-budget`, its job summary and dashboard
 * say so with the figures, and `state/not-started.json` on the state branch holds the skills held back; the
 * next night queues them first. Models are Anthropic's API served by nock (the real provider code prices
 * each call); GitHub is a recording stand-in on the loopback; git is real (a bare origin).
 */
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import { runPipeline } from '../../src/action/main.js';
import { git, makeRemote, nightContext } from '../helpers/github-fixtures.js';
import { serveSkillModels } from '../helpers/nock-skill-models.js';
import { useRecordingGitHub } from '../helpers/recording-github-hooks.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';
import { recordingIo } from '../helpers/action-io.js';

const { github, apiUrl } = useRecordingGitHub();

function skill(name: string): Record<string, string> {
  const dir = `.claude/skills/${name}`;
  return {
    [`${dir}/SKILL.md`]: `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n\nWrite a HEADING.\n`,
    [`${dir}/evals/evals.json`]: VALID_EVALS,
    [`${dir}/evals/test_scenarios.json`]: VALID_SCENARIOS,
  };
}

async function night(checkout: string, now: Date, extra: Partial<Record<ActionInputName, string>>) {
  const values: Partial<Record<ActionInputName, string>> = {
    'github-token': 'ghs_t',
    base: 'main',
    'anthropic-api-key': 'sk-ant-test',
    model: 'anthropic:claude-sonnet-4-5',
    'per-skill-iterations': '1',
    trials: '1',
    'keep-rule': 'original',
    ...extra,
  };
  const recorder = recordingIo(now);
  const result = await runPipeline(
    parseInputs((name) => values[name] ?? ''),
    await nightContext(checkout, { GITHUB_API_URL: apiUrl() }),
    recorder,
  );
  return { result, summary: recorder.summaries.join('\n') };
}

describe('night-budget in the Action', () => {
  it('stops the night, says so in the job summary and the dashboard, and the next night runs the rest first', async () => {
    const { origin, checkout } = await makeRemote(
      {
        ...skill('aardvark'),
        ...skill('alpha'),
        ...skill('beta'),
        ...skill('gamma'),
        '.gitignore': 'results.tsv\n',
      },
      { checkout: 'actions' },
    );
    serveSkillModels({
      render: () => 'an answer',
      grade: () => [],
      propose: () => ({
        description: 'reword',
        old_string: 'Write a HEADING.',
        new_string: 'Write a title.',
      }),
    });

    // Night one: aardvark skip-listed; alpha alone spends more than $0.0002.
    const first = await night(checkout, new Date('2026-06-02T03:00:00Z'), {
      'night-budget': '0.0002',
      'skip-list': 'aardvark',
    });
    expect(first.result.failure).toBeUndefined();
    const figure =
      /Night budget of \$0\.0002 reached after \$(\d+\.\d{4}): 2 skills not started: beta, gamma — they run first next night\./.exec(
        first.summary,
      );
    expect(figure).not.toBeNull();
    expect(Number(figure![1])).toBeGreaterThan(0.0002);
    expect(first.summary).toContain('Processed 1 of 3 queued skills');
    expect(JSON.parse(git(origin, 'show', 'skill-iterate-state:state/not-started.json'))).toEqual({
      not_started: ['beta', 'gamma'],
    });
    const dashboard = github.requests.find(
      (r) => r.method === 'POST' && r.url === '/repos/acme/skills/issues',
    );
    const body = String(dashboard?.body?.body);
    const nextNight = body.slice(body.indexOf('## Next night'));
    expect(nextNight).toContain(figure![0]);
    expect(nextNight).toMatch(/due if it starts 24 h after this one: `?beta`?, `?gamma`?/);

    // Night two, a day later, no skip-list and no budget: the usual order would be aardvark, alpha, beta,
    // gamma; the skills held back go first, and once started they are no longer recorded.
    const second = await night(checkout, new Date('2026-06-03T03:00:00Z'), {});
    expect(second.result.failure).toBeUndefined();
    expect(second.summary).toContain(
      'Run first: beta, gamma (the night budget kept them from starting last night).',
    );
    expect(second.summary).toContain('- Queue: 4 skills (beta, gamma, aardvark, alpha)');
    expect(git(origin, 'ls-tree', '--name-only', 'skill-iterate-state', 'state/')).not.toContain(
      'state/not-started.json',
    );
  }, 180_000);
});
