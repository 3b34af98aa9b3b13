import { symlink, writeFile, mkdir, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMtimeFreshness } from '../../src/adapters/local/freshness.js';
import { createFileKillSwitch } from '../../src/adapters/local/kill-switch.js';
import type { Freshness } from '../../src/ports/freshness.js';
import { mergeSkipList, type SkipList } from '../../src/core/iterate/skip-list.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import {
  EMPTY_QUEUE_MESSAGE,
  displayWorktreeHome,
  dryRunPlanJson,
  formatDryRunPlan,
  formatUtcSeconds,
  resolveQueue,
  skillsGlobsOf,
  type QueuePlan,
} from '../../src/iterate/queue.js';
import { findSkills } from '../../src/iterate/skill-finder.js';
import type { SkillLocation } from '../../src/core/iterate/skill-layout.js';
import {
  addSkill,
  addSkillAt,
  iterateOptions,
  makeTempDir,
  removeTempDirs,
  skillPath,
} from '../helpers/skill-project.js';

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
  return { lastRunAt: async (skill) => table[skill.name] ?? null };
}

/** The queue of `project` as a run resolves it: the skills setting, then resolveQueue. */
async function planFor(
  options: IterateOptions,
  freshness: Freshness,
  extra: { skipList?: SkipList; explicit?: SkillLocation[] } = {},
): Promise<QueuePlan> {
  const found = await findSkills({
    project: options.project,
    repository: options.project,
    globs: skillsGlobsOf(options),
  });
  return resolveQueue(
    options,
    { skipList: extra.skipList ?? mergeSkipList(options.skipList), explicit: extra.explicit, found },
    freshness,
    NOW,
  );
}

/** A plan for the formatting tests: only what a test sets. */
function planOf(partial: Partial<QueuePlan>): QueuePlan {
  return {
    queue: [],
    dirs: {},
    excludedBySkipList: [],
    excludedByFreshness: [],
    excludedOther: [],
    outsideSetting: undefined,
    skillsGlobs: ['.claude/skills/*'],
    plannedAt: NOW,
    ...partial,
  };
}

describe('the seed example', () => {
  it('reproduces the literal --dry-run output for session-wrap / user-debug / skill-evolve', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'user-debug', { resultsMtime: USER_DEBUG_MTIME });
    await addSkill(project, 'skill-evolve');
    const options = iterateOptions(project, { skipList: ['skill-evolve'], worktreeHome: os.homedir() });
    const plan = await planFor(options, createMtimeFreshness(project));
    expect(formatDryRunPlan(plan, options, { budget: '1h' })).toBe(SEED_EXAMPLE);
    // Without a label the budget prints in its shortest form, which is the same here.
    expect(formatDryRunPlan(plan, options)).toBe(SEED_EXAMPLE);
    expect(plan.dirs).toEqual({ 'session-wrap': '.claude/skills/session-wrap' });
  });
});

