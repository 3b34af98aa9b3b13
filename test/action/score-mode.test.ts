/**
 * The Action's `mode: score` on a pull_request event: the skills the pull request changes scored at the
 * base and at the head, ONE comment created and then edited on the next push, the job failed only on a
 * regression beyond the noise margin, and a fork's pull request without secrets scored on structure with
 * the reason. GitHub is nock at https://api.github.test, the models are Anthropic's API served by nock (the
 * real provider code runs), git is real: a bare origin with the pull request's merge commit, checked out the
 * way actions/checkout does on a pull_request event (depth 1, the merge commit).
 */
import { execFileSync } from 'node:child_process';
import { rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { structuralReason } from '../../src/action/steps/score.js';
import { scoreCommentMarker } from '../../src/github/markers.js';
import { liveParts } from '../helpers/markdown-liveness.js';
import {
  actionsCheckout,
  cleanupTempDirs,
  git,
  GITHUB_API as API,
  makeRemote,
  nightContext,
  recordingLog,
  tempDir,
  writeFiles,
} from '../helpers/github-fixtures.js';
import { strictNock } from '../helpers/nock-frame.js';
import { serveSkillModels, type SkillScript } from '../helpers/nock-skill-models.js';
import { VALID_EVALS, VALID_SCENARIOS } from '../helpers/skill-project.js';

strictNock(cleanupTempDirs);

const KEY = 'sk-ant-score-mode-key';
const NOW = new Date('2026-06-02T03:00:00Z');
const COMMENTS = '/repos/acme/skills/issues/7/comments';

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
        mode: 'score',
        'anthropic-api-key': KEY,
        model: 'anthropic:claude-sonnet-4-5',
        trials: '3',
        ...values,
      })[name] ?? '',
  );
}

