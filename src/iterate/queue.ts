/**
 * The queue (docs/how-it-works.md § The queue): the skills the `skills` setting finds, those a run can
 * score (eval files that parse — the original's pair or an Agent Skills evals.json — or any SKILL.md with
 * `--mode structural`), the skip-list filter, the freshness filter (24 hours unless the options say
 * otherwise), alphabetical order, and the --dry-run plan (the original skill's literal text, or JSON for
 * scripts). Every skill found and not queued is named with
 * its real reason and the next step, in the plan, the empty-queue message and the run's result.
 */
import { lstat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatDuration } from '../core/duration.js';
import { EvalsFileError } from '../core/iterate/evals.js';
import {
  DEFAULT_SKILLS_GLOBS,
  EVALS_FILE,
  SCENARIOS_FILE,
  branchNameFor,
  evalsDirOf,
  evalsInitCommand,
  iterateCommandLine,
  resultsTsvPath,
  skillPathIn,
  worktreeFolderName,
  type CommandSetting,
  type SkillExclusion,
  type SkillLocation,
} from '../core/iterate/skill-layout.js';
import type { QueuePlan } from '../core/iterate/queue-plan.js';
import type { SkipList } from '../core/iterate/skip-list.js';
import type { Freshness } from '../ports/freshness.js';
import { rowMode } from '../core/iterate/results-tsv.js';
import { evalsShapeOf, loadSkillEvals, loadStructuralEvals } from './evals-files.js';
import { readResultsRows } from './results-file.js';
import { ITERATE_DEFAULTS, type IterateOptions } from './options.js';
import { outsideSkillsHint, type FoundSkills } from './skill-finder.js';

export type { QueuePlan };

/** What the plan calls a night: a queue longer than this gets a warning (docs/cli.md § Printed commands). */
export const NIGHT_MS = 8 * 3_600_000;
/** GitHub cancels a job after 6 hours: the Action's plans warn against this instead. */
export const ACTION_JOB_LIMIT = { ms: 6 * 3_600_000, label: "the Action's 6-hour job limit" } as const;

/** The `skills` setting of a run: the option (flag, input or config), else DEFAULT_SKILLS_GLOBS (`.claude/skills/*` and the reviewer skill's folder). */
export function skillsGlobsOf(options: Pick<IterateOptions, 'skills'>): readonly string[] {
  return options.skills && options.skills.length > 0 ? options.skills : DEFAULT_SKILLS_GLOBS;
}

/** `options.freshnessWindowMs`, or the default 24 hours; a bad value names the field. */
export function freshnessWindowOf(options: Pick<IterateOptions, 'freshnessWindowMs'>): number {
  const window = options.freshnessWindowMs;
  if (window === undefined) return ITERATE_DEFAULTS.freshnessWindowMs;
  if (!Number.isFinite(window) || window < 0) {
    throw new RangeError(
      `freshnessWindowMs must be a non-negative number of milliseconds (got ${String(window)})`,
    );
  }
  return window;
}

export const EMPTY_QUEUE_MESSAGE =
  'Queue empty -- nothing to iterate. All scorable skills were either skip-listed or have results.tsv mtime within the last 24h.';

/** The original skill's message for the default window; a shorter window (the Action's) names its own length. */
export function emptyQueueMessage(options: Pick<IterateOptions, 'freshnessWindowMs'>): string {
  const window = freshnessWindowOf(options);
  if (window === ITERATE_DEFAULTS.freshnessWindowMs) return EMPTY_QUEUE_MESSAGE;
  return EMPTY_QUEUE_MESSAGE.replace('within the last 24h', `within the last ${formatDuration(window)}`);
}

/** Python's `sorted()` order (code points), not the locale's, so the queue is the same on every machine. */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * Why a found skill cannot be scored in `mode`, or undefined when it can: composite and absolute need the
 * eval files (the original's pair, or an Agent Skills evals.json alone), and they must parse; structural needs neither (only a required_sections.json, when there is
 * one, must parse). The real run reads the same files the same way, so a dry run and a run agree.
 */
