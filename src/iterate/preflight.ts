/**
 * Phase 0 of skill-iterate: every launch gate of the seed, in its order: concurrent-run detection (lock
 * file + orphaned worktree scan), kill-switch, skip-list, explicit --skill / --queue validation, and only
 * then the lock.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { EVALS_FILE, EvalsFileError, SCENARIOS_FILE, loadSkillEvals } from '../core/evals.js';
import { PreflightHalt } from './halt.js';
import { createFileKillSwitch } from './kill-switch.js';
import {
  LOCK_FILE,
  abandonedLockWarning,
  acquireLock,
  foreignStaleLockText,
  inspectLock,
  liveLockMessage,
  unreadableLockMessage,
  type HoldOptions,
} from './lock.js';
import { findOrphanWorktrees, orphanWorktreesWarning } from './orphans.js';
import type { IterateOptions, IteratePorts } from './ports.js';
import type { KillSwitch } from '../ports/kill-switch.js';
import type { Logger } from '../ports/logger.js';
import { isValidSkillName, parseQueueFile } from './queue-file.js';
import { discoverSkills, findInvalidSkillFolders } from './queue.js';
import { findSymlinkedSkillFile, symlinkWarning } from './symlinks.js';

export { PreflightHalt };

/** The seed's embedded skip-list: side-effect-driven skills whose output is not text-gradable. */
export const EMBEDDED_SKIP_LIST: readonly string[] = [
  'verify',
  'run',
  'loop',
  'schedule',
  'update-config',
  'fewer-permission-prompts',
  'claude-oauth-auth',
];

export interface SkipList {
  /** Union of embedded + extension. */
  all: ReadonlySet<string>;
  sourceOf(skill: string): 'embedded' | '--skip-list extension' | undefined;
}

export interface Lock {
  path: string;
  /** Idempotent; also runs on process exit / SIGINT / SIGTERM once acquired. */
  release(): Promise<void>;
}

export interface PreflightResult {
  skipList: SkipList;
  /** The explicit queue from --skill / --queue (validated), or undefined for auto-discovery. */
  explicit: string[] | undefined;
  /** Taken only when `takeLock` is true (never for --dry-run). */
  lock: Lock | undefined;
}

/** The extension can only add names: embedded entries always stay excluded (and keep "embedded" as source). */
export function mergeSkipList(extension: readonly string[]): SkipList {
  const embedded = new Set(EMBEDDED_SKIP_LIST);
  const extra = new Set(extension.map((s) => s.trim()).filter((s) => s && !embedded.has(s)));
  const all = new Set([...embedded, ...extra]);
  return {
    all,
    sourceOf: (skill) =>
      embedded.has(skill) ? 'embedded' : extra.has(skill) ? '--skip-list extension' : undefined,
  };
}

export function skillDir(project: string, skill: string): string {
  return path.join(project, '.claude', 'skills', skill);
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/** The --skill checks of the seed (folder, both eval files, skip-list), then the eval files must parse. */
async function validateExplicitSkill(project: string, name: string, skipList: SkipList): Promise<void> {
  if (!isValidSkillName(name)) {
    throw new PreflightHalt(`invalid skill name "${name}": expected a folder name under .claude/skills/`);
  }
  const dir = skillDir(project, name);
  if (!(await isDirectory(dir))) {
    throw new PreflightHalt(`skill folder missing for ${name}: ${dir} does not exist`);
  }
  const evalsDir = path.join(dir, 'evals');
  if (
    !(await isFile(path.join(evalsDir, EVALS_FILE))) ||
    !(await isFile(path.join(evalsDir, SCENARIOS_FILE)))
  ) {
    throw new PreflightHalt(`evals not bootstrapped for ${name}; run /skill-eval-setup ${name} first`);
  }
  if (skipList.all.has(name)) {
    throw new PreflightHalt(
      `explicit-bypass: ${name} is in the skip-list; remove --skill flag or extend skip-list semantics to proceed`,
    );
  }
  try {
    await loadSkillEvals(dir);
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    const where = path.posix.join('.claude/skills', name, 'evals', err.file);
    throw new PreflightHalt(
      err.jsonPath ? `${where}: ${err.jsonPath}: ${err.detail}` : `${where}: ${err.detail}`,
    );
  }
}

/** --queue: parse, then the --skill checks per name, halting on the FIRST bad line (typos must not hide). */
async function readExplicitQueue(project: string, queueFile: string, skipList: SkipList): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(queueFile, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new PreflightHalt(`queue file not found: ${queueFile}`);
    throw new PreflightHalt(`queue file ${queueFile} cannot be read: ${(err as Error).message}`);
  }
  const names: string[] = [];
  for (const entry of parseQueueFile(text)) {
    try {
      await validateExplicitSkill(project, entry.name, skipList);
    } catch (err) {
      if (err instanceof PreflightHalt) {
        throw new PreflightHalt(`queue file ${queueFile} line ${entry.line}: ${err.message}`);
      }
      throw err;
    }
    if (!names.includes(entry.name)) names.push(entry.name);
  }
  return names;
}

