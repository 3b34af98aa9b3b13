/**
 * Bad input, refused by name (issue 13, item 9): all-zero category weights, something other than a regular
 * file where SKILL.md, an eval file or the queue file should be (a directory, a FIFO, a socket, a dangling
 * link, a link loop) — exit 2, never EISDIR without a name, never a read that blocks — a queue file that is
 * too big, has an absurd line, or repeats a name fifty thousand times, and a 20 MB name echoed back.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cleanupTempDirs, EVALS, makeProject, tempDir } from '../helpers/engine-fixtures.js';
import { captureIo } from '../helpers/skill-project.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  await cleanupTempDirs();
});

async function cli(cwd: string, ...argv: string[]) {
  const io = captureIo(cwd);
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

async function cliWithEnv(cwd: string, env: NodeJS.ProcessEnv, argv: string[]) {
  const io = captureIo(cwd);
  io.env = env;
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

const KINDS = ['directory', 'fifo', 'socket', 'dangling symlink', 'symlink loop'] as const;
type Kind = (typeof KINDS)[number];

/** Replaces `file` with the kind of non-file; resolves the words the refusal must use. */
async function replaceWith(file: string, kind: Kind): Promise<RegExp> {
  await rm(file, { recursive: true, force: true });
  switch (kind) {
    case 'directory':
      await mkdir(file);
      return /is a directory, not a regular file/;
    case 'fifo':
      execFileSync('mkfifo', [file]);
      return /is a FIFO \(named pipe\), not a regular file/;
    case 'socket': {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(file, resolve));
      return /is a socket, not a regular file/;
    }
    case 'dangling symlink':
      await symlink(path.join(path.dirname(file), 'nowhere'), file);
      return /is a dangling symbolic link, not a regular file/;
    case 'symlink loop':
      await symlink(file, file);
      return /is a symbolic link loop, not a regular file/;
  }
}

const FILES = [
  'SKILL.md',
  'evals/evals.json',
  'evals/test_scenarios.json',
  'evals/required_sections.json',
] as const;

describe('something other than a regular file where a skill file should be', () => {
  for (const rel of FILES) {
    it(`${rel}: iterate --skill, score and evals init refuse it by name with exit 2, without blocking`, async () => {
      for (const kind of KINDS) {
        const project = await makeProject();
        const skillDir = path.join(project, '.claude/skills/demo');
        // A link of any kind is refused by the one link rule before it could be followed.
        const words = kind.includes('symlink')
          ? /symbolic link/
          : await replaceWith(path.join(skillDir, rel), kind);
        if (kind.includes('symlink')) await replaceWith(path.join(skillDir, rel), kind);

        const iterate = await cli(project, 'iterate', '--skill', 'demo', '--dry-run');
        expect(iterate.code, `${kind}: ${iterate.stderr}`).toBe(2);
        expect(iterate.stderr, kind).toContain(`.claude/skills/demo/${rel}`);
        expect(iterate.stderr, kind).toMatch(words);
        expect(iterate.stderr).not.toMatch(/EISDIR|ENXIO|ELOOP/);

        const score = await cli(project, 'score', skillDir, '--mode', 'structural');
        expect(score.code, `${kind}: ${score.stderr}`).toBe(2);
        expect(score.stderr, kind).toContain(path.join(skillDir, rel === 'SKILL.md' ? rel : 'evals'));
        expect(score.stderr, kind).toMatch(words);

        // evals init refuses before any model call (the key is never sent: no network in tests), with and
        // without --force: never EISDIR without the name, never a read that waits on a FIFO.
        for (const force of [[], ['--force']]) {
          const init = await cliWithEnv(project, { ANTHROPIC_API_KEY: 'sk-ant-never-sent' }, [
            'evals',
            'init',
            'demo',
            ...force,
          ]);
          expect(init.code, `${kind}: ${init.stderr}`).toBe(2);
          expect(init.stderr, kind).toContain(`.claude/skills/demo/${rel}`);
          expect(init.stderr, kind).toMatch(words);
          expect(init.stderr).not.toMatch(/EISDIR|ENXIO|ELOOP/);
        }
      }
    });
  }
});

