/**
 * Skill scores on a pull request (docs/how-it-works.md § Decisions under noise): which skills a change
 * touches, and what the base's and the head's measurements of one skill say side by side — the confirmed
 * difference with its interval, the assertions whose pass rate moved (k of n), the eval-quality findings the
 * head has and the base had not, and whether the change is a regression beyond the noise margin. Pure.
 */
import type { ScoreMode, ScoreStatus } from './score-types.js';
import {
  confirmationOf,
  evalFindings,
  poolNoise,
  NO_NOISE,
  type AssertionTally,
  type Confirmation,
  type EvalFinding,
  type ScenarioParts,
  type UpliftReport,
} from './noise.js';
import { compareScores } from './ship-gate.js';
import { formatViolation, introducedViolations, type SpecViolation } from './skill-spec.js';
import { substanceLoss, type Substance } from './substance.js';

/** A skill folder as found on one side, relative to the repository root (`/`-separated). */
export interface SkillFolder {
  name: string;
  /** Relative to the repository root, e.g. `.claude/skills/pdf`. */
  repoDir: string;
}

/** One skill the change touches: found at the base, at the head, or both. */
export interface TouchedSkill {
  name: string;
  repoDir: string;
  change: 'changed' | 'added' | 'removed';
}

/**
 * The skills whose folder holds a changed path, in name order. A skill found on one side only was added or
 * removed; a path is a skill's when it is the folder itself or lies inside it.
 */
export function touchedSkills(
  changedPaths: readonly string[],
  atBase: readonly SkillFolder[],
  atHead: readonly SkillFolder[],
): TouchedSkill[] {
  const inside = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);
  const byDir = new Map<string, TouchedSkill>();
  const baseDirs = new Set(atBase.map((s) => s.repoDir));
  const headDirs = new Set(atHead.map((s) => s.repoDir));
  for (const skill of [...atHead, ...atBase]) {
    if (byDir.has(skill.repoDir)) continue;
    if (!changedPaths.some((file) => inside(file, skill.repoDir))) continue;
    const change = !baseDirs.has(skill.repoDir)
      ? 'added'
      : !headDirs.has(skill.repoDir)
        ? 'removed'
        : 'changed';
    byDir.set(skill.repoDir, { name: skill.name, repoDir: skill.repoDir, change });
  }
  return [...byDir.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.repoDir < b.repoDir ? -1 : 1,
  );
}

/** The draws of one side of one skill. */
export interface SideMeasurement {
  status: ScoreStatus;
  /** Why it has no score (a model error, an ambiguous grade), when status is not ok. */
  detail: string | undefined;
  /** The mode actually scored: composite (model-graded evals and structure) or structural. */
  mode: ScoreMode;
  /** The composite (or structural) score of each draw; one for structural scores, which are exact. */
  scores: number[];
  /** Per assertion over the draws; empty for structural scores. */
  tallies: AssertionTally[];
  /** Each draw split by scenario (the noise estimate reads the spread scenario by scenario). */
  parts?: ScenarioParts[] | undefined;
  /** With the skill minus without it, when measured on this side. */
  uplift?: UpliftReport | undefined;
  /** Assertion id → statement, from this side's evals.json (eval-file text: untrusted). */
  statements?: Readonly<Record<string, string>> | undefined;
  /** The SKILL.md's words, steps and sections, when it was read (§ A score that never rewards deleting the skill). */
  substance?: Substance | undefined;
  /** The Agent Skills rules this side's SKILL.md breaks, when it was read. */
  violations?: readonly SpecViolation[] | undefined;
}

export type SkillVerdict = 'regression' | 'improvement' | 'within noise' | 'unchanged' | 'not compared';

export interface SkillComparison {
  skill: TouchedSkill;
  base: SideMeasurement | undefined;
  head: SideMeasurement | undefined;
  /** Base and head side by side; undefined when one side has no score or the modes differ. */
  confirmation: Confirmation | undefined;
  verdict: SkillVerdict;
  /** Why the verdict is what it is, in one line (shown under the skill). */
  reason: string;
  /** Eval-quality findings the head's draws show and the base's did not. */
  newFindings: EvalFinding[];
}

/**
 * The verdict on one skill: a regression when the head is lower by more than `margin` standard errors of
 * the difference (the pooled spread of both sides' draws); structural scores are exact, so any drop is one.
 * Composite scores measured once per side carry no spread: a drop there is reported, never failed.
 */
export function compareSides(input: {
  skill: TouchedSkill;
  base: SideMeasurement | undefined;
  head: SideMeasurement | undefined;
  margin: number;
}): SkillComparison {
  const compared = compareScoresOfSides(input);
  const { base, head, skill } = input;
  if (base?.status !== 'ok' || head?.status !== 'ok') return compared;
  // Rules no score outweighs (docs/how-it-works.md § A score that never rewards deleting the skill, § The
  // specification's rules): the same rules the nightly loop refuses an edit for.
  const loss = base.substance && head.substance ? substanceLoss(base.substance, head.substance) : undefined;
  if (loss !== undefined) return { ...compared, verdict: 'regression', reason: `the head ${loss}` };
  const introduced = introducedViolations(base.violations ?? [], head.violations ?? []);
  if (introduced.length === 0) return compared;
  const file = `${skill.repoDir}/SKILL.md`;
  const listed = introduced.map((v) => formatViolation(file, v)).join('; ');
  return {
    ...compared,
    verdict: 'regression',
    reason: `the head breaks the Agent Skills specification: ${listed}`,
  };
}

