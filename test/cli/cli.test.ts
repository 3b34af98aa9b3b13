import { readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCliLogger } from '../../src/cli/logger.js';
import { main } from '../../src/cli/main.js';
import { LOCK_FILE } from '../../src/adapters/local/lock.js';
import { exists } from '../helpers/files.js';
import {
  addSkill,
  addSkillAt,
  captureIo,
  git,
  initRepo,
  makeTempDir,
  removeTempDirs,
  skillPath,
} from '../helpers/skill-project.js';

const NOW = new Date('2026-05-24T08:00:00Z');

afterEach(removeTempDirs);

async function run(argv: string[], cwd = os.tmpdir(), now?: Date) {
  const io = captureIo(cwd, now);
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr(), io };
}

describe('skillclimb help and version', () => {
  it('--help lists the commands and exits 0', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: skillclimb /);
    for (const command of ['iterate', 'score', 'doctor'])
      expect(stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    expect(stderr).toBe('');
  });

  it('iterate --help documents every flag with its default', async () => {
    const { code, stdout } = await run(['iterate', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--project <path>',
      '--skill <name>',
      '--queue <file>',
      '--per-skill-budget <dur>',
      '--per-skill-iterations <n>',
      '--skip-list <names>',
      '--calibrate',
      '--dry-run',
      '--json',
      '--quiet',
      '--mode <mode>',
      '--concurrency <n>',
      '--model <id>',
      '--editor-model <id>',
      '--render-model <id>',
      '--grader-model <id>',
      '--max-cost-usd <n>',
      '--worktree-home <dir>',
    ]) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain('(default: "1h")');
    expect(stdout).toContain('(default: 12)');
  });

  it('--version prints the package.json version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const { code, stdout } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${pkg.version}\n`);
  });

  it('no command at all is bad usage (help on stderr, exit 2)', async () => {
    const { code, stdout, stderr } = await run([]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Usage: skillclimb');
  });
});

