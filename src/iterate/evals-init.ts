/**
 * `skillclimb evals init` for one skill (docs/how-it-works.md § The queue): ask the evals author for the
 * eval files, repair what code can repair, check the rest, ask again with the problems (at most
 * `maxAttempts` answers), and write the files only when they pass. Existing files are never overwritten
 * without `force`; `keepScenarios` writes evals.json only, fitted to the scenarios on disk. Nothing is
 * read or written through a link (the one link rule of symlinks.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  checkAuthored,
  DEFAULT_HOLDOUTS,
  formatAuthoredFile,
  markHoldouts,
  repairAuthored,
  type AuthoredCheck,
} from '../core/iterate/evals-authoring.js';
import {
  DEFAULT_STATEMENTS_KEY,
  agentSkillsProblems,
  toAgentSkillsFile,
  type StatementsKey,
} from '../core/iterate/agent-skills-authoring.js';
import { EvalsFileError, parseScenarios, type EvalsFormat, type Scenario } from '../core/iterate/evals.js';
import { ModelOutputError } from '../core/model-answers.js';
import {
  EVALS_DIR,
  EVALS_FILE,
  REQUIRED_SECTIONS_FILE,
  SCENARIOS_FILE,
  evalsInitCommand,
  folderNameOf,
  skillFileOf,
  skillPathIn,
  type CommandSetting,
  type SkillLocation,
} from '../core/iterate/skill-layout.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import type { EvalsAuthor } from '../ports/evals-author.js';
import type { Logger } from '../ports/logger.js';
import { EVALS_MAX_BYTES, evalsShapeOf } from './evals-files.js';
import { NotRegularFileError, inspectFile, readRegularFile } from './regular-file.js';
import { ambiguousSkillName, type FoundSkills } from './skill-finder.js';
import { decideSkillFolder } from './symlinks.js';
import { messageOf } from '../core/errors.js';

export const DEFAULT_AUTHOR_ATTEMPTS = 3;

export interface EvalsInitOptions {
  project: string;
  /** The repository root (a linked folder inside it is followed). */
  repository: string;
  /** Overwrite eval files that exist. */
  force: boolean;
  /** Write evals.json only, fitted to the test_scenarios.json on disk. */
  keepScenarios: boolean;
  /** Answers asked for at most (the first and the retries); default DEFAULT_AUTHOR_ATTEMPTS. */
  maxAttempts?: number;
  /** Scenarios marked `"holdout": true` when three or more are written (default 1; 0: none). */
  holdouts?: number | undefined;
  /**
   * The shape a skill without eval files gets (`--format`, else the repository's, repositoryEvalsFormat);
   * a skill with an evals.json keeps its own shape. `explicit` (the flag was given): a skill whose file is
   * in the other shape is refused, never rewritten into this one.
   */
  format: EvalsFormatChoice;
}

export interface EvalsFormatChoice {
  format: EvalsFormat;
  explicit: boolean;
  /** The Agent Skills list's name for new files (`expectations`, skill-creator's, unless the repository uses `assertions`). */
  key?: StatementsKey | undefined;
}

export const FORMAT_NAMES: Record<EvalsFormat, string> = {
  original: 'the original format (evals.json with test_scenarios.json)',
  'agent-skills': 'the Agent Skills format (one evals.json)',
};

export interface EvalsInitResult {
  skill: string;
  dir: string;
  /** written: the files are on disk; skipped: nothing asked (files exist, nothing to keep); refused: no valid files. */
  status: 'written' | 'skipped' | 'refused';
  /** The files written, relative to the project. */
  files: string[];
  reason: string | undefined;
  attempts: number;
  usage: Usage;
  summary: AuthoredCheck['summary'];
  /** The shape written (or that would have been). */
  format: EvalsFormat;
}

/**
 * Whether a skill file is there. A directory, FIFO, socket, dangling link or loop in its place throws the
 * NotRegularFileError that names it (docs/how-it-works.md § Untrusted text and secrets: bad input is refused
 * by name, never EISDIR and never a read that blocks); the CLI makes it bad usage, exit 2.
 */
async function isFile(file: string): Promise<boolean> {
  const found = await inspectFile(file);
  if (found instanceof NotRegularFileError) throw found;
  return found === 'file';
}

/**
 * The first of a skill's files (SKILL.md, then the eval files) that is something other than a regular
 * file, named; undefined when there is none. Checked before any model call, as `score` and the pre-flight
 * check the same files.
 */
