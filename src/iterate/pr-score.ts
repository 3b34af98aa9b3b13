/**
 * Scores every skill a change touches at the base and at the head (docs/how-it-works.md § Decisions under
 * noise): structural scores when the models grade structure only or a side has no eval files, else
 * `trials` independent draws of the composite per side (a fresh render and a fresh grade each), and the
 * uplift at the head (one draw without the skill's instructions). The comparison itself is pure
 * (src/core/iterate/pr-score.ts); the two checkouts are the caller's.
 */
import path from 'node:path';
import { EvalsFileError, type SkillEvals } from '../core/iterate/evals.js';
import { tallyDraws, upliftOf, type PairVerdict } from '../core/iterate/noise.js';
import {
  compareSides,
  touchedSkills,
  type SideMeasurement,
  type SkillComparison,
  type SkillFolder,
  type TouchedSkill,
} from '../core/iterate/pr-score.js';
import { skillFileOf } from '../core/iterate/skill-layout.js';
import { specViolations } from '../core/iterate/skill-spec.js';
import { measureSubstance } from '../core/iterate/substance.js';
import type { StructuralSettings } from '../core/iterate/structural.js';
import { messageOf } from '../core/errors.js';
import type { Logger } from '../ports/logger.js';
import type { SkillModels } from '../ports/models.js';
import { EVALS_MAX_BYTES, loadSkillEvals, loadStructuralEvals } from './evals-files.js';
import { assertionStatements } from './editor-input.js';
import { readRegularFile } from './regular-file.js';
import { RenderCache, scoreSkill } from './score.js';
import { findSkills } from './skill-finder.js';
import { linkedSkillFile } from './symlinks.js';
import { NO_SKILL_TEXT, drawRange, measureDraws } from './trials.js';
import { scenarioSplitter } from '../core/iterate/spread.js';

/** One side of the change: a project folder inside a checkout of the repository. */
export interface ScoreSide {
  /** Absolute path of the project at this side. */
  project: string;
  /** Absolute path of the checkout's root (the repository root at this side). */
  repository: string;
}

export interface PullScoreRequest {
  base: ScoreSide;
  head: ScoreSide;
  /** The project's folder relative to the repository root, `/`-separated (`''` at the root). */
  prefix: string;
  /** The skills setting (globs relative to the project). */
  globs: readonly string[];
  /** Paths that differ between the sides, relative to the repository root. */
  changedPaths: readonly string[];
  models: SkillModels;
  structural: StructuralSettings | undefined;
  /** Independent draws per side of a model-graded score. */
  trials: number;
  /** Standard errors a difference must clear to count. */
  margin: number;
  /** Measure the uplift at the head (composite scores only). */
  uplift: boolean;
  concurrency: number;
  signal: AbortSignal;
  log: Logger;
}

interface SideSkills {
  folders: SkillFolder[];
  /** Folders the skills setting matched that cannot be skills (a link, a SKILL.md that is no file), by repoDir. */
  excluded: Map<string, string>;
}

async function skillsAt(side: ScoreSide, prefix: string, globs: readonly string[]): Promise<SideSkills> {
  const found = await findSkills({ project: side.project, repository: side.repository, globs });
  const repoDir = (dir: string) => path.posix.join(prefix || '.', dir);
  return {
    folders: found.skills.map((s) => ({ name: s.name, repoDir: repoDir(s.dir) })),
    excluded: new Map(found.excluded.map((e) => [repoDir(e.dir), e.reason])),
  };
}

/** A side whose folder is there but is no skill: its reason, instead of "added" or "removed". */
function refused(reason: string): SideMeasurement {
  return { status: 'harness-error', detail: reason, mode: 'structural', scores: [], tallies: [] };
}

/** The skill's folder at one side, from its repository-relative folder. */
function skillDirAt(side: ScoreSide, skill: TouchedSkill): string {
  return path.resolve(side.repository, ...skill.repoDir.split('/'));
}

/** Composite needs the eval files; a side without them (or offline models) is scored on structure. */
async function evalsAt(
  skillDir: string,
  models: SkillModels,
): Promise<{ evals: SkillEvals; mode: 'composite' | 'structural' }> {
  if (models.structuralOnly) return { evals: await loadStructuralEvals(skillDir), mode: 'structural' };
  try {
    return { evals: await loadSkillEvals(skillDir), mode: 'composite' };
  } catch (err) {
    if (err instanceof EvalsFileError && err.detail === 'file not found') {
      return { evals: await loadStructuralEvals(skillDir), mode: 'structural' };
    }
    throw err;
  }
}

function passShare(pairs: readonly PairVerdict[]): number {
  return pairs.length === 0 ? 0 : pairs.filter((p) => p.pass).length / pairs.length;
}

