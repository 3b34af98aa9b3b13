/* eslint-disable max-lines -- 623 lines: the engine entry and report split of this command (issue 30 item 3) did not survive this wave's merges of spec checks, plugin identities and the noise line; not yet split */
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
import { CONFIG_FILE, loadConfig } from '../../config/config.js';
import { loadProjectModels } from '../../config/project-models.js';
import { applyConfigSettings } from '../../config/run-settings.js';
import { EvalsFileError, type SkillEvals } from '../../core/iterate/evals.js';
import { METRIC_NAMES, type ScoreMode } from '../../core/iterate/score-types.js';
import type { StructuralSettings } from '../../core/iterate/structural.js';
import { specViolations } from '../../core/iterate/skill-spec.js';
import { specJson, specReport, substanceLine } from './score-spec.js';
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
  EVALS_FILE,
  REQUIRED_SECTIONS_FILE,
  SCENARIOS_FILE,
  evalsDirOf,
  evalsInitCommand,
  globMatchesFolder,
  isValidSkillName,
  skillFileOf,
  skillPathIn,
} from '../../core/iterate/skill-layout.js';
import { repositoryRoot } from '../../git/repo.js';
import { ambiguousSkillName, findSkills } from '../../iterate/skill-finder.js';
import { EVALS_MAX_BYTES, loadSkillEvals, loadStructuralEvals } from '../../iterate/evals-files.js';
import { NotRegularFileError, inspectFile, readRegularFile } from '../../iterate/regular-file.js';
import { linkedSkillFile } from '../../iterate/symlinks.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import { RenderCache, scoreSkill, type SkillScore } from '../../iterate/score.js';
import { NO_SKILL_TEXT } from '../../iterate/trials.js';
import { tallyDraws, upliftOf, type UpliftReport } from '../../core/iterate/noise.js';
import { minimumDetectableGain } from '../../core/iterate/sequential.js';
import type { CliIo } from '../io.js';
import { writeBenchmarkJson } from './score-benchmark.js';
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

/** The `--json` document: the issue's shape plus `status` and `mode`. */
export function scoreJson(result: SkillScore): Record<string, unknown> {
  return {
    score: result.score,
    status: result.status,
    mode: result.mode,
    structural: {
      score: result.structural.score,
      metrics: result.structural.metrics,
      ...(result.structural.substance ? { substance: result.structural.substance } : {}),
    },
    absolute: result.absolute
      ? {
          weighted_score: result.absolute.weighted_score,
          passed: result.absolute.passed,
          total: result.absolute.total,
          failed_assertions: result.absolute.failed_assertions,
          passing_pairs: result.absolute.passing_pairs,
        }
      : null,
  };
}

function upliftJson(u: UpliftReport): Record<string, unknown> {
  return {
    with: u.with,
    without: u.without,
    uplift: u.uplift,
    per_assertion: u.perAssertion.map((a) => ({
      assertion_id: a.assertionId,
      with: a.with,
      without: a.without,
    })),
  };
}

