/**
 * The queue (docs/how-it-works.md § The queue): discovery, skip-list filter, freshness filter (24 hours unless the options say
 * otherwise), alphabetical order, and the --dry-run plan (the original skill's literal text, or JSON for scripts).
 */
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatDuration } from '../core/duration.js';
import {
  EVALS_FILE,
  SCENARIOS_FILE,
  branchNameFor,
  evalsDirOf,
  isValidSkillName,
  skillsDirOf,
  worktreeFolderName,
} from '../core/skill-layout.js';
import type { SkipList } from '../core/skip-list.js';
import type { Freshness } from '../ports/freshness.js';
import { ITERATE_DEFAULTS, type IterateOptions } from './options.js';

export interface QueuePlan {
  queue: string[];
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; lastRunAt: Date }>;
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
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/** Every `<project>/.claude/skills/*` folder with both eval files, whatever its name. */
async function bootstrappedSkillFolders(project: string): Promise<string[]> {
  const skillsDir = skillsDirOf(project);
  let names: string[];
  try {
    names = await readdir(skillsDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
  const found: string[] = [];
  for (const name of names.filter((n) => !n.startsWith('.')).sort(byCodePoint)) {
    const evalsDir = evalsDirOf(path.join(skillsDir, name));
    if (
      (await isFile(path.join(evalsDir, EVALS_FILE))) &&
      (await isFile(path.join(evalsDir, SCENARIOS_FILE)))
    ) {
      found.push(name);
    }
  }
  return found;
}

/**
 * `<project>/.claude/skills/*\/evals/evals.json`, keeping only skills that also have test_scenarios.json
 * (half-bootstrapped skills are dropped silently). Like a shell glob, `*` skips dot-folders. Folders whose
 * name is not a valid skill name (`foo bar`) are left out too: the name becomes a branch and a worktree
 * folder, and one bad name must not halt the night (the pre-flight warns about them).
 */
export async function discoverSkills(project: string): Promise<string[]> {
  return (await bootstrappedSkillFolders(project)).filter(isValidSkillName);
}

/** Bootstrapped skill folders that discovery leaves out because of their name. */
export async function findInvalidSkillFolders(project: string): Promise<string[]> {
  return (await bootstrappedSkillFolders(project)).filter((name) => !isValidSkillName(name));
}

/**
 * Resolves the queue. Explicit lists (--skill / --queue, already validated by the pre-flight) skip
 * discovery and keep the operator's order; discovered queues are alphabetical. Both pass the skip-list and
 * the freshness filter.
 */
export async function resolveQueue(
  options: IterateOptions,
  skipList: SkipList,
  explicit: string[] | undefined,
  freshness: Freshness,
  now: Date,
): Promise<QueuePlan> {
  const window = freshnessWindowOf(options);
  const candidates = explicit ?? (await discoverSkills(path.resolve(options.project)));
  const plan: QueuePlan = { queue: [], excludedBySkipList: [], excludedByFreshness: [] };
  for (const skill of candidates) {
    const source = skipList.sourceOf(skill);
    if (source !== undefined) {
      plan.excludedBySkipList.push({ skill, source });
      continue;
    }
    const lastRunAt = await freshness.lastRunAt(skill);
    if (lastRunAt !== null && now.getTime() - lastRunAt.getTime() < window) {
      plan.excludedByFreshness.push({ skill, lastRunAt });
      continue;
    }
    plan.queue.push(skill);
  }
  if (explicit === undefined) plan.queue.sort(byCodePoint);
  plan.excludedBySkipList.sort((a, b) => byCodePoint(a.skill, b.skill));
  plan.excludedByFreshness.sort((a, b) => byCodePoint(a.skill, b.skill));
  return plan;
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
  /** For tests: what `~` stands for. */
  home?: string | undefined;
}

function worktreePath(home: string, skill: string): string {
  return `${home}/${worktreeFolderName(skill, '<epoch>')}`;
}

/**
 * The original skill's --dry-run text, byte for byte, ending in a newline. Sections without entries print `(none)`
 * so the plan always has the same five sections; an empty queue prints only EMPTY_QUEUE_MESSAGE.
 */
export function formatDryRunPlan(
  plan: QueuePlan,
  options: IterateOptions,
  labels: DryRunLabels = {},
): string {
  if (plan.queue.length === 0) return `${emptyQueueMessage(options)}\n`;
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
    section('Per-skill budget:', [`budget=${budget} iterations=${options.perSkillIterations}`]),
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
  ].join('\n');
}

/** `--dry-run --json`: the same plan for scripts (and the Action). Paths here are absolute. */
export interface DryRunPlanJson {
  queue: string[];
  worktrees: Array<{ skill: string; path: string; branch: string }>;
  budget: { perSkillBudget: string; perSkillBudgetMs: number; perSkillIterations: number };
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; resultsTsvMtime: string }>;
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
    empty: plan.queue.length === 0,
  };
}
