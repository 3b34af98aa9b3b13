/**
 * Discovery and its hints on repositories shaped like the public collections (issue 21 items 1 and 2):
 * `skills/*` beside a `template/` placeholder (anthropics/skills), `core/skills/*` and `external/skills/*`
 * declared in `.claude-plugin/marketplace.json` (wanshuiyin/ARIS-like), a plugin entry with its own
 * `skills` list; every printed command carries the options that produced it and works when pasted; the
 * hint is printed once.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import { runPipeline } from '../../src/action/main.js';
import { main } from '../../src/cli/main.js';
import { marketplaceSkillGlobs } from '../../src/core/iterate/skill-layout.js';
import { findSkills, outsideSkillsHint } from '../../src/iterate/skill-finder.js';
import { makeRemote, nightContext, recordingLog } from '../helpers/github-fixtures.js';
import { printedCommand } from '../helpers/pasted-command.js';
import { addSkillAt, captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const io = captureIo(cwd, new Date('2026-06-01T02:00:00Z'));
  io.env = env;
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

async function repo(dirs: string[], files: Record<string, string> = {}): Promise<string> {
  const root = await makeTempDir();
  for (const dir of dirs) await addSkillAt(root, dir, { evals: false, scenarios: false });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await git(root, 'init', '-q', '-b', 'main');
  await git(root, 'add', '-A');
  await git(root, 'commit', '-q', '-m', 'skills');
  return root;
}

describe('the layout hint proposes the setting that finds the skills and nothing else', () => {
  it('skills/* beside a template/ placeholder: proposes skills/*, never * (anthropics/skills)', async () => {
    const root = await repo(['skills/pdf', 'skills/docx', 'template']);
    const found = await findSkills({ project: root, repository: root, globs: ['.claude/skills/*'] });
    const hint = outsideSkillsHint(found)!;
    expect(hint).toContain("pass --skills 'skills/*'");
    expect(hint).not.toContain("'skills/*,*'");
    expect(hint).toContain('template/ looks like a placeholder');
    // With the right setting, the placeholder alone is named and nothing is proposed.
    const right = await findSkills({ project: root, repository: root, globs: ['skills/*'] });
    expect(outsideSkillsHint(right)).not.toContain('--skills');
  });

  it('core/skills/* and external/skills/* are detected and proposed as */skills/*', async () => {
    const root = await repo(['core/skills/research', 'external/skills/exa']);
    const found = await findSkills({ project: root, repository: root, globs: ['.claude/skills/*'] });
    expect(found.outside.map((s) => s.dir)).toEqual(['core/skills/research', 'external/skills/exa']);
    expect(outsideSkillsHint(found)).toContain("pass --skills '*/skills/*'");
  });

  it('reads the plugin entries of .claude-plugin/marketplace.json: their source and skills lists', async () => {
    const marketplace = JSON.stringify({
      name: 'collection',
      plugins: [
        { name: 'pack', source: './vendor/pack', skills: ['./tools/lint-notes'] },
        { name: 'deep', source: './vendor/deep' },
        { name: 'remote', source: { source: 'github', repo: 'o/r' } },
      ],
    });
    expect(marketplaceSkillGlobs(JSON.parse(marketplace))).toEqual([
      'vendor/pack/tools/lint-notes',
      'vendor/deep/skills/*',
    ]);
    const root = await repo(['vendor/pack/tools/lint-notes', 'vendor/deep/skills/a'], {
      '.claude-plugin/marketplace.json': marketplace,
    });
    const found = await findSkills({ project: root, repository: root, globs: ['.claude/skills/*'] });
    expect(found.outside.map((s) => [s.dir, s.glob])).toEqual([
      ['vendor/pack/tools/lint-notes', 'vendor/pack/tools/lint-notes'],
      ['vendor/deep/skills/a', 'vendor/deep/skills/*'],
    ]);
  });
});

describe('an empty queue with skills elsewhere names them and the setting to use', () => {
  it('iterate --dry-run on core/skills/* + a marketplace names them; the pasted command queues them', async () => {
    const root = await repo(['core/skills/research', 'core/skills/writing', 'external/skills/exa'], {
      '.claude-plugin/marketplace.json': JSON.stringify({
        plugins: [
          { name: 'core', source: './core' },
          { name: 'external', source: './external' },
        ],
      }),
    });
    const dry = await cli(['iterate', '--dry-run', '--mode', 'structural'], root);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      '3 skills are outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
    // Printed once: in the plan on stdout, not also as a warning on stderr.
    expect(dry.stderr).not.toContain('outside the skills setting');
    const pasted = await cli(printedCommand(dry.stdout, 'iterate', '--dry-run'), root);
    expect(pasted.code).toBe(0);
    expect(pasted.stdout).toContain('no evals; run `skillclimb evals init exa --skills');
    const asJson = await cli(
      [...printedCommand(dry.stdout, 'iterate', '--dry-run'), '--mode', 'structural', '--json'],
      root,
    );
    expect((JSON.parse(asJson.stdout) as { queue: string[] }).queue).toEqual(['exa', 'research', 'writing']);
  });
});

describe('every printed command carries the options that produced it', () => {
  it("with --skills 'skills/*' and --project, the evals init hint works when pasted", async () => {
    const root = await repo(['skills/algorithmic-art', 'skills/pdf']);
    const parent = path.dirname(root);
    const project = path.basename(root);
    const dry = await cli(['iterate', '--dry-run', '--project', project, '--skills', 'skills/*'], parent);
    expect(dry.code).toBe(0);
    const evalsInit = printedCommand(dry.stdout, 'evals', 'init', 'algorithmic-art');
    expect(evalsInit).toEqual([
      'evals',
      'init',
      'algorithmic-art',
      '--project',
      project,
      '--skills',
      'skills/*',
    ]);
    // Pasted without a model it gets as far as choosing one: the skill is found (not exit 2 "outside the
    // skills setting").
    const pasted = await cli(evalsInit, parent);
    expect(pasted.stderr).not.toContain('outside the skills setting');
    expect(pasted.stderr).not.toContain('no skill folder named');
    const structural = await cli(printedCommand(dry.stdout, 'iterate', '--mode', 'structural'), parent);
    expect(structural.stderr).not.toContain('not inside a git repository');
  });

  it('score of a skill folder the setting does not find prints an evals init that finds it', async () => {
    const root = await repo(['skills/pdf']);
    // With a key, composite scoring needs the eval files (nothing is sent: they are missing).
    const scored = await cli(['score', 'skills/pdf'], root, { ANTHROPIC_API_KEY: 'sk-ant-not-used' });
    expect(scored.code).toBe(2);
    const evalsInit = printedCommand(scored.stderr, 'evals', 'init', 'pdf');
    expect(evalsInit).toEqual(['evals', 'init', 'pdf', '--skills', 'skills/*']);
    const pasted = await cli(evalsInit, root);
    expect(pasted.stderr).not.toContain('outside the skills setting');
    expect(pasted.stderr).not.toContain('no skill folder named');
  });

  it("the Action's evals-init names skills outside the setting instead of 'every skill already has eval files'", async () => {
    const { checkout } = await makeRemote(
      {
        'core/skills/research/SKILL.md': '---\nname: research\ndescription: d\n---\n',
        '.claude-plugin/marketplace.json': JSON.stringify({ plugins: [{ name: 'core', source: './core' }] }),
      },
      { checkout: 'actions' },
    );
    const summaries: string[] = [];
    const values: Partial<Record<ActionInputName, string>> = {
      'github-token': 'ghs_t',
      base: 'main',
      mode: 'evals-init',
      'anthropic-api-key': 'sk-ant-unused',
      'dry-run': 'true',
    };
    const result = await runPipeline(
      parseInputs((name) => values[name] ?? ''),
      await nightContext(checkout),
      {
        log: recordingLog(),
        startGroup: () => undefined,
        endGroup: () => undefined,
        writeSummary: async (markdown) => void summaries.push(markdown),
        now: () => new Date('2026-06-01T03:00:00Z'),
      },
    );
    expect(result.failure).toBeUndefined();
    const summary = summaries.join('\n');
    expect(summary).not.toContain('already has eval files');
    expect(summary).toContain(
      '1 skill is outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
    expect(summary).toContain("pass --skills 'core/skills/*'");
  });
});