function compareScoresOfSides(input: {
  skill: TouchedSkill;
  base: SideMeasurement | undefined;
  head: SideMeasurement | undefined;
  margin: number;
}): SkillComparison {
  const { skill, base, head, margin } = input;
  const out = (
    verdict: SkillVerdict,
    reason: string,
    confirmation?: Confirmation,
    newFindings: EvalFinding[] = [],
  ): SkillComparison => ({ skill, base, head, confirmation, verdict, reason, newFindings });
  if (skill.change === 'removed' || head === undefined) return out('not compared', 'the skill was removed');
  if (head.status !== 'ok') return out('not compared', `the head could not be scored (${head.status})`);
  const findings = atTheHead(newFindingsOf(base, head), head);
  if (skill.change === 'added' || base === undefined) {
    return out('not compared', 'a new skill: nothing to compare with', undefined, findings);
  }
  if (base.status !== 'ok') {
    return out('not compared', `the base could not be scored (${base.status})`, undefined, findings);
  }
  if (base.mode !== head.mode) {
    return out(
      'not compared',
      `the base was scored ${base.mode}, the head ${head.mode} (the eval files were added or removed)`,
      undefined,
      findings,
    );
  }
  const exact = head.mode === 'structural';
  const estimate = poolNoise(poolNoise(NO_NOISE, base.scores, base.parts), head.scores, head.parts);
  const c = confirmationOf({
    baselineScores: base.scores,
    finalScores: head.scores,
    baselineTallies: base.tallies,
    finalTallies: head.tallies,
    estimate,
    margin,
  });
  const measuredNoise = exact || estimate.df > 0;
  if (compareScores(c.gain, 0) === 0)
    return out('unchanged', 'the same score at the base and the head', c, findings);
  if (!measuredNoise) {
    return out(
      'within noise',
      'one draw per side: the noise is not measured, so no difference is confirmed (trials 2 or more measure it)',
      c,
      findings,
    );
  }
  if (compareScores(-c.gain, c.needed) > 0) {
    return out(
      'regression',
      exact
        ? 'the structural score dropped'
        : c.needed === 0
          ? 'every draw of each side scored the same, so the drop is no noise'
          : `the drop clears the noise margin (${c.needed.toFixed(4)})`,
      c,
      findings,
    );
  }
  if (compareScores(c.gain, c.needed) > 0) {
    return out(
      'improvement',
      exact ? 'the structural score rose' : `the gain clears the noise margin (${c.needed.toFixed(4)})`,
      c,
      findings,
    );
  }
  return out(
    'within noise',
    `the difference is within the noise margin (${c.needed.toFixed(4)})`,
    c,
    findings,
  );
}

/**
 * Findings at the head that the base's draws did not show (by assertion and kind). Not discriminating
 * needs the uplift, measured at the head only, so every such finding is the head's.
 */
function newFindingsOf(base: SideMeasurement | undefined, head: SideMeasurement): EvalFinding[] {
  const atHead = evalFindings({ night: head.tallies, uplift: head.uplift });
  if (base === undefined || base.status !== 'ok') return atHead;
  const before = new Set(
    evalFindings({ night: base.tallies, uplift: base.uplift }).map((f) => `${f.assertionId}\u0000${f.kind}`),
  );
  return atHead.filter((f) => !before.has(`${f.assertionId}\u0000${f.kind}`));
}

/** The findings' evidence as a pull request reads it: measured at the head, not "tonight". */
function atTheHead(findings: readonly EvalFinding[], head: SideMeasurement): EvalFinding[] {
  return findings.map((f) => {
    if (f.kind !== 'never passing') return f;
    const total = head.tallies.find((t) => t.assertionId === f.assertionId)?.total ?? 0;
    return { ...f, evidence: `passed 0 of ${total} graded draws at the head` };
  });
}

/** The mean score of a side, or null when it has none. */
export function sideScore(side: SideMeasurement | undefined): number | null {
  if (side === undefined || side.status !== 'ok' || side.scores.length === 0) return null;
  return side.scores.reduce((a, b) => a + b, 0) / side.scores.length;
}

/** What the check fails on: `regression` (a drop beyond the noise margin) or `never`. */
export type FailOn = 'regression' | 'never';
export const FAIL_ON: readonly FailOn[] = ['regression', 'never'];

/** The skills that fail the check under `failOn`. */
export function regressionsOf(comparisons: readonly SkillComparison[], failOn: FailOn): SkillComparison[] {
  return failOn === 'never' ? [] : comparisons.filter((c) => c.verdict === 'regression');
}
