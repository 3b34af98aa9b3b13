import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectOfSkill, scoreCommand, type ScoreCommandOptions } from '../../src/cli/commands/score.js';
import type { CliIo } from '../../src/cli/io.js';
import { METRIC_NAMES } from '../../src/core/iterate/score-types.js';
import type { ModelSelection } from '../../src/llm/factory.js';
import type { GraderInput } from '../../src/ports/models.js';
import { createScriptedModels, type ScriptedModels } from '../../src/llm/scripted.js';

const SKILL_MD = [
  '---',
  'name: wrap',
  'description: Wraps up a session.',
  '---',
  '# Wrap',
  '',
  '## Steps',
  '',
  '1. Read the notes.',
  '2. Write the summary.',
  '',
  '## Constraints',
  '',
  '- Keep it short.',
  '',
].join('\n');

const EVALS = {
  skill: 'wrap',
  version: '2.0',
  categories: [
    {
      name: 'Format',
      weight: 0.4,
      evals: [
        { id: 1, statement: 'Has a Summary heading.', check: { type: 'contains', value: '## Summary' } },
        { id: 2, statement: 'Is short.', source: 'SKILL.md:14', defect_type: 'format' },
      ],
    },
    {
      name: 'Content',
      weight: 0.6,
      evals: [{ id: 3, statement: 'Names the next step.', source: 'SKILL.md:10' }],
    },
  ],
};
const SCENARIOS = {
  scenarios: [
    { id: 'scenario_1', context: 'We fixed the login test.', expected_assertions: [1, 2, 3] },
    { id: 'scenario_2', context: 'Nothing happened.', expected_assertions: [1] },
  ],
};

let root: string;
let skillDir: string;
let io: CliIo & { stdout: string; stderr: string };

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-score-cmd-'));
  skillDir = path.join(root, '.claude', 'skills', 'wrap');
  await mkdir(path.join(skillDir, 'evals'), { recursive: true });
  await writeFile(path.join(skillDir, 'SKILL.md'), SKILL_MD);
  await writeFile(path.join(skillDir, 'evals', 'evals.json'), JSON.stringify(EVALS));
  await writeFile(path.join(skillDir, 'evals', 'test_scenarios.json'), JSON.stringify(SCENARIOS));
  const state = { stdout: '', stderr: '' };
  io = {
    get stdout() {
      return state.stdout;
    },
    get stderr() {
      return state.stderr;
    },
    out: (t) => void (state.stdout += t),
    err: (t) => void (state.stderr += t),
    env: {},
    cwd: root,
    exitCode: 0,
  };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Grades 2 false in scenario_1, everything else true. */
const grade = (input: GraderInput) => ({
  verdicts: Object.fromEntries(
    input.assertions.map((a) => [
      String(a.id),
      { verdict: a.id !== 2, reason: a.id === 2 ? 'too long' : 'ok' },
    ]),
  ),
});

function withScripted(models: ScriptedModels): ScoreCommandOptions {
  return { createModels: () => models };
}

async function run(args: string[], options: ScoreCommandOptions = {}): Promise<void> {
  await scoreCommand(io, options).parseAsync(args, { from: 'user' });
}