/** Discovery leaves these out (Phase 1); said here so a dry run and a real run both tell the operator. */
async function warnInvalidSkillFolders(project: string, log: Logger): Promise<void> {
  for (const name of await findInvalidSkillFolders(project)) {
    log.warn(
      `skill folder ".claude/skills/${name}" is not a valid skill name (letters, digits, ".", "_" and "-", ` +
        `starting with a letter or digit); it is left out of the queue: rename the folder to iterate it`,
    );
  }
}

/**
 * The run skips skills whose files are links (see symlinks.ts); a dry run says so up front. Only
 * the project checkout is looked at: the worktree's committed files are checked when the skill's turn comes.
 */
async function warnSymlinkedSkills(
  project: string,
  skills: readonly string[],
  skipList: SkipList,
  log: Logger,
): Promise<void> {
  for (const skill of skills) {
    if (skipList.all.has(skill)) continue;
    const linked = await findSymlinkedSkillFile(project, path.posix.join('.claude', 'skills', skill));
    if (linked !== undefined) log.warn(symlinkWarning(skill, linked, 'the project checkout'));
  }
}

/**
 * Runs Phase 0. Throws PreflightHalt on any halt. With `takeLock` false (--dry-run) the lock file is only
 * inspected: a live or stale lock becomes a warning and nothing is written or removed.
 * `ports.killSwitch` defaults to the `.skill-iterate-killswitch` file at the project root.
 * `lock` is passed to acquireLock (runIterate keeps the lock through a signal until its summary is out).
 */
export async function runPreflight(
  options: IterateOptions,
  ports: Pick<IteratePorts, 'log' | 'now'> & { killSwitch?: KillSwitch | undefined },
  takeLock: boolean,
  lock: HoldOptions = {},
): Promise<PreflightResult> {
  const { log } = ports;
  const project = path.resolve(options.project);
  if (!(await isDirectory(project))) throw new PreflightHalt(`project folder not found: ${project}`);
  if (options.skill !== undefined && options.queueFile !== undefined) {
    throw new PreflightHalt('--skill and --queue cannot be combined; pass one of them');
  }

  // 1. Concurrent-run detection: lock file, then the worktree scan.
  const lockFile = path.join(project, LOCK_FILE);
  const existing = await inspectLock(lockFile);
  if (existing.state === 'live') {
    const message = liveLockMessage(lockFile, existing.record);
    if (takeLock) throw new PreflightHalt(message);
    log.warn(`${message}; a real run would halt`);
  } else if (existing.state === 'unreadable') {
    const message = unreadableLockMessage(lockFile, existing.detail);
    if (takeLock) throw new PreflightHalt(message);
    log.warn(`${message}; a real run would halt`);
  } else if (existing.state === 'stale' && !takeLock) {
    const stale = existing.foreignHost
      ? foreignStaleLockText(existing.record)
      : `stale lock from PID ${existing.record.pid} at ${existing.record.started_at}`;
    log.warn(`${stale}; a real run would take over`);
  } else if (existing.state === 'abandoned' && !takeLock) {
    const warning = abandonedLockWarning(lockFile, existing.detail, existing.mtime);
    log.warn(warning.replace(/; taking over$/, '; a real run would take over'));
  }
  // A real run reports a stale lock in step 5, when it takes it over: a halt in between must not be
  // preceded by a "taking over" that never happened.

  // Worktrees of a live run are not orphans (a real run halts above before reaching this).
  if (existing.state !== 'live') {
    try {
      const orphans = await findOrphanWorktrees(project);
      if (orphans && orphans.length > 0) log.warn(orphanWorktreesWarning(orphans));
    } catch (err) {
      log.warn(`could not scan for orphaned worktrees: ${(err as Error).message}`);
    }
  }

  // 2. Kill-switch at launch.
  const killed = await (ports.killSwitch ?? createFileKillSwitch(project)).check();
  if (killed !== null) throw new PreflightHalt(killed);

  // 3. Skip-list resolution.
  const skipList = mergeSkipList(options.skipList);

  // 4. Explicit --skill / --queue.
  let explicit: string[] | undefined;
  if (options.skill !== undefined) {
    await validateExplicitSkill(project, options.skill, skipList);
    explicit = [options.skill];
  } else if (options.queueFile !== undefined) {
    explicit = await readExplicitQueue(project, path.resolve(project, options.queueFile), skipList);
  } else {
    await warnInvalidSkillFolders(project, log);
  }
  // A real run says it when it skips the skill; saying it here too would say it twice.
  if (!takeLock)
    await warnSymlinkedSkills(project, explicit ?? (await discoverSkills(project)), skipList, log);

  // 5. The lock, only after every other check passed.
  const held = takeLock ? await acquireLock(lockFile, { log, now: ports.now }, lock) : undefined;
  return { skipList, explicit, lock: held };
}
