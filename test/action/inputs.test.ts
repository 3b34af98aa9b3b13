import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  INPUT_NAMES,
  InputError,
  modelEnv,
  durationMs,
  parseInputs,
  type ActionInputName,
} from '../../src/action/inputs.js';
import { SECRET_INPUTS } from '../../src/action/mask.js';
import { messageOf } from '../../src/core/errors.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The defaults action.yml gives, so these tests read inputs the way the runner passes them. */
const DEFAULTS: Partial<Record<ActionInputName, string>> = {
  'github-token': 'ghs_x',
  project: '.',
  'per-skill-budget': '1h',
  'per-skill-iterations': '12',
  calibrate: 'false',
  'dry-run': 'false',
  labels: 'skill-iterate',
  draft: 'false',
  mode: 'run',
  'state-branch': 'skill-iterate-state',
  'freshness-hours': '20',
  'kill-switch-read-error': 'stop',
  'fail-on': 'regression',
  dashboard: 'true',
};

const read = (values: Partial<Record<ActionInputName, string>>) => (name: ActionInputName) =>
  values[name] ?? DEFAULTS[name] ?? '';

/** Top-level keys of a YAML block (`inputs:` / `outputs:`), without a YAML parser. */
function yamlKeys(text: string, block: string): Array<{ name: string; body: string }> {
  const section = text.split(new RegExp(`^${block}:\\s*$`, 'm'))[1]?.split(/^\S/m)[0] ?? '';
  return section
    .split(/^ {2}(?=[a-z])/m)
    .slice(1)
    .map((chunk) => ({ name: chunk.split(':')[0]!.trim(), body: chunk }));
}

