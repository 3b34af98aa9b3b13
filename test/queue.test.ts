import { symlink, writeFile, mkdir, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMtimeFreshness } from '../src/adapters/local/freshness.js';
import { createFileKillSwitch } from '../src/adapters/local/kill-switch.js';
import type { Freshness } from '../src/ports/freshness.js';
import { mergeSkipList } from '../src/core/skip-list.js';
import {
  EMPTY_QUEUE_MESSAGE,
  discoverSkills,
  findInvalidSkillFolders,
  displayWorktreeHome,
  dryRunPlanJson,
  formatDryRunPlan,
  formatUtcSeconds,
  resolveQueue,
  type QueuePlan,
} from '../src/iterate/queue.js';
import { addSkill, iterateOptions, makeTempDir, removeTempDirs, skillPath } from './helpers/skill-project.js';

const NOW = new Date('2026-05-24T08:00:00Z');
const USER_DEBUG_MTIME = new Date('2026-05-23T22:15:04Z');

/** The seed's literal example, byte for byte. */
const SEED_EXAMPLE = `Resolved queue (1 skill):
  session-wrap

Per-skill worktrees:
  session-wrap -> ~/worktree_skill-iterate-session-wrap-<epoch>

Per-skill budget:
  budget=1h iterations=12

Excluded by skip-list:
  skill-evolve  (skip-list: --skip-list extension)

Excluded by cross-night-resume filter:
  user-debug  (results.tsv mtime: 2026-05-23T22:15:04Z)
`;

afterEach(removeTempDirs);

/** A freshness port from a fixed table (no file system). */
function fixedFreshness(table: Record<string, Date>): Freshness {
  return { lastRunAt: async (skill) => table[skill] ?? null };
}

describe('the seed example', () => {
  it('reproduces the literal --dry-run output for session-wrap / user-debug / skill-evolve', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'user-debug', { resultsMtime: USER_DEBUG_MTIME });
    await addSkill(project, 'skill-evolve');
    const options = iterateOptions(project, { skipList: ['skill-evolve'], worktreeHome: os.homedir() });
    const skipList = mergeSkipList(options.skipList);
    const plan = await resolveQueue(options, skipList, undefined, createMtimeFreshness(project), NOW);
    expect(formatDryRunPlan(plan, options, { budget: '1h' })).toBe(SEED_EXAMPLE);
    // Without a label the budget prints in its shortest form, which is the same here.
    expect(formatDryRunPlan(plan, options)).toBe(SEED_EXAMPLE);
  });
});

describe('discovery', () => {
  it('finds <project>/.claude/skills/*/evals/evals.json and silently drops half-bootstrapped skills', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'half', { scenarios: false });
    await addSkill(project, 'no-evals', { evals: false, scenarios: false });
    await addSkill(project, '.hidden');
    await mkdir(skillPath(project, 'bare'), { recursive: true });
    await writeFile(path.join(project, '.claude', 'skills', 'README.md'), 'not a skill');
    expect(await discoverSkills(project)).toEqual(['session-wrap']);
  });

  it('leaves out folders whose name cannot be a skill name (it becomes a branch and a folder)', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'foo bar');
    await addSkill(project, 'session-wrap');
    expect(await discoverSkills(project)).toEqual(['session-wrap']);
    expect(await findInvalidSkillFolders(project)).toEqual(['foo bar']);
  });

  it('returns nothing when the project has no .claude/skills folder', async () => {
    expect(await discoverSkills(await makeTempDir())).toEqual([]);
  });

  it('follows a symlinked skill folder, as a glob does', async () => {
    const project = await makeTempDir();
    const elsewhere = await makeTempDir();
    await addSkill(elsewhere, 'shared-skill');
    await mkdir(path.join(project, '.claude', 'skills'), { recursive: true });
    await symlink(skillPath(elsewhere, 'shared-skill'), skillPath(project, 'shared-skill'));
    expect(await discoverSkills(project)).toEqual(['shared-skill']);
  });
});

