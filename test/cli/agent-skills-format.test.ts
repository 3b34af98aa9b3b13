/**
 * Issue 29 item 1 through the CLI: a skill-creator `evals/evals.json` scored as it is (no conversion, the
 * file untouched) with the models served by nock at Anthropic's API (the real provider code runs), written
 * as a benchmark.json skill-creator's schema accepts; the plan queues it and names a file in neither shape
 * with what was expected (never `--force`); `evals init` writes the repository's shape, the Agent Skills
 * one where there is none (a file skill-creator's schema accepts), and never rewrites a file into the other.
 * Git is real.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { releaseNotesSkill, validAnswer } from '../helpers/authored-evals.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { strictNock } from '../helpers/nock-frame.js';
import { serveSkillModels } from '../helpers/nock-skill-models.js';
import { captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';
import { SkillCreatorBenchmarkSchema, SkillCreatorEvalsSchema } from '../helpers/skill-creator-schemas.js';

strictNock();
afterEach(removeTempDirs);

const KEY = 'sk-ant-agent-skills-format-key';
const NOW = new Date('2026-06-03T02:00:00Z');
const SKILL = '.claude/skills/csv-report';

const SKILL_MD = [
  '---',
  'name: csv-report',
  'description: Reports on a CSV of sales.',
  '---',
  '# CSV report',
  '',
  '## Steps',
  '',
  '1. Read the CSV the user names.',
  '2. Chart the top months as a bar chart.',
  '',
].join('\n');

/** As skill-creator writes it (schemas.md): `expectations`, `files` relative to the skill, with skillclimb's field. */
const SKILL_CREATOR_EVALS = `${JSON.stringify(
  {
    skill_name: 'csv-report',
    evals: [
      {
        id: 1,
        prompt: 'Find the top 3 months by revenue in evals/files/sales.csv and chart them.',
        expected_output: 'A bar chart of March, July and November.',
        files: ['evals/files/sales.csv'],
        expectations: ['The output names the top 3 months', 'The output includes a bar chart'],
      },
      {
        id: 2,
        prompt: 'Some rows of customers.csv have no email: how many are missing?',
        expected_output: 'The number of rows without an email.',
        files: [],
        expectations: ['The output states how many emails are missing'],
        skillclimb: {
          checks: {
            'The output states how many emails are missing': { type: 'regex', value: '\\d+ missing' },
          },
        },
      },
    ],
  },
  null,
  2,
)}\n`;

const SALES = 'month,revenue\nMarch,120\nJuly,110\nNovember,100\nJanuary,20\n';

async function cli(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const io = captureIo(cwd, NOW);
  io.env = env;
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
}

async function repository(files: Record<string, string>): Promise<string> {
  const repo = await makeTempDir();
  await write(repo, { 'README.md': '# skills\n', '.gitignore': 'results.tsv\n', ...files });
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'skills');
  return repo;
}

const csvReport = {
  [`${SKILL}/SKILL.md`]: SKILL_MD,
  [`${SKILL}/evals/evals.json`]: SKILL_CREATOR_EVALS,
  [`${SKILL}/evals/files/sales.csv`]: SALES,
};