describe('skillclimb score --json', () => {
  it('prints exactly the documented shape, with the composite of both axes', async () => {
    const models = createScriptedModels({ render: () => '## Summary\nNext: rerun CI.', grade });
    await run(['.claude/skills/wrap', '--json'], withScripted(models));
    expect(io.exitCode).toBe(0);
    const doc = JSON.parse(io.stdout);
    expect(Object.keys(doc).sort()).toEqual([
      'absolute',
      'mode',
      'score',
      'specification',
      'status',
      'structural',
    ]);
    expect(doc.status).toBe('ok');
    expect(doc.mode).toBe('composite');
    expect(doc.specification).toEqual([]);
    expect(Object.keys(doc.structural).sort()).toEqual(['metrics', 'score', 'substance']);
    expect(Object.keys(doc.structural.metrics)).toEqual([...METRIC_NAMES]);
    for (const name of METRIC_NAMES) expect(typeof doc.structural.metrics[name].score).toBe('number');
    expect(Object.keys(doc.absolute).sort()).toEqual([
      'failed_assertions',
      'passed',
      'passing_pairs',
      'total',
      'weighted_score',
    ]);
    // 6 pairs; only 2/scenario_1 fails. Format: 3/4 → 0.75; Content: 2/2 → 1.
    expect(doc.absolute.total).toBe(6);
    expect(doc.absolute.passed).toBe(5);
    expect(doc.absolute.weighted_score).toBeCloseTo(0.4 * 0.75 + 0.6 * 1, 12);
    expect(doc.absolute.failed_assertions).toEqual([
      {
        assertion_id: 2,
        scenario_id: 'scenario_1',
        category_name: 'Format',
        category_weight: 0.4,
        statement: 'Is short.',
        source: 'SKILL.md:14',
        defect_type: 'format',
        grader_reason: 'too long',
      },
    ]);
    expect(doc.absolute.passing_pairs[0]).toEqual({ assertion_id: 1, scenario_id: 'scenario_1' });
    expect(doc.score).toBeCloseTo(0.4 * doc.structural.score + 0.6 * doc.absolute.weighted_score, 12);
    // One grader call: scenario_2 only has a check.
    expect(models.calls.grade).toHaveLength(1);
  });

  it('--trials 3 grades each graded scenario three times over one render', async () => {
    const models = createScriptedModels({ render: () => '## Summary', grade });
    await run(['.claude/skills/wrap', '--json', '--trials', '3', '--concurrency', '1'], withScripted(models));
    expect(io.exitCode).toBe(0);
    expect(models.calls.render).toHaveLength(2);
    expect(models.calls.grade.map((g) => g.trial)).toEqual([1, 2, 3]);
  });

  it("--trials 3 says the grader's flip rate on the same renders and the smallest gain it lets through (issue 28)", async () => {
    // Assertion 2 (model-graded; 1 is a check) passes on trials 1 and 3 and fails on trial 2 of the same
    // render: 2 of its 3 pairs of trials disagree; assertion 3 never changes.
    const models = createScriptedModels({
      render: () => '## Summary',
      grade: (input: GraderInput) => ({
        verdicts: Object.fromEntries(
          input.assertions.map((a) => [
            String(a.id),
            { verdict: !(a.id === 2 && input.trial === 2), reason: '' },
          ]),
        ),
      }),
    });
    await run(['.claude/skills/wrap', '--trials', '3', '--concurrency', '1'], withScripted(models));
    expect(io.exitCode).toBe(0);
    const line = /^noise: .*$/m.exec(io.stdout)?.[0];
    const m =
      /flipped on (\d+) % of (\d+) pairs of trials on the same renders; improvements in the graded score under \+(\d\.\d{4}) cannot be told from this noise with 3 draws per side/.exec(
        line ?? '',
      );
    expect(m, io.stdout).not.toBeNull();
    const compared = Number(m![2]);
    expect(Number(m![1])).toBe(Math.round((100 * 2) / compared));
    // sd = sqrt(flip / 2 / pairs) over the report's 6 pairs; margin 1 over 3 draws per side.
    const flip = 2 / compared;
    expect(Number(m![3])).toBeCloseTo(Math.sqrt(flip / 2 / 6) * Math.sqrt(2 / 3), 4);
    // One trial per scenario prints no such line: nothing was graded twice.
    const before = io.stdout.length;
    await run(
      ['.claude/skills/wrap', '--concurrency', '1'],
      withScripted(createScriptedModels({ render: () => '## Summary', grade })),
    );
    expect(io.stdout.slice(before)).toMatch(/^score: /m);
    expect(io.stdout.slice(before)).not.toMatch(/^noise: /m);
  });

  it('--uplift renders each scenario without the skill too and reports with minus without', async () => {
    // With the skill the render has the heading and names the next step; without it, neither.
    const models = createScriptedModels({
      render: (i) => (i.skillMd.includes('# Wrap') ? '## Summary\nNext: rerun CI.' : 'Done.'),
      grade: (input: GraderInput) => ({
        verdicts: Object.fromEntries(
          input.assertions.map((a) => [
            String(a.id),
            { verdict: a.id === 2 || input.output.includes('Next'), reason: '' },
          ]),
        ),
      }),
    });
    await run(['.claude/skills/wrap', '--json', '--uplift'], withScripted(models));
    expect(io.exitCode).toBe(0);
    const doc = JSON.parse(io.stdout);
    // Non-vacuous pairs: 1, 2, 3 in scenario_1, 1 in scenario_2. With: all 4 pass; without: only 2.
    expect(doc.uplift.with).toEqual({ passes: 4, total: 4 });
    expect(doc.uplift.without).toEqual({ passes: 1, total: 4 });
    expect(doc.uplift.uplift).toBeCloseTo(0.75, 12);
    expect(doc.uplift.per_assertion).toContainEqual({
      assertion_id: 2,
      with: { passes: 1, total: 1 },
      without: { passes: 1, total: 1 },
    });
    // Two renders with the skill, two without; none of those without carries the SKILL.md.
    expect(models.calls.render).toHaveLength(4);
    expect(models.calls.render.filter((r) => r.skillMd.includes('# Wrap'))).toHaveLength(2);
  });

  it('--uplift in the text report says it rests on one draw of each', async () => {
    const models = createScriptedModels({
      render: (i) => (i.skillMd.includes('# Wrap') ? '## Summary\nNext: rerun CI.' : 'Done.'),
      grade,
    });
    await run(['.claude/skills/wrap', '--uplift'], withScripted(models));
    expect(io.stdout).toMatch(
      /uplift: \+50\.00 points -- pass rate with the skill 75\.0 % \(3 of 4\) minus without it 25\.0 % \(1 of 4\)/,
    );
    expect(io.stdout).toContain('one draw each');
  });

  it('structural mode prints absolute: null and needs no model', async () => {
    await run([skillDir, '--json', '--mode', 'structural']);
    expect(io.exitCode).toBe(0);
    const doc = JSON.parse(io.stdout);
    expect(doc.mode).toBe('structural');
    expect(doc.absolute).toBeNull();
    expect(doc.score).toBe(doc.structural.score);
  });

  it('a harness error exits 1 with the status in the document and the reason on stderr', async () => {
    const models = createScriptedModels({
      render: () => 'x',
      grade: () => {
        throw new Error('HTTP 503 from grader');
      },
    });
    await run(['.claude/skills/wrap', '--json'], withScripted(models));
    expect(io.exitCode).toBe(1);
    const doc = JSON.parse(io.stdout);
    expect(doc).toMatchObject({ status: 'harness-error', score: null, absolute: null });
    expect(io.stderr).toContain('HTTP 503 from grader');
  });
});