describe('resolveQueue', () => {
  it('orders a discovered queue by code point, like Python sorted()', async () => {
    const project = await makeTempDir();
    for (const name of ['zeta', 'alpha', 'Beta', 'alpha-2']) await addSkill(project, name);
    const plan = await resolveQueue(
      iterateOptions(project),
      mergeSkipList([]),
      undefined,
      fixedFreshness({}),
      NOW,
    );
    expect(plan.queue).toEqual(['Beta', 'alpha', 'alpha-2', 'zeta']);
  });

  it('applies the 24 h freshness cliff: exactly 86400 s ago is eligible, one second less is fresh', async () => {
    const project = await makeTempDir();
    for (const name of ['edge', 'fresh', 'old', 'never']) await addSkill(project, name);
    const freshness = fixedFreshness({
      edge: new Date(NOW.getTime() - 86_400_000),
      fresh: new Date(NOW.getTime() - 86_399_000),
      old: new Date('2026-05-20T00:00:00Z'),
    });
    const plan = await resolveQueue(iterateOptions(project), mergeSkipList([]), undefined, freshness, NOW);
    expect(plan.queue).toEqual(['edge', 'never', 'old']);
    expect(plan.excludedByFreshness).toEqual([
      { skill: 'fresh', lastRunAt: new Date(NOW.getTime() - 86_399_000) },
    ]);
  });

  it('records the skip-list source of each excluded discovered skill and does not check their freshness', async () => {
    const project = await makeTempDir();
    for (const name of ['verify', 'skill-evolve', 'session-wrap']) await addSkill(project, name);
    const asked: string[] = [];
    const freshness: Freshness = {
      lastRunAt: async (skill) => {
        asked.push(skill);
        return null;
      },
    };
    const plan = await resolveQueue(
      iterateOptions(project),
      mergeSkipList(['skill-evolve']),
      undefined,
      freshness,
      NOW,
    );
    expect(plan.queue).toEqual(['session-wrap']);
    expect(plan.excludedBySkipList).toEqual([
      { skill: 'skill-evolve', source: '--skip-list extension' },
      { skill: 'verify', source: 'embedded' },
    ]);
    expect(asked).toEqual(['session-wrap']);
  });

  it('an explicit queue skips discovery, keeps its order, and is still freshness- and skip-list-filtered', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'not-listed');
    const plan = await resolveQueue(
      iterateOptions(project),
      mergeSkipList(['banned']),
      ['user-debug', 'banned', 'session-wrap', 'recent'],
      fixedFreshness({ recent: new Date(NOW.getTime() - 3_600_000) }),
      NOW,
    );
    expect(plan.queue).toEqual(['user-debug', 'session-wrap']);
    expect(plan.excludedBySkipList).toEqual([{ skill: 'banned', source: '--skip-list extension' }]);
    expect(plan.excludedByFreshness.map((e) => e.skill)).toEqual(['recent']);
  });
});