describe('discovery', () => {
  it('queues skills with both eval files and names every other skill with its reason and next step', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'half', { scenarios: false });
    await addSkill(project, 'scenarios-only', { evals: false });
    await addSkill(project, 'no-evals', { evals: false, scenarios: false });
    await addSkill(project, 'broken', { evals: '{"categories": []}' });
    await addSkill(project, '.hidden');
    await mkdir(skillPath(project, 'bare'), { recursive: true });
    await writeFile(path.join(project, '.claude', 'skills', 'README.md'), 'not a skill');
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
    expect(plan.queue).toEqual(['session-wrap']);
    expect(plan.excludedOther).toEqual([
      {
        skill: 'broken',
        dir: '.claude/skills/broken',
        reason:
          'invalid evals: .claude/skills/broken/evals/evals.json: categories: expected array to have >=1 items',
        next: 'fix the file',
      },
      {
        skill: 'half',
        dir: '.claude/skills/half',
        reason: 'half-bootstrapped: .claude/skills/half/evals/evals.json without test_scenarios.json',
        next: 'run `skillclimb evals init half --force` to write both files again',
      },
      {
        skill: 'no-evals',
        dir: '.claude/skills/no-evals',
        reason: 'no evals',
        next: 'run `skillclimb evals init no-evals` to write them, or score structure only with `skillclimb iterate --mode structural`',
      },
      {
        skill: 'scenarios-only',
        dir: '.claude/skills/scenarios-only',
        reason:
          'half-bootstrapped: .claude/skills/scenarios-only/evals/test_scenarios.json without evals.json',
        next: 'run `skillclimb evals init scenarios-only --keep-scenarios` to write evals.json for the scenarios',
      },
    ]);
  });

  it('with --mode structural queues every skill with a SKILL.md, evals or not', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkill(project, 'no-evals', { evals: false, scenarios: false });
    await addSkill(project, 'half', { scenarios: false });
    const plan = await planFor(iterateOptions(project, { mode: 'structural' }), fixedFreshness({}));
    expect(plan.queue).toEqual(['half', 'no-evals', 'session-wrap']);
    expect(plan.excludedOther).toEqual([]);
  });

  it('leaves out folders whose name cannot be a branch, saying why', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'foo bar');
    await addSkill(project, 'x.lock');
    await addSkill(project, 'session-wrap');
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
    expect(plan.queue).toEqual(['session-wrap']);
    expect(plan.excludedOther.map((e) => [e.skill, e.reason.split(' (')[0]])).toEqual([
      ['foo bar', 'not a branch-safe name'],
      ['x.lock', 'not a branch-safe name'],
    ]);
  });

  it('finds nothing when the project has no skills, and says so', async () => {
    const project = await makeTempDir();
    const options = iterateOptions(project);
    const plan = await planFor(options, fixedFreshness({}));
    expect(plan.queue).toEqual([]);
    expect(formatDryRunPlan(plan, options)).toBe(
      'Queue empty -- nothing to iterate. No skill folder with a SKILL.md matches the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer).\n',
    );
  });

  it('follows a skill folder linked inside the repository to its real path; refuses one linked outside', async () => {
    const project = await makeTempDir();
    const elsewhere = await makeTempDir();
    await addSkillAt(project, 'shared/inside-skill');
    await addSkill(elsewhere, 'outside-skill');
    await mkdir(path.join(project, '.claude', 'skills'), { recursive: true });
    await symlink(path.join(project, 'shared', 'inside-skill'), skillPath(project, 'inside-skill'));
    await symlink(skillPath(elsewhere, 'outside-skill'), skillPath(project, 'outside-skill'));
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
    expect(plan.queue).toEqual(['inside-skill']);
    expect(plan.dirs).toEqual({ 'inside-skill': 'shared/inside-skill' });
    expect(plan.excludedOther).toEqual([
      {
        skill: 'outside-skill',
        dir: '.claude/skills/outside-skill',
        reason: `symlink: .claude/skills/outside-skill leads outside the repository (to ${skillPath(elsewhere, 'outside-skill')})`,
        next: 'replace the link by the files themselves',
      },
    ]);
  });

  it('a skills setting of its own: skills/* and plugins/*/skills/*, two skills of one name each queued under its plugin', async () => {
    const project = await makeTempDir();
    await addSkillAt(project, 'skills/alpha');
    await addSkillAt(project, 'plugins/one/skills/beta');
    await addSkillAt(project, 'plugins/one/skills/gamma');
    await addSkillAt(project, 'plugins/two/skills/gamma');
    const options = iterateOptions(project, { skills: ['skills/*', 'plugins/*/skills/*'] });
    const plan = await planFor(options, fixedFreshness({}));
    // A name that does not repeat keeps its identity (existing state and branches still match).
    expect(plan.queue).toEqual(['alpha', 'beta', 'one.gamma', 'two.gamma']);
    expect(plan.dirs).toEqual({
      alpha: 'skills/alpha',
      beta: 'plugins/one/skills/beta',
      'one.gamma': 'plugins/one/skills/gamma',
      'two.gamma': 'plugins/two/skills/gamma',
    });
    expect(plan.excludedOther).toEqual([]);
    expect(plan.outsideSetting).toBeUndefined();
  });

  it('an identity that equals another folder name leaves both out, each naming the other', async () => {
    const project = await makeTempDir();
    await addSkillAt(project, 'skills/one.gamma');
    await addSkillAt(project, 'plugins/one/skills/gamma');
    await addSkillAt(project, 'plugins/two/skills/gamma');
    const options = iterateOptions(project, { skills: ['skills/*', 'plugins/*/skills/*'] });
    const plan = await planFor(options, fixedFreshness({}));
    expect(plan.queue).toEqual(['two.gamma']);
    expect(plan.excludedOther.map((e) => [e.skill, e.dir, e.reason])).toEqual([
      [
        'one.gamma',
        'plugins/one/skills/gamma',
        'duplicate name: also at skills/one.gamma (branches and run state are keyed by the name)',
      ],
      [
        'one.gamma',
        'skills/one.gamma',
        'duplicate name: also at plugins/one/skills/gamma (branches and run state are keyed by the name)',
      ],
    ]);
  });

  it('names skills outside the setting with the exact setting to use, and never queues them', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkillAt(project, 'skills/alpha');
    await addSkillAt(project, 'plugins/p/skills/beta');
    await addSkillAt(project, 'toplevel');
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
    expect(plan.queue).toEqual(['session-wrap']);
    expect(plan.outsideSetting).toBe(
      '3 skills are outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer) and not queued: skills/* (alpha); ' +
        'plugins/*/skills/* (beta); * (toplevel). To include them, set ' +
        '"skills": [".claude/skills/*","skills/*","plugins/*/skills/*","*"] in skillclimb.config.json, ' +
        "or pass --skills '.claude/skills/*,skills/*,plugins/*/skills/*,*' " +
        "(`skillclimb iterate --dry-run --skills '.claude/skills/*,skills/*,plugins/*/skills/*,*'`)",
    );
  });
});