describe('skillclimb score (human output)', () => {
  it('shows the score, the metrics table and the failed assertions', async () => {
    const models = createScriptedModels({ render: () => 'no heading', grade });
    await run(['.claude/skills/wrap'], withScripted(models));
    expect(io.exitCode).toBe(0);
    expect(io.stdout).toMatch(/^score: \d\.\d{6}$/m);
    for (const name of METRIC_NAMES) expect(io.stdout).toContain(name);
    expect(io.stdout).toContain('failed assertions:');
    expect(io.stdout).toContain('#1 scenario_2 [Format, unspecified] Has a Summary heading.');
    expect(io.stdout).toContain('reason: too long');
  });

  it('with the offline provider, composite falls back to structural and says so', async () => {
    await run([skillDir]);
    expect(io.exitCode).toBe(0);
    expect(io.stdout).toContain('mode: structural');
    expect(io.stdout).toContain('graded structure only');
  });

  it('does not claim trials and a majority vote for a structural score, which no grader drew', async () => {
    await run([skillDir, '--trials', '3']);
    expect(io.exitCode).toBe(0);
    expect(io.stdout).toContain(
      'mode: structural (--trials 3 draws nothing more: structure is scored exactly)',
    );
    expect(io.stdout).not.toContain('majority vote');
  });
});