describe('formatDryRunPlan', () => {
  const options = iterateOptions('/p', { worktreeHome: '/home/op', perSkillIterations: 5 });

  it('prints the empty-queue line and nothing else when the queue is empty', () => {
    const plan: QueuePlan = {
      queue: [],
      excludedBySkipList: [{ skill: 'verify', source: 'embedded' }],
      excludedByFreshness: [],
    };
    expect(formatDryRunPlan(plan, options, { home: '/home/op' })).toBe(`${EMPTY_QUEUE_MESSAGE}\n`);
    expect(EMPTY_QUEUE_MESSAGE).toBe(
      'Queue empty -- nothing to iterate. All scorable skills were either skip-listed or have results.tsv mtime within the last 24h.',
    );
  });

  it('pluralises the count and prints (none) under empty exclusion sections', () => {
    const plan: QueuePlan = { queue: ['a', 'b'], excludedBySkipList: [], excludedByFreshness: [] };
    expect(formatDryRunPlan(plan, options, { budget: '90m', home: '/home/op' })).toBe(
      [
        'Resolved queue (2 skills):',
        '  a',
        '  b',
        '',
        'Per-skill worktrees:',
        '  a -> ~/worktree_skill-iterate-a-<epoch>',
        '  b -> ~/worktree_skill-iterate-b-<epoch>',
        '',
        'Per-skill budget:',
        '  budget=90m iterations=5',
        '',
        'Excluded by skip-list:',
        '  (none)',
        '',
        'Excluded by cross-night-resume filter:',
        '  (none)',
        '',
      ].join('\n'),
    );
  });

  it('shows a worktree home outside the home directory as an absolute path', () => {
    const plan: QueuePlan = { queue: ['a'], excludedBySkipList: [], excludedByFreshness: [] };
    const text = formatDryRunPlan(plan, iterateOptions('/p', { worktreeHome: '/runner/tmp' }), {
      home: '/home/op',
    });
    expect(text).toContain('  a -> /runner/tmp/worktree_skill-iterate-a-<epoch>\n');
  });

  it('displays the worktree home relative to ~ when it is inside it', () => {
    expect(displayWorktreeHome('/home/op', '/home/op')).toBe('~');
    expect(displayWorktreeHome('/home/op/wt', '/home/op')).toBe('~/wt');
    expect(displayWorktreeHome('/home/operator', '/home/op')).toBe('/home/operator');
  });

  it('formats mtimes as YYYY-MM-DDTHH:MM:SSZ, dropping milliseconds', () => {
    expect(formatUtcSeconds(new Date('2026-05-23T22:15:04.987Z'))).toBe('2026-05-23T22:15:04Z');
  });
});

describe('dryRunPlanJson', () => {
  it('carries the same plan with absolute worktree paths, branches and the budget both ways', () => {
    const plan: QueuePlan = {
      queue: ['session-wrap'],
      excludedBySkipList: [{ skill: 'skill-evolve', source: '--skip-list extension' }],
      excludedByFreshness: [{ skill: 'user-debug', lastRunAt: USER_DEBUG_MTIME }],
    };
    const json = dryRunPlanJson(
      plan,
      iterateOptions('/p', { worktreeHome: '/home/op', perSkillBudgetMs: 5_400_000 }),
    );
    expect(json).toEqual({
      queue: ['session-wrap'],
      worktrees: [
        {
          skill: 'session-wrap',
          path: '/home/op/worktree_skill-iterate-session-wrap-<epoch>',
          branch: 'skill-iterate/session-wrap-<epoch>',
        },
      ],
      budget: { perSkillBudget: '1h30m', perSkillBudgetMs: 5_400_000, perSkillIterations: 12 },
      excludedBySkipList: [{ skill: 'skill-evolve', source: '--skip-list extension' }],
      excludedByFreshness: [{ skill: 'user-debug', resultsTsvMtime: '2026-05-23T22:15:04Z' }],
      empty: false,
    });
  });
});

describe('ports', () => {
  it('mtime freshness reads results.tsv mtime, null when absent', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'ran', { resultsMtime: USER_DEBUG_MTIME });
    await addSkill(project, 'never');
    const freshness = createMtimeFreshness(project);
    expect((await freshness.lastRunAt('ran'))?.toISOString()).toBe('2026-05-23T22:15:04.000Z');
    expect(await freshness.lastRunAt('never')).toBeNull();
    expect(await freshness.lastRunAt('no-such-skill')).toBeNull();
    const touched = new Date('2026-05-24T07:59:00Z');
    await utimes(skillPath(project, 'ran', 'evals', 'results.tsv'), touched, touched);
    expect((await freshness.lastRunAt('ran'))?.getTime()).toBe(touched.getTime());
  });

  it('the file kill-switch reports the seed message while the file exists', async () => {
    const project = await makeTempDir();
    const killSwitch = createFileKillSwitch(project);
    const file = path.join(project, '.skill-iterate-killswitch');
    expect(killSwitch.path).toBe(file);
    expect(await killSwitch.check()).toBeNull();
    await writeFile(file, '');
    expect(await killSwitch.check()).toBe(`kill-switch is set at ${file}; remove the file to proceed`);
  });
});
