/**
 * The Action's `mode: evals-init`: eval files written by the author model (served over HTTP by nock) for
 * the skills without any, in ONE pull request on `skillclimb/evals-init`; the base branch never gets a
 * commit. GitHub is nock at https://api.github.test; git is real (a bare origin, actions/checkout's
 * depth-1 checkout).
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import {
  cleanupTempDirs,
  git,
  GITHUB_API as API,
  makeRemote,
  nightContext,
  recordingLog,
} from '../helpers/github-fixtures.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import { SkillCreatorEvalsSchema } from '../helpers/skill-creator-schemas.js';

strictNock(cleanupTempDirs);

const NOW = new Date('2026-06-01T03:00:00Z');
const KEY = 'sk-ant-action-evals-key';

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

function inputs(values: Partial<Record<ActionInputName, string>> = {}) {
  return parseInputs(
    (name) =>
      ({
        'github-token': 'ghs_t',
        base: 'main',
        mode: 'evals-init',
        'anthropic-api-key': KEY,
        labels: 'skill-iterate',
        ...values,
      })[name] ?? '',
  );
}

async function collection() {
  return makeRemote(
    {
      'skills/alpha-notes/SKILL.md': releaseNotesSkill('alpha-notes'),
      'skills/set-up/SKILL.md': releaseNotesSkill('set-up'),
      'skills/set-up/evals/evals.json':
        '{"categories": [{"name": "x", "evals": [{"id": 1, "statement": "s"}]}]}',
      'skills/set-up/evals/test_scenarios.json': '{"scenarios": [{"id": "a", "context": "c"}]}',
      'skillclimb.config.json': JSON.stringify({ skills: ['skills/*'] }),
    },
    { checkout: 'actions' },
  );
}

describe('mode: evals-init', () => {
  it('writes the eval files of the skills without any and opens ONE pull request; main is untouched', async () => {
    const { origin, checkout } = await collection();
    const mainBefore = git(origin, 'rev-parse', 'main');
    nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: JSON.stringify(validAnswer()) }], {
          input_tokens: 1500,
          output_tokens: 700,
        }),
      );
    let created: Record<string, unknown> = {};
    const github = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(true)
      .reply(200, [])
      .post('/repos/acme/skills/pulls', (body: Record<string, unknown>) => {
        created = body;
        return true;
      })
      .reply(201, { number: 12, html_url: 'https://github.test/acme/skills/pull/12' })
      .post('/repos/acme/skills/issues/12/labels')
      .reply(200, []);
    const recorder = io();

    const result = await runPipeline(inputs(), await nightContext(checkout), recorder);

    expect(result.failure).toBeUndefined();
    expect(result.outputs['pull-request']).toBe('https://github.test/acme/skills/pull/12');
    expect(JSON.parse(result.outputs.queue)).toEqual(['alpha-notes']);
    expect(github.isDone()).toBe(true);
    expect(created).toMatchObject({ head: 'skillclimb/evals-init', base: 'main' });
    expect(String(created.title)).toBe(
      'skillclimb evals init: eval files for 1 skill (review before merging)',
    );
    expect(String(created.body).split('\n')[0]).toMatch(/^<!-- skillclimb:pr \{"skill":"evals-init"/);
    expect(String(created.body)).toContain('Review every assertion before merging');
    // One commit on the PR branch, on top of main, with exactly the two new files; main did not move.
    expect(git(origin, 'rev-parse', 'main')).toBe(mainBefore);
    expect(git(origin, 'rev-parse', 'skillclimb/evals-init^')).toBe(mainBefore);
    expect(
      git(origin, 'show', '--name-only', '--format=', 'skillclimb/evals-init').split('\n').sort(),
    ).toEqual(['skills/alpha-notes/evals/evals.json', 'skills/alpha-notes/evals/test_scenarios.json']);
    expect(
      JSON.parse(git(origin, 'show', 'skillclimb/evals-init:skills/alpha-notes/evals/evals.json')),
    ).toMatchObject({
      skill: 'alpha-notes',
      passing_threshold: '4/6',
    });
    expect(recorder.summaries.join('\n')).toContain(
      'Pull request [#12](https://github.test/acme/skills/pull/12) created',
    );
  });

  it('a dry run names the skills it would set up and calls no model and no API', async () => {
    const { checkout } = await collection();
    const recorder = io();
    const result = await runPipeline(inputs({ 'dry-run': 'true' }), await nightContext(checkout), recorder);
    expect(result.failure).toBeUndefined();
    expect(recorder.summaries.join('\n')).toContain('A real run would write eval files for: alpha-notes');
    expect(result.outputs['pull-request']).toBe('');
  });

  it('without a model it fails saying how to choose one, before writing anything', async () => {
    const { checkout } = await collection();
    await expect(
      runPipeline(inputs({ 'anthropic-api-key': '' }), await nightContext(checkout), io()),
    ).rejects.toThrow('evals init needs a model to write eval files');
    expect(git(checkout, 'status', '--porcelain')).toBe('');
  });

  it("writes the Agent Skills format in a repository that uses it, leaving skill-creator's file as it is", async () => {
    const skillCreator = `${JSON.stringify({
      skill_name: 'set-up',
      evals: [
        {
          id: 1,
          prompt: 'Set up the repo.',
          expected_output: 'A checklist.',
          expectations: ['Has a checklist'],
        },
      ],
    })}\n`;
    const { origin, checkout } = await makeRemote(
      {
        'skills/alpha-notes/SKILL.md': releaseNotesSkill('alpha-notes'),
        'skills/set-up/SKILL.md': releaseNotesSkill('set-up'),
        'skills/set-up/evals/evals.json': skillCreator,
        'skillclimb.config.json': JSON.stringify({ skills: ['skills/*'] }),
      },
      { checkout: 'actions' },
    );
    nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: JSON.stringify(validAnswer()) }], {
          input_tokens: 1500,
          output_tokens: 700,
        }),
      );
    nock(API)
      .get('/repos/acme/skills/pulls')
      .query(true)
      .reply(200, [])
      .post('/repos/acme/skills/pulls')
      .reply(201, { number: 13, html_url: 'https://github.test/acme/skills/pull/13' })
      .post('/repos/acme/skills/issues/13/labels')
      .reply(200, []);

    const result = await runPipeline(inputs(), await nightContext(checkout), io());

    expect(result.failure).toBeUndefined();
    // set-up's Agent Skills file counts as set up: only alpha-notes is written, in the same shape.
    expect(JSON.parse(result.outputs.queue)).toEqual(['alpha-notes']);
    expect(git(origin, 'show', '--name-only', '--format=', 'skillclimb/evals-init').trim()).toBe(
      'skills/alpha-notes/evals/evals.json',
    );
    const written = JSON.parse(
      git(origin, 'show', 'skillclimb/evals-init:skills/alpha-notes/evals/evals.json'),
    ) as unknown;
    expect(SkillCreatorEvalsSchema.parse(written).evals).toHaveLength(2);
    expect(git(origin, 'show', 'skillclimb/evals-init:skills/set-up/evals/evals.json')).toBe(
      skillCreator.trimEnd(),
    );
  });
});