describe('the reviewer skill (docs/how-it-works.md § The nightly engine improves the reviewer)', () => {
  it('is queued by the default setting from its folder under .github/, beside the other skills', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkillAt(project, '.github/skills/review-loop-reviewer');
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
    expect(plan.queue).toEqual(['review-loop-reviewer', 'session-wrap']);
    expect(plan.dirs['review-loop-reviewer']).toBe('.github/skills/review-loop-reviewer');
    expect(plan.outsideSetting).toBeUndefined();
  });

  it('is left out by a setting that does not name it, and by the skip-list; the hint names it', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'session-wrap');
    await addSkillAt(project, '.github/skills/review-loop-reviewer');
    const narrowed = await planFor(
      iterateOptions(project, { skills: ['.claude/skills/*'] }),
      fixedFreshness({}),
    );
    expect(narrowed.queue).toEqual(['session-wrap']);
    expect(narrowed.outsideSetting).toContain('.github/skills/* (review-loop-reviewer)');
    const skipped = await planFor(
      iterateOptions(project, { skipList: ['review-loop-reviewer'] }),
      fixedFreshness({}),
    );
    expect(skipped.queue).toEqual(['session-wrap']);
  });
});

describe('the outside hint keeps the globs that found skills through a link', () => {
  it('a linked .claude/skills plus plugins elsewhere: both globs in the setting to use', async () => {
    const project = await makeTempDir();
    await addSkillAt(project, 'skills/alpha');
    await addSkillAt(project, 'plugins/p/skills/beta');
    await mkdir(path.join(project, '.claude'), { recursive: true });
    await symlink('../skills', path.join(project, '.claude', 'skills'));
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
    expect(plan.queue).toEqual(['alpha']);
    expect(plan.dirs).toEqual({ alpha: 'skills/alpha' });
    // skills/alpha is the link's real folder: found, not outside; only beta is.
    expect(plan.outsideSetting).toContain(
      '1 skill is outside the skills setting (.claude/skills/*, .github/skills/review-loop-reviewer)',
    );
    expect(plan.outsideSetting).toContain('"skills": [".claude/skills/*","plugins/*/skills/*"]');
  });
});