describe('a skill-creator evals.json, read natively', () => {
  it('is scored as it is, each eval on its own expectations, and written as a benchmark.json skill-creator accepts', async () => {
    const repo = await repository(csvReport);
    const bodies = serveSkillModels({
      // With the skill the render does the task; without it (the benchmark's without_skill runs) it does not.
      render: ({ system, user }) =>
        !system.includes('# CSV report')
          ? 'I would need to see the file.'
          : user.includes('top 3 months')
            ? 'March, July, November. BARCHART attached.'
            : '2 missing',
      grade: ({ text, ids }) =>
        ids.filter((id) => {
          const output = text.slice(text.lastIndexOf('OUTPUT to grade'));
          return id === 1 ? output.includes('November') : output.includes('BARCHART');
        }),
      propose: () => {
        throw new Error('score never edits');
      },
    });

    const scored = await cli(
      [
        'score',
        SKILL,
        '--model',
        'anthropic:claude-sonnet-4-5',
        '--json',
        '--benchmark-json',
        'out/benchmark.json',
      ],
      repo,
      { ANTHROPIC_API_KEY: KEY },
    );

    expect(scored.code).toBe(0);
    const doc = JSON.parse(scored.stdout) as {
      status: string;
      absolute: { weighted_score: number; passed: number; total: number };
    };
    // Three pairs: eval 1's two expectations, eval 2's one. Neither eval is graded on the other's.
    expect(doc.absolute).toMatchObject({ weighted_score: 1, passed: 3, total: 3 });
    // The render got the prompt and the input file; never the expected output.
    const withSkill = bodies.render.filter((r) => r.system.includes('# CSV report'));
    expect(withSkill).toHaveLength(2);
    const first = withSkill.find((r) => r.user.includes('top 3 months'))!;
    expect(first.user).toContain(`File \`evals/files/sales.csv\`:\n\`\`\`\n${SALES}\n\`\`\``);
    expect(first.user).not.toContain('A bar chart of March');
    // One grader call per configuration, for eval 1 only (eval 2's one expectation is a check, decided in
    // code); it is asked eval 1's two ids and told the expected output as a hint.
    expect(bodies.grader).toHaveLength(2);
    for (const body of bodies.grader) {
      expect(body).toContain('Assertions to grade (ids: 1, 2)');
      expect(body).toContain(
        'expected output (a hint for the grader, not an assertion):\\nA bar chart of March',
      );
    }
    // Untouched: no conversion, nothing written into the skill.
    expect(await readFile(path.join(repo, SKILL, 'evals', 'evals.json'), 'utf8')).toBe(SKILL_CREATOR_EVALS);
    expect(await git(repo, 'status', '--porcelain', '--', '.claude')).toBe('');

    const file = path.join(repo, 'out', 'benchmark.json');
    expect(scored.stderr).toBe(`benchmark.json (skill-creator's format) written to ${file}\n`);
    const benchmark = SkillCreatorBenchmarkSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(benchmark.metadata).toMatchObject({
      skill_name: 'csv-report',
      executor_model: 'anthropic:claude-sonnet-4-5',
      analyzer_model: 'anthropic:claude-sonnet-4-5',
      timestamp: '2026-06-03T02:00:00Z',
      evals_run: [1, 2],
      runs_per_configuration: 1,
    });
    expect(benchmark.runs.map((r) => [r.eval_id, r.configuration, r.result.passed, r.result.total])).toEqual([
      [1, 'with_skill', 2, 2],
      [2, 'with_skill', 1, 1],
      [1, 'without_skill', 0, 2],
      [2, 'without_skill', 0, 1],
    ]);
    expect(benchmark.runs[0]?.expectations).toEqual([
      { text: 'The output names the top 3 months', passed: true, evidence: 'scripted' },
      { text: 'The output includes a bar chart', passed: true, evidence: 'scripted' },
    ]);
    expect(benchmark.runs[1]?.expectations[0]).toEqual({
      text: 'The output states how many emails are missing',
      passed: true,
      evidence: 'check regex: output matches /\\d+ missing/',
    });
    // Eval 1 spent a render and a grade (15 tokens each on the wire), eval 2 a render only.
    expect(benchmark.runs.map((r) => r.result.tokens)).toEqual([30, 15, 30, 15]);
    expect(benchmark.run_summary.with_skill.pass_rate).toEqual({ mean: 1, stddev: 0, min: 1, max: 1 });
    expect(benchmark.run_summary.without_skill.pass_rate).toEqual({ mean: 0, stddev: 0, min: 0, max: 0 });
    expect(benchmark.run_summary.with_skill.tokens).toEqual({
      mean: 22.5,
      stddev: 10.6066,
      min: 15,
      max: 30,
    });
    expect(benchmark.run_summary.delta).toEqual({ pass_rate: '+1.00', time_seconds: '+0.0', tokens: '+0' });
  });

  it("is the PR check's measure too: score --base scores both sides on it and finds the regression", async () => {
    const repo = await repository(csvReport);
    // The pull request drops the bar chart step: the render stops charting.
    await writeFile(
      path.join(repo, SKILL, 'SKILL.md'),
      SKILL_MD.replace('2. Chart the top months as a bar chart.\n', ''),
    );
    serveSkillModels({
      render: ({ system, user }) =>
        user.includes('top 3 months')
          ? `March, July, November.${system.includes('bar chart') ? ' BARCHART attached.' : ''}`
          : '2 missing',
      grade: ({ text, ids }) => {
        const output = text.slice(text.lastIndexOf('OUTPUT to grade'));
        return ids.filter((id) => (id === 1 ? output.includes('November') : output.includes('BARCHART')));
      },
      propose: () => {
        throw new Error('score never edits');
      },
    });
    const compared = await cli(
      ['score', '--base', 'HEAD', '--model', 'anthropic:claude-sonnet-4-5', '--json'],
      repo,
      {
        ANTHROPIC_API_KEY: KEY,
      },
    );
    expect(compared.code).toBe(1);
    const doc = JSON.parse(compared.stdout) as {
      regressions: string[];
      skills: Array<{
        verdict: string;
        assertions: Array<{ assertion_id: number; base: unknown; head: unknown }>;
      }>;
    };
    expect(doc.regressions).toEqual(['csv-report']);
    // Assertion 2 (eval 1's bar chart) went from 3 of 3 draws to 0 of 3; the others held.
    expect(doc.skills[0]?.assertions).toEqual([
      { assertion_id: 2, base: { passes: 3, total: 3 }, head: { passes: 0, total: 3 } },
    ]);
    expect(await readFile(path.join(repo, SKILL, 'evals', 'evals.json'), 'utf8')).toBe(SKILL_CREATOR_EVALS);
  });

  it('is queued by the plan, and a file in neither shape is named with what was expected, never --force', async () => {
    const repo = await repository({
      ...csvReport,
      '.claude/skills/odd/SKILL.md': '---\nname: odd\ndescription: x\n---\n# Odd\n',
      '.claude/skills/odd/evals/evals.json': JSON.stringify({ tests: [{ input: 'x', want: 'y' }] }),
    });
    const plan = await cli(['iterate', '--dry-run', '--json'], repo, { ANTHROPIC_API_KEY: KEY });
    expect(plan.code).toBe(0);
    const json = JSON.parse(plan.stdout) as {
      queue: string[];
      excludedOther: Array<{ skill: string; reason: string; next: string }>;
    };
    expect(json.queue).toEqual(['csv-report']);
    expect(json.excludedOther).toEqual([
      {
        skill: 'odd',
        dir: '.claude/skills/odd',
        reason:
          'invalid evals: .claude/skills/odd/evals/evals.json: not an eval file skillclimb reads: expected the ' +
          'original format\'s "categories" (with test_scenarios.json beside it) or the Agent Skills format\'s ' +
          '"evals" list ({"skill_name": …, "evals": [{"id": 1, "prompt": …, "expected_output": …, "assertions": ' +
          '[…]}]}); found the key "tests"',
        next: 'fix the file',
      },
    ]);
    const text = await cli(['iterate', '--dry-run'], repo, { ANTHROPIC_API_KEY: KEY });
    expect(text.stdout).toContain('odd');
    expect(text.stdout).not.toContain('--force');
    expect(text.stdout).not.toContain('half-bootstrapped');

    const halted = await cli(['iterate', '--skill', 'odd', '--dry-run'], repo, { ANTHROPIC_API_KEY: KEY });
    expect(halted.code).toBe(2);
    expect(halted.stderr).toContain('.claude/skills/odd/evals/evals.json: not an eval file skillclimb reads');
    expect(halted.stderr).not.toContain('--force');

    const score = await cli(['score', '.claude/skills/odd', '--model', 'anthropic:claude-sonnet-4-5'], repo, {
      ANTHROPIC_API_KEY: KEY,
    });
    expect(score.code).toBe(2);
    expect(score.stderr).toBe(
      `skillclimb score: ${path.join(repo, '.claude/skills/odd/evals/evals.json')}: ${json.excludedOther[0]!.reason.split(': ').slice(2).join(': ')}\n`,
    );
  });
});

