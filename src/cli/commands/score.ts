/**
 * `skillclimb score <skill-folder>`: scores one skill once, no edits (useful on its own in a PR check);
 * `--base <ref>` compares the skills changed since a commit instead (score-base.ts).
 * Structural scoring needs no eval files (docs/how-it-works.md § Scoring): any folder with a SKILL.md.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { messageOf } from '../../core/errors.js';
import type { ScoreMode } from '../../core/iterate/score-types.js';
import { CONFIG_FILE, loadConfig } from '../../config/config.js';
import { loadProjectModels } from '../../config/project-models.js';
import { applyConfigSettings } from '../../config/run-settings.js';
import type { StructuralSettings } from '../../core/iterate/structural.js';
import type { createModels } from '../../llm/factory.js';
import type { StructuredOutputSetting } from '../../llm/structured-output.js';
import {
  STRUCTURED_OUTPUT_HELP,
  marginArgument,
  positiveIntegerArgument,
  repeatableTextArgument,
  skillsArgument,
  structuredOutputArgument,
} from '../arguments.js';
import type { SkillModels } from '../../ports/models.js';
import {
  DEFAULT_SKILLS_GLOBS,
  evalsInitCommand,
  globMatchesFolder,
  isValidSkillName,
  skillFileOf,
  skillPathIn,
} from '../../core/iterate/skill-layout.js';
import { repositoryRoot } from '../../git/repo.js';
import { ambiguousSkillName, findSkills } from '../../iterate/skill-finder.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import { scoreSkillFolder, type ScoreFolderSettings } from '../../iterate/score-folder.js';
import type { CliIo } from '../io.js';
import { writeBenchmarkJson } from './score-benchmark.js';
import { reportScore } from './score-report.js';
import { runScoreBase } from './score-base.js';

const MODES: readonly ScoreMode[] = ['composite', 'structural', 'absolute'];

interface ScoreFlags {
  mode: string;
  trials: string;
  json?: boolean;
  concurrency: string;
  model?: string;
  renderModel?: string;
  graderModel?: string;
  structuredOutput?: StructuredOutputSetting;
  maxLineLength?: number;
  requiredSection?: string[];
  bannedPhrase?: string[];
  skills?: string[];
  uplift?: boolean;
  base?: string;
  margin?: number;
  markdown?: boolean;
  benchmarkJson?: string;
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `<skill-folder>` is a folder; a bare name that is not one is looked up through the skills setting
 * (`--skills`, else `skills` in the current folder's skillclimb.config.json, else `.claude/skills/*` and the reviewer skill's folder).
 */
async function locateSkillArgument(
  cwd: string,
  argument: string,
  skillsFlag: string[] | undefined,
): Promise<{ dir: string } | { problem: string }> {
  const asPath = path.resolve(cwd, argument);
  if ((await isDirectory(asPath)) || !isValidSkillName(argument)) return { dir: asPath };
  let globs: readonly string[];
  try {
    globs = skillsFlag ?? (await loadConfig(cwd)).skills ?? DEFAULT_SKILLS_GLOBS;
  } catch (err) {
    return { problem: messageOf(err) };
  }
  const found = await findSkills({ project: cwd, repository: (await repositoryRoot(cwd)) ?? cwd, globs });
  const skill = found.skills.find((s) => s.name === argument);
  if (skill) return { dir: skillPathIn(cwd, skill) };
  const ambiguous = ambiguousSkillName(found, argument);
  if (ambiguous) return { problem: ambiguous };
  const excluded = found.excluded.find((e) => e.skill === argument);
  if (excluded) return { problem: `${argument} (${excluded.dir}): ${excluded.reason}` };
  return {
    problem:
      `${asPath}: not a folder, and no skill named ${argument} matches the skills setting ` +
      `(${globs.join(', ')}); pass the skill's folder, or --skills`,
  };
}

/**
 * The options `evals init` needs to find the skill at `skillDir` when pasted in `cwd`: `--project` when
 * the skill's project is not the current folder, `--skills` when the skills setting would not find it.
 */
