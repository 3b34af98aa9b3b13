import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { createLocalShipper } from '../../src/adapters/local/shipper.js';
import { commitFile } from '../../src/git/commits.js';
import { createWorktree } from '../../src/git/worktree.js';
import { RunInterrupted } from '../../src/iterate/interrupt.js';
import { isRunOwnFile } from '../../src/adapters/local/shipper.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import type { IteratePorts } from '../../src/ports/iterate.js';
import type { Logger } from '../../src/ports/logger.js';
import { partialRunOf } from '../../src/iterate/run-error.js';
import { runIterate } from '../../src/iterate/run.js';
import type { EditorInput } from '../../src/ports/models.js';
import {
  createScriptedModels,
  type ScriptedModels,
  type ScriptedModelsOptions,
} from '../../src/llm/scripted.js';
import {
  cleanupTempDirs,
  EVALS,
  git,
  gradeByMarkers,
  makeProject,
  SCENARIOS,
  SKILL_MD,
  tempDir,
  type SkillFixture,
} from '../helpers/engine-fixtures.js';

afterEach(cleanupTempDirs);

const CANONICAL =
  /^skill-iterate: (\S+): baseline \d\.\d\d -> final \d\.\d\d over \d+ iterations \(lines_delta=[+-]\d+\)$/;

/** Skills whose name starts with "good" get an improving edit; the others only get edits that change nothing. */
function proposeBySkill(input: EditorInput) {
  if (input.skillName.startsWith('good') && !input.skillMd.includes('SUMMARY')) {
    return {
      description: 'add SUMMARY',
      old_string: '## Constraints\n',
      new_string: '## Constraints\n\n- SUMMARY\n',
    };
  }
  return { description: 'reword', old_string: '1. Read the notes.', new_string: '1. Read the notes!' };
}

interface RunHarness {
  project: string;
  home: string;
  options: IterateOptions;
  ports: IteratePorts;
  lines: { info: string[]; warn: string[]; progress: string[] };
}

async function runHarness(
  skills: SkillFixture[],
  models: ScriptedModelsOptions = {},
  options: Partial<IterateOptions> = {},
): Promise<RunHarness> {
  const project = await makeProject(skills);
  const home = await tempDir('skillclimb-home-');
  const lines = { info: [] as string[], warn: [] as string[], progress: [] as string[] };
  const log: Logger = {
    info: (m) => lines.info.push(m),
    warn: (m) => lines.warn.push(m),
    progress: (m) => lines.progress.push(m),
  };
  const full: IterateOptions = {
    project,
    skill: undefined,
    queueFile: undefined,
    perSkillBudgetMs: 3_600_000,
    perSkillIterations: 2,
    skipList: [],
    calibrate: false,
    dryRun: false,
    mode: 'absolute',
    concurrency: 4,
    iterationTimeoutMs: 60_000,
    worktreeHome: home,
    maxCostUsd: undefined,
    // The original's single draw and keep rule: these tests count its calls (issue 19's tests are apart).
    trials: 1,
    keepRule: 'original',
    ...options,
  };
  const scripted = createScriptedModels({
    render: (i) => i.skillMd,
    grade: gradeByMarkers,
    propose: proposeBySkill,
    ...models,
  });
  return { project, home, options: full, ports: createLocalPorts(full, { models: scripted, log }), lines };
}

const branches = (project: string) =>
  git(project, 'branch', '--list', 'skill-iterate/*')
    .split('\n')
    .map((b) => b.replace(/^[*+ ]+/, '').trim())
    .filter(Boolean);

