/**
 * Eval folders git ignores (issue 21 item 3), on a collection shaped like obra/superpowers: `skills/*`
 * and a root `.gitignore` with `evals/`. `evals init`, the plan and the Action's evals-init mode say so
 * with the exact line that un-ignores them (`!skills/*\/evals/`), `--unignore` writes it, and nothing
 * tells the user to commit what git refuses. Model answers are nock-served; git is real.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import type { ActionIo } from '../../src/action/io.js';
import { runPipeline } from '../../src/action/main.js';
import { main } from '../../src/cli/main.js';
import { appendGitignoreLines, ignoredPaths } from '../../src/git/ignored.js';
import { findIgnoredEvals } from '../../src/iterate/ignored-evals.js';
import { releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { makeRemote, nightContext, recordingLog } from '../helpers/github-fixtures.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import { captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

strictNock();
afterEach(removeTempDirs);

const KEY = 'sk-ant-ignored-evals-key';

async function superpowers(): Promise<string> {
  const repo = await makeTempDir();
  for (const name of ['brainstorming', 'writing-plans']) {
    await mkdir(path.join(repo, 'skills', name), { recursive: true });
    await writeFile(path.join(repo, 'skills', name, 'SKILL.md'), releaseNotesSkill(name));
  }
  await writeFile(path.join(repo, '.gitignore'), 'node_modules/\nevals/\n');
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'skills');
  return repo;
}

async function cli(argv: string[], cwd: string) {
  const io = captureIo(cwd, new Date('2026-06-01T02:00:00Z'));
  io.env = { ANTHROPIC_API_KEY: KEY };
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

function oneAnswer(): void {
  nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
    .post('/v1/messages')
    .reply(
      200,
      anthropicMessage([{ type: 'text', text: JSON.stringify(validAnswer()) }], {
        input_tokens: 2000,
        output_tokens: 900,
      }),
    );
}

async function gitAddRefused(repo: string, file: string): Promise<boolean> {
  return git(repo, 'add', file).then(
    () => false,
    () => true,
  );
}

describe('eval files git ignores', () => {
  it('evals init says so with the exact .gitignore line, and does not say "commit them" as if git would', async () => {
    const repo = await superpowers();
    oneAnswer();
    const init = await cli(['evals', 'init', 'brainstorming', '--skills', 'skills/*'], repo);
    expect(init.code).toBe(0);
    expect(init.stderr).toContain(
      'git ignores the eval files of 1 skill (brainstorming): .gitignore:2: evals/',
    );
    expect(init.stderr).toContain('add `!skills/*/evals/` to .gitignore (or pass --unignore to add it)');
    expect(init.stdout).toContain('Git ignores them: add `!skills/*/evals/` to .gitignore');
    expect(init.stdout).not.toContain('commit them, then');
    // What it warned about is true: git refuses the file.
    expect(await gitAddRefused(repo, 'skills/brainstorming/evals/evals.json')).toBe(true);
    // The line it names is the one that works.
    await writeFile(path.join(repo, '.gitignore'), 'node_modules/\nevals/\n!skills/*/evals/\n');
    expect(await gitAddRefused(repo, 'skills/brainstorming/evals/evals.json')).toBe(false);
  });

  it('--unignore writes the line; then git adds the files', async () => {
    const repo = await superpowers();
    oneAnswer();
    const init = await cli(['evals', 'init', 'writing-plans', '--skills', 'skills/*', '--unignore'], repo);
    expect(init.code).toBe(0);
    expect(await readFile(path.join(repo, '.gitignore'), 'utf8')).toBe(
      'node_modules/\nevals/\n!skills/*/evals/\n',
    );
    expect(init.stderr).not.toContain('git ignores');
    expect(init.stdout).toContain(
      'commit them with .gitignore, then run `skillclimb iterate --dry-run --skills',
    );
    expect(await gitAddRefused(repo, 'skills/writing-plans/evals/evals.json')).toBe(false);
  });

  it('the plan names ignored eval files with the line, once', async () => {
    const repo = await superpowers();
    const dry = await cli(['iterate', '--dry-run', '--mode', 'structural', '--skills', 'skills/*'], repo);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'Ignored by git:\n  git ignores the eval files of 2 skills (brainstorming, writing-plans)',
    );
    expect(dry.stdout).toContain('`!skills/*/evals/` to .gitignore');
  });

  it("the Action's evals-init dry run says so too", async () => {
    const { checkout } = await makeRemote(
      {
        'skills/brainstorming/SKILL.md': releaseNotesSkill('brainstorming'),
        '.gitignore': 'evals/\n',
        'skillclimb.config.json': JSON.stringify({ skills: ['skills/*'] }),
      },
      { checkout: 'actions' },
    );
    const summaries: string[] = [];
    const io: ActionIo = {
      log: recordingLog(),
      startGroup: () => undefined,
      endGroup: () => undefined,
      writeSummary: async (markdown) => void summaries.push(markdown),
      now: () => new Date('2026-06-01T03:00:00Z'),
    };
    const values: Partial<Record<ActionInputName, string>> = {
      'github-token': 'ghs_t',
      base: 'main',
      mode: 'evals-init',
      'anthropic-api-key': KEY,
      'dry-run': 'true',
    };
    const inputs = parseInputs((name) => values[name] ?? '');
    const result = await runPipeline(inputs, await nightContext(checkout), io);
    expect(result.failure).toBeUndefined();
    expect(summaries.join('\n')).toContain('.gitignore:1: evals/');
    expect(summaries.join('\n')).toContain('`!skills/*/evals/` to .gitignore');
  });

  it('a rule in a nested .gitignore is un-ignored in that file; a file rule by file; the lines work', async () => {
    const repo = await superpowers();
    await writeFile(path.join(repo, '.gitignore'), '*.json\n');
    await writeFile(path.join(repo, 'skills', 'brainstorming', '.gitignore'), 'evals/\n');
    const skills = [
      { name: 'brainstorming', dir: 'skills/brainstorming' },
      { name: 'writing-plans', dir: 'skills/writing-plans' },
    ];
    const found = await findIgnoredEvals(ignoredPaths, repo, repo, skills);
    expect(found?.skills).toEqual(['brainstorming', 'writing-plans']);
    expect(found?.lines).toEqual([
      { file: 'skills/brainstorming/.gitignore', line: '!/evals/' },
      { file: '.gitignore', line: '!skills/*/evals/evals.json' },
      { file: '.gitignore', line: '!skills/*/evals/test_scenarios.json' },
    ]);
    await appendGitignoreLines(repo, found!.lines);
    // Once its folder is un-ignored, the root's *.json would catch brainstorming's files: the root's file
    // lines (skills/*) cover them too, so nothing is ignored any more.
    const again = await findIgnoredEvals(ignoredPaths, repo, repo, skills);
    expect(again).toBeUndefined();
  });
});