function evalsInitSetting(
  cwd: string,
  skillDir: string,
  globs: readonly string[] | undefined,
): { project?: string; skills?: readonly string[] } {
  const project = projectOfSkill(skillDir, cwd);
  const rel = path.relative(project, skillDir).split(path.sep).join('/');
  const fromCwd = path.relative(cwd, project).split(path.sep).join('/');
  const found = (globs ?? DEFAULT_SKILLS_GLOBS).some((g) => globMatchesFolder(g, rel));
  const parent = path.posix.dirname(rel);
  return {
    ...(fromCwd === '' ? {} : { project: fromCwd }),
    ...(found ? (globs ? { skills: globs } : {}) : { skills: [parent === '.' ? '*' : `${parent}/*`] }),
  };
}

function positiveInt(flag: string, raw: string): number | string {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1) {
    return `${flag}: expected a positive integer, got "${raw}"`;
  }
  return n;
}

export interface ScoreCommandOptions {
  /** Injected by tests (the scripted double); defaults to the real factory. */
  createModels?: typeof createModels;
}

/**
 * The project whose `skillclimb.config.json` applies to a skill folder: the nearest ancestor (above the
 * skill's own folder) holding that file, a `.claude` folder or a `.git`; else the cwd.
 */
export function projectOfSkill(skillDir: string, cwd: string): string {
  for (let dir = path.dirname(skillDir); ; dir = path.dirname(dir)) {
    if (['skillclimb.config.json', '.claude', '.git'].some((name) => existsSync(path.join(dir, name)))) {
      return dir;
    }
    if (path.dirname(dir) === dir) break;
  }
  return cwd;
}

/**
 * The structural settings: each flag given replaces its default, as in the original; else the config's
 * `structural` value. Required sections: the flag, else the skill's evals/required_sections.json, else the
 * config, else the defaults.
 */
export function scoreStructuralSettings(
  flags: Pick<ScoreFlags, 'maxLineLength' | 'requiredSection' | 'bannedPhrase'>,
  config: StructuralSettings | undefined,
  skillFile: string[] | undefined,
): StructuralSettings {
  return {
    maxLineLength: flags.maxLineLength ?? config?.maxLineLength,
    bannedPhrases: flags.bannedPhrase ?? config?.bannedPhrases,
    requiredSections: flags.requiredSection ?? skillFile ?? config?.requiredSections,
    reading: config?.reading,
  };
}

/** A usage problem of `skillclimb score`: said on stderr, exit code 2. */
function usageError(io: CliIo): (message: string) => void {
  return (message) => {
    io.err(`skillclimb score: ${message}\n`);
    io.exitCode = 2;
  };
}

async function runScore(
  io: CliIo,
  folder: string | undefined,
  flags: ScoreFlags,
  options: ScoreCommandOptions,
  fromCli: (flag: 'mode' | 'concurrency' | 'trials') => boolean,
): Promise<void> {
  const usage = usageError(io);
  if (flags.base !== undefined && flags.benchmarkJson !== undefined) {
    return usage("--benchmark-json writes one skill's score: give a <skill-folder>, not --base");
  }
  if (flags.base !== undefined) return runBase(io, folder, flags, options, fromCli);
  if (folder === undefined) {
    return usage('give a <skill-folder>, or --base <ref> to score the skills changed since that commit');
  }
  if (flags.margin !== undefined || flags.markdown === true) {
    return usage('--margin and --markdown compare two sides: use them with --base <ref>');
  }
  if (!MODES.includes(flags.mode as ScoreMode)) {
    return usage(`--mode: expected one of ${MODES.join(', ')}, got "${flags.mode}"`);
  }
  const trials = positiveInt('--trials', flags.trials);
  if (typeof trials === 'string') return usage(trials);
  const concurrencyFlag = positiveInt('--concurrency', flags.concurrency);
  if (typeof concurrencyFlag === 'string') return usage(concurrencyFlag);

  const located = await locateSkillArgument(io.cwd, folder, flags.skills);
  if ('problem' in located) return usage(located.problem);
  const skillDir = located.dir;
  let configSkills: readonly string[] | undefined;
  // The engine entry (docs/how-it-works.md § Scoring): the folder checked, the settings chosen, one score.
  const scored = await scoreSkillFolder({
    skillDir,
    settings: async () => {
      const chosen = await chooseSettings(io, skillDir, flags, options, fromCli, { trials, concurrencyFlag });
      if ('configSkills' in chosen) configSkills = chosen.configSkills;
      return chosen;
    },
    withoutSkill: flags.uplift === true || flags.benchmarkJson !== undefined,
    uplift: flags.uplift === true,
    now: io.now ?? (() => new Date()),
  });
  if (scored.status === 'refused') {
    if (!('evalsFile' in scored) || scored.evalsFile.detail !== 'file not found')
      return usage(scored.problem);
    const setting = {
      program: io.program,
      ...evalsInitSetting(io.cwd, skillDir, flags.skills ?? configSkills),
    };
    return usage(
      `${scored.problem}; write the eval files with \`${evalsInitCommand(path.basename(skillDir), '', setting)}\`, ` +
        'or score with --mode structural (no evals needed)',
    );
  }
  const specFile = path.relative(io.cwd, skillFileOf(skillDir)) || skillFileOf(skillDir);
  reportScore(io, { json: flags.json === true, uplift: flags.uplift === true }, scored, specFile);
  if (flags.benchmarkJson !== undefined) {
    const { skill, evals, models, result, without } = scored;
    const about = { skillName: skill, skillDir, evals, models, withSkill: result, withoutSkill: without };
    await writeBenchmarkJson(io, flags.benchmarkJson, about, flags.json === true);
  }
}