/** A skill whose two assertions pass when its text names HEADING and FILES (see `script`). */
function skill(name: string, body: string): Record<string, string> {
  return {
    [`.claude/skills/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: test skill\n---\n# ${name}\n\n${body}\n`,
    [`.claude/skills/${name}/evals/evals.json`]: VALID_EVALS,
    [`.claude/skills/${name}/evals/test_scenarios.json`]: VALID_SCENARIOS,
  };
}

const BASE_FILES = {
  ...skill('alpha', 'Write a HEADING and list the FILES. Variant alpha-base.'),
  ...skill('beta', 'Write a HEADING and list the FILES. Variant beta-base.'),
  ...skill('gamma', 'Write a HEADING and list the FILES. Untouched.'),
};

interface PullRepo {
  origin: string;
  /** The contributor's clone, on branch `feature`. */
  work: string;
  base: string;
}

async function pullRepo(): Promise<PullRepo> {
  const { origin } = await makeRemote(BASE_FILES);
  const work = path.join(await tempDir(), 'work');
  execFileSync('git', ['clone', '--quiet', origin, work]);
  git(work, 'checkout', '--quiet', '-b', 'feature');
  return { origin, work, base: git(origin, 'rev-parse', 'main') };
}

/**
 * One push to the pull request: `files` committed on `feature`, and the merge commit GitHub makes for a
 * pull_request event (refs/pull/7/merge), checked out the way actions/checkout does. Returns the checkout
 * and the event payload's file.
 */
async function push(
  repo: PullRepo,
  files: Record<string, string>,
  headRepo = 'acme/skills',
): Promise<{ checkout: string; eventPath: string; head: string }> {
  await writeFiles(repo.work, files);
  git(repo.work, 'add', '-A');
  git(repo.work, '-c', 'user.name=c', '-c', 'user.email=c@example.test', 'commit', '--quiet', '-m', 'edit');
  const head = git(repo.work, 'rev-parse', 'HEAD');
  git(repo.work, 'push', '--quiet', '--force', 'origin', 'feature');
  git(repo.work, 'checkout', '--quiet', '--detach', repo.base);
  git(
    repo.work,
    '-c',
    'user.name=g',
    '-c',
    'user.email=g@example.test',
    'merge',
    '--quiet',
    '--no-ff',
    '-m',
    'merge',
    head,
  );
  const merge = git(repo.work, 'rev-parse', 'HEAD');
  git(repo.work, 'push', '--quiet', '--force', 'origin', `${merge}:refs/pull/7/merge`);
  git(repo.work, 'checkout', '--quiet', 'feature');
  const checkout = actionsCheckout(repo.origin, path.join(await tempDir(), 'checkout'), { commit: merge });
  const eventPath = path.join(await tempDir(), 'event.json');
  await writeFile(
    eventPath,
    JSON.stringify({
      pull_request: {
        number: 7,
        base: { sha: repo.base, repo: { full_name: 'acme/skills' } },
        head: { sha: head, repo: { full_name: headRepo } },
      },
    }),
  );
  return { checkout, eventPath, head };
}

async function prContext(checkout: string, eventPath: string) {
  return nightContext(checkout, {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_HEAD_REF: 'feature',
    GITHUB_EVENT_PATH: eventPath,
  });
}

/**
 * The render repeats the SKILL.md it was given; the grader passes assertion 1 when the render names
 * HEADING and assertion 2 when it names FILES. `flaky2` (text marker → pass pattern) makes assertion 2's
 * verdict depend on which draw of that text is graded, the k-th grade of the text passing when the
 * pattern's k-th entry is true: noise of a known size, whatever order the calls arrive in.
 */
function script(flaky2: Record<string, boolean[]> = {}): SkillScript {
  const seen = new Map<string, number>();
  return {
    render: ({ system }) => `RENDER ${system}`,
    grade: ({ text, ids }) => {
      const pass: number[] = [];
      if (ids.includes(1) && text.includes('HEADING')) pass.push(1);
      const marker = Object.keys(flaky2).find((m) => text.includes(m));
      let second = text.includes('FILES');
      if (marker !== undefined) {
        const k = seen.get(marker) ?? 0;
        seen.set(marker, k + 1);
        second = second && flaky2[marker]![k % flaky2[marker]!.length]!;
      }
      if (ids.includes(2) && second) pass.push(2);
      return pass;
    },
    propose: () => {
      throw new Error('mode: score never edits a skill');
    },
  };
}

/**
 * GitHub's comments of the pull request: what `GET` answers, and the one write expected (a POST creating the
 * comment, or a PATCH editing comment `edit`), recorded.
 */
function commentsApi(
  existing: Array<{ id: number; body: string; user: { type: string; login: string } }>,
  edit?: number,
) {
  const writes: Array<{ method: string; body: string }> = [];
  const scope = nock(API).get(COMMENTS).query({ per_page: '100' }).reply(200, existing);
  if (edit === undefined) {
    scope
      .post(COMMENTS, (b: { body: string }) => (writes.push({ method: 'POST', body: b.body }), true))
      .reply(201, { id: 901, html_url: 'https://github.test/acme/skills/pull/7#issuecomment-901' });
  } else {
    scope
      .patch(
        `/repos/acme/skills/issues/comments/${edit}`,
        (b: { body: string }) => (writes.push({ method: 'PATCH', body: b.body }), true),
      )
      .reply(200, { id: edit, html_url: `https://github.test/acme/skills/pull/7#issuecomment-${edit}` });
  }
  return { scope, writes };
}

describe('mode: score', () => {
  it('posts ONE comment for a pull request touching two skills, edits it on the next push, and fails on a regression', async () => {
    const repo = await pullRepo();
    serveSkillModels(script());
    // alpha loses FILES (assertion 2 never passes any more); beta's edit changes no verdict.
    const first = await push(repo, {
      '.claude/skills/alpha/SKILL.md': BASE_FILES['.claude/skills/alpha/SKILL.md']!.replace(
        'list the FILES',
        'list the NAMES',
      ),
      '.claude/skills/beta/SKILL.md': BASE_FILES['.claude/skills/beta/SKILL.md']!.replace(
        'beta-base',
        'beta-head',
      ),
    });
    const api1 = commentsApi([
      // A person's comment quoting the marker is not the Action's.
      { id: 5, body: `${scoreCommentMarker()}\nme too`, user: { type: 'User', login: 'someone' } },
    ]);
    const recorder = io();

    const result = await runPipeline(inputs(), await prContext(first.checkout, first.eventPath), recorder);

    expect(api1.writes.map((w) => w.method)).toEqual(['POST']);
    const body = api1.writes[0]!.body;
    expect(body.split('\n')[0]).toBe(scoreCommentMarker());
    expect(body).toMatch(/\| alpha \| \d\.\d{4} → \d\.\d{4} \| -\d\.\d{4} \| 🔻 regression \|/);
    expect(body).toMatch(/\| beta \| (\d\.\d{4}) → \1 \| \+0\.0000 \| = unchanged \|/);
    expect(body).not.toContain('gamma');
    expect(body).toContain(
      '- assertion 2 "Names the changed files.": passed 3 of 3 at the base → 0 of 3 at the head',
    );
    expect(body).toContain('3 independent draws per side');
    expect(body).toContain('Uplift at the head:');
    expect(result.failure).toBe(
      'skill scores: alpha regressed beyond the noise margin (fail-on: regression; set fail-on: never to only report)',
    );
    expect(JSON.parse(result.outputs.regressions!)).toEqual([
      expect.objectContaining({ skill: 'alpha', needed: 0 }),
    ]);
    expect(result.outputs['comment-url']).toBe('https://github.test/acme/skills/pull/7#issuecomment-901');
    expect(recorder.summaries).toEqual([body]);
    // The base's worktree is gone again.
    expect(git(first.checkout, 'worktree', 'list').split('\n')).toHaveLength(1);

    // The next push restores FILES: the same comment is edited, no second one is created.
    const second = await push(repo, {
      '.claude/skills/alpha/SKILL.md': BASE_FILES['.claude/skills/alpha/SKILL.md']!.replace(
        'alpha-base',
        'alpha-head',
      ),
    });
    const api2 = commentsApi(
      [
        { id: 5, body: `${scoreCommentMarker()}\nme too`, user: { type: 'User', login: 'someone' } },
        { id: 901, body, user: { type: 'Bot', login: 'github-actions[bot]' } },
      ],
      901,
    );
    const again = await runPipeline(inputs(), await prContext(second.checkout, second.eventPath), io());
    expect(api2.writes.map((w) => w.method)).toEqual(['PATCH']);
    expect(api2.writes[0]!.body).not.toContain('regression |');
    expect(api2.writes[0]!.body).toContain('No skill regressed beyond the noise margin.');
    expect(again.failure).toBeUndefined();
    expect(again.outputs['comment-url']).toBe('https://github.test/acme/skills/pull/7#issuecomment-901');
  });

  it('passes on a noise-sized change: a lower mean within the margin is not a regression', async () => {
    const repo = await pullRepo();
    // Base: assertion 2 passes 2 of 3 draws; head: 1 of 3. The spread of the draws is larger than the drop.
    serveSkillModels(script({ 'alpha-base': [true, true, false], 'alpha-head': [true, false, false] }));
    const pr = await push(repo, {
      '.claude/skills/alpha/SKILL.md': BASE_FILES['.claude/skills/alpha/SKILL.md']!.replace(
        'alpha-base',
        'alpha-head',
      ),
    });
    const api = commentsApi([]);
    const result = await runPipeline(inputs(), await prContext(pr.checkout, pr.eventPath), io());
    expect(result.failure).toBeUndefined();
    const body = api.writes[0]!.body;
    expect(body).toMatch(
      /\| alpha \| \d\.\d{4} → \d\.\d{4} \| -\d\.\d{4} \(90 % interval -\d\.\d{4} to \+\d\.\d{4}\) \| ≈ within noise \|/,
    );
    expect(body).toContain('passed 2 of 3 at the base → 1 of 3 at the head');
    expect(JSON.parse(result.outputs.regressions!)).toEqual([]);
  });

  it("gives a fork's pull request without secrets the structural scores and says why", async () => {
    const repo = await pullRepo();
    const pr = await push(
      repo,
      {
        // A structural drop: the headings go, and the config the pull request adds is not obeyed.
        '.claude/skills/alpha/SKILL.md':
          '---\nname: alpha\ndescription: test skill\n---\nno headings at all\n',
        'skillclimb.config.json': JSON.stringify({ model: 'openai:gpt-5', skills: ['nowhere/*'] }),
      },
      'stranger/skills',
    );
    const api = commentsApi([]);
    const result = await runPipeline(
      inputs({ 'anthropic-api-key': '', model: '', 'fail-on': 'never' }),
      await prContext(pr.checkout, pr.eventPath),
      io(),
    );
    const body = api.writes[0]!.body;
    expect(body).toContain('**Structural scores only**');
    expect(body).toContain(
      "This pull request comes from the fork stranger/skills: GitHub gives workflows on a fork's pull request no secrets",
    );
    expect(body).toMatch(/\| alpha \| \d\.\d{4} → \d\.\d{4} \| -\d\.\d{4} \| 🔻 regression \|/);
    expect(body).toContain('(fail-on: never — the check passes)');
    expect(result.failure).toBeUndefined();
  });

  it("warns when a fork's read-only token may not write the comment; the job summary has it", async () => {
    const repo = await pullRepo();
    const pr = await push(
      repo,
      {
        '.claude/skills/alpha/SKILL.md': BASE_FILES['.claude/skills/alpha/SKILL.md']!.replace(
          'alpha-base',
          'alpha-head',
        ),
      },
      'stranger/skills',
    );
    nock(API)
      .get(COMMENTS)
      .query({ per_page: '100' })
      .reply(200, [])
      .post(COMMENTS)
      .reply(403, { message: 'Resource not accessible by integration' });
    const recorder = io();
    const result = await runPipeline(
      inputs({ 'anthropic-api-key': '', model: '' }),
      await prContext(pr.checkout, pr.eventPath),
      recorder,
    );
    expect(result.failure).toBeUndefined();
    expect(result.outputs['comment-url']).toBe('');
    expect(recorder.summaries[0]).toContain('| alpha |');
    expect(recorder.log.warnings.join('\n')).toContain(
      "the score comment could not be written (HTTP 403: Resource not accessible by integration): a fork's pull request gets a read-only token",
    );
  });

  it('writes no comment on a pull request that touches no skill, and updates one that did', async () => {
    const repo = await pullRepo();
    const pr = await push(repo, { 'README.md': 'docs only\n' });
    nock(API).get(COMMENTS).query({ per_page: '100' }).reply(200, []);
    const first = await runPipeline(
      inputs({ 'anthropic-api-key': '', model: '' }),
      await prContext(pr.checkout, pr.eventPath),
      io(),
    );
    expect(first.outputs['comment-url']).toBe('');
    expect(first.failure).toBeUndefined();
    const earlier = `${scoreCommentMarker()}\nold scores`;
    const api = commentsApi(
      [{ id: 902, body: earlier, user: { type: 'Bot', login: 'github-actions[bot]' } }],
      902,
    );
    await runPipeline(
      inputs({ 'anthropic-api-key': '', model: '' }),
      await prContext(pr.checkout, pr.eventPath),
      io(),
    );
    expect(api.writes[0]!.body).toContain('This pull request changes no skill folder.');
  });

  it('a dry run writes the comment to the job summary only', async () => {
    const repo = await pullRepo();
    const pr = await push(repo, {
      '.claude/skills/alpha/SKILL.md': BASE_FILES['.claude/skills/alpha/SKILL.md']!.replace(
        'alpha-base',
        'alpha-head',
      ),
    });
    const recorder = io();
    const result = await runPipeline(
      inputs({ 'anthropic-api-key': '', model: '', 'dry-run': 'true' }),
      await prContext(pr.checkout, pr.eventPath),
      recorder,
    );
    // No GitHub request at all: strictNock fails the test on any unexpected one.
    expect(recorder.summaries).toHaveLength(1);
    expect(recorder.summaries[0]).toMatch(/^<!-- skillclimb:score -->\n/);
    expect(recorder.summaries[0]).toContain('| alpha |');
    expect(recorder.log.infos).toContain('dry run: the comment is in the job summary and was not written');
    expect(result.outputs['comment-url']).toBe('');
  });

  it("never reads a pull request's SKILL.md that links to a file elsewhere on the runner", async () => {
    const repo = await pullRepo();
    const secretFile = path.join(await tempDir(), 'runner-secret.txt');
    await writeFile(secretFile, 'RUNNER-SECRET-CONTENT');
    const bodies = serveSkillModels(script());
    await rm(path.join(repo.work, '.claude/skills/beta/SKILL.md'));
    await symlink(secretFile, path.join(repo.work, '.claude/skills/beta/SKILL.md'));
    const pr = await push(repo, {});
    const api = commentsApi([]);
    const result = await runPipeline(inputs(), await prContext(pr.checkout, pr.eventPath), io());
    const body = api.writes[0]!.body;
    expect(body).toMatch(/\| beta \| \d\.\d{4} → no score \(harness-error\) \| — \| — not compared \|/);
    expect(body).toMatch(/The head could not be scored \(harness-error: .*link/);
    expect(body).not.toContain('RUNNER-SECRET-CONTENT');
    expect(JSON.stringify(bodies)).not.toContain('RUNNER-SECRET-CONTENT');
    expect(result.failure).toBeUndefined();
  });

  it('refuses an event without a pull request, and pull_request_target unless allowed', async () => {
    const repo = await pullRepo();
    const pr = await push(repo, { '.claude/skills/beta/SKILL.md': 'x' });
    await expect(
      runPipeline(
        inputs(),
        await nightContext(pr.checkout, { GITHUB_EVENT_NAME: 'workflow_dispatch' }),
        io(),
      ),
    ).rejects.toThrow(
      "mode: score needs a pull_request event (this run's event is workflow_dispatch): GITHUB_EVENT_PATH is not set",
    );
    await expect(
      runPipeline(
        inputs(),
        await nightContext(pr.checkout, {
          GITHUB_EVENT_NAME: 'pull_request_target',
          GITHUB_HEAD_REF: 'feature',
          GITHUB_EVENT_PATH: pr.eventPath,
        }),
        io(),
      ),
    ).rejects.toThrow(/^refusing to run in a pull-request context \(event pull_request_target/);
  });
});

describe('structuralReason', () => {
  it("quotes a fork's name inert", () => {
    const reason = structuralReason(
      {
        number: 1,
        baseSha: 'a'.repeat(40),
        headSha: 'b'.repeat(40),
        headRepo: '@octocat/x#1',
        baseRepo: 'acme/skills',
      },
      false,
      'a'.repeat(40),
    );
    expect(reason).toContain('comes from the fork');
    expect(liveParts(reason.replace(/`[^`]*`/, ''))).toEqual([]);
  });
});