describe('resolveQueue', () => {
  it('orders a discovered queue by code point, like Python sorted()', async () => {
    const project = await makeTempDir();
    for (const name of ['zeta', 'alpha', 'Beta', 'alpha-2']) await addSkill(project, name);
    const plan = await planFor(iterateOptions(project), fixedFreshness({}));
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
    const plan = await planFor(iterateOptions(project), freshness);
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
        asked.push(skill.name);
        return null;
      },
    };
    const plan = await planFor(iterateOptions(project), freshness, {
      skipList: mergeSkipList(['skill-evolve']),
    });
    expect(plan.queue).toEqual(['session-wrap']);
    expect(plan.excludedBySkipList).toEqual([
      { skill: 'skill-evolve', source: '--skip-list extension' },
      { skill: 'verify', source: 'embedded' },
    ]);
    expect(asked).toEqual(['session-wrap']);
  });

  it('an explicit queue keeps its order, and is still freshness- and skip-list-filtered', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'not-listed');
    const at = (name: string): SkillLocation => ({ name, dir: `.claude/skills/${name}` });
    const plan = await planFor(
      iterateOptions(project),
      fixedFreshness({ recent: new Date(NOW.getTime() - 3_600_000) }),
      {
        skipList: mergeSkipList(['banned']),
        explicit: ['user-debug', 'banned', 'session-wrap', 'recent'].map(at),
      },
    );
    expect(plan.queue).toEqual(['user-debug', 'session-wrap']);
    expect(plan.excludedBySkipList).toEqual([{ skill: 'banned', source: '--skip-list extension' }]);
    expect(plan.excludedByFreshness.map((e) => e.skill)).toEqual(['recent']);
    // An explicit list is the operator's: what discovery would say about other skills is not repeated.
    expect(plan.excludedOther).toEqual([]);
  });
});

