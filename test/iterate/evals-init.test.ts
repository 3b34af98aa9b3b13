/** `skillclimb evals init` for one skill: overwrite rules, --keep-scenarios, links, unusable answers; and the command's refusals. */
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { AuthoredAnswer } from '../../src/core/iterate/evals-authoring.js';
import { ModelOutputError } from '../../src/core/model-answers.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import { initSkillEvals } from '../../src/iterate/evals-init.js';
import type { EvalsAuthor } from '../../src/ports/evals-author.js';
import type { EvalsAuthorPromptInput } from '../../src/core/iterate/evals-author-prompt.js';
import type { Logger } from '../../src/ports/logger.js';
import { resultLine } from '../../src/cli/commands/evals.js';
import { invalidAnswer, releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { captureIo, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

const log: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };
const signal = () => new AbortController().signal;

/** An author that answers from a list (an Error is thrown), recording what it was asked. */
function author(
  ...replies: Array<AuthoredAnswer | Error>
): EvalsAuthor & { asked: EvalsAuthorPromptInput[] } {
  const asked: EvalsAuthorPromptInput[] = [];
  return {
    modelId: 'test:author',
    asked,
    async author(input) {
      asked.push(input);
      const reply = replies[asked.length - 1];
      if (reply === undefined) throw new Error('no more answers');
      if (reply instanceof Error) throw reply;
      return {
        value: reply,
        usage: { ...ZERO_USAGE, calls: 1, inputTokens: 100, outputTokens: 50 },
        raw: JSON.stringify(reply),
      };
    },
  };
}

async function skillAt(
  project: string,
  name = 'notes',
): Promise<{ dir: string; skill: { name: string; dir: string } }> {
  const dir = path.join(project, 'skills', name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), releaseNotesSkill(name));
  return { dir, skill: { name, dir: `skills/${name}` } };
}

const options = (project: string, extra: { force?: boolean; keepScenarios?: boolean } = {}) => ({
  project,
  repository: project,
  force: extra.force ?? false,
  keepScenarios: extra.keepScenarios ?? false,
  format: { format: 'original' as const, explicit: false },
});