/** The models and settings of one score: the flags, else the skill's project config; or a refusal. */
async function chooseSettings(
  io: CliIo,
  skillDir: string,
  flags: ScoreFlags,
  options: ScoreCommandOptions,
  fromCli: (flag: 'mode' | 'concurrency' | 'trials') => boolean,
  given: { trials: number; concurrencyFlag: number },
): Promise<(ScoreFolderSettings & { configSkills: readonly string[] | undefined }) | { problem: string }> {
  let models: SkillModels;
  let configSkills: readonly string[] | undefined;
  let mode = flags.mode as ScoreMode;
  let concurrency = given.concurrencyFlag;
  let configStructural: StructuralSettings | undefined;
  try {
    const project = await loadProjectModels({
      project: projectOfSkill(skillDir, io.cwd),
      flags: {
        model: flags.model,
        renderModel: flags.renderModel,
        graderModel: flags.graderModel,
        structuredOutput: flags.structuredOutput,
      },
      env: io.env,
      create: options.createModels,
    });
    models = project.models;
    configStructural = project.config.structural;
    configSkills = project.config.skills;
    // The config's mode and concurrency apply when the flag was not on the command line.
    ({ mode, concurrency } = applyConfigSettings(
      { mode, concurrency, maxCostUsd: undefined },
      project.config,
      (setting) => (setting === 'mode' || setting === 'concurrency' ? fromCli(setting) : true),
    ));
  } catch (err) {
    // A bad config file (named with its field) or a missing key.
    return { problem: messageOf(err) };
  }
  if (mode === 'absolute' && models.structuralOnly) {
    const source = fromCli('mode') ? '--mode absolute' : `mode "absolute" (from ${CONFIG_FILE})`;
    return {
      problem:
        `${source} needs a render and a grader model, but the offline provider grades structure only; ` +
        'pass --model <provider:model> (or --render-model and --grader-model), or use --mode structural',
    };
  }
  // Structure needs no eval files: `--mode structural`, or models that grade structure only.
  const structuralOnly = mode === 'structural' || models.structuralOnly;
  if (structuralOnly && flags.benchmarkJson !== undefined) {
    return {
      problem:
        '--benchmark-json needs model-graded scores (pass rates); structure-only scoring renders nothing: ' +
        'pass --model <provider:model> and a mode other than structural',
    };
  }
  return {
    models,
    mode,
    trials: given.trials,
    concurrency,
    structuralOnly,
    structural: (requiredSections) => scoreStructuralSettings(flags, configStructural, requiredSections),
    configSkills,
  };
}

/**
 * `--base <ref>`: the skills changed since `<ref>` (or the one folder given), base against working tree;
 * `--trials` there counts independent draws per side (default: the config's `trials`, else 3).
 */
