/** What a skill-iterate run produced: rows, kept edits, one result per skill, the run as a whole. */
import type { FeedbackEvidence } from './feedback-evidence.js';
import type { ScoreMode } from './score-types.js';
import type { CommandSetting, SkillExclusion } from './skill-layout.js';
import type { Usage } from '../usage.js';
import type { Confirmation, EvalFinding, KeepRule, NoiseReport, UpliftReport } from './noise.js';

/** What the night measured of one skill beyond its scores (docs/how-it-works.md § Decisions under noise). */
export interface SkillMeasurement {
  keepRule: KeepRule;
  /** The baseline's independent trials; absent when the skill was scored once (structure only, `--trials 1`). */
  noise?: NoiseReport | undefined;
  /**
   * Set when trials 2 … `draws + 1` of `noise` are an earlier night's draws of the same text, reused
   * (docs/how-it-works.md § Baseline): the summary and the PR body say which, and when.
   */
  baselineStored?: StoredTrials | undefined;
  uplift?: UpliftReport | undefined;
  /** The ship gate's side-by-side re-scoring, when it ran. */
  confirmation?: Confirmation | undefined;
  /** Why the confirmation has no result (it could not be scored). */
  confirmationFailure?: string | undefined;
  /** Why no confirmation draws were spent (the night's draws showed no spread at all). */
  confirmationSkipped?: string | undefined;
  findings: EvalFinding[];
  /**
   * The night's noise floor (docs/how-it-works.md § Decisions under noise): the grader's flip rate on
   * identical texts and the smallest gain the confirmation could have called clear with its most draws.
   * Absent when nothing was measured twice.
   */
  noiseFloor?: NoiseFloor | undefined;
  /** Assertion statements by id, for the evidence table and the findings. */
  statements: Record<string, string>;
  /**
   * The review findings the skill's feedback evals were written from, with their pass counts before and
   * after the kept text (the reviewer skill, docs/how-it-works.md § The nightly engine improves the
   * reviewer); absent when no eval carries `skillclimb.feedback` or no edit was kept.
   */
  feedback?: FeedbackEvidence | undefined;
}

/** The baseline's trials an earlier night drew: how many, and when the first of them was drawn (ISO 8601). */
export interface StoredTrials {
  draws: number;
  drawnAt: string;
}

/** What the night's own draws say about what it can tell apart (issue 28 item 3). */
export interface NoiseFloor {
  /** Of every two draws of the same check of the same text, the share whose verdicts differ. */
  flipRate: number;
  /** How many such pairs of draws were compared. */
  comparisons: number;
  /** The smallest gain this night's draws could have confirmed (composite units). */
  minimumDetectableGain: number;
  /** The draws that figure assumes: the final text's most fresh draws, against the baseline's. */
  draws: number;
  baselineDraws: number;
}

export interface KeptEdit {
  iteration: number;
  commit: string;
  description: string;
  score: number;
  delta: number;
}

/** One parsed row of `results.tsv`. */
export interface ResultsRow {
  commit: string;
  score: number | null;
  status: 'baseline' | 'keep' | 'revert' | 'crash';
  description: string;
  wallSeconds: number;
}

export type SkillStatus =
  'shipped' | 'no-improvement' | 'defect-park' | 'calibration-park' | `skipped (${string})`;

/** One per processed skill, as the morning summary lists it (docs/how-it-works.md § Morning summary and results.tsv). */
export interface SkillResult {
  skill: string;
  baselineScore: number | null;
  finalScore: number | null;
  iterations: number;
  wallSecondsTotal: number;
  status: SkillStatus;
  /** PR/issue URL, squash commit SHA, park file path, or the kept worktree of a skill that was not shipped. */
  link: string | undefined;
  /** Why the status is what it is, when the status alone does not say (a gain below the minimum). */
  detail?: string | undefined;
  keptEdits: KeptEdit[];
  linesDelta: number | undefined;
  usage: Usage;
  rows: ResultsRow[];
  /** Noise, uplift, confirmation and eval-quality findings, when the loop ran. */
  measurement?: SkillMeasurement | undefined;
}

export interface RunResult {
  startedAt: Date;
  endedAt: Date;
  /** Set when the run stopped early (kill-switch, exception, cost budget, night budget). */
  partial: { reason: string; at: Date } | null;
  queue: string[];
  results: SkillResult[];
  excludedBySkipList: Array<{ skill: string; source: 'embedded' | '--skip-list extension' }>;
  excludedByFreshness: Array<{ skill: string; lastRunAt: Date }>;
  /** Skills found and not scorable, with the reason and the next step (docs/how-it-works.md § The queue). */
  excludedOther?: SkillExclusion[] | undefined;
  /** The hint naming skills outside the skills setting and the setting that would include them. */
  outsideSetting?: string | undefined;
  /** The cross-night window those exclusions used (24 h unless the caller chose another). */
  freshnessWindowMs?: number;
  /**
   * Skills the setting finds that an explicit `--skill` / `--queue` (or the Action's `skill` input) did
   * not ask for: not exclusions, but not "every skill found was queued" either.
   */
  notRequested?: string[] | undefined;
  /** The scoring mode of every score in this run (the summary never compares scores of two modes). */
  mode?: ScoreMode | undefined;
  /** The options the run was given, carried into every command the summary prints. */
  command?: CommandSetting | undefined;
  summaryPath: string | undefined;
  usage: Usage;
  modelsLabel: string;
  /** Skills queued first because last night's budget kept them from starting. */
  runFirst?: string[] | undefined;
  /** Set when the night budget kept skills from starting (docs/how-it-works.md § Caps and budgets). */
  nightBudget?: NightBudgetStop | undefined;
}

/** The night budget stopped the queue: what it was, what was spent, and the skills that did not start. */
export interface NightBudgetStop {
  budgetUsd: number;
  spentUsd: number;
  notStarted: string[];
}
