/**
 * From a public skills collection to a first night (issue 11's acceptance walk): a repository shaped like
 * the public collections — `skills/<name>/SKILL.md`, no evals, `.claude/skills` a link to `../skills` —
 * taken through `iterate --dry-run` (every skill named with why it is left out), `score --mode
 * structural` on each, `evals init` with model answers served over HTTP (valid files written, an invalid
 * answer repaired by a retry or refused, existing files untouched without --force), and a run of the
 * engine over the new evals.
 */
import { mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { main } from '../../src/cli/main.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { runIterate } from '../../src/iterate/run.js';
import { createScriptedModels } from '../../src/llm/scripted.js';
import type { Logger } from '../../src/ports/logger.js';
import { invalidAnswer, releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import { captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

strictNock();
afterEach(removeTempDirs);

const NOW = new Date('2026-06-01T02:00:00Z');
const KEY = 'sk-ant-onboarding-test-key';
const API = 'https://api.anthropic.com';
const SKILLS = ['alpha-notes', 'beta-review', 'gamma-digest'];

async function collection(): Promise<string> {
  const repo = await makeTempDir();
  for (const name of SKILLS) {
    await mkdir(path.join(repo, 'skills', name), { recursive: true });
    await writeFile(path.join(repo, 'skills', name, 'SKILL.md'), releaseNotesSkill(name));
  }
  await mkdir(path.join(repo, '.claude'), { recursive: true });
  await symlink('../skills', path.join(repo, '.claude', 'skills'));
  await writeFile(path.join(repo, 'README.md'), '# A skills collection\n');
  await writeFile(path.join(repo, '.gitignore'), 'results.tsv\n.skill-iterate.lock\n');
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'skills');
  return repo;
}

async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const io = captureIo(cwd, NOW);
  io.env = env;
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/** The Messages API answering with `answer` as the structured JSON text. */
function answers(bodies: Array<Record<string, unknown>>, ...replies: unknown[]): void {
  let scope = nock(API, { reqheaders: { 'x-api-key': KEY } });
  for (const reply of replies) {
    scope = scope
      .post('/v1/messages', (body: Record<string, unknown>) => {
        bodies.push(body);
        return true;
      })
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: JSON.stringify(reply) }], {
          input_tokens: 2000,
          output_tokens: 900,
        }),
      );
  }
}