describe('bad usage exits 2 and names the flag', () => {
  it('unknown flag', async () => {
    const { code, stderr } = await run(['iterate', '--dry-runn']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown option '--dry-runn'");
  });

  it('unknown command', async () => {
    const { code, stderr } = await run(['iterat']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown command 'iterat'");
  });

  it('bad --per-skill-budget value', async () => {
    const { code, stderr } = await run(['iterate', '--per-skill-budget', '1 hour']);
    expect(code).toBe(2);
    expect(stderr).toContain('--per-skill-budget');
    expect(stderr).toContain('"1 hour" is not a duration');
  });

  it.each([
    [['--per-skill-iterations', '0'], '--per-skill-iterations'],
    [['--per-skill-iterations', '2.5'], '--per-skill-iterations'],
    [['--concurrency', 'many'], '--concurrency'],
    [['--max-cost-usd', '-1'], '--max-cost-usd'],
    [['--night-budget', '-1'], "option '--night-budget <usd>' argument '-1' is invalid"],
    [['--night-budget', 'ten'], "option '--night-budget <usd>' argument 'ten' is invalid"],
    [['--night-budget', '0'], 'expected a positive number, got "0"'],
    [['--mode', 'fast'], '--mode'],
    [['--skip-list', 'ok,../bad'], '--skip-list'],
  ])('bad value %j names %s', async (args, flag) => {
    const { code, stderr } = await run(['iterate', ...args]);
    expect(code).toBe(2);
    expect(stderr).toContain(flag);
  });

  it.each([['iterate'], ['score', '.'], ['doctor']])(
    'a bad --structured-output on %s names the flag and the modes',
    async (...command) => {
      const { code, stderr } = await run([...command, '--structured-output', 'grammar']);
      expect(code).toBe(2);
      expect(stderr).toContain("option '--structured-output <mode>' argument 'grammar' is invalid");
      expect(stderr).toContain('expected one of auto, json_schema, json_object, text, got "grammar"');
    },
  );

  it('--skill together with --queue', async () => {
    const { code, stderr } = await run(['iterate', '--skill', 'a', '--queue', 'q.txt']);
    expect(code).toBe(2);
    expect(stderr).toContain("option '--skill <name>' cannot be used with option '--queue <file>'");
  });

  it('a stray positional argument', async () => {
    const { code } = await run(['iterate', 'session-wrap']);
    expect(code).toBe(2);
  });
});

/** A project folder: a git repository (skill-iterate halts outside one, dry run included). */
async function makeProjectDir(): Promise<string> {
  const project = await makeTempDir();
  await git(project, 'init', '-q');
  return project;
}

describe('skillclimb iterate --dry-run', () => {
  async function seedProject(): Promise<string> {
    const project = await makeProjectDir();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'user-debug', { resultsMtime: new Date('2026-05-23T22:15:04Z') });
    await addSkill(project, 'skill-evolve');
    return project;
  }

  it('prints the seed example byte for byte, exits 0 and takes no lock', async () => {
    const project = await seedProject();
    const { code, stdout, stderr } = await run(
      ['iterate', '--project', project, '--skip-list', 'skill-evolve', '--dry-run'],
      os.tmpdir(),
      NOW,
    );
    expect(stdout).toBe(
      'Resolved queue (1 skill):\n' +
        '  session-wrap\n' +
        '\n' +
        'Per-skill worktrees:\n' +
        '  session-wrap -> ~/worktree_skill-iterate-session-wrap-<epoch>\n' +
        '\n' +
        'Per-skill budget:\n' +
        '  budget=1h iterations=12\n' +
        '\n' +
        'Excluded by skip-list:\n' +
        '  skill-evolve  (skip-list: --skip-list extension)\n' +
        '\n' +
        'Excluded by cross-night-resume filter:\n' +
        '  user-debug  (results.tsv mtime: 2026-05-23T22:15:04Z)\n',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('resolves --project relative to the working directory and prints the budget as typed', async () => {
    const project = await seedProject();
    const { code, stdout } = await run(
      [
        'iterate',
        '--project',
        path.basename(project),
        '--dry-run',
        '--per-skill-budget',
        '90m',
        '--per-skill-iterations',
        '3',
      ],
      path.dirname(project),
      NOW,
    );
    expect(code).toBe(0);
    expect(stdout).toContain('  budget=90m iterations=3\n');
    expect(stdout).toContain('Resolved queue (2 skills):\n  session-wrap\n  skill-evolve\n');
  });

  it('--json prints the plan as JSON only', async () => {
    const project = await seedProject();
    const { code, stdout } = await run(
      ['iterate', '--project', project, '--skip-list', 'skill-evolve', '--dry-run', '--json'],
      os.tmpdir(),
      NOW,
    );
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as Record<string, unknown>;
    expect(plan.queue).toEqual(['session-wrap']);
    expect(plan.excludedByFreshness).toEqual([
      { skill: 'user-debug', resultsTsvMtime: '2026-05-23T22:15:04Z' },
    ]);
    expect(plan.budget).toEqual({
      perSkillBudget: '1h',
      perSkillBudgetMs: 3_600_000,
      perSkillIterations: 12,
    });
  });

  it('an empty queue prints the seed line where it is true, then each skill and why, and exits 0', async () => {
    const project = await makeProjectDir();
    await addSkill(project, 'verify');
    await addSkill(project, 'recent', { resultsMtime: new Date(NOW.getTime() - 60_000) });
    const { code, stdout } = await run(['iterate', '--project', project, '--dry-run'], os.tmpdir(), NOW);
    expect(code).toBe(0);
    expect(stdout).toBe(
      'Queue empty -- nothing to iterate. All scorable skills were either skip-listed or have results.tsv mtime within the last 24h.\n' +
        '  recent  (fresh until 2026-05-25 07:59 UTC: last run 2026-05-24T07:59:00Z; ' +
        // Every printed command carries the --project it was given.
        `to run it now: \`skillclimb iterate --skill recent --ignore-freshness --project ${project}\`)\n` +
        '  verify  (skip-list: embedded)\n',
    );
  });

  it('an empty queue of skills without evals says so, skill by skill, with the command to write them', async () => {
    const project = await makeProjectDir();
    await addSkill(project, 'alpha', { evals: false, scenarios: false });
    const { code, stdout } = await run(['iterate', '--project', project, '--dry-run'], os.tmpdir(), NOW);
    expect(code).toBe(0);
    expect(stdout).toBe(
      'Queue empty -- nothing to iterate. No skill found is ready to run:\n' +
        `  alpha  (.claude/skills/alpha: no evals; run \`skillclimb evals init alpha --project ${project}\` to write them, ` +
        `or score structure only with \`skillclimb iterate --mode structural --project ${project}\`)\n`,
    );
    expect(stdout).not.toContain('skip-listed');
  });

  it('a folder that is not a git repository halts the dry run and the real run alike, writing nothing', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    const dry = await run(['iterate', '--project', project, '--dry-run'], os.tmpdir(), NOW);
    const real = await run(['iterate', '--project', project], os.tmpdir(), NOW);
    for (const result of [dry, real]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `pre-flight halt: ${project} is not inside a git repository: skill-iterate works in git worktrees ` +
          'and commits its edits; run `git init` there and commit the skills first\n',
      );
    }
    expect(await exists(path.join(project, 'docs'))).toBe(false);
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('--skills finds skills where the setting says; --mode structural queues them without evals', async () => {
    const project = await makeProjectDir();
    await addSkillAt(project, 'skills/alpha', { evals: false, scenarios: false });
    const argv = ['iterate', '--project', project, '--dry-run'];
    const hinted = await run(argv, os.tmpdir(), NOW);
    expect(hinted.stdout).toContain(
      'set "skills": ["skills/*"] in skillclimb.config.json, or pass --skills \'skills/*\'',
    );
    const structural = await run([...argv, '--skills', 'skills/*', '--mode', 'structural'], os.tmpdir(), NOW);
    expect(structural.code).toBe(0);
    expect(structural.stdout).toMatch(/^Resolved queue \(1 skill\):\n {2}alpha\n/);
  });

  it('--skill limits the plan to that skill, still applying the freshness filter', async () => {
    const project = await seedProject();
    const { code, stdout } = await run(
      ['iterate', '--project', project, '--skill', 'user-debug', '--dry-run'],
      os.tmpdir(),
      NOW,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Queue empty -- /);
  });

  it('leaves a discovered skill whose evals.json does not parse out of the plan, naming the file and field', async () => {
    const project = await makeProjectDir();
    await addSkill(project, 'broken', { evals: '{"categories": []}' });
    const { code, stdout } = await run(['iterate', '--project', project, '--dry-run'], os.tmpdir(), NOW);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '  broken  (.claude/skills/broken: invalid evals: .claude/skills/broken/evals/evals.json: categories: expected array to have >=1 items; fix the file)',
    );
  });

  it('a pre-flight halt exits 2 with the message on stderr', async () => {
    const project = await seedProject();
    await writeFile(path.join(project, '.skill-iterate-killswitch'), '');
    const { code, stdout, stderr } = await run(
      ['iterate', '--project', project, '--dry-run'],
      os.tmpdir(),
      NOW,
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `pre-flight halt: kill-switch is set at ${path.join(project, '.skill-iterate-killswitch')}; remove the file to proceed\n`,
    );
  });

  it('a malformed explicit skill halts with exit 2 naming the file and JSON path', async () => {
    const project = await makeProjectDir();
    await addSkill(project, 'broken', {
      evals: JSON.stringify({
        categories: [
          { name: 'A', evals: [] },
          { name: 'B', evals: [{ id: 'x', statement: 's' }] },
        ],
      }),
    });
    const { code, stderr } = await run(['iterate', '--project', project, '--skill', 'broken', '--dry-run']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      '.claude/skills/broken/evals/evals.json: categories[1].evals[0].id: expected integer',
    );
  });

  it('validates the models like a real run: a bad id exits 2 with the same message, no plan', async () => {
    const project = await seedProject();
    const dry = await run(
      ['iterate', '--project', project, '--model', 'gpt-5', '--dry-run'],
      os.tmpdir(),
      NOW,
    );
    const real = await run(['iterate', '--project', project, '--model', 'gpt-5'], os.tmpdir(), NOW);
    expect(dry.code).toBe(2);
    expect(dry.stdout).toBe('');
    expect(dry.stderr).toBe(
      'error: model id "gpt-5": expected provider:model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline\n',
    );
    expect(real.code).toBe(2);
    expect(dry.stderr).toBe(real.stderr);
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });

  it('checks the key of each role without calling a model: a missing key exits 2, a present one plans', async () => {
    const project = await seedProject();
    const argv = ['iterate', '--project', project, '--skip-list', 'skill-evolve', '--dry-run'];
    const missing = await run([...argv, '--model', 'anthropic:claude-haiku-4-5'], os.tmpdir(), NOW);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('error: editor model anthropic:claude-haiku-4-5 needs ANTHROPIC_API_KEY\n');

    // With the key the models are built (no network: the setup file refuses every non-loopback connection).
    const io = captureIo(os.tmpdir(), NOW);
    io.env = { ANTHROPIC_API_KEY: 'sk-ant-never-sent' };
    const code = await main(argv, io);
    expect(code).toBe(0);
    expect(io.stderr()).toBe('');
    expect(io.stdout()).toMatch(/^Resolved queue \(1 skill\):\n {2}session-wrap\n\n/);
  });

  it('a bad skillclimb.config.json exits 2 naming the file and field, exactly as a real run does', async () => {
    const project = await seedProject();
    await writeFile(
      path.join(project, 'skillclimb.config.json'),
      JSON.stringify({ models: { grader: 'gpt-5' } }),
    );
    const dry = await run(['iterate', '--project', project, '--dry-run'], os.tmpdir(), NOW);
    const real = await run(['iterate', '--project', project], os.tmpdir(), NOW);
    expect(dry.code).toBe(2);
    expect(dry.stdout).toBe('');
    expect(dry.stderr).toBe(
      `error: ${path.join(project, 'skillclimb.config.json')}: models.grader: model id "gpt-5": expected provider:model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline\n`,
    );
    expect(real.code).toBe(2);
    expect(dry.stderr).toBe(real.stderr);
  });

  it('a results.tsv that links to itself is refused like any linked file, not read', async () => {
    const project = await makeProjectDir();
    await addSkill(project, 'looped');
    const results = skillPath(project, 'looped', 'evals', 'results.tsv');
    await symlink(results, results);
    const { code, stdout } = await run(['iterate', '--project', project, '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '  looped  (.claude/skills/looped: symlink: .claude/skills/looped/evals/results.tsv is a symbolic link',
    );
  });

  it('an unexpected failure exits 1 with the error message', async () => {
    const project = await makeProjectDir();
    await addSkill(project, 'session-wrap');
    // A kill-switch path that is a folder cannot be read as a file: not a state the engine expects.
    const blocked = path.join(project, '.skill-iterate-lock-probe');
    await symlink(blocked, path.join(project, '.skill-iterate.lock'));
    await symlink(path.join(project, '.skill-iterate.lock'), blocked);
    const { code, stderr } = await run(['iterate', '--project', project, '--dry-run']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: .*ELOOP/m);
  });
});

describe('the CLI logger', () => {
  it('prints info and progress on stdout, warnings on stderr; --quiet drops progress; --json moves logs to stderr', () => {
    const io = captureIo(os.tmpdir());
    const log = createCliLogger(io);
    log.info('models: offline');
    log.progress('session-wrap iteration 1 keep');
    log.warn('stale lock');
    expect(io.stdout()).toBe('models: offline\nsession-wrap iteration 1 keep\n');
    expect(io.stderr()).toBe('warning: stale lock\n');

    const quietIo = captureIo(os.tmpdir());
    const quiet = createCliLogger(quietIo, { quiet: true });
    quiet.progress('hidden');
    quiet.info('shown');
    expect(quietIo.stdout()).toBe('shown\n');

    const jsonIo = captureIo(os.tmpdir());
    const json = createCliLogger(jsonIo, { json: true });
    json.info('models: offline');
    json.progress('p');
    expect(jsonIo.stdout()).toBe('');
    expect(jsonIo.stderr()).toBe('models: offline\np\n');
  });
});

describe('skillclimb iterate reads skillclimb.config.json', () => {
  async function configuredProject(config: unknown): Promise<string> {
    const project = await makeTempDir();
    await initRepo(project);
    await addSkill(project, 'demo');
    await writeFile(path.join(project, '.gitignore'), 'results.tsv\n.skill-iterate.lock\ndocs/\n');
    await writeFile(path.join(project, 'skillclimb.config.json'), JSON.stringify(config));
    await git(project, 'add', '-A');
    await git(project, 'commit', '-q', '-m', 'skills and config');
    return project;
  }

  it('runs with the config models (offline over the key-based default) and settings', async () => {
    const project = await configuredProject({ models: { default: 'offline' }, concurrency: 2 });
    const home = await makeTempDir();
    const io = captureIo(os.tmpdir());
    // With the key and no config the default would be anthropic: (and a network call).
    io.env = { ANTHROPIC_API_KEY: 'sk-ant-must-not-be-used' };
    const argv = ['iterate', '--project', project, '--skill', 'demo', '--per-skill-iterations', '1'];
    const code = await main([...argv, '--worktree-home', home], io);
    expect(io.stderr()).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect(io.stdout()).toMatch(/^models: offline \(structural scoring only/m);
    expect(io.stdout()).toMatch(/^demo\s+iter 1 /m);
  }, 60_000);

  it('a bad config exits 2 naming the file and the field, before any work', async () => {
    const project = await configuredProject({ models: { default: 'offline' }, concurrency: 'two' });
    const { code, stdout, stderr } = await run(['iterate', '--project', project, '--skill', 'demo']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: ${path.join(project, 'skillclimb.config.json')}: concurrency: expected number, received string\n`,
    );
    expect(stdout).toBe('');
    expect(await exists(path.join(project, LOCK_FILE))).toBe(false);
  });
});
