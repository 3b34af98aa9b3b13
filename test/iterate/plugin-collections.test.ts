/**
 * Plugin collections whole (issue 29 item 4): skills whose folders share a name in different plugins each
 * get an identity naming their plugin; the layout hint proposes the fewest globs that find a
 * marketplace's skills (`plugins/*\/skills/*`, not one glob per plugin) and names folders of SKILL.md
 * files no usual layout reaches (`preview/*`, `skill-flavors/*`). Repositories are real git; the layout is
 * the one Claude Code plugin marketplaces use (`plugins/<plugin>/skills/<skill>/SKILL.md`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { qualifiedSkillNames } from '../../src/core/iterate/skill-layout.js';
import { findSkills, outsideSkillsHint } from '../../src/iterate/skill-finder.js';
import { printedCommand } from '../helpers/pasted-command.js';
import { addSkillAt, captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

async function cli(argv: string[], cwd: string) {
  const io = captureIo(cwd, new Date('2026-06-01T02:00:00Z'));
  io.env = {};
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

async function repo(dirs: string[], files: Record<string, string> = {}): Promise<string> {
  const root = await makeTempDir();
  for (const dir of dirs) await addSkillAt(root, dir);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await git(root, 'init', '-q', '-b', 'main');
  await git(root, 'add', '-A');
  await git(root, 'commit', '-q', '-m', 'skills');
  return root;
}

/** A marketplace of plugins, each `./plugins/<name>` with its skills under `skills/`. */
const PLUGINS: Record<string, string[]> = {
  billing: ['setup', 'invoice'],
  search: ['setup', 'reindex'],
  tether: ['setup', 'pair'],
  notes: ['capture'],
  deploy: ['rollback'],
};
const marketplace = JSON.stringify({
  name: 'acme-plugins',
  owner: { name: 'Acme' },
  plugins: Object.keys(PLUGINS).map((name) => ({ name, source: `./plugins/${name}`, description: name })),
});
const pluginDirs = Object.entries(PLUGINS).flatMap(([plugin, skills]) =>
  skills.map((skill) => `plugins/${plugin}/skills/${skill}`),
);

describe('identities of repeated skill names', () => {
  it('names the plugin, skipping container folders; a name told apart by nothing keeps its plain name', () => {
    expect(
      qualifiedSkillNames('setup', ['plugins/billing/skills/setup', 'plugins/search/skills/setup']),
    ).toEqual(
      new Map([
        ['plugins/billing/skills/setup', 'billing.setup'],
        ['plugins/search/skills/setup', 'search.setup'],
      ]),
    );
    expect(qualifiedSkillNames('pdf', ['skills/pdf', 'preview/pdf'])).toEqual(
      new Map([
        ['skills/pdf', 'pdf'],
        ['preview/pdf', 'preview.pdf'],
      ]),
    );
    // Both under container folders only: the containers tell them apart.
    expect(qualifiedSkillNames('pdf', ['skills/pdf', '.claude/skills/pdf'])).toEqual(
      new Map([
        ['skills/pdf', 'pdf'],
        ['.claude/skills/pdf', '.claude.pdf'],
      ]),
    );
    // The same plugin name under two vendors: the nearest folder that differs.
    expect(qualifiedSkillNames('setup', ['acme/a/skills/setup', 'zeta/a/skills/setup'])).toEqual(
      new Map([
        ['acme/a/skills/setup', 'acme.setup'],
        ['zeta/a/skills/setup', 'zeta.setup'],
      ]),
    );
  });

  it('queues each plugin setup under its identity, and --skill setup names the identities to choose from', async () => {
    const root = await repo(pluginDirs, { '.claude-plugin/marketplace.json': marketplace });
    const dry = await cli(
      ['iterate', '--dry-run', '--json', '--skills', 'plugins/*/skills/*', '--mode', 'structural'],
      root,
    );
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout) as { queue: string[]; dirs: Record<string, string> };
    expect(plan.queue).toEqual([
      'billing.setup',
      'capture',
      'invoice',
      'pair',
      'reindex',
      'rollback',
      'search.setup',
      'tether.setup',
    ]);
    expect(plan.dirs['tether.setup']).toBe('plugins/tether/skills/setup');
    const ambiguous = await cli(
      ['iterate', '--skill', 'setup', '--skills', 'plugins/*/skills/*', '--mode', 'structural'],
      root,
    );
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      '3 skills have folders named setup: billing.setup (plugins/billing/skills/setup), ' +
        'search.setup (plugins/search/skills/setup), tether.setup (plugins/tether/skills/setup)',
    );
    const one = await cli(
      ['iterate', '--dry-run', '--json', '--skill', 'search.setup', '--skills', 'plugins/*/skills/*'],
      root,
    );
    expect(one.code).toBe(0);
    expect((JSON.parse(one.stdout) as { queue: string[] }).queue).toEqual(['search.setup']);
  });
});

describe('the layout hint of a plugin marketplace', () => {
  it('proposes plugins/*/skills/* once, not one glob per plugin, and the pasted command finds every skill', async () => {
    const root = await repo(pluginDirs, { '.claude-plugin/marketplace.json': marketplace });
    const found = await findSkills({ project: root, repository: root, globs: ['.claude/skills/*'] });
    expect(found.proposed.map((p) => p.glob)).toEqual(['plugins/*/skills/*']);
    const dry = await cli(['iterate', '--dry-run'], root);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      '8 skills are outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer) and not queued: plugins/*/skills/* (invoice, setup, rollback, capture, reindex, … (8 in all))',
    );
    const pasted = printedCommand(dry.stdout, 'iterate', '--dry-run');
    expect(pasted).toEqual(['iterate', '--dry-run', '--skills', 'plugins/*/skills/*']);
    const again = await cli([...pasted, '--json'], root);
    expect((JSON.parse(again.stdout) as { queue: string[] }).queue).toHaveLength(8);
  });

  it('names preview/* and skill-flavors/* that no usual layout reaches, never test fixtures', async () => {
    const root = await repo([
      'skills/pdf',
      'skills/docx',
      '.claude/skills/commit',
      'preview/pdf',
      'preview/slides',
      'skill-flavors/docx-terse',
      'skill-flavors/docx-verbose',
      'test/fixtures/broken-skill',
    ]);
    const found = await findSkills({ project: root, repository: root, globs: ['.claude/skills/*'] });
    expect(found.proposed.map((p) => [p.glob, p.dirs])).toEqual([
      ['skills/*', ['skills/docx', 'skills/pdf']],
      ['preview/*', ['preview/pdf', 'preview/slides']],
      ['skill-flavors/*', ['skill-flavors/docx-terse', 'skill-flavors/docx-verbose']],
    ]);
    const hint = outsideSkillsHint(found)!;
    expect(hint).toContain('preview/* (pdf, slides); skill-flavors/* (docx-terse, docx-verbose)');
    expect(hint).not.toContain('fixtures');
    expect(hint).toContain(`pass --skills '.claude/skills/*,skills/*,preview/*,skill-flavors/*'`);
    // Pasted: every skill is found, the two pdf skills under their own identities.
    const dry = await cli(['iterate', '--dry-run'], root);
    const again = await cli(
      [...printedCommand(dry.stdout, 'iterate', '--dry-run'), '--json', '--mode', 'structural'],
      root,
    );
    expect((JSON.parse(again.stdout) as { queue: string[] }).queue).toEqual([
      'commit',
      'docx',
      'docx-terse',
      'docx-verbose',
      'pdf',
      'preview.pdf',
      'slides',
    ]);
  });
});