export async function unscorableReason(
  project: string,
  skill: SkillLocation,
  mode: IterateOptions['mode'],
  setting?: CommandSetting,
): Promise<Pick<SkillExclusion, 'reason' | 'next'> | undefined> {
  const dir = skillPathIn(project, skill);
  const evalsDir = evalsDirOf(dir);
  const label = (file: string) => `${skill.dir}/evals/${file}`;
  try {
    if (mode === 'structural') {
      await loadStructuralEvals(dir);
      return undefined;
    }
    const hasEvals = await isFile(path.join(evalsDir, EVALS_FILE));
    const hasScenarios = await isFile(path.join(evalsDir, SCENARIOS_FILE));
    if (!hasEvals && !hasScenarios) {
      return {
        reason: 'no evals',
        next:
          `run \`${evalsInitCommand(skill.name, '', setting)}\` to write them, or score structure only with ` +
          `\`${iterateCommandLine('--mode structural', { ...setting, mode: undefined, calibrate: undefined })}\``,
      };
    }
    // An Agent Skills evals.json needs no test_scenarios.json; a file in neither shape is refused by
    // name below, with what was expected (never with an offer to overwrite it).
    const shape = hasEvals ? (await evalsShapeOf(dir)).format : 'missing';
    if ((!hasEvals || !hasScenarios) && shape !== 'agent-skills') {
      const [has, lacks] = hasEvals ? [EVALS_FILE, SCENARIOS_FILE] : [SCENARIOS_FILE, EVALS_FILE];
      return {
        reason: `half-bootstrapped: ${label(has)} without ${lacks}`,
        next: hasEvals
          ? `run \`${evalsInitCommand(skill.name, '--force', setting)}\` to write both files again`
          : `run \`${evalsInitCommand(skill.name, '--keep-scenarios', setting)}\` to write evals.json for the scenarios`,
      };
    }
    await loadSkillEvals(dir);
    return undefined;
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    return {
      reason: `invalid evals: ${label(err.file)}: ${err.jsonPath ? `${err.jsonPath}: ` : ''}${err.detail}`,
      next: 'fix the file',
    };
  }
}

export interface QueueInput {
  skipList: SkipList;
  /** The explicit --skill / --queue list (already validated by the pre-flight), or undefined to discover. */
  explicit: SkillLocation[] | undefined;
  /** What the skills setting found. */
  found: FoundSkills;
}

/**
 * Resolves the queue. Explicit lists (--skill / --queue, already validated by the pre-flight) keep the
 * operator's order; discovered queues are the found skills that can be scored, alphabetical. Both pass
 * the skip-list and the freshness filter.
 */
export async function resolveQueue(
  options: IterateOptions,
  input: QueueInput,
  freshness: Freshness,
  now: Date,
  notStarted: readonly string[] = [],
): Promise<QueuePlan> {
  const window = freshnessWindowOf(options);
  const project = path.resolve(options.project);
  const plan: QueuePlan = {
    queue: [],
    dirs: {},
    excludedBySkipList: [],
    excludedByFreshness: [],
    excludedOther: input.explicit ? [] : [...input.found.excluded],
    outsideSetting: input.explicit ? undefined : outsideSkillsHint(input.found, options.command),
    skillsGlobs: input.found.globs,
    plannedAt: now,
  };
  if (input.explicit) {
    const asked = new Set(input.explicit.map((s) => s.name));
    plan.notRequested = input.found.skills.map((s) => s.name).filter((name) => !asked.has(name));
  }
  for (const skill of input.explicit ?? input.found.skills) {
    const source = input.skipList.sourceOf(skill.name);
    if (source !== undefined) {
      plan.excludedBySkipList.push({ skill: skill.name, source });
      continue;
    }
    if (input.explicit === undefined) {
      const unscorable = await unscorableReason(project, skill, options.mode, options.command);
      if (unscorable) {
        plan.excludedOther.push({ skill: skill.name, dir: skill.dir, ...unscorable });
        continue;
      }
    }
    // A skill last night's budget kept from starting did not run: it is never fresh (§ Caps and budgets).
    const carried = input.explicit === undefined && notStarted.includes(skill.name);
    const lastRunAt = options.ignoreFreshness || carried ? null : await freshness.lastRunAt(skill);
    if (
      lastRunAt !== null &&
      now.getTime() - lastRunAt.getTime() < window &&
      !(await firstRunInMode(project, skill, options.mode))
    ) {
      plan.excludedByFreshness.push({ skill: skill.name, lastRunAt });
      continue;
    }
    plan.queue.push(skill.name);
    plan.dirs[skill.name] = skill.dir;
  }
  if (input.explicit === undefined) {
    plan.queue.sort(byCodePoint);
    putFirst(plan, notStarted);
  }
  plan.excludedBySkipList.sort((a, b) => byCodePoint(a.skill, b.skill));
  plan.excludedByFreshness.sort((a, b) => byCodePoint(a.skill, b.skill));
  plan.excludedOther.sort((a, b) => byCodePoint(a.skill, b.skill) || byCodePoint(a.dir, b.dir));
  return plan;
}

