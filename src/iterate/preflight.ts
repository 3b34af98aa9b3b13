/**
 * The pre-flight (docs/how-it-works.md § Pre-flight): every launch gate, in order: the project is a folder in
 * a git repository, the cleanup of an interrupted run's own leftovers, concurrent-run detection (lock file +
 * orphaned worktree scan), kill-switch, skip-list, the skills the setting finds and the explicit --skill /
 * --queue validated against them, and only then the lock.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { brief } from '../core/iterate/brief.js';
import { EvalsFileError } from '../core/iterate/evals.js';
import { PreflightHalt } from '../core/halt.js';
import {
  EVALS_DIR,
  EVALS_FILE,
  REQUIRED_SECTIONS_FILE,
  SCENARIOS_FILE,
  SKILL_FILE,
  evalsDirOf,
  evalsFileLabel,
  evalsInitCommand,
  isValidSkillName,
  iterateCommandLine,
  skillPathIn,
  skillsSettingHint,
  type CommandSetting,
  type SkillLocation,
} from '../core/iterate/skill-layout.js';
import { mergeSkipList, type SkipList } from '../core/iterate/skip-list.js';
import type { HeldLock } from '../ports/lock.js';
import type { PlanPorts } from '../ports/iterate.js';
import { evalsShapeOf, loadSkillEvals, loadStructuralEvals } from './evals-files.js';
import type { IterateOptions } from './options.js';
import { QueueFileError, parseQueueFile } from './queue-file.js';
import { skillsGlobsOf } from './queue.js';
import { NotRegularFileError, inspectFile, readRegularFile } from './regular-file.js';
import { ambiguousSkillName, findSkills, type FoundSkills } from './skill-finder.js';
import { messageOf } from '../core/errors.js';

export interface PreflightResult {
  skipList: SkipList;
  /** The explicit queue from --skill / --queue (validated), or undefined for auto-discovery. */
  explicit: SkillLocation[] | undefined;
  /** What the skills setting found (the queue is made from it). */
  found: FoundSkills;
  /** The root of the project's git repository. */
  repository: string;
  /** Taken only when `takeLock` is true (never for --dry-run). */
  lock: HeldLock | undefined;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** `<skill folder>/<rel>` as messages name it, the folder shortened when it is absurdly long. */
function skillFileLabel(skill: SkillLocation, rel: string): string {
  return path.posix.join(brief(skill.dir, 300), rel);
}

/**
 * A file of the skill that must be a regular file when it exists: anything else (a directory, a FIFO, a
 * socket, a dangling link, a loop) halts, named, before anything opens it. Resolves whether it exists.
 */
async function requireRegular(file: string, label: string): Promise<boolean> {
  const found = await inspectFile(file);
  if (found instanceof NotRegularFileError) throw new PreflightHalt(`${label}: ${found.detail}`);
  return found === 'file';
}

/** Where an explicit name is, or the halt that says why it cannot run. */
function locateExplicit(
  found: FoundSkills,
  name: string,
  setting: CommandSetting | undefined,
): SkillLocation {
  const skill = found.skills.find((s) => s.name === name);
  if (skill) return skill;
  const globs = found.globs.join(', ');
  const shown = brief(name);
  const ambiguous = ambiguousSkillName(found, name);
  if (ambiguous) throw new PreflightHalt(ambiguous);
  const excluded = found.excluded.find((e) => e.skill === name);
  if (excluded) {
    throw new PreflightHalt(
      `${shown} (${excluded.dir}): ${excluded.reason}${excluded.next ? `; ${excluded.next}` : ''}`,
    );
  }
  const outside = found.outside.find((s) => s.name === name);
  if (outside) {
    const wanted = [...found.globs, outside.glob];
    const hint = skillsSettingHint(wanted);
    const command = iterateCommandLine(`--skill ${name}`, { ...setting, skills: wanted });
    throw new PreflightHalt(
      `skill folder missing for ${shown}: it is at ${outside.dir}, outside the skills setting (${globs}); ` +
        `set ${hint.config} in skillclimb.config.json, or pass ${hint.flag} (\`${command}\`)`,
    );
  }
  throw new PreflightHalt(
    `skill folder missing for ${shown}: no folder named ${shown} matches the skills setting (${globs})`,
  );
}

/**
 * Whether the skill's evals.json is in the Agent Skills format (complete without test_scenarios.json). A
 * file in neither shape halts here, naming the file and what was expected.
 */
async function isAgentSkillsEvals(skill: SkillLocation, dir: string): Promise<boolean> {
  try {
    return (await evalsShapeOf(dir)).format === 'agent-skills';
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    const where = evalsFileLabel(skill, err.file);
    throw new PreflightHalt(
      err.jsonPath ? `${where}: ${err.jsonPath}: ${err.detail}` : `${where}: ${err.detail}`,
    );
  }
}

