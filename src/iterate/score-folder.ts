/**
 * One skill folder scored once, no edits (docs/how-it-works.md § Scoring): the engine entry of `skillclimb
 * score <skill-folder>`. The folder's files are checked first (nothing is read through a link, nothing
 * that is not a regular file), then the front-end chooses the models and settings, then the eval files are
 * read, the skill scored and — for `--uplift` and `--benchmark-json` — scored again without its
 * instructions (§ Decisions under noise).
 */
import path from 'node:path';
import { EvalsFileError, type SkillEvals } from '../core/iterate/evals.js';
import { tallyDraws, upliftOf, type UpliftReport } from '../core/iterate/noise.js';
import type { ScoreMode } from '../core/iterate/score-types.js';
import type { StructuralSettings } from '../core/iterate/structural.js';
import {
  EVALS_FILE,
  REQUIRED_SECTIONS_FILE,
  SCENARIOS_FILE,
  evalsDirOf,
  skillFileOf,
} from '../core/iterate/skill-layout.js';
import type { SkillModels } from '../ports/models.js';
import { EVALS_MAX_BYTES, loadSkillEvals, loadStructuralEvals } from './evals-files.js';
import { ITERATE_DEFAULTS } from './options.js';
import { NotRegularFileError, inspectFile, readRegularFile } from './regular-file.js';
import { RenderCache, scoreSkill, type SkillScore } from './score.js';
import { linkedSkillFile } from './symlinks.js';
import { NO_SKILL_TEXT } from './trials.js';

/** What the front-end chose once the folder's files passed their checks. */
export interface ScoreFolderSettings {
  models: SkillModels;
  mode: ScoreMode;
  trials: number;
  concurrency: number;
  /** The structural settings, given the skill's own evals/required_sections.json (undefined without one). */
  structural: (requiredSections: string[] | undefined) => StructuralSettings;
  /** Structure needs no eval files: only evals/required_sections.json is read. */
  structuralOnly: boolean;
}

export interface ScoreFolderRequest {
  /** Absolute path of the skill folder (SKILL.md's directory). */
  skillDir: string;
  /**
   * Chooses the models and the settings (the front-end's flags and config), or refuses with a message; called
   * once, after the folder's files are checked.
   */
  settings: () => Promise<ScoreFolderSettings | { problem: string }>;
  /** Also score the skill without its instructions (`--uplift`, `--benchmark-json`). */
  withoutSkill: boolean;
  /** Report the uplift (with minus without) when both scores are ok. */
  uplift: boolean;
  now: () => Date;
}

/** Why the folder was not scored: a problem with the folder or a setting, said as it is. */
export type ScoreFolderRefusal =
  | { status: 'refused'; problem: string }
  /** An eval file is missing or malformed (`where` is its path); the front-end says how to write them. */
  | { status: 'refused'; problem: string; evalsFile: EvalsFileError; where: string };

export interface ScoredFolder {
  status: 'scored';
  skill: string;
  evals: SkillEvals;
  models: SkillModels;
  result: SkillScore;
  /** SKILL.md as read (byte-order mark removed): the front-end checks it against the specification. */
  skillMd: string;
  /** The score without the skill's instructions, when asked for and the score with it had model grades. */
  without: SkillScore | undefined;
  /** The `--uplift` report (report undefined: the render without the skill failed, `detail` says how). */
  uplift: { report: UpliftReport | undefined; detail: string | undefined } | undefined;
}

const refused = (problem: string) => ({ status: 'refused', problem }) as const;

/**
 * The files `score` refuses before it reads anything: SKILL.md through a link, missing, or not a regular
 * file; an eval file that is not a regular file, whether this mode reads it or not (`iterate --skill`
 * refuses the same folder).
 */