/**
 * The skills last night's budget kept from starting go first, in their recorded order; those no longer
 * queued (skip-listed, gone, not scorable) are dropped. A discovered queue only: an explicit one keeps the
 * operator's order.
 */
function putFirst(plan: QueuePlan, notStarted: readonly string[]): void {
  const first = notStarted.filter(
    (skill, i) => plan.queue.includes(skill) && notStarted.indexOf(skill) === i,
  );
  if (first.length === 0) return;
  plan.queue = [...first, ...plan.queue.filter((skill) => !first.includes(skill))];
  plan.runFirst = first;
}

/**
 * Whether the skill's results.tsv holds rows, none of them scored in `mode`: a structural run the same
 * day does not make a skill fresh for its first composite night (docs/how-it-works.md § The queue). A
 * file that cannot be read, or has no rows, leaves the freshness port's answer as it is.
 */
async function firstRunInMode(
  project: string,
  skill: SkillLocation,
  mode: IterateOptions['mode'],
): Promise<boolean> {
  const rows = await readResultsRows(resultsTsvPath(project, skill)).catch(() => []);
  return rows.length > 0 && !rows.some((row) => rowMode(row.description) === mode);
}

/** `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds). */
export function formatUtcSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** The worktree parent as the plan shows it: `~` for the home directory, as the original skill prints it. */
export function displayWorktreeHome(worktreeHome: string, home: string = os.homedir()): string {
  const resolved = path.resolve(worktreeHome);
  if (resolved === path.resolve(home)) return '~';
  const rel = path.relative(home, resolved);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return `~/${rel.split(path.sep).join('/')}`;
  return resolved;
}

export interface DryRunLabels {
  /** The budget as the operator typed it (`90m` stays `90m`); default: the shortest form of the ms value. */
  budget?: string | undefined;
  /** What one run may take: a night (NIGHT_MS, the CLI) or the Action's job limit (ACTION_JOB_MS). */
  limit?: { ms: number; label: string } | undefined;
  /** For tests: what `~` stands for. */
  home?: string | undefined;
}

function worktreePath(home: string, skill: string): string {
  return `${home}/${worktreeFolderName(skill, '<epoch>')}`;
}

/** `name  (folder: reason; next step)`: one skill found and not queued, as the plan and messages show it. */
export function exclusionLine(e: SkillExclusion): string {
  return `${e.skill}  (${e.dir}: ${e.reason}${e.next ? `; ${e.next}` : ''})`;
}

/** `22:15 UTC` when the window ends on the plan's day, else `2026-05-25 22:15 UTC`. */
export function freshUntil(lastRunAt: Date, windowMs: number, now: Date): string {
  const until = new Date(lastRunAt.getTime() + windowMs).toISOString();
  const time = `${until.slice(11, 16)} UTC`;
  return until.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${until.slice(0, 10)} ${time}`;
}

/** Every skill found and not queued, one line each, by name: the real reason and the next step. */
export function exclusionLines(
  plan: QueuePlan,
  options: Pick<IterateOptions, 'freshnessWindowMs' | 'command'>,
): string[] {
  const window = freshnessWindowOf(options);
  const lines: Array<[string, string]> = [
    ...plan.excludedOther.map((e): [string, string] => [e.skill, exclusionLine(e)]),
    ...plan.excludedBySkipList.map((e): [string, string] => [
      e.skill,
      `${e.skill}  (skip-list: ${e.source})`,
    ]),
    ...plan.excludedByFreshness.map((e): [string, string] => [
      e.skill,
      `${e.skill}  (fresh until ${freshUntil(e.lastRunAt, window, plan.plannedAt)}: last run ${formatUtcSeconds(e.lastRunAt)}; ` +
        `to run it now: \`${iterateCommandLine(`--skill ${e.skill} --ignore-freshness`, options.command)}\`)`,
    ]),
  ];
  return lines.sort(([a], [b]) => byCodePoint(a, b)).map(([, line]) => line);
}