describe('the queue file', () => {
  it('a FIFO, a directory or a dangling link as the queue file is refused by name with exit 2', async () => {
    for (const kind of ['fifo', 'directory', 'dangling symlink', 'socket'] as const) {
      const project = await makeProject();
      const queue = path.join(project, 'queue.txt');
      const words = await replaceWith(queue, kind);
      const run = await cli(project, 'iterate', '--queue', queue, '--dry-run');
      expect(run.code, `${kind}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`queue file ${queue}`);
      expect(run.stderr).toMatch(words);
    }
  });

  it('over 1 MiB, or with a line of 20 MB: refused with exit 2, the echo a short one', async () => {
    const project = await makeProject();
    const big = path.join(project, 'big.txt');
    await writeFile(big, 'demo\n'.repeat(300_000));
    const tooBig = await cli(project, 'iterate', '--queue', big, '--dry-run');
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toMatch(/queue file .*big\.txt: is 1,500,000 bytes, over the limit of 1,048,576/);

    const long = path.join(project, 'long.txt');
    await writeFile(long, `demo\n${'n'.repeat(900_000)}\n`);
    const longLine = await cli(project, 'iterate', '--queue', long, '--dry-run');
    expect(longLine.code).toBe(2);
    expect(longLine.stderr).toMatch(
      /queue file .*long\.txt line 2: 900,000 characters, over the limit of 1,024/,
    );
    expect(longLine.stderr.length).toBeLessThan(1_000);
  });

  it('fifty thousand repeats of one name: one queue entry, each repeat not checked again', async () => {
    const project = await makeProject();
    const queue = path.join(project, 'queue.txt');
    await writeFile(queue, 'demo\n'.repeat(50_000));
    const run = await cli(project, 'iterate', '--queue', queue, '--dry-run', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).queue).toEqual(['demo']);
  }, 15_000);

  it('a 20 MB skill name is echoed shortened', async () => {
    const project = await makeProject();
    const name = 'z'.repeat(20 * 1024 * 1024);
    const run = await cli(project, 'iterate', '--skill', name, '--dry-run');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/skill folder missing for z+… \(20,971,520 characters/);
    expect(run.stderr.length).toBeLessThan(2_000);
  }, 20_000);
});

describe('category weights', () => {
  it('all zero: rejected at load naming the field (exit 2), not a perfect score with nothing passed', async () => {
    const project = await makeProject([
      {
        name: 'demo',
        evals: { ...EVALS, categories: EVALS.categories.map((c) => ({ ...c, weight: 0 })) },
      },
    ]);
    const skillDir = path.join(project, '.claude/skills/demo');
    // Structural scoring never reads evals.json; a model-graded score loads it (and stops there, before
    // any call).
    const io = captureIo(project);
    io.env = { OPENAI_API_KEY: 'sk-test-never-sent' };
    const code = await main(['score', skillDir, '--model', 'openai:gpt-4o-mini'], io);
    expect(code, io.stderr()).toBe(2);
    expect(io.stderr()).toMatch(/evals\.json: categories: every categories\[\]\.weight is 0/);

    const iterate = await cli(project, 'iterate', '--skill', 'demo', '--dry-run');
    expect(iterate.code).toBe(2);
    expect(iterate.stderr).toMatch(
      /\.claude\/skills\/demo\/evals\/evals\.json: categories: every categories\[\]\.weight is 0/,
    );
  });
});

describe('a run over discovered skills', () => {
  it('a directory named SKILL.md: the plan and the run both leave that skill out by name; the others run', async () => {
    const project = await makeProject([{ name: 'alpha' }, { name: 'beta' }]);
    await replaceWith(path.join(project, '.claude/skills/alpha/SKILL.md'), 'directory');
    const home = await tempDir('skillclimb-home-');
    const args = ['iterate', '--project', project, '--worktree-home', home, '--per-skill-iterations', '1'];
    const left = {
      skill: 'alpha',
      dir: '.claude/skills/alpha',
      reason: '.claude/skills/alpha/SKILL.md is a directory, not a regular file',
      next: "replace it by a regular file holding the skill's instructions",
    };

    const dry = await cli(project, ...args, '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { queue: string[]; excludedOther: unknown[] };
    expect(plan.queue).toEqual(['beta']);
    expect(plan.excludedOther).toEqual([left]);
    const text = await cli(project, ...args, '--dry-run');
    expect(text.stdout).toContain(
      "alpha  (.claude/skills/alpha: .claude/skills/alpha/SKILL.md is a directory, not a regular file; replace it by a regular file holding the skill's instructions)",
    );

    const run = await cli(project, ...args, '--json');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      queue: string[];
      results: Array<{ skill: string }>;
      excludedOther: unknown[];
      summaryPath: string;
    };
    expect(result.queue).toEqual(plan.queue);
    expect(result.results.map((r) => r.skill)).toEqual(['beta']);
    expect(result.excludedOther).toEqual([left]);
    expect(await readFile(result.summaryPath, 'utf8')).toContain(
      '.claude/skills/alpha/SKILL.md is a directory, not a regular file',
    );
  });
});