/** The Messages API answering each call with the next reply as its structured JSON text. */
function author(bodies: string[], ...replies: unknown[]): void {
  let scope = nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } });
  for (const reply of replies) {
    scope = scope
      .post('/v1/messages', (body: Record<string, unknown>) => {
        bodies.push(JSON.stringify(body));
        return true;
      })
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: JSON.stringify(reply) }], {
          input_tokens: 100,
          output_tokens: 50,
        }),
      );
  }
}

describe('evals init writes the shape the repository uses', () => {
  it('where there is none, the Agent Skills format: a file skill-creator accepts, scored as written', async () => {
    const repo = await repository({ 'skills/notes/SKILL.md': releaseNotesSkill('notes') });
    const bodies: string[] = [];
    author(bodies, validAnswer());
    const init = await cli(['evals', 'init', 'notes', '--skills', 'skills/*'], repo, {
      ANTHROPIC_API_KEY: KEY,
    });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'notes: wrote skills/notes/evals/evals.json in the Agent Skills format (2 evals with 10 assertions, 83% discriminating)',
    );
    // The model was asked for the expected outputs this format has.
    expect(bodies[0]).toContain(
      '"required":["id","name","description","context","expected_assertions","expected_output"]',
    );
    expect(bodies[0]).toContain('Each scenario also has \\"expected_output\\"');
    expect(await readdir(path.join(repo, 'skills', 'notes', 'evals'))).toEqual(['evals.json']);
    const written = JSON.parse(
      await readFile(path.join(repo, 'skills/notes/evals/evals.json'), 'utf8'),
    ) as unknown;
    const file = SkillCreatorEvalsSchema.parse(written);
    expect(file.skill_name).toBe('notes');
    expect(file.evals.map((e) => [e.id, e.expectations.length, e.files])).toEqual([
      [1, 5, []],
      [2, 5, []],
    ]);
    expect(file.evals[1]?.prompt).toContain('#44 "Refactor CI cache"');
    expect(file.evals[1]?.expected_output).toBe(
      'Release notes headed "## Release 1.3.1" listing #44 and #45 under Internal only.',
    );
    expect(file.evals[0]?.expectations).toContain('No pull request number appears on two lines.');

    // Read back as written: the plan queues it.
    const plan = await cli(['iterate', '--dry-run', '--json', '--skills', 'skills/*'], repo);
    expect((JSON.parse(plan.stdout) as { queue: string[] }).queue).toEqual(['notes']);
  });

  it('--force keeps a file in its own shape; --format asking for the other one is refused and the file stays', async () => {
    const standard = SKILL_CREATOR_EVALS.replace('csv-report', 'notes');
    const repo = await repository({
      'skills/notes/SKILL.md': releaseNotesSkill('notes'),
      'skills/notes/evals/evals.json': standard,
      'skills/legacy/SKILL.md': releaseNotesSkill('legacy'),
    });
    const refused = await cli(
      ['evals', 'init', 'notes', '--skills', 'skills/*', '--force', '--format', 'original'],
      repo,
      { ANTHROPIC_API_KEY: KEY },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'notes: refused: skills/notes/evals/evals.json is in the Agent Skills format (one evals.json); skillclimb ' +
        'never rewrites eval files into the other shape (pass --format agent-skills, or remove the files first ' +
        'to start over in the original format (evals.json with test_scenarios.json))',
    );
    expect(await readFile(path.join(repo, 'skills/notes/evals/evals.json'), 'utf8')).toBe(standard);

    // Without --format: legacy (no evals) gets the repository's shape, the Agent Skills one notes uses.
    author([], validAnswer());
    const init = await cli(['evals', 'init', 'legacy', '--skills', 'skills/*'], repo, {
      ANTHROPIC_API_KEY: KEY,
    });
    expect(init.code).toBe(0);
    expect(await readdir(path.join(repo, 'skills', 'legacy', 'evals'))).toEqual(['evals.json']);
    // The repository's key: notes says "expectations", so legacy does too.
    const legacy = JSON.parse(await readFile(path.join(repo, 'skills/legacy/evals/evals.json'), 'utf8')) as {
      evals: Array<Record<string, unknown>>;
    };
    expect(Object.keys(legacy.evals[0]!)).toEqual([
      'id',
      'prompt',
      'expected_output',
      'files',
      'expectations',
    ]);
  });

  it('in a repository of original-format files it writes the original pair; --format agent-skills chooses the other', async () => {
    const repo = await repository({
      'skills/alpha/SKILL.md': releaseNotesSkill('alpha'),
      'skills/alpha/evals/evals.json':
        '{"categories": [{"name": "x", "evals": [{"id": 1, "statement": "s"}]}]}',
      'skills/alpha/evals/test_scenarios.json': '{"scenarios": [{"id": "a", "context": "c"}]}',
      'skills/beta/SKILL.md': releaseNotesSkill('beta'),
      'skills/gamma/SKILL.md': releaseNotesSkill('gamma'),
    });
    author([], validAnswer(), validAnswer());
    const beta = await cli(['evals', 'init', 'beta', '--skills', 'skills/*'], repo, {
      ANTHROPIC_API_KEY: KEY,
    });
    expect(beta.code).toBe(0);
    expect(beta.stdout).toContain(
      'beta: wrote skills/beta/evals/evals.json and skills/beta/evals/test_scenarios.json (6 assertions in 4 categories',
    );
    const gamma = await cli(
      ['evals', 'init', 'gamma', '--skills', 'skills/*', '--format', 'agent-skills'],
      repo,
      {
        ANTHROPIC_API_KEY: KEY,
      },
    );
    expect(gamma.code).toBe(0);
    expect(await readdir(path.join(repo, 'skills', 'gamma', 'evals'))).toEqual(['evals.json']);
    SkillCreatorEvalsSchema.parse(
      JSON.parse(await readFile(path.join(repo, 'skills/gamma/evals/evals.json'), 'utf8')),
    );

    const bad = await cli(['evals', 'init', 'gamma', '--format', 'yaml'], repo);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected original or agent-skills, got "yaml"');
  });
});