/**
 * The empty-queue message: the original's line where its claim is true (every skill found was skip-listed
 * or fresh), another one where it is not; then each skill found with its reason, then the hint about
 * skills outside the setting. Ends in a newline.
 */
export function formatEmptyQueue(
  plan: QueuePlan,
  options: Pick<IterateOptions, 'freshnessWindowMs' | 'command'>,
): string {
  const lines = exclusionLines(plan, options);
  let head: string;
  if (lines.length === 0) {
    head =
      'Queue empty -- nothing to iterate. No skill folder with a SKILL.md matches the skills setting ' +
      `(${plan.skillsGlobs.join(', ')}).`;
  } else if (plan.excludedOther.length === 0) {
    head = emptyQueueMessage(options);
  } else {
    head = 'Queue empty -- nothing to iterate. No skill found is ready to run:';
  }
  const hint = plan.outsideSetting === undefined ? [] : ['', plan.outsideSetting];
  const ignored = plan.ignoredEvals === undefined ? [] : ['', plan.ignoredEvals];
  const spec =
    plan.specViolations === undefined
      ? []
      : ['', 'Agent Skills specification:', ...plan.specViolations.map((l) => `  ${l}`)];
  return [head, ...lines.map((l) => `  ${l}`), ...hint, ...ignored, ...spec].join('\n') + '\n';
}

/**
 * The original skill's --dry-run text, byte for byte, ending in a newline. Sections without entries print
 * `(none)` so the plan always has the same five sections; skills that cannot be scored and skills outside
 * the setting add a section each, only when there are any. An empty queue prints formatEmptyQueue.
 */
export function formatDryRunPlan(
  plan: QueuePlan,
  options: IterateOptions,
  labels: DryRunLabels = {},
): string {
  if (plan.queue.length === 0) return formatEmptyQueue(plan, options);
  const home = displayWorktreeHome(options.worktreeHome, labels.home);
  const budget = labels.budget ?? formatDuration(options.perSkillBudgetMs);
  const section = (title: string, lines: string[]): string =>
    `${title}\n${(lines.length ? lines : ['(none)']).map((l) => `  ${l}`).join('\n')}\n`;
  const count = plan.queue.length;
  return [
    section(`Resolved queue (${count} ${count === 1 ? 'skill' : 'skills'}):`, plan.queue),
    section(
      'Per-skill worktrees:',
      plan.queue.map((s) => `${s} -> ${worktreePath(home, s)}`),
    ),
    section('Per-skill budget:', [
      `budget=${budget} iterations=${options.perSkillIterations}`,
      ...budgetWarning(plan, options, labels),
    ]),
    section(
      'Excluded by skip-list:',
      plan.excludedBySkipList.map((e) => `${e.skill}  (skip-list: ${e.source})`),
    ),
    section(
      'Excluded by cross-night-resume filter:',
      plan.excludedByFreshness.map(
        (e) => `${e.skill}  (results.tsv mtime: ${formatUtcSeconds(e.lastRunAt)})`,
      ),
    ),
    ...(plan.runFirst !== undefined
      ? [section('Run first (the night budget kept them from starting last night):', plan.runFirst)]
      : []),
    ...(plan.excludedOther.length > 0
      ? [section('Excluded, cannot be scored:', plan.excludedOther.map(exclusionLine))]
      : []),
    ...(plan.outsideSetting !== undefined
      ? [section('Outside the skills setting:', [plan.outsideSetting])]
      : []),
    ...(plan.ignoredEvals !== undefined ? [section('Ignored by git:', [plan.ignoredEvals])] : []),
    ...(plan.specViolations !== undefined
      ? [section('Agent Skills specification (the skills still run):', plan.specViolations)]
      : []),
  ].join('\n');
}