describe('runIterate', () => {
  it('ships an improved skill as one squash commit, discards the other, writes the summary and releases the lock', async () => {
    const h = await runHarness([{ name: 'good-one' }, { name: 'plain' }]);
    const before = git(h.project, 'rev-parse', 'HEAD').trim();
    const run = await runIterate(h.options, h.ports);

    expect(run.queue).toEqual(['good-one', 'plain']);
    expect(run.partial).toBeNull();
    const [good, plain] = run.results;
    expect(good).toMatchObject({
      skill: 'good-one',
      status: 'shipped',
      baselineScore: 0,
      iterations: 2,
      linesDelta: 2,
    });
    expect(good?.finalScore).toBeCloseTo(0.5, 9);
    expect(plain).toMatchObject({
      skill: 'plain',
      status: 'no-improvement',
      baselineScore: 0,
      finalScore: 0,
    });

    // One squash commit on main with the canonical message, holding SKILL.md and nothing else.
    expect(git(h.project, 'rev-list', '--count', `${before}..HEAD`).trim()).toBe('1');
    const subject = git(h.project, 'log', '-1', '--format=%s').trim();
    expect(subject).toBe(
      'skill-iterate: good-one: baseline 0.00 -> final 0.50 over 2 iterations (lines_delta=+2)',
    );
    expect(subject).toMatch(CANONICAL);
    expect(git(h.project, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe(
      '.claude/skills/good-one/SKILL.md',
    );
    expect(good?.link).toBe(git(h.project, 'rev-parse', 'HEAD').trim().slice(0, 7));

    // Worktrees gone, branches deleted, lock released.
    expect(await readdir(h.home)).toEqual([]);
    expect(branches(h.project)).toEqual([]);
    expect(existsSync(path.join(h.project, '.skill-iterate.lock'))).toBe(false);

    // results.tsv lives in the project (it outlives the worktree) and was not committed.
    const rows = parseResultsTsv(
      await readFile(path.join(h.project, '.claude/skills/good-one/evals/results.tsv'), 'utf8'),
    );
    expect(rows.map((r) => r.status)).toEqual(['baseline', 'keep', 'revert']);
    expect(good?.rows).toEqual(rows);
    expect(good?.wallSecondsTotal).toBeCloseTo(
      rows.reduce((s, r) => s + r.wallSeconds, 0),
      9,
    );

    expect(run.summaryPath).toBeDefined();
    // docs/skill-iterate-runs/<UTC date the run started>.md, the first summary of that day.
    expect(run.summaryPath).toBe(
      path.join(h.project, 'docs', 'skill-iterate-runs', `${run.startedAt.toISOString().slice(0, 10)}.md`),
    );
    const summary = await readFile(run.summaryPath!, 'utf8');
    expect(summary).toContain('good-one');
    expect(summary).not.toContain('(partial');
    expect(h.lines.info).toContain(`Morning summary: ${run.summaryPath}`);
    expect(h.lines.progress.filter((l) => /\bdone\b/.test(l))).toHaveLength(2);
  });

  it('names in the summary the mode the scores were taken in: structural with models that score structure only', async () => {
    const graded = await runHarness([{ name: 'good-m' }], {}, { mode: 'composite' });
    const gradedRun = await runIterate(graded.options, graded.ports);
    expect(await readFile(gradedRun.summaryPath!, 'utf8')).toContain(
      '- Mode: composite (every score above is a composite score)',
    );
    // Offline models never render or grade: the composite setting is scored on structure alone.
    const offline = await runHarness([{ name: 'good-m' }], { structuralOnly: true }, { mode: 'composite' });
    const offlineRun = await runIterate(offline.options, offline.ports);
    const summary = await readFile(offlineRun.summaryPath!, 'utf8');
    expect(summary).toContain('- Mode: structural (every score above is a structural score)');
    expect(summary).not.toContain('composite score');
  });

  it('parks a skill after three consecutive crashes, keeps its worktree and branch, and goes on', async () => {
    const h = await runHarness(
      [{ name: 'broken' }, { name: 'good-two' }],
      {
        propose: (input) => {
          if (input.skillName === 'broken') throw new Error('editor endpoint down');
          return proposeBySkill(input);
        },
      },
      { perSkillIterations: 5 },
    );
    const run = await runIterate(h.options, h.ports);
    const broken = run.results[0]!;
    expect(broken.status).toBe('defect-park');
    expect(broken.link).toMatch(/docs\/skill-iterate-runs\/parked-broken-\d+\.md$/);
    const report = await readFile(broken.link!, 'utf8');
    expect(report).toContain('skill-iterate: broken parked after 3 consecutive crashes');
    expect(report).toContain('editor endpoint down');
    expect(report).toContain('commit\tscore\tstatus\tdescription\twall_seconds');
    expect(branches(h.project)).toEqual([expect.stringMatching(/^skill-iterate\/broken-\d+$/)]);
    expect(
      (await readdir(h.home)).filter((d) => d.startsWith('worktree_skill-iterate-broken-')),
    ).toHaveLength(1);
    expect(run.results[1]?.status).toBe('shipped');
  });

  it('skips the merge on a dirty base and keeps the worktree and branch', async () => {
    const h = await runHarness([{ name: 'good-three' }]);
    await writeFile(path.join(h.project, '.gitignore'), 'results.tsv\n.skill-iterate.lock\n# local edit\n');
    const before = git(h.project, 'rev-parse', 'HEAD').trim();
    const run = await runIterate(h.options, h.ports);
    expect(run.results[0]?.status).toBe('skipped (dirty-master)');
    expect(git(h.project, 'rev-parse', 'HEAD').trim()).toBe(before);
    expect(branches(h.project)).toHaveLength(1);
    expect(await readdir(h.home)).toHaveLength(1);
    expect(h.lines.warn.join('\n')).toMatch(/dirty-master.*\.gitignore/);
    // The summary points the operator to the preserved worktree.
    const [kept] = await readdir(h.home);
    expect(run.results[0]?.link).toBe(path.join(h.home, kept!));
    expect(await readFile(run.summaryPath!, 'utf8')).toContain(path.join(h.home, kept!));
  });

  it('reports its plan, each skill and its end through the events port, in the order it does them', async () => {
    let project = '';
    const h = await runHarness([{ name: 'good-a' }, { name: 'good-b' }, { name: 'plain' }], {
      // The switch appears during the second skill: the third never starts.
      propose: async (input) => {
        if (input.skillName === 'good-b')
          await writeFile(path.join(project, '.skill-iterate-killswitch'), '');
        return proposeBySkill(input);
      },
    });
    project = h.project;
    const seen: string[] = [];
    const ports: IteratePorts = {
      ...h.ports,
      events: {
        emit: (event) => {
          if (event.type === 'plan-ready') seen.push(`plan ${event.plan.queue.join(',')}`);
          if (event.type === 'skill-started') seen.push(`start ${event.index} ${event.skill}`);
          if (event.type === 'skill-finished') seen.push(`finish ${event.index} ${event.result.status}`);
          if (event.type === 'run-finished') seen.push(`end ${event.run.partial?.reason ?? 'complete'}`);
        },
      },
    };
    const run = await runIterate(h.options, ports);
    expect(seen).toEqual([
      'plan good-a,good-b,plain',
      'start 0 good-a',
      'finish 0 shipped',
      'start 1 good-b',
      'finish 1 shipped',
      'end kill-switch hit',
    ]);
    expect(run.results.map((r) => r.skill)).toEqual(['good-a', 'good-b']);
  });

  it('stops between skills when the kill-switch appears, with a partial summary', async () => {
    let project = '';
    const h = await runHarness([{ name: 'good-a' }, { name: 'good-b' }], {
      // The switch appears mid-loop: the loop must not notice it, the orchestrator must.
      propose: async (input) => {
        await writeFile(path.join(project, '.skill-iterate-killswitch'), '');
        return proposeBySkill(input);
      },
    });
    project = h.project;
    const run = await runIterate(h.options, h.ports);
    expect(run.results.map((r) => r.skill)).toEqual(['good-a']);
    expect(run.results[0]?.iterations).toBe(2);
    expect(run.partial?.reason).toBe('kill-switch hit');
    expect(h.lines.info).toContain('Kill-switch detected; graceful stop after 1 of 2 skills.');
    const summary = await readFile(run.summaryPath!, 'utf8');
    expect(summary).toMatch(/\(partial -- kill-switch hit at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/);
    expect(existsSync(path.join(h.project, '.skill-iterate.lock'))).toBe(false);
  });

  it('leaves invalid evals out of the queue, naming the file and field, and runs the rest', async () => {
    const h = await runHarness([
      {
        name: 'bad-evals',
        evalsText: '{"categories": [{"name": "x", "evals": [{"id": "one", "statement": "s"}]}]}',
      },
      { name: 'good-c' },
    ]);
    const run = await runIterate(h.options, h.ports);
    expect(run.queue).toEqual(['good-c']);
    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['good-c', 'shipped']]);
    expect(run.excludedOther).toEqual([
      {
        skill: 'bad-evals',
        dir: '.claude/skills/bad-evals',
        reason:
          'invalid evals: .claude/skills/bad-evals/evals/evals.json: categories[0].evals[0].id: expected integer',
        next: 'fix the file',
      },
    ]);
    expect(h.lines.info.join('\n')).toContain(
      'not queued: bad-evals  (.claude/skills/bad-evals: invalid evals',
    );
    expect(await readdir(h.home)).toEqual([]);
  });

  it('a worktree that cannot be created skips that skill; the queue goes on (issue 13, item 7)', async () => {
    const h = await runHarness([{ name: 'good-d' }]);
    const notADir = path.join(h.home, 'file');
    await writeFile(notADir, 'x');
    const options = { ...h.options, worktreeHome: notADir };
    const run = await runIterate(options, h.ports);
    expect(run.partial).toBeNull();
    expect(run.results[0]?.status).toMatch(/^skipped \(worktree creation failed: /);
    expect(existsSync(path.join(h.project, '.skill-iterate.lock'))).toBe(false);
    const summary = await readFile(run.summaryPath!, 'utf8');
    expect(summary).toContain('| good-d |');
  });

  it('a skill folder name too long for a worktree is skipped by name; later skills still ship (item 7)', async () => {
    const long = `a${'x'.repeat(249)}`;
    const h = await runHarness([{ name: long }, { name: 'good-z' }]);
    const run = await runIterate(h.options, h.ports);
    expect(run.results.map((r) => r.skill)).toEqual([long, 'good-z']);
    expect(run.results[0]?.status).toMatch(
      /^skipped \(worktree creation failed: .*(File name too long|name too long)/i,
    );
    expect(run.results[1]?.status).toBe('shipped');
  });

  it('a restart in the same second as a killed run takes the next free names and leaves the old ones (item 7)', async () => {
    const h = await runHarness([{ name: 'good-r' }]);
    const now = new Date('2026-05-24T03:00:00.250Z');
    const epoch = Math.floor(now.getTime() / 1000);
    // What the killed run left: its branch and its worktree, under this second's names.
    const killed = path.join(h.home, `worktree_skill-iterate-good-r-${epoch}`);
    git(h.project, 'worktree', 'add', '-q', '-b', `skill-iterate/good-r-${epoch}`, killed);
    // And a folder under the second name, without a branch.
    await mkdir(path.join(h.home, `worktree_skill-iterate-good-r-${epoch}-2`));
    const ports = createLocalPorts(h.options, {
      models: createScriptedModels({
        render: (i) => i.skillMd,
        grade: gradeByMarkers,
        propose: proposeBySkill,
      }),
      log: { info: () => undefined, warn: () => undefined, progress: () => undefined },
      now: () => now,
    });
    const run = await runIterate(h.options, ports);
    expect(run.results[0]?.status).toBe('shipped');
    expect(branches(h.project)).toEqual([`skill-iterate/good-r-${epoch}`]);
    expect(existsSync(killed)).toBe(true);
    expect(git(h.project, 'reflog', '--format=%gs', 'HEAD').split('\n')[0]).toMatch(/ship good-r/);
  });

  it('stops the queue once the run has spent --max-cost-usd', async () => {
    const h = await runHarness(
      [{ name: 'good-e' }, { name: 'good-f' }],
      { usagePerCall: { costUsd: 0.01 } },
      { maxCostUsd: 0.02 },
    );
    const run = await runIterate(h.options, h.ports);
    expect(run.results.map((r) => r.skill)).toEqual(['good-e']);
    expect(run.partial?.reason).toBe('cost budget reached');
    expect(h.lines.info).toContain('Cost budget of $0.02 reached; stopping after 1 of 2 skills.');
    expect(h.lines.info).toContain('good-e: loop ended on the cost budget after 0 iterations');
    expect(run.usage.costUsd).toBeGreaterThanOrEqual(0.02);
    // The baseline's render and grade of the one scenario, at $0.01 each: the budget is reached exactly.
    expect(run.usage.calls).toBe(2);
    expect(run.usage.costUsd).toBe(0.02);
    expect(run.results[0]?.usage).toMatchObject({ calls: 2, costUsd: 0.02 });
  });

  it('parks a skill whose grader cannot tell injected defects apart (--calibrate)', async () => {
    const h = await runHarness(
      [{ name: 'blind' }],
      {
        grade: (input) => ({
          verdicts: Object.fromEntries(input.assertions.map((a) => [String(a.id), { verdict: true }])),
        }),
      },
      { calibrate: true },
    );
    const run = await runIterate(h.options, h.ports);
    expect(run.results[0]?.status).toBe('calibration-park');
    expect(run.results[0]?.link).toMatch(/calibration-broken-blind-\d+\.md$/);
    expect(await readdir(h.home)).toEqual([]);
  });

  it('writes no summary for an empty queue', async () => {
    const h = await runHarness([{ name: 'verify' }]);
    const run = await runIterate(h.options, h.ports);
    expect(run.results).toEqual([]);
    expect(run.summaryPath).toBeUndefined();
    expect(h.lines.info[0]).toMatch(/^Queue empty -- nothing to iterate/);
    expect(existsSync(path.join(h.project, '.skill-iterate.lock'))).toBe(false);
  });
  it('counts calibration spend in the skill, the run total and the cost budget', async () => {
    const h = await runHarness(
      [{ name: 'blind-a' }, { name: 'blind-b' }],
      {
        grade: (input) => ({
          verdicts: Object.fromEntries(input.assertions.map((a) => [String(a.id), { verdict: true }])),
        }),
        usagePerCall: { costUsd: 0.01 },
      },
      { calibrate: true, maxCostUsd: 0.1 },
    );
    const models = h.ports.models as ScriptedModels;
    const run = await runIterate(h.options, h.ports);
    // blind-a is calibration-parked after one render and one grade per scoring (the baseline and the 8
    // mutations that apply to this text); that spend is the run's and exceeds the budget: blind-b never starts.
    const calls = models.calls.render.length + models.calls.grade.length + models.calls.propose.length;
    expect(calls).toBe(18);
    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['blind-a', 'calibration-park']]);
    expect(run.results[0]?.usage.calls).toBe(calls);
    expect(run.usage.calls).toBe(calls);
    expect(run.usage.costUsd).toBeCloseTo(0.01 * calls, 9);
    expect(run.partial?.reason).toBe('cost budget reached');
  });

  it('does not enter the loop when calibration used up the budget', async () => {
    let original: string | undefined;
    const h = await runHarness(
      [{ name: 'good-cal' }],
      {
        render: (input) => {
          original ??= input.skillMd;
          return input.skillMd;
        },
        // Notices any change to the text: calibration passes.
        grade: (input) => ({
          verdicts: Object.fromEntries(
            input.assertions.map((a) => [String(a.id), { verdict: input.output === original }]),
          ),
        }),
        usagePerCall: { costUsd: 0.01 },
      },
      { calibrate: true, maxCostUsd: 0.05 },
    );
    const models = h.ports.models as ScriptedModels;
    const run = await runIterate(h.options, h.ports);
    expect(run.results[0]).toMatchObject({
      skill: 'good-cal',
      status: 'skipped (cost budget reached before the loop)',
    });
    expect(models.calls.propose).toHaveLength(0);
    expect(run.results[0]?.usage.calls).toBe(models.calls.render.length + models.calls.grade.length);
    expect(run.results[0]?.usage.costUsd).toBeCloseTo(0.18, 9);
    expect(run.partial?.reason).toBe('cost budget reached');
    expect(await readdir(h.home)).toEqual([]);
  });

  it('keeps what a skill spent before it threw', async () => {
    let project = '';
    const h = await runHarness(
      [{ name: 'boom' }],
      {
        propose: async (input) => {
          // The results file turns into a folder: the next row cannot be appended and the loop throws.
          const file = path.join(project, '.claude/skills/boom/evals/results.tsv');
          await rm(file);
          await mkdir(file);
          return proposeBySkill(input);
        },
        usagePerCall: { costUsd: 0.01 },
      },
      { perSkillIterations: 1 },
    );
    project = h.project;
    const run = await runIterate(h.options, h.ports);
    expect(run.results[0]?.status).toMatch(/^skipped \(error: .*worktree kept at/);
    // Baseline render + grade, then propose + render + grade of iteration 1.
    expect(run.results[0]?.usage.calls).toBe(5);
    expect(run.usage.costUsd).toBeCloseTo(0.05, 9);
  });

  it('an interrupt mid-skill writes the partial summary, lists the skill, releases the lock and rethrows', async () => {
    const stop = new AbortController();
    const h = await runHarness(
      [{ name: 'good-h' }, { name: 'good-i' }],
      {
        grade: (input, i) => {
          // Grade #3 is iteration 2 of good-h: Ctrl+C while it runs.
          if (i === 2) {
            stop.abort(new RunInterrupted('interrupted by SIGINT', 'SIGINT'));
            return new Promise(() => undefined);
          }
          return gradeByMarkers(input);
        },
      },
      { perSkillIterations: 5, iterationTimeoutMs: 2_000 },
    );
    const error = await runIterate(h.options, { ...h.ports, signal: stop.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunInterrupted);
    expect((error as RunInterrupted).exitCode).toBe(130);
    // The partial run travels on the error (the Action reads it for its job summary and state).
    const partialRun = partialRunOf(error);
    expect(partialRun?.results.map((r) => [r.skill, r.status])).toEqual([
      ['good-h', 'skipped (interrupted by SIGINT)'],
    ]);
    expect(partialRun?.partial?.reason).toBe('interrupted by SIGINT');

    expect(existsSync(path.join(h.project, '.skill-iterate.lock'))).toBe(false);
    const dir = path.join(h.project, 'docs', 'skill-iterate-runs');
    const [file] = await readdir(dir);
    expect(partialRun?.summaryPath).toBe(path.join(dir, file!));
    const summary = await readFile(path.join(dir, file!), 'utf8');
    expect(summary).toMatch(/\(partial -- interrupted by SIGINT at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/);
    expect(summary).toContain('skipped (interrupted by SIGINT)');
    expect(summary).toContain('Not reached: good-i.');
    const [worktree] = await readdir(h.home);
    expect(summary).toContain(path.join(h.home, worktree!));

    // Whole lines only: the interrupted iteration wrote nothing.
    const text = await readFile(path.join(h.project, '.claude/skills/good-h/evals/results.tsv'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(
      text
        .trimEnd()
        .split('\n')
        .every((line) => line.split('\t').length === 5),
    ).toBe(true);
    expect(parseResultsTsv(text).map((r) => r.status)).toEqual(['baseline', 'keep']);
    expect(h.lines.warn.join('\n')).toContain('good-h: interrupted by SIGINT; worktree kept at');
  });

  it('a cost-budget stop in the only skill makes the run partial', async () => {
    const h = await runHarness(
      [{ name: 'good-j' }],
      { usagePerCall: { costUsd: 0.01 } },
      { maxCostUsd: 0.03, perSkillIterations: 10 },
    );
    const run = await runIterate(h.options, h.ports);
    expect(run.results[0]).toMatchObject({ skill: 'good-j', status: 'shipped', iterations: 1 });
    expect(run.partial?.reason).toBe('cost budget reached');
    expect(await readFile(run.summaryPath!, 'utf8')).toMatch(/\(partial -- cost budget reached at /);
    expect(h.lines.info).toContain('Cost budget of $0.03 reached; stopping after 1 of 1 skills.');
  });

  it('leaves a discovered folder with an invalid name out, saying why, and runs the rest', async () => {
    const h = await runHarness([{ name: 'foo bar' }, { name: 'good-k' }]);
    const run = await runIterate(h.options, h.ports);
    expect(run.queue).toEqual(['good-k']);
    expect(run.results.map((r) => [r.skill, r.status])).toEqual([['good-k', 'shipped']]);
    expect(run.excludedOther?.map((e) => [e.skill, e.reason.split(' (')[0]])).toEqual([
      ['foo bar', 'not a branch-safe name'],
    ]);
    // The morning summary lists the exclusion with its reason.
    expect(await readFile(run.summaryPath!, 'utf8')).toContain('foo bar');
  });

  it('skips an AMBIGUOUS baseline at once: no crashes, no park, worktree removed', async () => {
    const h = await runHarness([{ name: 'vague' }], {
      render: () => 'AMBIGUOUS: the scenarios name no session to wrap',
    });
    const run = await runIterate(h.options, h.ports);
    expect(run.results[0]?.status).toBe(
      'skipped (baseline ambiguous: the scenarios name no session to wrap)',
    );
    expect(run.partial).toBeNull();
    const runsDir = await readdir(path.join(h.project, 'docs', 'skill-iterate-runs'));
    expect(runsDir.filter((f) => f.startsWith('parked-'))).toEqual([]);
    expect(await readdir(h.home)).toEqual([]);
    expect(branches(h.project)).toEqual([]);
  });

  it('iterates and ships a project that is a folder of its repository (mono/pkg)', async () => {
    const repo = await tempDir('skillclimb-mono-');
    const project = path.join(repo, 'mono', 'pkg');
    const dir = path.join(project, '.claude', 'skills', 'good-sub');
    await mkdir(path.join(dir, 'evals'), { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), SKILL_MD.replace('name: demo', 'name: good-sub'));
    await writeFile(path.join(dir, 'evals', 'evals.json'), JSON.stringify({ ...EVALS, skill: 'good-sub' }));
    await writeFile(
      path.join(dir, 'evals', 'test_scenarios.json'),
      JSON.stringify({ ...SCENARIOS, skill: 'good-sub' }),
    );
    await writeFile(path.join(repo, '.gitignore'), '.skill-iterate.lock\n');
    // results.tsv is tracked here, as some teams do: the run's own rows must not block its ship.
    await writeFile(
      path.join(dir, 'evals', 'results.tsv'),
      'commit\tscore\tstatus\tdescription\twall_seconds\n',
    );
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial');
    // Old enough for the cross-night filter.
    const old = new Date(Date.now() - 2 * 86_400_000);
    const { utimes } = await import('node:fs/promises');
    await utimes(path.join(dir, 'evals', 'results.tsv'), old, old);

    const h = await runHarness([{ name: 'unused' }], {}, { project });
    const ports = createLocalPorts(h.options, { models: h.ports.models, log: h.ports.log });
    const run = await runIterate(h.options, ports);

    expect(run.results[0]).toMatchObject({ skill: 'good-sub', status: 'shipped', iterations: 2 });
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toMatch(CANONICAL);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe(
      'mono/pkg/.claude/skills/good-sub/SKILL.md',
    );
    expect(await readFile(path.join(dir, 'SKILL.md'), 'utf8')).toContain('SUMMARY');
    expect(run.summaryPath).toBe(
      path.join(project, 'docs', 'skill-iterate-runs', path.basename(run.summaryPath!)),
    );
    expect(await readdir(h.home)).toEqual([]);
  });
});

describe('createLocalShipper', () => {
  async function shipSetup() {
    const project = await makeProject([{ name: 'demo' }]);
    const home = await tempDir('skillclimb-home-');
    const wt = await createWorktree({ project, home, skill: 'demo', epoch: 1 });
    const file = '.claude/skills/demo/SKILL.md';
    await writeFile(path.join(wt.path, file), 'branch text\n');
    await commitFile(wt.path, file, 'edit');
    const warnings: string[] = [];
    const log: Logger = { info: () => undefined, warn: (m) => warnings.push(m), progress: () => undefined };
    const request = {
      skill: 'demo',
      project,
      skillPath: '.claude/skills/demo',
      worktreePath: wt.path,
      branch: wt.branch,
      baseBranch: wt.baseBranch,
      baseCommit: wt.baseCommit,
      baselineScore: 0.5,
      finalScore: 0.6,
      iterations: 1,
      linesBaseline: 10,
      linesFinal: 1,
      message: 'skill-iterate: demo: baseline 0.50 -> final 0.60 over 1 iterations (lines_delta=-9)',
      keptEdits: [],
      rows: [],
      usage: {
        calls: 0,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: null,
      },
    };
    return { project, home, wt, file, request, warnings, log };
  }

  it('a tracked results.tsv changed by the run does not count as a dirty base', async () => {
    const s = await shipSetup();
    const tsv = path.join(s.project, '.claude/skills/demo/evals/results.tsv');
    await writeFile(tsv, 'commit\tscore\tstatus\tdescription\twall_seconds\n');
    git(s.project, 'add', '-f', tsv);
    git(s.project, 'commit', '-q', '-m', 'track results');
    await writeFile(tsv, 'commit\tscore\tstatus\tdescription\twall_seconds\nabc\t0.1\tkeep\tx\t1.000\n');
    const outcome = await createLocalShipper(s.project, s.log).ship(s.request);
    expect(outcome.status).toBe('shipped');
    expect(git(s.project, 'log', '-1', '--format=%s').trim()).toBe(s.request.message);
    expect(git(s.project, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe(s.file);
    // The run's rows are still there, uncommitted.
    expect(await readFile(tsv, 'utf8')).toContain('abc\t0.1');
  });

  it('a conflicting squash is skipped with the worktree kept and the base untouched', async () => {
    const s = await shipSetup();
    await writeFile(path.join(s.project, s.file), 'base moved on\n');
    git(s.project, 'commit', '-q', '-am', 'concurrent edit');
    const head = git(s.project, 'rev-parse', 'HEAD');
    const outcome = await createLocalShipper(s.project, s.log).ship(s.request);
    expect(outcome).toEqual({ status: 'skipped', reason: 'merge-conflict', keepWorktree: true });
    expect(git(s.project, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(s.project, 'status', '--porcelain', '--untracked-files=no')).toBe('');
    expect(existsSync(s.wt.path)).toBe(true);
    expect(s.warnings.join('\n')).toMatch(/the squash of skill-iterate\/demo-\d+ does not apply/);
  });

  it('does not merge into a branch other than the one the worktree came from', async () => {
    const s = await shipSetup();
    git(s.project, 'checkout', '-q', '-b', 'elsewhere');
    const outcome = await createLocalShipper(s.project, s.log).ship(s.request);
    expect(outcome).toEqual({
      status: 'skipped',
      reason: 'base branch changed to elsewhere',
      keepWorktree: true,
    });
    expect(git(s.project, 'log', '-1', '--format=%s').trim()).toBe('initial');
  });
});

describe('isRunOwnFile', () => {
  it('matches the results.tsv files of the project only, at the root or in a folder of the repository', () => {
    expect(isRunOwnFile('.claude/skills/a/evals/results.tsv')).toBe(true);
    expect(isRunOwnFile('mono/pkg/.claude/skills/a/evals/results.tsv', 'mono/pkg')).toBe(true);
    expect(isRunOwnFile('mono/other/.claude/skills/a/evals/results.tsv', 'mono/pkg')).toBe(false);
    expect(isRunOwnFile('.claude/skills/a/evals/results.tsv', 'mono/pkg')).toBe(false);
    expect(isRunOwnFile('.claude/skills/a/SKILL.md')).toBe(false);
  });

  it("matches the run's records beside results.tsv: the uplift's and the baseline's draws", () => {
    expect(isRunOwnFile('.claude/skills/a/evals/uplift-without.json')).toBe(true);
    expect(isRunOwnFile('mono/pkg/.claude/skills/a/evals/baseline-draws.json', 'mono/pkg')).toBe(true);
    expect(isRunOwnFile('.claude/skills/a/baseline-draws.json')).toBe(false);
    expect(isRunOwnFile('.claude/skills/a/evals/baseline-draws.json', 'mono/pkg')).toBe(false);
  });
});
