/**
 * From "I have skills in `skills/`" to a first composite night, following the README's own words and
 * PASTING the commands the tool prints at each step (issue 21's end-to-end acceptance): the README's
 * `iterate --project <repo> --dry-run`, the layout hint's command, `score --mode structural`, the
 * structural run the plan offers, the `evals init` each skill's line prints (author answers served by
 * nock), the `iterate --dry-run` evals init prints, and that command without `--dry-run` as the night
 * (model answers served by nock). The only words added to a pasted command are `--worktree-home` (the
 * test keeps its worktrees out of the home folder) and `--per-skill-iterations 1`.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import { releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import { printedCommand } from '../helpers/pasted-command.js';
import { captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

strictNock();
afterEach(removeTempDirs);

const KEY = 'sk-ant-first-night-key';
const SKILLS = ['alpha-notes', 'beta-review'];
const OLD_STEP = '2. Group them under Features, Fixes and Internal.';
const NEW_STEP = '2. Group them under the headings Features, Fixes and Internal.';

/** A collection as the README's reader has it: skills/<name>/SKILL.md, a template/ to copy, no evals. */
async function collection(): Promise<{ parent: string; repo: string }> {
  const parent = await makeTempDir();
  const repo = path.join(parent, 'my-skills');
  for (const name of SKILLS) {
    await mkdir(path.join(repo, 'skills', name), { recursive: true });
    await writeFile(path.join(repo, 'skills', name, 'SKILL.md'), releaseNotesSkill(name));
  }
  await mkdir(path.join(repo, 'template'), { recursive: true });
  await writeFile(path.join(repo, 'template', 'SKILL.md'), releaseNotesSkill('template-skill'));
  await writeFile(path.join(repo, 'README.md'), '# My skills\n');
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'skills');
  return { parent, repo };
}

async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const io = captureIo(cwd, new Date());
  io.env = env;
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

function withoutDryRun(words: string[]): string[] {
  return words.filter((w) => w !== '--dry-run');
}

/** The night's models over the Messages API: the edit names the headings, the render then uses them. */
function nightModels(): { roles: string[] } {
  const roles: string[] = [];
  nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
    .persist()
    .post('/v1/messages')
    .reply((_uri, raw) => {
      const body = raw as {
        system?: Array<{ text: string }>;
        messages: Array<{ content: Array<{ text?: string }> }>;
      };
      const system = body.system?.map((b) => b.text).join('') ?? '';
      const user = body.messages[0]!.content.map((p) => p.text ?? '').join('');
      let text: string;
      if (system.startsWith('You are a strict editor')) {
        roles.push('editor');
        text = JSON.stringify({
          description: 'name the three headings',
          old_string: OLD_STEP,
          new_string: NEW_STEP,
        });
      } else if (system.startsWith('You are a strict, impartial grader')) {
        roles.push('grader');
        const ids = /Assertions to grade \(ids: ([\d, ]+)\)/.exec(user)?.[1]?.split(', ') ?? [];
        const grouped = user.includes('### Internal');
        text = JSON.stringify({
          verdicts: Object.fromEntries(
            ids.map((id) => [id, { verdict: id !== '2' || grouped, reason: 'checked' }]),
          ),
        });
      } else {
        roles.push('render');
        text = system.includes('under the headings')
          ? '## Release 1.3.0\n### Features\n- Add CSV export (#41)\n### Fixes\n### Internal'
          : '## Release 1.3.0\n- Add CSV export (#41)';
      }
      return [200, anthropicMessage([{ type: 'text', text }], { input_tokens: 100, output_tokens: 20 })];
    });
  return { roles };
}