/**
 * The warning of a queue longer than a night (or the Action's job): how long it may take, how many
 * skills fit, and what happens to the rest. Empty when it fits.
 */
export function budgetWarning(
  plan: Pick<QueuePlan, 'queue'>,
  options: Pick<IterateOptions, 'perSkillBudgetMs' | 'command'>,
  labels: Pick<DryRunLabels, 'limit' | 'budget'> = {},
): string[] {
  const limit = labels.limit ?? { ms: NIGHT_MS, label: 'one 8-hour night' };
  const count = plan.queue.length;
  const total = count * options.perSkillBudgetMs;
  if (total <= limit.ms || options.perSkillBudgetMs <= 0) return [];
  const fit = Math.floor(limit.ms / options.perSkillBudgetMs);
  const budget = labels.budget ?? formatDuration(options.perSkillBudgetMs);
  return [
    `warning: ${count} skills x ${budget} = up to ${formatDuration(total)}, more than ${limit.label}: ` +
      `at most ${fit} ${fit === 1 ? 'skill fits' : 'skills fit'}. The queue runs in order until it ends or is ` +
      'stopped (kill-switch, interrupt, a cancelled job); the skills not reached are not fresh, so the next ' +
      'run queues them again while those that ran are left out for the freshness window. To fit, narrow ' +
      'the queue (--skill, --queue, --skip-list) or lower --per-skill-budget.',
  ];
}

/** `--dry-run --json`: the same plan for scripts (and the Action). Paths here are absolute. */
export interface DryRunPlanJson {
  queue: string[];
  worktrees: Array<{ skill: string; path: string; branch: string }>;
  budget: { perSkillBudget: string; perSkillBudgetMs: number; perSkillIterations: number };
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; resultsTsvMtime: string }>;
  /** Skills found but not scorable, with the reason and the next step. */
  excludedOther: SkillExclusion[];
  /** The hint about skills outside the skills setting, or null. */
  outsideSetting: string | null;
  /** Each queued skill's folder, relative to the project. */
  dirs: Record<string, string>;
  /** The warning of a queue longer than a night (or the Action's job), or null. */
  budgetWarning: string | null;
  /** The hint about eval files git ignores, with the line that un-ignores them, or null. */
  ignoredEvals: string | null;
  /** With --skill / --queue: the skills the setting finds that were not asked for. */
  notRequested: string[];
  /** Skills last night's budget kept from starting, queued first (docs/how-it-works.md § Caps and budgets). */
  runFirst: string[];
  /** Each rule of the Agent Skills specification a found SKILL.md breaks, `<file>: <field>: <detail>`. */
  specViolations: string[];
  empty: boolean;
}

export function dryRunPlanJson(
  plan: QueuePlan,
  options: IterateOptions,
  labels: DryRunLabels = {},
): DryRunPlanJson {
  const home = path.resolve(options.worktreeHome).split(path.sep).join('/');
  return {
    queue: [...plan.queue],
    worktrees: plan.queue.map((skill) => ({
      skill,
      path: worktreePath(home, skill),
      branch: branchNameFor(skill, '<epoch>'),
    })),
    budget: {
      perSkillBudget: labels.budget ?? formatDuration(options.perSkillBudgetMs),
      perSkillBudgetMs: options.perSkillBudgetMs,
      perSkillIterations: options.perSkillIterations,
    },
    excludedBySkipList: plan.excludedBySkipList.map((e) => ({ ...e })),
    excludedByFreshness: plan.excludedByFreshness.map((e) => ({
      skill: e.skill,
      resultsTsvMtime: formatUtcSeconds(e.lastRunAt),
    })),
    excludedOther: plan.excludedOther.map((e) => ({ ...e })),
    outsideSetting: plan.outsideSetting ?? null,
    dirs: { ...plan.dirs },
    budgetWarning: budgetWarning(plan, options, labels)[0] ?? null,
    ignoredEvals: plan.ignoredEvals ?? null,
    specViolations: [...(plan.specViolations ?? [])],
    notRequested: [...(plan.notRequested ?? [])],
    runFirst: [...(plan.runFirst ?? [])],
    empty: plan.queue.length === 0,
  };
}