describe('action inputs', () => {
  it('reads the defaults of action.yml into the typed inputs', () => {
    expect(parseInputs(read({}))).toMatchObject({
      githubToken: 'ghs_x',
      project: '.',
      perSkillBudgetMs: 3_600_000,
      perSkillIterations: 12,
      skipList: [],
      calibrate: false,
      dryRun: false,
      maxCostUsd: undefined,
      base: undefined,
      labels: ['skill-iterate'],
      draft: false,
      mode: 'run',
      stateBranch: 'skill-iterate-state',
      model: undefined,
      freshnessWindowMs: 20 * 3_600_000,
      allowEvents: [],
    });
  });

  it('reads freshness-hours as a positive number and allow-events as event names', () => {
    expect(parseInputs(read({ 'freshness-hours': '1.5' })).freshnessWindowMs).toBe(5_400_000);
    expect(parseInputs(read({ 'allow-events': 'push, pull_request_target' })).allowEvents).toEqual([
      'push',
      'pull_request_target',
    ]);
    for (const bad of ['0', '-2', 'soon', '1e3'])
      expect(() => parseInputs(read({ 'freshness-hours': bad })), bad).toThrow(
        `input freshness-hours: expected a positive number of hours, got ${JSON.stringify(bad)}`,
      );
    expect(() => parseInputs(read({ 'allow-events': 'push; rm' }))).toThrow(
      /input allow-events: expected comma-separated workflow event names/,
    );
  });

  it('reads the skills setting as globs and min-gain as a number from 0 to 1', () => {
    expect(parseInputs(read({ skills: 'skills/*, plugins/*/skills/*' })).skills).toEqual([
      'skills/*',
      'plugins/*/skills/*',
    ]);
    expect(parseInputs(read({})).skills).toBeUndefined();
    expect(() => parseInputs(read({ skills: '../elsewhere/*' }))).toThrow(
      'input skills: "../elsewhere/*": empty, "." and ".." folders are not allowed',
    );
    expect(parseInputs(read({ 'min-gain': '0.01' })).minGain).toBe(0.01);
    expect(parseInputs(read({ 'min-gain': '0' })).minGain).toBe(0);
    expect(parseInputs(read({})).minGain).toBeUndefined();
    expect(() => parseInputs(read({ 'min-gain': '2' }))).toThrow(
      'input min-gain: expected a number from 0 to 1, got "2"',
    );
    expect(parseInputs(read({ mode: 'evals-init' })).mode).toBe('evals-init');
    // Issue 19: the trials, the margin and the keep rule; empty leaves them to the config, else the defaults.
    expect(parseInputs(read({ trials: '5', margin: '1.5', 'keep-rule': 'original' }))).toMatchObject({
      trials: 5,
      margin: 1.5,
      keepRule: 'original',
    });
    expect(parseInputs(read({}))).toMatchObject({
      trials: undefined,
      margin: undefined,
      keepRule: undefined,
    });
    expect(() => parseInputs(read({ trials: '0' }))).toThrow(
      'input trials: expected a whole number from 1 to 10, got "0"',
    );
    expect(() => parseInputs(read({ 'keep-rule': 'lenient' }))).toThrow(
      'input keep-rule: expected one of original, noise-aware, got "lenient"',
    );
  });

  it('parses lists, booleans, durations, money and the fan-out mode', () => {
    const inputs = parseInputs(
      read({
        'skip-list': 'a, b ,,c',
        labels: 'x,y',
        draft: 'TRUE',
        'per-skill-budget': '1h30m',
        'max-cost-usd': '2.50',
        mode: 'plan',
        base: 'release/1.x',
      }),
    );
    expect(inputs).toMatchObject({
      skipList: ['a', 'b', 'c'],
      labels: ['x', 'y'],
      draft: true,
      perSkillBudgetMs: 5_400_000,
      maxCostUsd: 2.5,
      mode: 'plan',
      base: 'release/1.x',
    });
    expect(durationMs('90s')).toBe(90_000);
    expect(durationMs('0m')).toBeUndefined();
  });

  it('names every bad input in one error', () => {
    let error: unknown;
    try {
      parseInputs(
        read({
          'per-skill-iterations': '0',
          'dry-run': 'yes',
          'per-skill-budget': 'soon',
          mode: 'fast',
          'max-cost-usd': '-1',
        }),
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(messageOf(error).split('\n')).toEqual([
      'input per-skill-budget: expected a duration like 1h, 30m, 90s or 1h30m, got "soon"',
      'input per-skill-iterations: expected a positive integer, got "0"',
      'input dry-run: expected true or false, got "yes"',
      'input max-cost-usd: expected a positive number of US dollars, got "-1"',
      'input mode: expected one of run, plan, summarize, evals-init, score, got "fast"',
    ]);
  });

  it('night-budget: a bad value, a matrix job or a plan is refused by the input name', () => {
    expect(() => parseInputs(read({ 'night-budget': 'ten' }))).toThrow(
      'input night-budget: expected a positive number of US dollars, got "ten"',
    );
    expect(() => parseInputs(read({ 'night-budget': '-2' }))).toThrow(
      'input night-budget: expected a positive number of US dollars, got "-2"',
    );
    expect(() => parseInputs(read({ 'night-budget': '5', skill: 'a' }))).toThrow(
      /^input night-budget: applies to a whole night run in one job \(mode run without skill\); a job given one skill \(a matrix job\)/,
    );
    expect(() => parseInputs(read({ 'night-budget': '5', mode: 'plan' }))).toThrow(
      /^input night-budget: .*mode plan splits the night into parallel matrix jobs/,
    );
    expect(parseInputs(read({ 'night-budget': '2.5' })).nightBudgetUsd).toBe(2.5);
  });

  it('refuses combinations that cannot work', () => {
    expect(() => parseInputs(read({ skill: 'a', queue: 'q.txt' }))).toThrow(
      'inputs skill and queue: give one or the other, not both',
    );
    expect(() => parseInputs(read({ mode: 'summarize' }))).toThrow(
      'input results-dir: required when mode is summarize',
    );
    expect(() => parseInputs(read({ skill: '../etc' }))).toThrow(/input skill: expected a skill folder name/);
    expect(() => parseInputs(read({ base: 'a..b' }))).toThrow(/input base: expected a git branch name/);
    expect(() => parseInputs(read({ 'fail-on': 'drop' }))).toThrow(
      'input fail-on: expected regression or never, got "drop"',
    );
    expect(parseInputs(read({ 'fail-on': 'never' })).failOn).toBe('never');
  });

  it('reads the kill-switch input: truthy values stop, false values and empty run, typos fail', () => {
    expect(parseInputs(read({})).killSwitch).toBeUndefined();
    for (const on of ['1', 'true', 'YES', ' on '])
      expect(parseInputs(read({ 'kill-switch': on })).killSwitch).toBe(on.trim());
    for (const off of ['0', 'false', 'No', 'off', ' '])
      expect(parseInputs(read({ 'kill-switch': off })).killSwitch).toBeUndefined();
    expect(() => parseInputs(read({ 'kill-switch': 'stop' }))).toThrow(
      'input kill-switch: expected 1, true or yes to stop the run, or empty, 0, false or no to let it run, got "stop"',
    );
  });

  it('passes keys and endpoints to the providers through their conventional variables', () => {
    const inputs = parseInputs(
      read({ 'anthropic-api-key': 'sk-ant', 'openai-base-url': 'http://127.0.0.1:11434/v1' }),
    );
    const env = modelEnv(inputs, { OPENAI_API_KEY: 'from-env', ANTHROPIC_API_KEY: 'old' });
    expect(env).toMatchObject({
      ANTHROPIC_API_KEY: 'sk-ant',
      OPENAI_API_KEY: 'from-env',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
    });
  });

  it('the example workflows pass only declared inputs, and the kill-switch variable to every job', async () => {
    for (const name of ['skill-iterate.yml', 'skill-iterate-matrix.yml']) {
      const yml = await readFile(path.join(ROOT, '.github', 'workflows', name), 'utf8');
      // Each `uses: ./` step (this Action) up to the next step or job.
      const steps = yml
        .split(/^ {6}- uses: \.\/\n/m)
        .slice(1)
        .map((rest) => rest.split(/^ {0,6}\S/m)[0] ?? '');
      expect(steps.length, name).toBeGreaterThan(0);
      for (const step of steps) {
        const given = [...step.matchAll(/^ {10}([a-z][a-z-]*):/gm)].map((m) => m[1]);
        for (const input of given) expect(INPUT_NAMES, `${name}: ${input}`).toContain(input);
        if (!step.includes('mode: summarize'))
          expect(step, name).toMatch(/^ {10}kill-switch: \$\{\{ vars\.SKILL_ITERATE_KILLSWITCH \}\}$/m);
      }
    }
  });

  it('the matrix workflow grants write only to the iterate job, and to summarize for the dashboard issue', async () => {
    const yml = await readFile(path.join(ROOT, '.github', 'workflows', 'skill-iterate-matrix.yml'), 'utf8');
    expect(/^permissions:\n((?: {2}.*\n)+)/m.exec(yml)?.[1]).toBe('  contents: read\n');
    const jobs = yml.split(/^ {2}(?=[a-z]+:\n)/m).slice(1);
    const writes = jobs.filter((job) => /^ {6}[a-z-]+: write/m.test(job)).map((job) => job.split(':')[0]);
    expect(writes).toEqual(['iterate', 'summarize']);
    expect(jobs.find((job) => job.startsWith('summarize:'))).toMatch(
      / {4}permissions:\n {6}contents: read\n {6}issues: write.*\n {4}steps:/,
    );
    expect(jobs.find((job) => job.startsWith('iterate:'))).toMatch(
      / {4}permissions:\n {6}contents: write.*\n {6}pull-requests: write.*\n {6}issues: write/,
    );
  });

  it('matches action.yml: the same inputs, every secret one of them, node24 and dist/index.js', async () => {
    const yml = await readFile(path.join(ROOT, 'action.yml'), 'utf8');
    const inputs = yamlKeys(yml, 'inputs');
    expect(inputs.map((i) => i.name).sort()).toEqual([...INPUT_NAMES].sort());
    for (const secret of SECRET_INPUTS) expect(INPUT_NAMES).toContain(secret);
    for (const input of inputs) {
      const declared = /^ {4}default: (.*)$/m.exec(input.body)?.[1]?.replace(/^'(.*)'$/, '$1');
      const expected =
        input.name === 'github-token' ? '${{ github.token }}' : DEFAULTS[input.name as ActionInputName];
      expect(declared, input.name).toBe(expected);
    }
    expect(
      yamlKeys(yml, 'outputs')
        .map((o) => o.name)
        .sort(),
    ).toEqual([
      'comment-url',
      'cost-usd',
      'not-shipped',
      'parked',
      'pull-request',
      'queue',
      'regressions',
      'result-path',
      'shipped',
      'summary-path',
    ]);
    expect(yml).toMatch(/^runs:\n {2}using: node24\n {2}main: dist\/index\.js$/m);
  });
});