/** The `--uplift` lines: one draw of each, so the figure carries no interval and says so. */
function formatUplift(u: UpliftReport | undefined, detail: string | undefined): string {
  if (!u) return `uplift: not measured (the render without the skill failed: ${detail ?? 'no score'})\n`;
  const pct = (c: { passes: number; total: number }) =>
    `${c.total === 0 ? '0.0' : ((c.passes / c.total) * 100).toFixed(1)} % (${c.passes} of ${c.total})`;
  const points = `${u.uplift >= 0 ? '+' : ''}${(u.uplift * 100).toFixed(2)}`;
  const lines = [
    `uplift: ${points} points -- pass rate with the skill ${pct(u.with)} minus without it ${pct(u.without)}`,
    '  one draw each: a difference of a check or two can be noise; `iterate` measures the spread with --trials',
  ];
  for (const a of u.perAssertion) {
    lines.push(
      `  #${a.assertionId}: with ${a.with.passes} of ${a.with.total}, without ${a.without.passes} of ${a.without.total}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function fixed(n: number | null): string {
  return n === null ? 'NULL' : n.toFixed(6);
}

function detailValue(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(4);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length > 0) return value.map((v) => String(v)).join(',');
  return undefined;
}

/** The counts behind a metric's score (`present=2 required=3 missing=Limitations`), empty lists left out. */
function metricDetail(metric: Record<string, unknown>): string {
  return Object.entries(metric)
    .filter(([key]) => key !== 'score')
    .map(([key, value]) => [key, detailValue(value)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

/**
 * `score --trials N` (issue 28 item 3): the grader's flip rate on identical inputs (N trials of the same
 * renders) and the smallest graded-score gain a comparison with N independent draws per side could tell
 * from it at margin 1. A verdict that flips with probability q makes two trials disagree 2q(1 − q) of the
 * time, so one verdict's variance q(1 − q) is half the flip rate; the graded score is a mean over `pairs`
 * verdicts (equal weights assumed). Re-grades share their render, so render-to-render variation is not in
 * this figure: `iterate` measures both with independent draws.
 */
function scoreNoiseLine(
  agreement: { comparisons: number; disagreements: number } | undefined,
  pairs: number,
  trials: number,
): string | undefined {
  if (!agreement || agreement.comparisons === 0 || pairs === 0) return undefined;
  const flip = agreement.disagreements / agreement.comparisons;
  const sd = Math.sqrt(flip / 2 / pairs);
  const floor = minimumDetectableGain({ sd, draws: trials, stateDraws: trials, margin: 1, minGain: 0 });
  return (
    `noise: the grader's verdicts flipped on ${(flip * 100).toFixed(0)} % of ${agreement.comparisons} pairs of ` +
    `trials on the same renders; improvements in the graded score under +${floor.toFixed(4)} cannot be told ` +
    `from this noise with ${trials} draws per side; raise --trials or fix the flaky assertions ` +
    '(`skillclimb iterate` lists them)'
  );
}

export function formatScoreReport(skill: string, models: SkillModels, result: SkillScore): string {
  const out: string[] = [];
  out.push(`skill: ${skill}`);
  out.push(`models: ${models.label}`);
  if (models.structuralOnly)
    out.push('offline provider: graded structure only (pass --model for absolute grading)');
  out.push(`mode: ${result.mode}${result.trials > 1 ? ` (${result.trials} trials, majority vote)` : ''}`);
  out.push(`status: ${result.status}${result.detail ? ` (${result.detail})` : ''}`);
  out.push(`score: ${fixed(result.score)}`);
  out.push('');
  out.push(`structural ${fixed(result.structural.score)}`);
  const width = Math.max(...METRIC_NAMES.map((n) => n.length));
  for (const name of METRIC_NAMES) {
    const metric = result.structural.metrics[name];
    const detail = metricDetail(metric);
    out.push(`  ${name.padEnd(width)}  ${fixed(metric.score)}${detail ? `  ${detail}` : ''}`);
  }
  const substance = substanceLine(result.structural);
  if (substance !== undefined) out.push(substance);
  const absolute = result.absolute;
  const noise = absolute ? scoreNoiseLine(result.gradeAgreement, absolute.total, result.trials) : undefined;
  if (noise) out.push(noise);
  if (absolute) {
    out.push('');
    out.push(`absolute ${fixed(absolute.weighted_score)}  (${absolute.passed}/${absolute.total} pairs pass)`);
    for (const c of absolute.categories) {
      out.push(`  ${c.name} (weight ${c.weight}): ${c.passed}/${c.total}  ${fixed(c.score)}`);
    }
    if (absolute.failed_assertions.length > 0) {
      out.push('  failed assertions:');
      for (const f of absolute.failed_assertions) {
        out.push(
          `    #${f.assertion_id} ${f.scenario_id} [${f.category_name}, ${f.defect_type}] ${f.statement}`,
        );
        if (f.grader_reason) out.push(`      reason: ${f.grader_reason}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
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

// eslint-disable-next-line max-lines-per-function -- the steps of one score, from settings to report, read in order; not yet split (issue 30 item 3)
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
  const skillFile = skillFileOf(skillDir);
  // The one link rule (docs/how-it-works.md § Untrusted text and secrets): nothing is read through a link.
  const linked = await linkedSkillFile(skillDir);
  if (linked !== undefined) {
    return usage(
      `${linked}: a symbolic link; skill files are never read through a link (replace it by the file itself)`,
    );
  }
  // A directory, FIFO or socket in place of SKILL.md is refused by name, before anything opens it.
  const found = await inspectFile(skillFile);
  if (found === 'missing') return usage(`${skillFile}: file not found (expected a skill folder)`);
  if (found instanceof NotRegularFileError) return usage(found.message);
  // The eval files too, whether this mode reads them or not: `iterate --skill` refuses the same folder.
  for (const file of [EVALS_FILE, SCENARIOS_FILE, REQUIRED_SECTIONS_FILE]) {
    const evalsFile = await inspectFile(path.join(evalsDirOf(skillDir), file));
    if (evalsFile instanceof NotRegularFileError) return usage(evalsFile.message);
  }

  let models: SkillModels;
  let configSkills: readonly string[] | undefined;
  let mode = flags.mode as ScoreMode;
  let concurrency = concurrencyFlag;
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
    return usage(messageOf(err));
  }
  if (mode === 'absolute' && models.structuralOnly) {
    const source = fromCli('mode') ? '--mode absolute' : `mode "absolute" (from ${CONFIG_FILE})`;
    return usage(
      `${source} needs a render and a grader model, but the offline provider grades structure only; ` +
        'pass --model <provider:model> (or --render-model and --grader-model), or use --mode structural',
    );
  }

  // Structure needs no eval files: `--mode structural`, or models that grade structure only.
  const structuralOnly = mode === 'structural' || models.structuralOnly;
  if (structuralOnly && flags.benchmarkJson !== undefined) {
    return usage(
      '--benchmark-json needs model-graded scores (pass rates); structure-only scoring renders nothing: ' +
        'pass --model <provider:model> and a mode other than structural',
    );
  }
  const skill = path.basename(skillDir);
  let evals: SkillEvals;
  try {
    evals = await (structuralOnly ? loadStructuralEvals(skillDir) : loadSkillEvals(skillDir));
  } catch (err) {
    if (err instanceof EvalsFileError) {
      const where = path.join(evalsDirOf(skillDir), err.file);
      const missing = err.detail === 'file not found';
      return usage(
        `${where}: ${err.message.slice(err.file.length + 2)}` +
          (missing
            ? `; write the eval files with \`${evalsInitCommand(skill, '', evalsInitSetting(io.cwd, skillDir, flags.skills ?? configSkills))}\`, ` +
              'or score with --mode structural (no evals needed)'
            : ''),
      );
    }
    throw err;
  }

  let skillMd: string;
  try {
    skillMd = ((await readRegularFile(skillFile, EVALS_MAX_BYTES)) ?? '').replace(/^\uFEFF/, '');
  } catch (err) {
    if (err instanceof NotRegularFileError) return usage(err.message);
    throw err;
  }
  const controller = new AbortController();
  const request = {
    skillName: skill,
    skillDir,
    evals,
    models,
    mode,
    trials,
    concurrency,
    signal: controller.signal,
    now: io.now ?? (() => new Date()),
  };
  const result = await scoreSkill({
    ...request,
    skillMd,
    structural: scoreStructuralSettings(flags, configStructural, evals.requiredSections),
    cache: new RenderCache(),
  });

  // `--uplift`: the same scenarios rendered without the skill's instructions (docs/how-it-works.md § Decisions under noise).
  // `--benchmark-json` needs the same renders: its without_skill configuration.
  let uplift: { report: UpliftReport | undefined; detail: string | undefined } | undefined;
  let without: SkillScore | undefined;
  if (
    (flags.uplift === true || flags.benchmarkJson !== undefined) &&
    result.status === 'ok' &&
    result.absolute !== null
  ) {
    without = await scoreSkill({ ...request, skillMd: NO_SKILL_TEXT, cache: new RenderCache() });
  }
  if (flags.uplift === true && without) {
    uplift =
      without.status === 'ok'
        ? {
            report: upliftOf({
              withSkill: tallyDraws([result.pairs]),
              withoutSkill: tallyDraws([without.pairs]),
              withRates: [],
              margin: ITERATE_DEFAULTS.margin,
            }),
            detail: undefined,
          }
        : { report: undefined, detail: `${without.status}: ${without.detail ?? 'no score'}` };
  }
  const specFile = path.relative(io.cwd, skillFile) || skillFile;
  const violations = specViolations(skillMd, path.basename(skillDir));
  if (flags.json) {
    const doc = scoreJson(result);
    doc.specification = specJson(specFile, violations);
    if (uplift) doc.uplift = uplift.report ? upliftJson(uplift.report) : { error: uplift.detail };
    io.out(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    io.out(formatScoreReport(skill, models, result));
    io.out(specReport(specFile, violations));
    if (flags.uplift === true && result.absolute === null && result.status === 'ok') {
      io.out('\nuplift: not measured (structure-only scoring renders nothing)\n');
    } else if (uplift) io.out(`\n${formatUplift(uplift.report, uplift.detail)}`);
  }
  if (result.status !== 'ok') {
    if (flags.json) io.err(`skillclimb score: ${result.status}: ${result.detail ?? ''}\n`);
    io.exitCode = 1;
  } else {
    io.exitCode = 0;
  }
  if (flags.benchmarkJson !== undefined) {
    const scores = { withSkill: result, withoutSkill: without };
    const about = { skillName: skill, skillDir, evals, models, ...scores };
    await writeBenchmarkJson(io, flags.benchmarkJson, about, flags.json === true);
  }
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