describe('skillclimb score: bad input', () => {
  it('--mode absolute with the offline provider is a usage error naming --mode', async () => {
    await run([skillDir, '--mode', 'absolute']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain('--mode absolute');
    expect(io.stdout).toBe('');
  });

  it('an invalid eval file names the file and the JSON path (composite reads it)', async () => {
    const broken = structuredClone(EVALS) as { categories: Array<{ evals: Array<{ id: unknown }> }> };
    const first = broken.categories[1]?.evals[0];
    if (first) first.id = 'three';
    await writeFile(path.join(skillDir, 'evals', 'evals.json'), JSON.stringify(broken));
    const models = createScriptedModels({ render: () => 'x', grade });
    await run([skillDir], withScripted(models));
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(path.join(skillDir, 'evals', 'evals.json'));
    expect(io.stderr).toContain('categories[1].evals[0].id: expected integer');
  });

  it('composite without eval files says how to write them, or to score structure', async () => {
    await rm(path.join(skillDir, 'evals'), { recursive: true });
    const models = createScriptedModels({ render: () => 'x', grade });
    await run([skillDir], withScripted(models));
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(
      'evals.json: file not found; write the eval files with `skillclimb evals init wrap`, or score with --mode structural (no evals needed)',
    );
  });

  it('refuses a linked SKILL.md or eval file: nothing is read through a link', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-score-outside-'));
    try {
      await writeFile(path.join(outside, 'secret.md'), 'token: do-not-read');
      await rm(path.join(skillDir, 'SKILL.md'));
      await symlink(path.join(outside, 'secret.md'), path.join(skillDir, 'SKILL.md'));
      await run([skillDir, '--mode', 'structural', '--json']);
      expect(io.exitCode).toBe(2);
      expect(io.stdout).toBe('');
      expect(io.stderr).toContain(
        `${path.join(skillDir, 'SKILL.md')}: a symbolic link; skill files are never read through a link`,
      );
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('bad flag values and a folder without SKILL.md are usage errors', async () => {
    await run([skillDir, '--trials', '0']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain('--trials');
    io.exitCode = 0;
    await run([skillDir, '--mode', 'fancy']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain('--mode: expected one of composite, structural, absolute');
    io.exitCode = 0;
    await run([skillDir, '--concurrency', 'many']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain('--concurrency');
    io.exitCode = 0;
    await run([root]);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(`${path.join(root, 'SKILL.md')}: file not found`);
  });
});

describe('skillclimb score reads skillclimb.config.json', () => {
  async function writeConfig(value: unknown): Promise<void> {
    await writeFile(path.join(root, 'skillclimb.config.json'), JSON.stringify(value));
  }

  function recordingFactory(models: ScriptedModels, seen: ModelSelection[]): ScoreCommandOptions {
    return {
      createModels: (selection) => {
        seen.push(selection);
        return models;
      },
    };
  }

  it('takes the models, mode and concurrency of the project holding .claude, flags overriding them', async () => {
    await writeConfig({
      models: { default: 'openai-compatible:qwen3', grader: 'anthropic:claude-haiku-4-5' },
      mode: 'absolute',
      concurrency: 1,
    });
    const seen: ModelSelection[] = [];
    const models = createScriptedModels({ render: () => '## Summary\nNext: rerun CI.', grade });
    // Run from elsewhere: the project is found from the skill folder, not the working directory.
    io.cwd = os.tmpdir();
    await run([skillDir, '--json'], recordingFactory(models, seen));
    expect(io.exitCode).toBe(0);
    expect(seen[0]).toMatchObject({
      renderModel: 'openai-compatible:qwen3',
      graderModel: 'anthropic:claude-haiku-4-5',
    });
    expect(JSON.parse(io.stdout).mode).toBe('absolute');

    io.exitCode = 0;
    const state = io.stdout.length;
    await run(
      [skillDir, '--json', '--mode', 'structural', '--grader-model', 'openai:gpt-5'],
      recordingFactory(models, seen),
    );
    expect(io.exitCode).toBe(0);
    expect(seen[1]).toMatchObject({ renderModel: 'openai-compatible:qwen3', graderModel: 'openai:gpt-5' });
    expect(JSON.parse(io.stdout.slice(state)).mode).toBe('structural');
  });

  it('with the real factory: a configured model without its key is a usage error naming the variable', async () => {
    await writeConfig({ models: { default: 'anthropic:claude-sonnet-4-5' } });
    await run([skillDir]);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain('model anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY');
    expect(io.stdout).toBe('');
  });

  it('a config mode absolute with offline models says where the mode came from', async () => {
    await writeConfig({ mode: 'absolute' });
    await run([skillDir]);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain('mode "absolute" (from skillclimb.config.json) needs a render and a grader');
  });

  it('a bad config file exits 2 naming the file and the field', async () => {
    await writeConfig({ models: { render: 'qwen3' } });
    await run([skillDir, '--mode', 'structural']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(
      `${path.join(root, 'skillclimb.config.json')}: models.render: model id "qwen3"`,
    );
    expect(io.stdout).toBe('');
  });
});

describe('projectOfSkill', () => {
  it('is the nearest ancestor holding skillclimb.config.json, .claude or .git, else the cwd', async () => {
    expect(projectOfSkill(skillDir, '/elsewhere')).toBe(root);
    const loose = path.join(root, 'loose', 'skill');
    await mkdir(loose, { recursive: true });
    expect(projectOfSkill(loose, '/elsewhere')).toBe(root);
    const outside = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-score-outside-'));
    try {
      expect(projectOfSkill(path.join(outside, 'a', 'skill'), '/elsewhere')).toBe('/elsewhere');
      await mkdir(path.join(outside, 'repo', '.git'), { recursive: true });
      await mkdir(path.join(outside, 'repo', 'skills', 'x'), { recursive: true });
      expect(projectOfSkill(path.join(outside, 'repo', 'skills', 'x'), '/elsewhere')).toBe(
        path.join(outside, 'repo'),
      );
      await writeFile(path.join(outside, 'repo', 'skills', 'skillclimb.config.json'), '{}');
      expect(projectOfSkill(path.join(outside, 'repo', 'skills', 'x'), '/elsewhere')).toBe(
        path.join(outside, 'repo', 'skills'),
      );
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe('skillclimb score --mode structural needs no evals', () => {
  const LONG = 'word '.repeat(20).trim();
  const TEXT = [
    '---',
    'name: loose',
    'description: A skill without evals.',
    '---',
    '# Loose',
    '',
    '## Usage',
    '',
    `Use it. ${LONG}`,
    'As an AI I think it helps.',
    '',
  ].join('\n');

  async function looseSkill(): Promise<string> {
    const dir = path.join(root, 'skills', 'loose');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), TEXT);
    return dir;
  }

  it('scores any folder with a SKILL.md, no evals/ at all', async () => {
    const dir = await looseSkill();
    await run([dir, '--mode', 'structural', '--json']);
    expect(io.stderr).toBe('');
    expect(io.exitCode).toBe(0);
    const doc = JSON.parse(io.stdout);
    expect(doc.mode).toBe('structural');
    expect(doc.absolute).toBeNull();
    // Defaults: 150 characters, the three default phrases ("as an AI", "I think": 2 hits), default sections.
    expect(doc.structural.metrics.max_line_length).toMatchObject({ over: 0, limit: 150 });
    expect(doc.structural.metrics.banned_phrases).toMatchObject({ hits: 2 });
    expect(doc.structural.metrics.required_sections).toMatchObject({ exempt: true, score: 1 });
  });

  it('--max-line-length, --required-section and --banned-phrase replace the defaults', async () => {
    const dir = await looseSkill();
    await run([
      dir,
      '--mode',
      'structural',
      '--json',
      '--max-line-length',
      '80',
      '--required-section',
      'Usage',
      '--required-section',
      'Examples',
      '--banned-phrase',
      'it helps',
    ]);
    expect(io.exitCode).toBe(0);
    const metrics = JSON.parse(io.stdout).structural.metrics;
    expect(metrics.max_line_length).toMatchObject({ over: 1, limit: 80, lines: 10 });
    expect(metrics.max_line_length.score).toBeCloseTo(9 / 10, 12);
    expect(metrics.required_sections).toMatchObject({ present: 1, required: 2, missing: ['Examples'] });
    expect(metrics.banned_phrases).toMatchObject({ hits: 1, found: { 'it helps': 1 } });
  });

  it('takes the same settings from skillclimb.config.json; a flag wins over the config', async () => {
    const dir = await looseSkill();
    await writeFile(
      path.join(root, 'skillclimb.config.json'),
      JSON.stringify({
        structural: { maxLineLength: 60, requiredSections: ['Examples'], bannedPhrases: ['Use it'] },
      }),
    );
    await run([dir, '--mode', 'structural', '--json', '--max-line-length', '200']);
    expect(io.exitCode).toBe(0);
    const metrics = JSON.parse(io.stdout).structural.metrics;
    expect(metrics.max_line_length).toMatchObject({ over: 0, limit: 200 });
    expect(metrics.required_sections).toMatchObject({ present: 0, required: 1 });
    expect(metrics.banned_phrases).toMatchObject({ hits: 1, found: { 'Use it': 1 } });
  });

  it('takes a skill name instead of a folder, looked up through the skills setting', async () => {
    await looseSkill();
    await run(['loose', '--skills', 'skills/*', '--mode', 'structural', '--json']);
    expect(io.stderr).toBe('');
    expect(io.exitCode).toBe(0);
    expect(JSON.parse(io.stdout).mode).toBe('structural');
    io.exitCode = 0;
    await run(['ghost', '--mode', 'structural']);
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(
      'ghost: not a folder, and no skill named ghost matches the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
  });

  it('with offline models the default mode grades structure without asking for evals', async () => {
    const dir = await looseSkill();
    await run([dir]);
    expect(io.stderr).toBe('');
    expect(io.exitCode).toBe(0);
    expect(io.stdout).toContain('mode: structural');
  });
});

describe('skillclimb score --base', () => {
  const sh = (...args: string[]) =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();

  beforeEach(async () => {
    await writeFile(path.join(root, 'skillclimb.config.json'), JSON.stringify({ trials: 2 }));
    sh('init', '--quiet', '--initial-branch=main');
    sh('add', '-A');
    sh('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '--quiet', '-m', 'base');
  });

  /** With "Write the summary." in the skill the render names the next step (assertion 3); without, not. */
  function models() {
    return createScriptedModels({
      render: (i) =>
        i.skillMd.includes('Write the summary.') ? '## Summary\nNext: rerun CI.' : '## Summary',
      grade: (input: GraderInput) => ({
        verdicts: Object.fromEntries(
          input.assertions.map((a) => [
            String(a.id),
            { verdict: a.id !== 3 || input.output.includes('Next:'), reason: 'scripted' },
          ]),
        ),
      }),
    });
  }

  it('compares the changed skill at the base and in the working tree, and exits 1 on a regression', async () => {
    await writeFile(path.join(skillDir, 'SKILL.md'), SKILL_MD.replace('Write the summary.', 'Stop here.'));
    const scripted = models();
    await run(['--base', 'main', '--json'], withScripted(scripted));
    expect(io.stderr).toBe('');
    const doc = JSON.parse(io.stdout);
    expect(doc).toMatchObject({ scoring: 'composite', trials: 2, margin: 1, regressions: ['wrap'] });
    expect(doc.base).toBe(sh('rev-parse', 'main'));
    expect(doc.skills).toHaveLength(1);
    expect(doc.skills[0]).toMatchObject({
      skill: 'wrap',
      dir: '.claude/skills/wrap',
      change: 'changed',
      verdict: 'regression',
      assertions: [{ assertion_id: 3, base: { passes: 2, total: 2 }, head: { passes: 0, total: 2 } }],
    });
    expect(doc.skills[0].base.scores).toHaveLength(2);
    expect(doc.skills[0].difference.gain).toBeLessThan(0);
    expect(io.exitCode).toBe(1);
    // Two draws a side, a fresh render each: 2 scenarios × 2 draws × 2 sides.
    expect(scripted.calls.render).toHaveLength(8);
    // The base's temporary worktree is removed again.
    expect(sh('worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('prints the comment the Action would post with --markdown, and says when nothing changed', async () => {
    await writeFile(path.join(skillDir, 'SKILL.md'), SKILL_MD.replace('Keep it short.', 'Keep it brief.'));
    await run(['--base', 'main', '--markdown', '--trials', '1'], withScripted(models()));
    expect(io.stdout.split('\n')[0]).toBe('<!-- skillclimb:score -->');
    expect(io.stdout).toContain('1 independent draw per side');
    expect(io.stdout).toMatch(/\| wrap \| \d\.\d{4} → \d\.\d{4} \|/);
    expect(io.exitCode).toBe(0);

    await writeFile(path.join(skillDir, 'SKILL.md'), SKILL_MD);
    io.exitCode = 0;
    const before = io.stdout.length;
    await run(['.claude/skills/wrap', '--base', 'main'], withScripted(models()));
    expect(io.stdout.slice(before)).toContain('no skill folder changed since the base');
    expect(io.exitCode).toBe(0);
  });

  it('names a base that is no commit, and asks for a folder or --base', async () => {
    await run(['--base', 'no-such-branch'], withScripted(models()));
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toMatch(
      /^skillclimb score --base: base no-such-branch: not in the checkout and not fetched from origin/,
    );
    io.exitCode = 0;
    await run(['--base', 'main', '--trials', '11'], withScripted(models()));
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(
      'skillclimb score: --trials: with --base, expected 1 to 10 draws per side, got 11',
    );
    io.exitCode = 0;
    await run([], withScripted(models()));
    expect(io.exitCode).toBe(2);
    expect(io.stderr).toContain(
      'skillclimb score: give a <skill-folder>, or --base <ref> to score the skills changed since that commit',
    );
  });
});