async function runBase(
  io: CliIo,
  folder: string | undefined,
  flags: ScoreFlags,
  options: ScoreCommandOptions,
  fromCli: (flag: 'mode' | 'concurrency' | 'trials') => boolean,
): Promise<void> {
  const usage = usageError(io);
  if (flags.base?.trim() === '' || flags.base?.startsWith('-')) {
    return usage(`--base: expected a commit, branch or tag, got "${flags.base}"`);
  }
  const trials = positiveInt('--trials', flags.trials);
  if (typeof trials === 'string') return usage(trials);
  if (trials > 10) return usage(`--trials: with --base, expected 1 to 10 draws per side, got ${trials}`);
  const concurrency = positiveInt('--concurrency', flags.concurrency);
  if (typeof concurrency === 'string') return usage(concurrency);
  let skillDir: string | undefined;
  if (folder !== undefined) {
    const located = await locateSkillArgument(io.cwd, folder, flags.skills);
    if ('problem' in located) return usage(located.problem);
    skillDir = located.dir;
  }
  await runScoreBase(io, {
    base: flags.base!,
    skillDir,
    project: skillDir === undefined ? io.cwd : projectOfSkill(skillDir, io.cwd),
    skills: flags.skills,
    trials: fromCli('trials') ? trials : undefined,
    margin: flags.margin,
    uplift: flags.uplift === true,
    concurrency,
    json: flags.json === true,
    markdown: flags.markdown === true,
    models: { model: flags.model, renderModel: flags.renderModel, graderModel: flags.graderModel },
    createModels: options.createModels,
  });
}

/** `skillclimb score <skill-folder> [--mode] [--trials] [--json] [--concurrency] [--model …]`. */
export function scoreCommand(io: CliIo, options: ScoreCommandOptions = {}): Command {
  return new Command('score')
    .description('Score one skill once, no edits (structural metrics, model-graded evals, composite)')
    .argument(
      '[skill-folder]',
      'folder holding SKILL.md (and evals/ for composite and absolute scores), or a skill name the skills setting finds; with --base, optional',
    )
    .option(
      '--base <ref>',
      'compare with this commit, branch or tag: every skill changed since it (or the one folder given) scored at the base and in the working tree; exit 1 on a regression beyond the noise margin',
    )
    .option(
      '--margin <n>',
      'with --base: standard errors of the measured noise a difference must clear (default: the config, else 1)',
      marginArgument,
    )
    .option('--markdown', 'with --base: print the pull-request comment the Action would post')
    .option(
      '--skills <globs>',
      'where a skill named by its name is looked up: globs of skill folders (default: .claude/skills/*,.github/skills/review-loop-reviewer)',
      skillsArgument,
    )
    .option('--mode <mode>', `scoring mode: ${MODES.join(' | ')}`, 'composite')
    .option(
      '--trials <n>',
      "grader trials per scenario (majority vote; the renders are reused); with --base: independent draws per side, the config's trials when not given, else 3",
      '1',
    )
    .option('--concurrency <n>', 'model calls in flight at once', String(ITERATE_DEFAULTS.concurrency))
    .option('--json', 'print one JSON document (for scripts and PR checks)')
    .option(
      '--uplift',
      "also render each scenario without the skill's instructions and report the pass rate with minus without",
    )
    .option(
      '--benchmark-json <path>',
      "also write the score as skill-creator's benchmark.json (with_skill and without_skill runs per eval), for its eval viewer",
    )
    .option('--model <id>', 'provider:model for every role')
    .option('--render-model <id>', 'provider:model that renders the scenarios')
    .option('--grader-model <id>', 'provider:model that grades the renders')
    .option('--structured-output <mode>', STRUCTURED_OUTPUT_HELP, structuredOutputArgument)
    .option(
      '--max-line-length <n>',
      'max_line_length: lines longer than this count against the score (default 150)',
      positiveIntegerArgument,
    )
    .option(
      '--required-section <name>',
      'required_sections: a section the skill must have (repeatable; replaces the defaults)',
      repeatableTextArgument,
    )
    .option(
      '--banned-phrase <text>',
      'banned_phrases: a phrase to count (repeatable; replaces the defaults)',
      repeatableTextArgument,
    )
    .action(async (folder: string | undefined, flags: ScoreFlags, command: Command) => {
      await runScore(io, folder, flags, options, (flag) => command.getOptionValueSource(flag) === 'cli');
    });
}