/**
 * The --skill checks (folder, the eval files unless structural, skip-list), then the eval files must
 * parse: the original's pair, or an Agent Skills evals.json alone.
 */
async function validateExplicitSkill(
  project: string,
  found: FoundSkills,
  name: string,
  skipList: SkipList,
  mode: IterateOptions['mode'],
  setting: CommandSetting | undefined,
): Promise<SkillLocation> {
  if (!isValidSkillName(name)) {
    throw new PreflightHalt(`invalid skill name "${brief(name)}": expected the name of a skill folder`);
  }
  const skill = locateExplicit(found, name, setting);
  const dir = skillPathIn(project, skill);
  if (!(await isDirectory(dir))) {
    throw new PreflightHalt(`skill folder missing for ${brief(name)}: ${brief(dir, 300)} does not exist`);
  }
  await requireRegular(path.join(dir, SKILL_FILE), skillFileLabel(skill, SKILL_FILE));
  const evalsDir = evalsDirOf(dir);
  const present: boolean[] = [];
  for (const file of [EVALS_FILE, SCENARIOS_FILE, REQUIRED_SECTIONS_FILE]) {
    present.push(
      await requireRegular(path.join(evalsDir, file), skillFileLabel(skill, `${EVALS_DIR}/${file}`)),
    );
  }
  if (mode !== 'structural' && (!present[0] || !present[1]) && !(await isAgentSkillsEvals(skill, dir))) {
    throw new PreflightHalt(
      `evals not bootstrapped for ${name}; run \`${evalsInitCommand(name, '', setting)}\` first ` +
        `(or score structure only: \`${iterateCommandLine(`--skill ${name} --mode structural`, { ...setting, mode: undefined, calibrate: undefined })}\`)`,
    );
  }
  if (skipList.all.has(name)) {
    throw new PreflightHalt(
      `explicit-bypass: ${name} is in the skip-list; remove --skill flag or extend skip-list semantics to proceed`,
    );
  }
  try {
    await (mode === 'structural' ? loadStructuralEvals(dir) : loadSkillEvals(dir));
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    const where = evalsFileLabel(skill, err.file);
    throw new PreflightHalt(
      err.jsonPath ? `${where}: ${err.jsonPath}: ${err.detail}` : `${where}: ${err.detail}`,
    );
  }
  return skill;
}

/** A queue file bigger than this is not a list of skill names. */
export const QUEUE_FILE_MAX_BYTES = 1024 * 1024;

/**
 * --queue: parse, then the --skill checks per name, halting on the FIRST bad line (typos must not hide).
 * The file must be a regular file of bounded size (a FIFO is refused, never read), every line bounded,
 * and a name already seen is a duplicate found in O(1), not re-checked.
 */
async function readExplicitQueue(
  project: string,
  found: FoundSkills,
  queueFile: string,
  skipList: SkipList,
  mode: IterateOptions['mode'],
  setting: CommandSetting | undefined,
): Promise<SkillLocation[]> {
  let text: string | undefined;
  try {
    text = await readRegularFile(queueFile, QUEUE_FILE_MAX_BYTES);
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new PreflightHalt(`queue file ${err.message}`);
    throw new PreflightHalt(`queue file ${queueFile} cannot be read: ${messageOf(err)}`);
  }
  if (text === undefined) throw new PreflightHalt(`queue file not found: ${queueFile}`);
  let entries;
  try {
    entries = parseQueueFile(text);
  } catch (err) {
    if (err instanceof QueueFileError) throw new PreflightHalt(`queue file ${queueFile} ${err.message}`);
    throw err;
  }
  const skills: SkillLocation[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.name)) continue;
    let skill: SkillLocation;
    try {
      skill = await validateExplicitSkill(project, found, entry.name, skipList, mode, setting);
    } catch (err) {
      if (err instanceof PreflightHalt) {
        throw new PreflightHalt(`queue file ${queueFile} line ${entry.line}: ${err.message}`);
      }
      throw err;
    }
    seen.add(entry.name);
    skills.push(skill);
  }
  return skills;
}

/**
 * The reason a run stops when its kill-switch cannot be read; the partial summary renders it as
 * `(partial -- kill-switch unreadable at <time>: …)`.
 */
export function killSwitchUnreadable(detail: string, continuing = false): string {
  if (continuing) return `kill-switch unreadable: ${detail}`;
  return (
    `kill-switch unreadable: ${detail} (a switch that cannot be checked may be set; pass ` +
    `--kill-switch-read-error continue, or the kill-switch-read-error input, to run anyway)`
  );
}