describe('from skills/ to a first composite night, pasting what skillclimb prints', () => {
  it('follows the README and the printed next steps', async () => {
    const { parent, repo } = await collection();
    const home = await makeTempDir();
    const extra = ['--worktree-home', home, '--per-skill-iterations', '1'];

    // README: "Then try the plan for your own repository" — run from the folder above it.
    const first = await cli(['iterate', '--project', 'my-skills', '--dry-run'], parent);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      '2 skills are outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
    expect(first.stderr).not.toContain('outside the skills setting'); // printed once
    // The layout hint's command: the setting that finds the skills and not the template/ placeholder.
    const plan = printedCommand(first.stdout, 'iterate', '--dry-run');
    expect(plan).toEqual(['iterate', '--dry-run', '--project', 'my-skills', '--skills', 'skills/*']);

    // Pasted: each skill is named with why it would not run and the command for it.
    const second = await cli(plan, parent);
    expect(second.code).toBe(0);
    // The placeholder is named as one, never queued or proposed.
    expect(second.stdout).toContain(
      'template/, outside the skills setting (skills/*), looks like a placeholder',
    );
    expect(second.stdout).not.toContain('template  (');

    // README: "`score --mode structural` and `iterate --mode structural` need none".
    for (const name of SKILLS) {
      const scored = await cli(
        ['score', `my-skills/skills/${name}`, '--mode', 'structural', '--json'],
        parent,
      );
      expect(scored.code).toBe(0);
    }
    const structural = await cli(
      [...printedCommand(second.stdout, 'iterate', '--mode', 'structural'), ...extra],
      parent,
    );
    expect(structural.stderr).not.toMatch(/error|halt/);
    expect(structural.code).toBe(0);
    for (const name of SKILLS) {
      const rows = parseResultsTsv(
        await readFile(path.join(repo, 'skills', name, 'evals', 'results.tsv'), 'utf8'),
      );
      // The structural rows say so: they are never read as the composite series.
      expect(rows[0]!.description).toBe('[structural] initial baseline');
    }

    // The evals init each skill's line printed, pasted, with the author's answers served over HTTP.
    nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
      .post('/v1/messages')
      .times(2)
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: JSON.stringify(validAnswer()) }], {
          input_tokens: 2000,
          output_tokens: 900,
        }),
      );
    let next: string[] = [];
    for (const name of SKILLS) {
      const init = await cli(printedCommand(second.stdout, 'evals', 'init', name), parent, {
        ANTHROPIC_API_KEY: KEY,
      });
      expect(init.code).toBe(0);
      expect(init.stdout).toContain(`${name}: wrote skills/${name}/evals/evals.json`);
      next = printedCommand(init.stdout, 'iterate', '--dry-run');
    }
    // "commit them, then run …": git takes them (nothing ignores evals/ here).
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'eval files from skillclimb evals init');

    // The plan evals init printed: both skills queued — the structural run minutes ago does not make them
    // fresh for their first composite night.
    const ready = await cli(next, parent, { ANTHROPIC_API_KEY: KEY });
    expect(ready.code).toBe(0);
    expect(ready.stdout).toContain('Resolved queue (2 skills):\n  alpha-notes\n  beta-review\n');
    expect(ready.stdout).toContain('Excluded by cross-night-resume filter:\n  (none)\n');

    // The night: the same command without --dry-run.
    const { roles } = nightModels();
    const night = await cli([...withoutDryRun(next), ...extra], parent, { ANTHROPIC_API_KEY: KEY });
    expect(night.stderr).not.toMatch(/error|halt/);
    expect(night.code).toBe(0);
    expect(new Set(roles)).toEqual(new Set(['editor', 'render', 'grader']));
    for (const name of SKILLS) {
      const rows = parseResultsTsv(
        await readFile(path.join(repo, 'skills', name, 'evals', 'results.tsv'), 'utf8'),
      );
      const composite = rows.filter((r) => !r.description.startsWith('['));
      expect(composite.map((r) => r.status)).toEqual(['baseline', 'keep']);
      expect(await readFile(path.join(repo, 'skills', name, 'SKILL.md'), 'utf8')).toContain(NEW_STEP);
    }
    const runs = path.join(repo, 'docs', 'skill-iterate-runs');
    const summaries = (await readdir(runs)).filter((f) => f.endsWith('.md')).sort();
    const summary = await readFile(path.join(runs, summaries[summaries.length - 1]!), 'utf8');
    expect(summary).toContain('- Mode: composite');
    expect(summary).not.toContain('/skill-evolve');
    // The kept edits point at the squash commits on main, which exist where the reader is.
    const shippedIn = Array.from(
      summary.matchAll(/\| (?:alpha-notes|beta-review) \| 1 \| `([0-9a-f]{7,40})` \|/g),
      (m) => m[1]!,
    );
    expect(shippedIn).toHaveLength(2);
    for (const sha of shippedIn) expect(await git(repo, 'cat-file', '-t', sha)).toBe('commit\n');
    nock.cleanAll(); // the night's interceptor answers any number of calls
  }, 180_000);
});
