/**
 * Issue 28 item 4: the night budget in money (docs/how-it-works.md § Caps and budgets). The model answers
 * are served by nock at the HTTP layer (the real Anthropic provider code runs and prices its 10 + 5 tokens
 * a call at claude-sonnet-4-5's rates), git is real. Once the night's estimated spend reaches the budget no
 * new skill starts, the summary says so with the true figures, and the next night runs the skills not
 * started first.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { NOT_STARTED_FILE } from '../../src/adapters/local/not-started.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { planIterate } from '../../src/iterate/plan.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Freshness } from '../../src/ports/freshness.js';
import type { Logger } from '../../src/ports/logger.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels } from '../helpers/nock-skill-models.js';
import { cleanupTempDirs, makeProject, oneNightOptions } from '../helpers/engine-fixtures.js';

strictNock();
afterEach(cleanupTempDirs);

/** Every render the same, every assertion failing, every edit a rewording: a cheap, plain night. */
function serve() {
  return serveSkillModels({
    render: () => 'an answer',
    grade: () => [],
    propose: () => ({
      description: 'reword a step',
      old_string: '1. Read the notes.',
      new_string: '1. Read the notes carefully.',
    }),
  });
}

function options(project: string, extra: Partial<IterateOptions>): Promise<IterateOptions> {
  return oneNightOptions(project, { trials: 1, keepRule: 'original', ...extra });
}

function logger() {
  const lines: string[] = [];
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    progress: () => undefined,
  };
  return { lines, log };
}

async function night(project: string, extra: Partial<IterateOptions>, freshness?: Freshness) {
  const full = await options(project, extra);
  const { lines, log } = logger();
  const ports = createLocalPorts(full, { models: anthropicSkillModels(), log });
  const run = await runIterate(full, freshness ? { ...ports, freshness } : ports);
  const summary = run.summaryPath ? await readFile(run.summaryPath, 'utf8') : '';
  return { run, summary, lines, options: full, ports };
}

const recorded = async (project: string) =>
  JSON.parse(await readFile(path.join(project, NOT_STARTED_FILE), 'utf8')) as { not_started: string[] };

describe('the night budget (issue 28 item 4)', () => {
  it('stops starting new skills once the night has spent it, says so with the figures, and records the rest', async () => {
    const project = await makeProject([{ name: 'alpha' }, { name: 'beta' }, { name: 'gamma' }]);
    serve();
    const n = await night(project, { nightBudgetUsd: 0.0002 });

    // alpha alone spent more than $0.0002 (a call costs $0.000105): beta and gamma never started.
    expect(n.run.results.map((r) => r.skill)).toEqual(['alpha']);
    expect(n.run.queue).toEqual(['alpha', 'beta', 'gamma']);
    const spent = n.run.usage.costUsd;
    expect(spent).toBeGreaterThan(0.0002);
    expect(n.run.results[0]?.usage.costUsd).toBe(spent);
    expect(n.run.nightBudget).toEqual({ budgetUsd: 0.0002, spentUsd: spent, notStarted: ['beta', 'gamma'] });
    expect(n.run.partial?.reason).toBe('night budget reached');

    const line =
      `Night budget of $0.0002 reached after $${spent!.toFixed(4)}: 2 skills not started: beta, gamma ` +
      '— they run first next night.';
    expect(n.summary).toContain(line);
    expect(n.summary).toMatch(/^\(partial -- night budget reached at \S+\)$/m);
    expect(n.lines).toContain(line);
    expect(await recorded(project)).toEqual({ not_started: ['beta', 'gamma'] });
  });

  it('a run given its skills takes out only those it started; a bad record is said and the queue keeps its order', async () => {
    const project = await makeProject([{ name: 'alpha' }, { name: 'beta' }, { name: 'gamma' }]);
    serve();
    await night(project, { nightBudgetUsd: 0.0002 });
    expect(await recorded(project)).toEqual({ not_started: ['beta', 'gamma'] });

    const one = await night(project, { skill: 'gamma' });
    expect(one.run.results.map((r) => r.skill)).toEqual(['gamma']);
    expect(await recorded(project)).toEqual({ not_started: ['beta'] });

    await writeFile(path.join(project, NOT_STARTED_FILE), '["beta"]');
    const dry = await options(project, { ignoreFreshness: true });
    const { lines, log } = logger();
    const ports = createLocalPorts(dry, { models: anthropicSkillModels(), log });
    expect((await planIterate(dry, ports)).queue).toEqual(['alpha', 'beta', 'gamma']);
    expect(lines).toContain(
      `${path.join(project, NOT_STARTED_FILE)}: expected {"not_started": ["skill", ...]} (the skills a night ` +
        'budget kept from starting); fix it or delete it; the queue keeps its usual order',
    );
    const run = await runIterate({ ...dry, perSkillIterations: 0, skill: 'alpha' }, ports);
    expect(run.queue).toEqual(['alpha']);
    expect(lines.some((l) => l.includes(`${NOT_STARTED_FILE}: expected {"not_started"`))).toBe(true);
  });

  it('the next night runs the skills not started first, ahead of the usual order and of freshness', async () => {
    const project = await makeProject([
      { name: 'aardvark' },
      { name: 'alpha' },
      { name: 'beta' },
      { name: 'gamma' },
    ]);
    serve();
    // Night one: aardvark skip-listed; the budget stops the queue after alpha.
    const first = await night(project, { nightBudgetUsd: 0.0002, skipList: ['aardvark'] });
    expect(first.run.results.map((r) => r.skill)).toEqual(['alpha']);
    expect(await recorded(project)).toEqual({ not_started: ['beta', 'gamma'] });

    // Night two: the usual order would be aardvark, beta (alpha is fresh), and gamma not at all: this
    // freshness says gamma ran an hour ago. The skills the budget held back run first all the same.
    const now = Date.now();
    const freshness: Freshness = {
      lastRunAt: async (skill) =>
        skill.name === 'gamma' || skill.name === 'alpha' ? new Date(now - 3_600_000) : null,
    };
    const dry = await options(project, {});
    const plan = await planIterate(dry, {
      ...createLocalPorts(dry, { models: anthropicSkillModels(), log: logger().log }),
      freshness,
    });
    expect(plan.queue).toEqual(['beta', 'gamma', 'aardvark']);
    expect(plan.runFirst).toEqual(['beta', 'gamma']);

    const second = await night(project, {}, freshness);
    expect(second.run.queue).toEqual(['beta', 'gamma', 'aardvark']);
    expect(second.run.results.map((r) => r.skill)).toEqual(['beta', 'gamma', 'aardvark']);
    expect(second.run.excludedByFreshness.map((e) => e.skill)).toEqual(['alpha']);
    expect(second.summary).toContain(
      'Run first: beta, gamma (the night budget kept them from starting last night).',
    );
    expect(second.lines).toContain(
      'run first (the night budget kept them from starting last night): beta, gamma',
    );
    // They started: the record is cleared.
    expect(existsSync(path.join(project, NOT_STARTED_FILE))).toBe(false);
  });
});
