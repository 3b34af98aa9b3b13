/**
 * Freshness across modes and honest summaries (issue 21 items 5 and 6): a structural run does not make
 * a skill fresh for its first composite night, `--ignore-freshness` runs a fresh skill now, rows carry
 * their mode; the summary names its mode, counts the skills an explicit queue did not ask for, groups
 * long exclusion lists by reason (names collapsed), the plan warns about a queue longer than a night,
 * and the terminal lines of reverts and crashes say why, in columns that stay aligned.
 */
import { utimes, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createMtimeFreshness } from '../../src/adapters/local/freshness.js';
import { mergeSkipList } from '../../src/core/iterate/skip-list.js';
import { formatIterationLine, skillColumnWidth } from '../../src/core/iterate/progress.js';
import { rowMode, withModeMarker } from '../../src/core/iterate/results-tsv.js';
import type { RunResult } from '../../src/core/iterate/run-result.js';
import { renderMorningSummary } from '../../src/core/iterate/summary.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { formatDryRunPlan, resolveQueue, skillsGlobsOf, type QueuePlan } from '../../src/iterate/queue.js';
import { findSkills } from '../../src/iterate/skill-finder.js';
import { addSkillAt, iterateOptions, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

const NOW = new Date('2026-06-01T22:00:00Z');
const HEADER = 'commit\tscore\tstatus\tdescription\twall_seconds\n';

async function plan(options: IterateOptions, explicit?: string[]): Promise<QueuePlan> {
  const found = await findSkills({
    project: options.project,
    repository: options.project,
    globs: skillsGlobsOf(options),
  });
  return resolveQueue(
    options,
    {
      skipList: mergeSkipList([]),
      explicit: explicit?.map((name) => found.skills.find((s) => s.name === name)!),
      found,
    },
    createMtimeFreshness(options.project),
    NOW,
  );
}

/** A skill under skills/ whose results.tsv holds `rows` and was written an hour before NOW. */
async function ranAnHourAgo(project: string, name: string, rows: string[]): Promise<void> {
  await addSkillAt(project, `skills/${name}`);
  const file = `${project}/skills/${name}/evals/results.tsv`;
  await writeFile(file, HEADER + rows.map((r) => `${r}\n`).join(''));
  const anHourAgo = new Date(NOW.getTime() - 3_600_000);
  await utimes(file, anHourAgo, anHourAgo);
}

describe('freshness across modes', () => {
  it('a structural-only run does not make a skill fresh for its first composite night', async () => {
    const project = await makeTempDir();
    await ranAnHourAgo(project, 'exa', [
      `abc1234\t0.916000\tbaseline\t${withModeMarker('initial baseline', 'structural')}\t0.010`,
    ]);
    await ranAnHourAgo(project, 'pdf', ['abc1234\t0.367000\tbaseline\tinitial baseline\t12.000']);
    const composite = await plan(iterateOptions(project, { skills: ['skills/*'] }));
    expect(composite.queue).toEqual(['exa']);
    expect(composite.excludedByFreshness.map((e) => e.skill)).toEqual(['pdf']);
    // The structural run it was is fresh for structural runs.
    const structural = await plan(iterateOptions(project, { skills: ['skills/*'], mode: 'structural' }));
    expect(structural.queue).toEqual(['pdf']);
  });

  it('--ignore-freshness queues a fresh skill now', async () => {
    const project = await makeTempDir();
    await ranAnHourAgo(project, 'pdf', ['abc1234\t0.367000\tbaseline\tinitial baseline\t12.000']);
    const fresh = await plan(iterateOptions(project, { skills: ['skills/*'] }));
    expect(fresh.queue).toEqual([]);
    const now = await plan(iterateOptions(project, { skills: ['skills/*'], ignoreFreshness: true }));
    expect(now.queue).toEqual(['pdf']);
  });

  it('rows of different modes can be told apart; composite rows keep the original columns unmarked', () => {
    expect(withModeMarker('initial baseline', 'composite')).toBe('initial baseline');
    expect(withModeMarker('initial baseline', 'structural')).toBe('[structural] initial baseline');
    expect(rowMode('[structural] initial baseline')).toBe('structural');
    expect(rowMode('[absolute] tighten step 2')).toBe('absolute');
    expect(rowMode('initial baseline')).toBe('composite');
  });
});

function run(over: Partial<RunResult>): RunResult {
  return {
    startedAt: NOW,
    endedAt: NOW,
    partial: null,
    queue: ['pdf'],
    results: [],
    excludedBySkipList: [],
    excludedByFreshness: [],
    summaryPath: undefined,
    usage: ZERO_USAGE,
    modelsLabel: 'offline',
    ...over,
  };
}

describe('honest summaries', () => {
  it('with --skill, the skills not asked for are counted, never "every skill found was queued"', async () => {
    const project = await makeTempDir();
    for (const name of ['docx', 'pdf', 'pptx', 'xlsx']) await addSkillAt(project, `skills/${name}`);
    const explicit = await plan(iterateOptions(project, { skills: ['skills/*'], skill: 'pdf' }), ['pdf']);
    expect(explicit.notRequested).toEqual(['docx', 'pptx', 'xlsx']);
    const text = renderMorningSummary(run({ notRequested: explicit.notRequested }));
    expect(text).not.toContain('None: every skill found was queued');
    expect(text).toContain('Not asked for: 3 other skills the skills setting finds');
  });

  it('groups a long exclusion list by reason with a count, the names collapsed', () => {
    const names = Array.from({ length: 75 }, (_, i) => `skill-${String(i).padStart(2, '0')}`);
    const text = renderMorningSummary(
      run({
        excludedOther: names.map((skill) => ({
          skill,
          dir: `skills/${skill}`,
          reason: 'no evals',
          next: 'x',
        })),
        command: { skills: ['skills/*'] },
      }),
    );
    expect(text).toContain(
      "- no evals: 75 skills -- run `skillclimb evals init --all --skills 'skills/*'` to write them",
    );
    expect(text).toContain('<details><summary>75 skills</summary>');
    expect(text.split('\n').filter((l) => l.includes('skill-0')).length).toBe(1);
  });

  it('names the mode every score is in', () => {
    expect(renderMorningSummary(run({ mode: 'structural' }))).toContain(
      '- Mode: structural (every score above is a structural score)',
    );
  });

  it('the plan warns when the queue times the budget exceeds a night, and says what happens to the rest', async () => {
    const project = await makeTempDir();
    const p: QueuePlan = {
      queue: Array.from({ length: 76 }, (_, i) => `s${i}`),
      dirs: {},
      excludedBySkipList: [],
      excludedByFreshness: [],
      excludedOther: [],
      outsideSetting: undefined,
      skillsGlobs: ['skills/*'],
      plannedAt: NOW,
    };
    const text = formatDryRunPlan(p, iterateOptions(project), { budget: '1h' });
    expect(text).toContain(
      'warning: 76 skills x 1h = up to 76h, more than one 8-hour night: at most 8 skills fit.',
    );
    expect(text).toContain('the skills not reached are not fresh, so the next run queues them again');
    const action = formatDryRunPlan(p, iterateOptions(project), {
      budget: '1h',
      limit: { ms: 6 * 3_600_000, label: "the Action's 6-hour job limit" },
    });
    expect(action).toContain("more than the Action's 6-hour job limit: at most 6 skills fit");
    const fits = formatDryRunPlan({ ...p, queue: ['a', 'b'] }, iterateOptions(project), { budget: '1h' });
    expect(fits).not.toContain('warning');
  });
});

describe('terminal progress', () => {
  const base = { iteration: 3, score: null, delta: null, seconds: 4.2, usage: ZERO_USAGE } as const;

  it('the line of a revert or a crash shows its reason', () => {
    const line = formatIterationLine({
      ...base,
      skill: 'pdf',
      outcome: 'revert',
      reason: 'old_string occurs 66 times',
    });
    expect(line).toMatch(/revert +score +NULL .*reason old_string occurs 66 times$/);
  });

  it('columns stay aligned for names over 24 characters', () => {
    const names = ['pdf', 'a-skill-name-well-over-24-characters'];
    const width = skillColumnWidth(names);
    const lines = names.map((skill) =>
      formatIterationLine({ ...base, skill, outcome: 'keep', score: 0.5, delta: 0.1, width }),
    );
    expect(lines[0]!.indexOf('iter 3')).toBe(lines[1]!.indexOf('iter 3'));
    expect(lines[0]!.indexOf('score')).toBe(lines[1]!.indexOf('score'));
  });
});