describe('formatDryRunPlan', () => {
  const options = iterateOptions('/p', { worktreeHome: '/home/op', perSkillIterations: 5 });

  it('prints the original empty-queue line when it is true, with each skill and its reason', () => {
    const plan = planOf({ excludedBySkipList: [{ skill: 'verify', source: 'embedded' }] });
    expect(formatDryRunPlan(plan, options, { home: '/home/op' })).toBe(
      `${EMPTY_QUEUE_MESSAGE}\n  verify  (skip-list: embedded)\n`,
    );
    expect(EMPTY_QUEUE_MESSAGE).toBe(
      'Queue empty -- nothing to iterate. All scorable skills were either skip-listed or have results.tsv mtime within the last 24h.',
    );
  });

  it('pluralises the count and prints (none) under empty exclusion sections', () => {
    const plan = planOf({ queue: ['a', 'b'] });
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
    const plan = planOf({ queue: ['a'] });
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

describe('the empty queue and exclusions', () => {
  const options = iterateOptions('/p', { worktreeHome: '/home/op' });

  it('does not claim causes that are not true: each skill gets its own reason, then the outside hint', () => {
    const plan = planOf({
      excludedOther: [
        {
          skill: 'alpha',
          dir: 'skills/alpha',
          reason: 'no evals',
          next: 'run `skillclimb evals init alpha` to write them, or score structure only with `skillclimb iterate --mode structural`',
        },
      ],
      excludedBySkipList: [{ skill: 'verify', source: 'embedded' }],
      excludedByFreshness: [{ skill: 'beta', lastRunAt: new Date('2026-05-23T22:15:04Z') }],
      outsideSetting: '1 skill is outside the skills setting …',
    });
    expect(formatDryRunPlan(plan, options)).toBe(
      [
        'Queue empty -- nothing to iterate. No skill found is ready to run:',
        '  alpha  (skills/alpha: no evals; run `skillclimb evals init alpha` to write them, or score structure only with `skillclimb iterate --mode structural`)',
        '  beta  (fresh until 22:15 UTC: last run 2026-05-23T22:15:04Z; to run it now: `skillclimb iterate --skill beta --ignore-freshness`)',
        '  verify  (skip-list: embedded)',
        '',
        '1 skill is outside the skills setting …',
        '',
      ].join('\n'),
    );
  });

  it("says the day a freshness window ends when it is not the plan's", () => {
    const plan = planOf({
      excludedByFreshness: [{ skill: 'beta', lastRunAt: new Date('2026-05-24T07:00:00Z') }],
    });
    expect(formatDryRunPlan(plan, options)).toContain(
      '  beta  (fresh until 2026-05-25 07:00 UTC: last run 2026-05-24T07:00:00Z; to run it now: `skillclimb iterate --skill beta --ignore-freshness`)',
    );
  });

  it('adds a section for skills that cannot be scored and one for skills outside the setting', () => {
    const plan = planOf({
      queue: ['a'],
      excludedOther: [{ skill: 'b', dir: '.claude/skills/b', reason: 'no evals', next: 'run x' }],
      outsideSetting: 'hint',
    });
    expect(formatDryRunPlan(plan, options, { home: '/home/op' })).toContain(
      'Excluded by cross-night-resume filter:\n  (none)\n\nExcluded, cannot be scored:\n  b  (.claude/skills/b: no evals; run x)\n\nOutside the skills setting:\n  hint\n',
    );
  });
});

describe('dryRunPlanJson', () => {
  it('carries the same plan with absolute worktree paths, branches and the budget both ways', () => {
    const plan = planOf({
      queue: ['session-wrap'],
      dirs: { 'session-wrap': '.claude/skills/session-wrap' },
      excludedBySkipList: [{ skill: 'skill-evolve', source: '--skip-list extension' }],
      excludedByFreshness: [{ skill: 'user-debug', lastRunAt: USER_DEBUG_MTIME }],
    });
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
      excludedOther: [],
      outsideSetting: null,
      dirs: { 'session-wrap': '.claude/skills/session-wrap' },
      budgetWarning: null,
      ignoredEvals: null,
      notRequested: [],
      runFirst: [],
      specViolations: [],
      empty: false,
    });
  });
});

describe('ports', () => {
  it('mtime freshness reads results.tsv mtime, null when absent', async () => {
    const project = await makeTempDir();
    await addSkill(project, 'ran', { resultsMtime: USER_DEBUG_MTIME });
    await addSkill(project, 'never');
    await addSkillAt(project, 'skills/elsewhere', { resultsMtime: USER_DEBUG_MTIME });
    const freshness = createMtimeFreshness(project);
    const at = (name: string, dir = `.claude/skills/${name}`): SkillLocation => ({ name, dir });
    expect((await freshness.lastRunAt(at('ran')))?.toISOString()).toBe('2026-05-23T22:15:04.000Z');
    expect(await freshness.lastRunAt(at('never'))).toBeNull();
    expect(await freshness.lastRunAt(at('no-such-skill'))).toBeNull();
    // The skill's own folder, wherever it lives.
    expect((await freshness.lastRunAt(at('elsewhere', 'skills/elsewhere')))?.getTime()).toBe(
      USER_DEBUG_MTIME.getTime(),
    );
    const touched = new Date('2026-05-24T07:59:00Z');
    await utimes(skillPath(project, 'ran', 'evals', 'results.tsv'), touched, touched);
    expect((await freshness.lastRunAt(at('ran')))?.getTime()).toBe(touched.getTime());
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