function orphanWorktreesWarning(paths: readonly string[]): string {
  return (
    `orphaned worktrees from prior crash: ${paths.join(', ')}; consider cleanup ` +
    `(git worktree remove --force <path>); they are never removed automatically`
  );
}

/**
 * Runs the pre-flight. Throws PreflightHalt on any halt. With `takeLock` false (--dry-run, a plan) the lock
 * is only inspected: a live or stale lock becomes a warning and nothing is written or removed. A dry run
 * and a real run take the same decisions; nothing is written before every gate passed.
 */
export async function runPreflight(
  options: IterateOptions,
  ports: Omit<PlanPorts, 'freshness'>,
  takeLock: boolean,
): Promise<PreflightResult> {
  const { log } = ports;
  const project = path.resolve(options.project);
  if (!(await isDirectory(project))) throw new PreflightHalt(`project folder not found: ${project}`);
  if (options.skill !== undefined && options.queueFile !== undefined) {
    throw new PreflightHalt('--skill and --queue cannot be combined; pass one of them');
  }
  // Worktrees, commits and the ship all need git: a folder outside a repository halts here, dry run
  // included, before the lock file, a morning summary or anything else is written into it.
  const repository = await ports.git.repositoryRoot(project);
  if (repository === null) {
    throw new PreflightHalt(
      `${project} is not inside a git repository: skill-iterate works in git worktrees and commits its ` +
        'edits; run `git init` there and commit the skills first',
    );
  }

  // 0. An interrupted earlier run's own leftovers (a landing cut short) are cleaned first: left in place
  // they would make every later check (the clean base above all) see a checkout the run itself changed.
  if (ports.leftovers) {
    if (takeLock) {
      let cleaned: string[];
      try {
        cleaned = await ports.leftovers.clean();
      } catch (err) {
        throw new PreflightHalt(`could not clean up after an interrupted run: ${messageOf(err)}`);
      }
      for (const line of cleaned) log.warn(`cleaned up after an interrupted run: ${line}`);
    } else {
      for (const line of await ports.leftovers.find()) log.warn(`${line}; a real run cleans it up first`);
    }
  }

  // 1. Concurrent-run detection: lock file, then the worktree scan.
  const existing = await ports.lock.inspect();
  if (existing.state === 'live' || existing.state === 'unreadable') {
    if (takeLock) throw new PreflightHalt(existing.message);
    log.warn(`${existing.message}; a real run would halt`);
  } else if (existing.state === 'stale' && !takeLock) {
    log.warn(`${existing.message}; a real run would take over`);
  }
  // A real run reports a stale lock in step 5, when it takes it over: a halt in between must not be
  // preceded by a "taking over" that never happened.

  // Worktrees of a live run are not orphans (a real run halts above before reaching this).
  if (existing.state !== 'live') {
    try {
      const orphans = await ports.git.orphanWorktrees(project);
      if (orphans && orphans.length > 0) log.warn(orphanWorktreesWarning(orphans));
    } catch (err) {
      log.warn(`could not scan for orphaned worktrees: ${messageOf(err)}`);
    }
  }

  // 2. Kill-switch at launch. One that cannot be read stops the launch unless told otherwise.
  let killed: string | null;
  try {
    killed = await ports.killSwitch.check();
  } catch (err) {
    const why = brief(messageOf(err), 300);
    if (options.killSwitchReadError !== 'continue') {
      throw new PreflightHalt(`${killSwitchUnreadable(why)}; not starting`);
    }
    log.warn(
      `${killSwitchUnreadable(why, true)}; continuing (kill-switch read errors are set to "continue")`,
    );
    killed = null;
  }
  if (killed !== null) throw new PreflightHalt(killed);

  // 3. Skip-list resolution.
  const skipList = mergeSkipList(options.skipList);

  // 4. The skills the setting finds; explicit --skill / --queue must be among them.
  const found = await findSkills({ project, repository, globs: skillsGlobsOf(options) });
  let explicit: SkillLocation[] | undefined;
  if (options.skill !== undefined) {
    explicit = [
      await validateExplicitSkill(project, found, options.skill, skipList, options.mode, options.command),
    ];
  } else if (options.queueFile !== undefined) {
    explicit = await readExplicitQueue(
      project,
      found,
      path.resolve(project, options.queueFile),
      skipList,
      options.mode,
      options.command,
    );
  }
  // The hint about skills outside the setting is printed once, by what reports the queue: the plan, the
  // empty-queue message or the run (docs/cli.md § Printed commands), never here as well.

  // 5. The lock, only after every other check passed.
  const held = takeLock ? await ports.lock.acquire() : undefined;
  return { skipList, explicit, found, repository, lock: held };
}