async function measureSide(
  request: PullScoreRequest,
  side: ScoreSide,
  skill: TouchedSkill,
  withUplift: boolean,
): Promise<SideMeasurement> {
  const dir = skillDirAt(side, skill);
  let evals: SkillEvals;
  let mode: 'composite' | 'structural';
  let skillMd: string;
  // The one link rule (docs/how-it-works.md § Untrusted text and secrets): a pull request's link to a file
  // elsewhere on the runner is never read, let alone sent to a model.
  const linked = await linkedSkillFile(dir);
  if (linked !== undefined) {
    const detail = `${path.relative(side.repository, linked)}: a symbolic link; skill files are never read through a link`;
    return { status: 'harness-error', detail, mode: 'structural', scores: [], tallies: [] };
  }
  try {
    ({ evals, mode } = await evalsAt(dir, request.models));
    skillMd = ((await readRegularFile(skillFileOf(dir), EVALS_MAX_BYTES)) ?? '').replace(/^\uFEFF/, '');
  } catch (err) {
    return { status: 'harness-error', detail: messageOf(err), mode: 'structural', scores: [], tallies: [] };
  }
  const text = {
    substance: measureSubstance(skillMd),
    violations: specViolations(skillMd, path.basename(dir)),
  };
  const base = {
    skillName: skill.name,
    skillDir: dir,
    skillMd,
    evals,
    structural: {
      ...request.structural,
      requiredSections: evals.requiredSections ?? request.structural?.requiredSections,
    },
    models: request.models,
    mode,
    concurrency: request.concurrency,
    signal: request.signal,
    cache: new RenderCache(),
  };
  if (mode === 'structural') {
    // Exact: one draw is the score.
    const result = await scoreSkill({ ...base, trials: 1 });
    return {
      status: result.status,
      detail: result.detail,
      mode,
      scores: result.score === null ? [] : [result.score],
      tallies: [],
      ...text,
    };
  }
  const [measured, without] = await Promise.all([
    measureDraws(base, drawRange(0, request.trials)),
    withUplift
      ? measureDraws({ ...base, skillMd: NO_SKILL_TEXT, cache: new RenderCache() }, [0]).catch(
          () => undefined,
        )
      : undefined,
  ]);
  if (measured.status !== 'ok') {
    return { status: measured.status, detail: measured.detail, mode, scores: [], tallies: [] };
  }
  const splitByScenario = scenarioSplitter(evals, mode);
  const uplift =
    without?.status === 'ok'
      ? upliftOf({
          withSkill: measured.tallies,
          withoutSkill: without.tallies,
          withRates: measured.draws.map((d) => passShare(d.pairs)),
          margin: request.margin,
        })
      : undefined;
  return {
    status: 'ok',
    detail: undefined,
    mode,
    scores: measured.scores,
    tallies: tallyDraws(measured.draws.map((d) => d.pairs)),
    parts: measured.draws.map((d) => splitByScenario(d.pairs)),
    uplift,
    statements: assertionStatements(evals.evals),
    ...text,
  };
}

/** Every touched skill, compared; one skill's failure is its own row, never the others'. */
export async function scorePullRequest(request: PullScoreRequest): Promise<SkillComparison[]> {
  const [atBase, atHead] = await Promise.all([
    skillsAt(request.base, request.prefix, request.globs),
    skillsAt(request.head, request.prefix, request.globs),
  ]);
  const touched = touchedSkills(request.changedPaths, atBase.folders, atHead.folders);
  request.log.info(
    touched.length === 0
      ? 'no skill folder changed'
      : `skills changed: ${touched.map((s) => `${s.name} (${s.change})`).join(', ')}`,
  );
  const comparisons: SkillComparison[] = [];
  for (const found of touched) {
    const headRefusal = found.change === 'removed' ? atHead.excluded.get(found.repoDir) : undefined;
    const baseRefusal = found.change === 'added' ? atBase.excluded.get(found.repoDir) : undefined;
    // Still there on both sides, but one side's folder cannot be scored (e.g. SKILL.md became a link).
    const skill: TouchedSkill =
      headRefusal !== undefined || baseRefusal !== undefined ? { ...found, change: 'changed' } : found;
    const [base, head] = await Promise.all([
      baseRefusal !== undefined
        ? refused(baseRefusal)
        : skill.change === 'added'
          ? undefined
          : measureSide(request, request.base, skill, false),
      headRefusal !== undefined
        ? refused(headRefusal)
        : skill.change === 'removed'
          ? undefined
          : measureSide(request, request.head, skill, request.uplift),
    ]);
    const comparison = compareSides({ skill, base, head, margin: request.margin });
    request.log.info(`${skill.name}: ${comparison.verdict} (${comparison.reason})`);
    comparisons.push(comparison);
  }
  return comparisons;
}