describe('a public skills collection, from nothing to a first night', () => {
  it('dry run, structural scores, evals init, then a run over the new evals', async () => {
    const repo = await collection();

    // 1. The dry run names every skill and why it is left out; it does not claim they ran recently.
    const dry = await cli(['iterate', '--dry-run'], repo);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      [
        'Queue empty -- nothing to iterate. No skill found is ready to run:',
        ...SKILLS.map(
          (name) =>
            `  ${name}  (skills/${name}: no evals; run \`skillclimb evals init ${name}\` to write them, or score structure only with \`skillclimb iterate --mode structural\`)`,
        ),
        '',
      ].join('\n'),
    );

    // 2. Structure needs no evals: every skill scores.
    for (const name of SKILLS) {
      const scored = await cli(['score', `skills/${name}`, '--mode', 'structural', '--json'], repo);
      expect(scored.stderr).toBe('');
      expect(scored.code).toBe(0);
      const doc = JSON.parse(scored.stdout) as { mode: string; score: number };
      expect(doc.mode).toBe('structural');
      expect(doc.score).toBeGreaterThan(0.5);
    }

    // 3. evals init --all: alpha's first answer is valid; beta's first is not and the retry is; gamma's
    // second answer repeats the problems of its first, so no third is asked and nothing is written for it.
    const bodies: Array<Record<string, unknown>> = [];
    answers(bodies, validAnswer(), invalidAnswer(), validAnswer(), invalidAnswer(), invalidAnswer());
    const init = await cli(['evals', 'init', '--all'], repo, { ANTHROPIC_API_KEY: KEY });
    expect(init.code).toBe(1);
    expect(init.stdout).toContain('evals init: author anthropic:claude-sonnet-4-5 (default)\n');
    // A repository with no eval files gets the ecosystem's format: one evals.json per skill.
    expect(init.stdout).toContain(
      'alpha-notes: wrote skills/alpha-notes/evals/evals.json in the Agent Skills format ' +
        '(2 evals with 10 assertions, 83% discriminating); 1 answer, 1 model call, 2,900 tokens, estimated $',
    );
    expect(init.stdout).toContain('beta-review: wrote skills/beta-review/evals/evals.json');
    expect(init.stdout).toContain('; 2 answers, 2 model calls, 5,800 tokens, estimated $');
    expect(init.stderr).toContain(
      'warning: gamma-digest: refused: no valid eval files after 2 answers (answer 2 had the same problems ' +
        'as answer 1, so no further answer was asked); nothing was written.',
    );
    expect(init.stderr).toMatch(/; 2 answers spent, 2 model calls, 5,800 tokens, estimated \$\d/);
    expect(init.stdout).toMatch(
      /evals init: 2 written, 0 skipped, 1 refused; 5 model calls, 14,500 tokens, estimated \$\d/,
    );
    expect(await readdir(path.join(repo, 'skills', 'gamma-digest'))).toEqual(['SKILL.md']);
    // The retry told the model what was wrong with its previous answer.
    const retry = JSON.stringify(bodies[2]);
    expect(retry).toContain('Your previous answer could not be used');
    expect(retry).toContain(
      'SKILL.md line 21 states a rule (NEVER) that no assertion cites (\\"- NEVER list a pull request twice.\\")',
    );
    // Structured output on the wire, the SKILL.md quoted as data with its line numbers.
    expect(JSON.stringify(bodies[0])).toContain('json_schema');
    expect(JSON.stringify(bodies[0])).toContain('21 | - NEVER list a pull request twice.');

    // The written file is skill-creator's shape: each scenario an eval with its own expectations.
    const evalsFile = path.join(repo, 'skills', 'alpha-notes', 'evals', 'evals.json');
    const evals = JSON.parse(await readFile(evalsFile, 'utf8')) as { skill_name: string; evals: unknown[] };
    expect(evals.skill_name).toBe('alpha-notes');
    expect(evals.evals).toHaveLength(2);
    expect(evals.evals[0]).toMatchObject({
      id: 1,
      files: [],
      expected_output: expect.stringContaining('1.3.0'),
    });
    expect(await readdir(path.join(repo, 'skills', 'alpha-notes', 'evals'))).toEqual(['evals.json']);

    // 4. Existing files are never overwritten without --force (and no model is asked).
    const before = await readFile(evalsFile, 'utf8');
    const mtime = (await stat(evalsFile)).mtimeMs;
    const again = await cli(['evals', 'init', 'alpha-notes'], repo, { ANTHROPIC_API_KEY: KEY });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'alpha-notes: skipped: skills/alpha-notes/evals already has evals.json (Agent Skills format); pass --force to write it again',
    );
    expect(await readFile(evalsFile, 'utf8')).toBe(before);
    expect((await stat(evalsFile)).mtimeMs).toBe(mtime);

    // 5. The plan now queues the two skills with evals and still names the third.
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'eval files from skillclimb evals init');
    const plan = await cli(['iterate', '--dry-run', '--json'], repo);
    const planJson = JSON.parse(plan.stdout) as {
      queue: string[];
      excludedOther: Array<{ skill: string; reason: string }>;
    };
    expect(planJson.queue).toEqual(['alpha-notes', 'beta-review']);
    expect(planJson.excludedOther.map((e) => [e.skill, e.reason])).toEqual([['gamma-digest', 'no evals']]);

    // 6. A run over the new evals: the grader is asked the new assertions, rows land in the real folders.
    const graded: string[] = [];
    const models = createScriptedModels({
      render: (input) =>
        input.scenario.id === '1' ? '## Release 1.3.0\n- Add CSV export (#41)' : '## Release 1.3.1',
      grade: (input) => {
        graded.push(...input.assertions.map((a) => a.statement));
        return {
          verdicts: Object.fromEntries(input.assertions.map((a) => [String(a.id), { verdict: a.id !== 2 }])),
        };
      },
      propose: () => ({
        description: 'say where internal changes go',
        old_string: '2. Group them under Features, Fixes and Internal.',
        new_string: '2. Group them under the headings Features, Fixes and Internal.',
      }),
    });
    const log: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };
    const options: IterateOptions = {
      project: repo,
      skill: undefined,
      queueFile: undefined,
      perSkillBudgetMs: 3_600_000,
      perSkillIterations: 1,
      skipList: [],
      calibrate: false,
      dryRun: false,
      mode: 'composite',
      concurrency: 2,
      iterationTimeoutMs: 60_000,
      worktreeHome: await makeTempDir(),
      maxCostUsd: undefined,
    };
    const run = await runIterate(options, createLocalPorts(options, { models, log }));
    expect(run.queue).toEqual(['alpha-notes', 'beta-review']);
    expect(run.excludedOther?.map((e) => e.skill)).toEqual(['gamma-digest']);
    expect(run.results.map((r) => r.skill)).toEqual(['alpha-notes', 'beta-review']);
    expect(run.results.every((r) => r.baselineScore !== null && r.rows.length === 2)).toBe(true);
    expect(graded).toContain('The output has the headings Features, Fixes AND Internal.');
    for (const name of ['alpha-notes', 'beta-review']) {
      const rows = await readFile(path.join(repo, 'skills', name, 'evals', 'results.tsv'), 'utf8');
      // The scripted grader repeats itself: the baseline's first two draws agree, so no third is drawn.
      expect(rows.split('\n')[1]).toMatch(/\tbaseline\tinitial baseline \(mean of 2 trials, sd 0\.0000\)\t/);
    }
    expect(await readFile(run.summaryPath!, 'utf8')).toContain(
      '- gamma-digest (`skills/gamma-digest`): no evals',
    );
  }, 120_000);
});