async function checkSkillFolder(skillDir: string): Promise<string | undefined> {
  const skillFile = skillFileOf(skillDir);
  // The one link rule (docs/how-it-works.md § Untrusted text and secrets): nothing is read through a link.
  const linked = await linkedSkillFile(skillDir);
  if (linked !== undefined) {
    return `${linked}: a symbolic link; skill files are never read through a link (replace it by the file itself)`;
  }
  // A directory, FIFO or socket in place of SKILL.md is refused by name, before anything opens it.
  const found = await inspectFile(skillFile);
  if (found === 'missing') return `${skillFile}: file not found (expected a skill folder)`;
  if (found instanceof NotRegularFileError) return found.message;
  for (const file of [EVALS_FILE, SCENARIOS_FILE, REQUIRED_SECTIONS_FILE]) {
    const evalsFile = await inspectFile(path.join(evalsDirOf(skillDir), file));
    if (evalsFile instanceof NotRegularFileError) return evalsFile.message;
  }
  return undefined;
}

/** The eval files (or only required_sections.json when structure is all that is scored) and SKILL.md. */
async function readSkillFolder(
  skillDir: string,
  structuralOnly: boolean,
): Promise<{ evals: SkillEvals; skillMd: string } | ScoreFolderRefusal> {
  let evals: SkillEvals;
  try {
    evals = await (structuralOnly ? loadStructuralEvals(skillDir) : loadSkillEvals(skillDir));
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    const where = path.join(evalsDirOf(skillDir), err.file);
    return {
      status: 'refused',
      problem: `${where}: ${err.message.slice(err.file.length + 2)}`,
      evalsFile: err,
      where,
    };
  }
  try {
    const skillMd = ((await readRegularFile(skillFileOf(skillDir), EVALS_MAX_BYTES)) ?? '').replace(
      /^\uFEFF/,
      '',
    );
    return { evals, skillMd };
  } catch (err) {
    if (err instanceof NotRegularFileError) return refused(err.message);
    throw err;
  }
}

/** Scores the skill at `request.skillDir` once (and without its instructions when asked). */
export async function scoreSkillFolder(
  request: ScoreFolderRequest,
): Promise<ScoredFolder | ScoreFolderRefusal> {
  const { skillDir } = request;
  const problem = await checkSkillFolder(skillDir);
  if (problem !== undefined) return refused(problem);
  const settings = await request.settings();
  if ('problem' in settings) return refused(settings.problem);
  const read = await readSkillFolder(skillDir, settings.structuralOnly);
  if ('status' in read) return read;
  const { evals, skillMd } = read;
  const { models, mode, trials, concurrency } = settings;
  const skill = path.basename(skillDir);
  const controller = new AbortController();
  const scoreRequest = {
    skillName: skill,
    skillDir,
    evals,
    models,
    mode,
    trials,
    concurrency,
    signal: controller.signal,
    now: request.now,
  };
  const result = await scoreSkill({
    ...scoreRequest,
    skillMd,
    structural: settings.structural(evals.requiredSections),
    cache: new RenderCache(),
  });
  let without: SkillScore | undefined;
  if (request.withoutSkill && result.status === 'ok' && result.absolute !== null) {
    without = await scoreSkill({ ...scoreRequest, skillMd: NO_SKILL_TEXT, cache: new RenderCache() });
  }
  return {
    status: 'scored',
    skill,
    evals,
    models,
    result,
    skillMd,
    without,
    uplift: request.uplift ? upliftReport(result, without) : undefined,
  };
}

/** With minus without, one draw each; undefined when there is no score without the skill. */
function upliftReport(result: SkillScore, without: SkillScore | undefined): ScoredFolder['uplift'] {
  if (!without) return undefined;
  if (without.status !== 'ok')
    return { report: undefined, detail: `${without.status}: ${without.detail ?? 'no score'}` };
  return {
    report: upliftOf({
      withSkill: tallyDraws([result.pairs]),
      withoutSkill: tallyDraws([without.pairs]),
      withRates: [],
      margin: ITERATE_DEFAULTS.margin,
    }),
    detail: undefined,
  };
}