export async function notRegularSkillFile(
  project: string,
  skill: SkillLocation,
): Promise<NotRegularFileError | undefined> {
  const dir = skillPathIn(project, skill);
  const files = [
    skillFileOf(dir),
    ...[EVALS_FILE, SCENARIOS_FILE, REQUIRED_SECTIONS_FILE].map((f) => path.join(dir, EVALS_DIR, f)),
  ];
  for (const file of files) {
    const found = await inspectFile(file);
    if (found instanceof NotRegularFileError) return found;
  }
  return undefined;
}

/** Writes the whole file or nothing: a temporary file beside it, then a rename. */
async function writeWhole(file: string, text: string): Promise<void> {
  // A random name only: the engines never read the process (docs/how-it-works.md § Layers and ports).
  const temp = `${file}.skillclimb-${randomUUID()}.tmp`;
  await writeFile(temp, text, { flag: 'wx' });
  try {
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

// eslint-disable-next-line max-lines-per-function -- one skill's authoring reads, asks, checks and writes in order with shared locals; not yet split (issue 30 item 3)
export async function initSkillEvals(
  skill: SkillLocation,
  options: EvalsInitOptions,
  deps: { author: EvalsAuthor; log: Logger; signal: AbortSignal },
): Promise<EvalsInitResult> {
  let usage: Usage = ZERO_USAGE;
  let attempts = 0;
  let format = options.keepScenarios ? 'original' : options.format.format;
  const result = (
    status: EvalsInitResult['status'],
    reason: string | undefined,
    extra: Partial<EvalsInitResult> = {},
  ): EvalsInitResult => ({
    skill: skill.name,
    dir: skill.dir,
    status,
    files: [],
    reason,
    attempts,
    usage,
    summary: undefined,
    format,
    ...extra,
  });

  const decision = await decideSkillFolder(
    { project: options.project, repository: options.repository },
    skill.dir,
  );
  if (!decision.ok) return result('refused', `${decision.reason}; replace the link by the files themselves`);
  const dir = skillPathIn(options.project, skill);
  const evalsDir = path.join(dir, EVALS_DIR);
  const evalsFile = path.join(evalsDir, EVALS_FILE);
  const scenariosFile = path.join(evalsDir, SCENARIOS_FILE);
  const label = (file: string) => `${skill.dir}/${EVALS_DIR}/${file}`;
  const hasEvals = await isFile(evalsFile);
  const hasScenarios = await isFile(scenariosFile);

  // A skill's own file decides its shape: --force writes it again in that shape, never in the other.
  let own: EvalsFormat | undefined = hasScenarios ? 'original' : undefined;
  let key = options.format.key ?? DEFAULT_STATEMENTS_KEY;
  if (hasEvals) {
    try {
      const shape = await evalsShapeOf(dir);
      if (shape.format === 'agent-skills') {
        own = 'agent-skills';
        if (shape.file.evals.some((entry) => entry.assertions !== undefined)) key = 'assertions';
        else if (shape.file.evals.some((entry) => entry.expectations !== undefined)) key = 'expectations';
      } else if (shape.format === 'original') own = 'original';
    } catch (err) {
      if (!(err instanceof EvalsFileError)) throw err;
      return result(
        'refused',
        `${label(err.file)}: ${err.jsonPath ? `${err.jsonPath}: ` : ''}${err.detail}; fix it, or move it ` +
          'away first: a file skillclimb cannot read is never overwritten',
      );
    }
  }
  if (own !== undefined) {
    if (options.keepScenarios && own === 'agent-skills') {
      return result(
        'refused',
        `${label(EVALS_FILE)} is in ${FORMAT_NAMES[own]}; --keep-scenarios writes the original format's ` +
          'evals.json, and skillclimb never rewrites eval files into the other shape',
      );
    }
    const asked = options.format.format;
    if (own !== asked && options.format.explicit && !options.keepScenarios) {
      const which = hasEvals ? label(EVALS_FILE) : label(SCENARIOS_FILE);
      return result(
        'refused',
        `${which} is in ${FORMAT_NAMES[own]}; skillclimb never rewrites eval files into the other shape ` +
          `(pass --format ${own}, or remove the files first to start over in ${FORMAT_NAMES[asked]})`,
      );
    }
    format = own;
  }

  let kept: { text: string; scenarios: Scenario[] } | undefined;
  if (options.keepScenarios) {
    if (!hasScenarios)
      return result('skipped', `${label(SCENARIOS_FILE)} does not exist: there are no scenarios to keep`);
    if (hasEvals && !options.force) {
      return result('skipped', `${label(EVALS_FILE)} exists; pass --force to write it again`);
    }
    const text = (await readRegularFile(scenariosFile, EVALS_MAX_BYTES)) ?? '';
    try {
      kept = { text, scenarios: parseScenarios(text, undefined) };
    } catch (err) {
      if (!(err instanceof EvalsFileError)) throw err;
      return result(
        'refused',
        `${label(SCENARIOS_FILE)}: ${err.message.slice(err.file.length + 2)}; fix it or write both files again`,
      );
    }
  } else if ((hasEvals || hasScenarios) && !options.force) {
    const existing = [hasEvals && EVALS_FILE, hasScenarios && SCENARIOS_FILE].filter(Boolean).join(' and ');
    return result(
      'skipped',
      `${skill.dir}/${EVALS_DIR} already has ${existing}${own === 'agent-skills' ? ' (Agent Skills format)' : ''}; ` +
        `pass --force to write ${hasEvals && hasScenarios ? 'them' : 'it'} again` +
        (hasScenarios && !hasEvals ? ', or --keep-scenarios to keep the scenarios' : ''),
    );
  }

  // Never EISDIR without the name, never a read that blocks on a FIFO: NotRegularFileError names the file.
  const skillMd = ((await readRegularFile(skillFileOf(dir), EVALS_MAX_BYTES)) ?? '').replace(/^\uFEFF/, '');
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_AUTHOR_ATTEMPTS);
  let retry: { answer: string; problems: string[] } | undefined;
  let stopped: string | undefined;
  while (attempts < maxAttempts) {
    attempts++;
    deps.signal.throwIfAborted();
    let reply;
    try {
      reply = await deps.author.author(
        { skillName: folderNameOf(skill), skillMd, keptScenarios: kept?.scenarios, retry, format },
        deps.signal,
      );
    } catch (err) {
      if (!(err instanceof ModelOutputError)) {
        return result('refused', `the model call failed: ${messageOf(err)}`);
      }
      if (err.usage) usage = addUsage(usage, err.usage);
      retry = { answer: err.raw ?? '', problems: [err.message] };
      deps.log.warn(`${skill.name}: answer ${attempts} of ${maxAttempts} unusable (${err.message})`);
      continue;
    }
    usage = addUsage(usage, reply.usage);
    const repaired = repairAuthored(reply.value, folderNameOf(skill), kept);
    if (repaired.weightsNote) deps.log.info(`${skill.name}: answer ${attempts}: ${repaired.weightsNote}`);
    const check = checkAuthored(skillMd, repaired, kept?.text);
    if (format === 'agent-skills') check.problems.push(...agentSkillsProblems(reply.value));
    if (check.problems.length > 0) {
      // Shown its problems, the model answered with the same ones: another answer would repeat them.
      const repeated = retry !== undefined && sameProblems(retry.problems, check.problems);
      retry = { answer: reply.raw, problems: check.problems };
      deps.log.warn(
        `${skill.name}: answer ${attempts} of ${maxAttempts} has ${check.problems.length} ` +
          `problem${check.problems.length === 1 ? '' : 's'} (${check.problems[0]}${check.problems.length > 1 ? '; …' : ''})`,
      );
      if (repeated && attempts < maxAttempts) {
        stopped = `answer ${attempts} had the same problems as answer ${attempts - 1}, so no further answer was asked`;
        break;
      }
      continue;
    }
    const files = markHoldouts(repaired, options.holdouts ?? DEFAULT_HOLDOUTS);
    await mkdir(evalsDir, { recursive: true });
    if (format === 'agent-skills') {
      // One file; a test_scenarios.json of an earlier original-format attempt is not there (own shape above).
      const standard = toAgentSkillsFile(files, reply.value, folderNameOf(skill), key);
      await writeWhole(evalsFile, formatAuthoredFile(standard.file));
      const summary = check.summary && { ...check.summary, assertions: standard.statements };
      return result('written', undefined, { files: [label(EVALS_FILE)], summary });
    }
    const written: string[] = [];
    // Scenarios first: an evals.json beside them is what makes a skill count as set up.
    if (files.scenarios !== undefined) {
      await writeWhole(scenariosFile, formatAuthoredFile(files.scenarios));
      written.push(label(SCENARIOS_FILE));
    }
    await writeWhole(evalsFile, formatAuthoredFile(files.evals));
    written.push(label(EVALS_FILE));
    return result('written', undefined, { files: written.reverse(), summary: check.summary });
  }
  const problems = retry?.problems ?? [];
  return result(
    'refused',
    `no valid eval files after ${attempts} answer${attempts === 1 ? '' : 's'}` +
      `${stopped ? ` (${stopped})` : ''}; nothing was written. ` +
      `Last problems: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
  );
}

function sameProblems(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((problem, i) => problem === b[i]);
}

export interface EvalsTargets {
  skills: SkillLocation[];
  /** Names that cannot be written: not found, excluded by the setting (with its reason), or outside it. */
  refused: Array<{ skill: string; reason: string }>;
}

/**
 * The skills `evals init` writes for: the named ones (each must be a skill the setting finds), or with
 * `all` every skill without eval files — with `keepScenarios` every skill with scenarios and no evals.json,
 * and with `force` every skill (and those with evals.json, too, for keepScenarios).
 */
export async function selectEvalsTargets(
  project: string,
  found: FoundSkills,
  request: {
    names: readonly string[];
    all: boolean;
    force: boolean;
    keepScenarios: boolean;
    /** The options typed, carried into the command a refusal prints. */
    setting?: CommandSetting;
  },
): Promise<EvalsTargets> {
  const refused: EvalsTargets['refused'] = [];
  if (!request.all) {
    const skills: SkillLocation[] = [];
    for (const name of request.names) {
      const skill = found.skills.find((s) => s.name === name);
      if (skill) {
        const broken = await notRegularSkillFile(project, skill);
        if (broken) refused.push({ skill: name, reason: broken.message });
        else if (!skills.includes(skill)) skills.push(skill);
        continue;
      }
      const ambiguous = ambiguousSkillName(found, name);
      if (ambiguous) {
        refused.push({ skill: name, reason: ambiguous });
        continue;
      }
      const excluded = found.excluded.find((e) => e.skill === name);
      const outside = found.outside.find((s) => s.name === name);
      const globs = found.globs.join(', ');
      refused.push({
        skill: name,
        reason: excluded
          ? `${excluded.dir}: ${excluded.reason}${excluded.next ? `; ${excluded.next}` : ''}`
          : outside
            ? `it is at ${outside.dir}, outside the skills setting (${globs}); add "${outside.glob}" to the setting ` +
              `(--skills or "skills" in skillclimb.config.json): \`${evalsInitCommand(name, '', {
                ...request.setting,
                skills: [...found.globs, outside.glob],
              })}\``
            : `no skill folder named ${name} matches the skills setting (${globs})`,
      });
    }
    return { skills, refused };
  }
  const skills: SkillLocation[] = [];
  for (const skill of found.skills) {
    const broken = await notRegularSkillFile(project, skill);
    if (broken) {
      refused.push({ skill: skill.name, reason: broken.message });
      continue;
    }
    const evalsDir = path.join(skillPathIn(project, skill), EVALS_DIR);
    const hasEvals = await isFile(path.join(evalsDir, EVALS_FILE));
    const hasScenarios = await isFile(path.join(evalsDir, SCENARIOS_FILE));
    const wanted = request.keepScenarios
      ? hasScenarios && (request.force || !hasEvals)
      : request.force || (!hasEvals && !hasScenarios);
    if (wanted) skills.push(skill);
  }
  return { skills, refused };
}

