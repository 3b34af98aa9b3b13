/**
 * A plugin collection whose plugins each have a `setup` skill (issue 29 item 4), through the Action's
 * `mode: run`: both are iterated and shipped, each on its own branch and pull request, with an identity
 * that names its plugin (`billing.setup`, `search.setup`) in the branch, the PR title, the state branch
 * and the dashboard. Models are Anthropic's API served by nock (the real provider code runs); GitHub is a
 * recording stand-in on the loopback; git is real (a bare origin).
 */
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { git, makeRemote, nightContext, recordingLog } from '../helpers/github-fixtures.js';
import { serveSkillModels } from '../helpers/nock-skill-models.js';
import { useRecordingGitHub } from '../helpers/recording-github-hooks.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';

const NOW = new Date('2026-06-02T03:00:00Z');
const { github, apiUrl } = useRecordingGitHub();

/** `plugins/<plugin>/skills/<skill>/`: the layout of Claude Code plugin marketplaces. */
function pluginSkill(plugin: string, skill: string, body: string): Record<string, string> {
  const dir = `plugins/${plugin}/skills/${skill}`;
  return {
    [`${dir}/SKILL.md`]: `---\nname: ${skill}\ndescription: Set up the ${plugin} plugin.\n---\n# ${skill}\n\n${body}\n`,
    [`${dir}/evals/evals.json`]: VALID_EVALS,
    [`${dir}/evals/test_scenarios.json`]: VALID_SCENARIOS,
  };
}

function io(): ActionIo & { summaries: string[]; log: ReturnType<typeof recordingLog> } {
  const summaries: string[] = [];
  return {
    log: recordingLog(),
    summaries,
    startGroup: () => undefined,
    endGroup: () => undefined,
    writeSummary: async (markdown) => void summaries.push(markdown),
    now: () => NOW,
  };
}

describe('two plugins with a setup skill each', () => {
  it('are iterated and shipped on separate branches and PRs, each named by its plugin', async () => {
    const { origin, checkout } = await makeRemote(
      {
        ...pluginSkill('billing', 'setup', 'Write a HEADING. Configure the billing webhook.'),
        ...pluginSkill('search', 'setup', 'Write a HEADING. Build the search index.'),
        ...pluginSkill('search', 'reindex', 'Write a HEADING and list the FILES.'),
        '.gitignore': 'results.tsv\n',
      },
      { checkout: 'actions' },
    );
    // The grader passes 1 when the render (which quotes the SKILL.md) has HEADING, 2 when it has FILES:
    // each setup scores 0.5 until the editor's edit adds FILES.
    const bodies = serveSkillModels({
      render: ({ system }) => `RENDER ${system}`,
      grade: ({ text, ids }) =>
        ids.filter((id) => (id === 1 && text.includes('HEADING')) || (id === 2 && text.includes('FILES'))),
      propose: () => ({
        description: 'ask for the changed files',
        old_string: 'Write a HEADING.',
        new_string: 'Write a HEADING and list the FILES.',
      }),
    });
    const values: Partial<Record<ActionInputName, string>> = {
      'github-token': 'ghs_t',
      base: 'main',
      'anthropic-api-key': 'sk-ant-test',
      model: 'anthropic:claude-sonnet-4-5',
      skills: 'plugins/*/skills/*',
      'per-skill-iterations': '1',
    };
    const recorder = io();

    const result = await runPipeline(
      parseInputs((name) => values[name] ?? ''),
      await nightContext(checkout, { GITHUB_API_URL: apiUrl() }),
      recorder,
    );

    expect(result.failure).toBeUndefined();
    expect(bodies.editor.length).toBeGreaterThanOrEqual(2);
    // One stable branch per plugin's setup, each holding only its own skill's SKILL.md.
    const branches = git(origin, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/skill-iterate/')
      .trim()
      .split('\n');
    expect(branches).toEqual(['skill-iterate/billing.setup', 'skill-iterate/search.setup']);
    for (const plugin of ['billing', 'search']) {
      const files = git(origin, 'diff', '--name-only', 'main', `skill-iterate/${plugin}.setup`).trim();
      expect(files).toBe(`plugins/${plugin}/skills/setup/SKILL.md`);
      expect(
        git(origin, 'show', `skill-iterate/${plugin}.setup:plugins/${plugin}/skills/setup/SKILL.md`),
      ).toContain('Write a HEADING and list the FILES.');
    }
    // The PRs: one per skill, each title naming the plugin's skill.
    const created = github.requests.filter(
      (r) => r.method === 'POST' && r.url === '/repos/acme/skills/pulls',
    );
    expect(created.map((r) => [r.body?.head, String(r.body?.title).split(':')[0]])).toEqual([
      ['skill-iterate/billing.setup', 'skill-iterate'],
      ['skill-iterate/search.setup', 'skill-iterate'],
    ]);
    expect(String(created[0]!.body?.title)).toContain('billing.setup');
    expect(String(created[1]!.body?.title)).toContain('search.setup');
    // The state branch keeps each one's run under its identity; the reindex skill keeps its plain name.
    const state = git(origin, 'ls-tree', '-r', '--name-only', 'skill-iterate-state').trim().split('\n');
    expect(state).toEqual(
      expect.arrayContaining([
        'state/billing.setup/last-run.json',
        'state/search.setup/last-run.json',
        'state/reindex/last-run.json',
      ]),
    );
    expect(state.some((file) => file.startsWith('state/setup/'))).toBe(false);
    // The dashboard lists both under their identities.
    const dashboard = github.requests.find(
      (r) => r.method === 'POST' && r.url === '/repos/acme/skills/issues',
    );
    expect(String(dashboard?.body?.body)).toContain('billing.setup');
    expect(String(dashboard?.body?.body)).toContain('search.setup');
  }, 120_000);
});