describe('initSkillEvals', () => {
  it('asks again after an unusable answer and counts what both cost', async () => {
    const project = await makeTempDir();
    const { skill } = await skillAt(project);
    const double = author(
      new ModelOutputError('author', 'no JSON object in the answer', 'garbled', {
        ...ZERO_USAGE,
        calls: 1,
        inputTokens: 7,
      }),
      validAnswer(),
    );
    const result = await initSkillEvals(skill, options(project), { author: double, log, signal: signal() });
    expect(result).toMatchObject({
      status: 'written',
      attempts: 2,
      files: ['skills/notes/evals/evals.json', 'skills/notes/evals/test_scenarios.json'],
    });
    expect(result.usage).toMatchObject({ calls: 2, inputTokens: 107 });
    expect(double.asked[1]?.retry).toEqual({
      answer: 'garbled',
      problems: ['author answer unusable: no JSON object in the answer'],
    });
  });

  it('stops asking when an answer repeats the problems it was shown, and the refusal names the rule, the line and the cost', async () => {
    const project = await makeTempDir();
    const { dir, skill } = await skillAt(project);
    const uncited = validAnswer();
    uncited.categories[3]!.evals[0]!.source = 'SKILL.md, line 22';
    const stubborn = author(uncited, uncited, uncited);

    const result = await initSkillEvals(skill, options(project), { author: stubborn, log, signal: signal() });

    expect(stubborn.asked).toHaveLength(2);
    expect(result).toMatchObject({ status: 'refused', attempts: 2, files: [] });
    expect(result.reason).toBe(
      'no valid eval files after 2 answers (answer 2 had the same problems as answer 1, so no further answer ' +
        'was asked); nothing was written. Last problems: SKILL.md line 21 states a rule (NEVER) that no ' +
        'assertion cites ("- NEVER list a pull request twice."); cite it as "SKILL.md, line 21"',
    );
    expect(resultLine(result)).toBe(
      `notes: refused: ${result.reason}; 2 answers spent, 2 model calls, 300 tokens, cost unknown (no price for the model)`,
    );
    expect(await readdir(dir)).toEqual(['SKILL.md']);
  });

  it('answers whose problems change are asked for up to three times', async () => {
    const project = await makeTempDir();
    const { skill } = await skillAt(project);
    const uncited = validAnswer();
    uncited.categories[3]!.evals[0]!.source = 'SKILL.md, line 22';
    const changing = author(invalidAnswer(), uncited, invalidAnswer());

    const result = await initSkillEvals(skill, options(project), { author: changing, log, signal: signal() });

    expect(changing.asked).toHaveLength(3);
    expect(result).toMatchObject({ status: 'refused', attempts: 3 });
    expect(result.reason).toMatch(
      /^no valid eval files after 3 answers; nothing was written\. Last problems: /,
    );
  });

  it('--force overwrites both files; --keep-scenarios writes evals.json only and keeps the scenarios byte for byte', async () => {
    const project = await makeTempDir();
    const { dir, skill } = await skillAt(project);
    await initSkillEvals(skill, options(project), { author: author(validAnswer()), log, signal: signal() });
    const scenarios = path.join(dir, 'evals', 'test_scenarios.json');
    const kept = `${JSON.stringify({ scenarios: [{ id: 'mine', context: 'Since v2 we merged #7.', expected_assertions: [1, 3] }] }, null, 4)}\n`;
    await writeFile(scenarios, kept);

    const refused = await initSkillEvals(skill, options(project, { keepScenarios: true }), {
      author: author(),
      log,
      signal: signal(),
    });
    expect(refused).toMatchObject({
      status: 'skipped',
      reason: 'skills/notes/evals/evals.json exists; pass --force to write it again',
    });

    const answer = validAnswer();
    let id = 1;
    for (const c of answer.categories) for (const a of c.evals) a.id = id++;
    const double = author(answer);
    const result = await initSkillEvals(skill, options(project, { keepScenarios: true, force: true }), {
      author: double,
      log,
      signal: signal(),
    });
    expect(result).toMatchObject({ status: 'written', files: ['skills/notes/evals/evals.json'] });
    expect(await readFile(scenarios, 'utf8')).toBe(kept);
    expect(double.asked[0]?.keptScenarios?.map((s) => s.id)).toEqual(['mine']);

    const forced = await initSkillEvals(skill, options(project, { force: true }), {
      author: author(validAnswer()),
      log,
      signal: signal(),
    });
    expect(forced.files).toEqual(['skills/notes/evals/evals.json', 'skills/notes/evals/test_scenarios.json']);
    expect(await readFile(scenarios, 'utf8')).not.toBe(kept);
  });

  it('refuses a linked SKILL.md without asking the model or writing anything', async () => {
    const project = await makeTempDir();
    const outside = await makeTempDir();
    const { dir, skill } = await skillAt(project);
    await writeFile(path.join(outside, 'other.md'), releaseNotesSkill('other'));
    await rm(path.join(dir, 'SKILL.md'));
    await symlink(path.join(outside, 'other.md'), path.join(dir, 'SKILL.md'));
    const double = author(validAnswer());
    const result = await initSkillEvals(skill, options(project), { author: double, log, signal: signal() });
    expect(result).toMatchObject({
      status: 'refused',
      reason: 'symlink: skills/notes/SKILL.md is a symbolic link; replace the link by the files themselves',
    });
    expect(double.asked).toEqual([]);
    expect(await readdir(dir)).toEqual(['SKILL.md']);
  });

  it('a model call that fails is a refusal with the reason, nothing written', async () => {
    const project = await makeTempDir();
    const { dir, skill } = await skillAt(project);
    const result = await initSkillEvals(skill, options(project), {
      author: author(new Error('HTTP 529: Overloaded')),
      log,
      signal: signal(),
    });
    expect(result).toMatchObject({
      status: 'refused',
      reason: 'the model call failed: HTTP 529: Overloaded',
      attempts: 1,
    });
    expect(await readdir(dir)).toEqual(['SKILL.md']);
  });
});

describe('skillclimb evals init refuses before any model call', () => {
  async function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
    const io = captureIo(cwd);
    io.env = env;
    const code = await main(argv, io);
    return { code, stdout: io.stdout(), stderr: io.stderr() };
  }

  it('offline: says how to choose a model (exit 2)', async () => {
    const project = await makeTempDir();
    await skillAt(project);
    const { code, stderr } = await run(['evals', 'init', 'notes', '--skills', 'skills/*'], project);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'evals init needs a model to write eval files, and the offline provider cannot write them',
    );
    expect(stderr).toContain('--author-model provider:model');
    expect(stderr).toContain('"models": {"author": "provider:model"} in skillclimb.config.json');
  });

  it('a name the skills setting does not find, or finds outside it, is bad usage naming the setting', async () => {
    const project = await makeTempDir();
    await skillAt(project);
    const env = { ANTHROPIC_API_KEY: 'sk-ant-never-sent' };
    const outside = await run(['evals', 'init', 'notes'], project, env);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(
      'notes: it is at skills/notes, outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer); add "skills/*" to the setting',
    );
    const missing = await run(['evals', 'init', 'ghost', '--skills', 'skills/*'], project, env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'ghost: no skill folder named ghost matches the skills setting (skills/*)',
    );
    const both = await run(['evals', 'init', 'notes', '--all'], project, env);
    expect(both.stderr).toContain('name skills or pass --all, not both');
  });

  it('--all with every skill set up says so and asks nothing', async () => {
    const project = await makeTempDir();
    const { dir } = await skillAt(project);
    await mkdir(path.join(dir, 'evals'));
    await writeFile(path.join(dir, 'evals', 'evals.json'), '{}');
    const { code, stdout } = await run(['evals', 'init', '--all', '--skills', 'skills/*'], project, {
      ANTHROPIC_API_KEY: 'sk-ant-x',
    });
    expect(code).toBe(0);
    expect(stdout).toContain(
      'evals init: every skill the setting finds already has eval files (pass --force to write them again)',
    );
  });
});