/**
 * The shape new eval files get without `--format`: the one the skills the setting finds already use (the
 * more common one when both are there), else the Agent Skills format, the ecosystem's; and in that format
 * the statements' key the repository uses. A file that does not read counts for neither.
 */
export async function repositoryEvalsFormat(
  project: string,
  skills: readonly SkillLocation[],
): Promise<EvalsFormatChoice> {
  const count = { original: 0, 'agent-skills': 0, assertions: 0, expectations: 0 };
  for (const skill of skills) {
    const dir = skillPathIn(project, skill);
    let shape;
    try {
      shape = await evalsShapeOf(dir);
    } catch (err) {
      if (err instanceof EvalsFileError || err instanceof NotRegularFileError) continue;
      throw err;
    }
    if (shape.format === 'agent-skills') {
      count['agent-skills']++;
      for (const entry of shape.file.evals) {
        if (entry.assertions !== undefined) count.assertions++;
        if (entry.expectations !== undefined) count.expectations++;
      }
    } else if (shape.format === 'original') count.original++;
    else if ((await inspectFile(path.join(dir, EVALS_DIR, SCENARIOS_FILE))) === 'file') count.original++;
  }
  return {
    format: count.original > count['agent-skills'] ? 'original' : 'agent-skills',
    explicit: false,
    key: count.assertions > count.expectations ? 'assertions' : DEFAULT_STATEMENTS_KEY,
  };
}
