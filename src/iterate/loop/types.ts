/**
 * What one skill's hill-climb takes and gives back (docs/how-it-works.md § The hill-climb loop): the
 * loop's input from the run, its result, and the error an interrupted loop ends with.
 */
import { SkillclimbError } from '../../core/errors.js';
import type { SkillEvals } from '../../core/iterate/evals.js';
import type { LoopStopReason } from '../../core/iterate/hill-climb.js';
import type { KeptEdit, ResultsRow, SkillMeasurement } from '../../core/iterate/run-result.js';
import type { StructuralSettings } from '../../core/iterate/structural.js';
import type { BaselineDrawsRecord } from '../../core/iterate/baseline-draws-record.js';
import type { UpliftWithoutRecord } from '../../core/iterate/uplift-record.js';
import type { Usage } from '../../core/usage.js';
import type { FileLookup, GitWorkspace } from '../../ports/git.js';
import type { Logger } from '../../ports/logger.js';
import type { SkillModels } from '../../ports/models.js';
import type { RunInterrupted } from '../interrupt.js';
import type { IterateOptions } from '../options.js';
import type { RenderCache } from '../score.js';

export type { LoopStopReason };

export type LoopOptions = Pick<
  IterateOptions,
  | 'mode'
  | 'concurrency'
  | 'iterationTimeoutMs'
  | 'perSkillBudgetMs'
  | 'perSkillIterations'
  | 'maxCostUsd'
  | 'trials'
  | 'margin'
  | 'keepRule'
  | 'minGain'
> & {
  /**
   * Measure the skill's uplift once at the baseline (a draw without the skill); default true when the
   * baseline has trials (`trials` ≥ 2): `--trials 1` measures nothing beyond the original's single draw.
   */
  uplift?: boolean | undefined;
};

export interface SkillLoopInput {
  skill: string;
  /** The per-skill worktree (all git runs there, by path). */
  worktreePath: string;
  /** The base commit the worktree was created from; the baseline row names it. */
  baseCommit: string;
  /** The skill's folder relative to the repository root (its real path). */
  skillRelPath: string;
  evals: SkillEvals;
  /** The structural settings (line limit, banned phrases, required sections) the skill is scored with. */
  structural?: StructuralSettings | undefined;
  /** The project's `<skill folder>/evals/results.tsv` (outside the worktree, so it outlives it). */
  resultsFile: string;
  /** The exact secrets in use: each results.tsv row is redacted with them (ports/iterate.ts). */
  secrets?: readonly string[];
  options: LoopOptions;
  models: SkillModels;
  git: Pick<GitWorkspace, 'commitFile' | 'resetToParent' | 'discardChanges'>;
  log: Logger;
  now: () => Date;
  /** What the run spent before this skill, for `maxCostUsd`. */
  runUsageBefore?: Usage;
  cache?: RenderCache;
  /** Where the scoring looks up link and `[[ref]]` targets when the worktree is sparse (default: disk). */
  files?: FileLookup | undefined;
  /**
   * The run's stop signal: aborts the model calls in flight and ends the loop with LoopInterrupted. The
   * unfinished iteration gets no row (it was never judged) and its commit is reset away.
   */
  signal?: AbortSignal;
  /** Told every time the loop's spend grows, so a caller keeps it even if the loop throws. */
  onUsage?: (total: Usage) => void;
  /** The progress lines' skill column width: the longest name in the queue (progress.ts). */
  nameWidth?: number | undefined;
  /**
   * The draw without the skill an earlier night kept (docs/how-it-works.md § Decisions under noise,
   * "Uplift"): reused instead of drawn again when its key matches tonight's evals, prompts, models and
   * model endpoints.
   */
  upliftWithout?: UpliftWithoutRecord | undefined;
  /**
   * The draws an earlier night kept of texts no selection touched (docs/how-it-works.md § Baseline): the
   * entry whose key matches tonight's SKILL.md, evals, prompts, models and model endpoints stands in for the baseline's
   * extra draws.
   */
  baselineDraws?: BaselineDrawsRecord | undefined;
}

/** The draw without the skill the uplift used: drawn tonight (for the caller to keep) or the one handed in. */
export interface UpliftWithout {
  record: UpliftWithoutRecord;
  /** True when it is the input's record (nothing new to keep). */
  reused: boolean;
}

export interface SkillLoopResult {
  /** null when no baseline could be scored. */
  baselineScore: number | null;
  /** The high-water mark: the last kept score, or the baseline. */
  finalScore: number | null;
  /** Iterations run (the baseline is not one). */
  iterations: number;
  rows: ResultsRow[];
  keptEdits: KeptEdit[];
  usage: Usage;
  stopReason: LoopStopReason;
  consecutiveCrashes: number;
  /** SKILL.md as it stands at the branch tip. */
  finalText: string;
  /** The render's reason when stopReason is 'baseline ambiguous'. */
  ambiguousReason?: string;
  /** Noise, uplift, the confirmation (when it ran) and the eval-quality findings. */
  measurement: SkillMeasurement;
  /** The draw without the skill the uplift used; absent when no uplift was measured. */
  upliftWithout?: UpliftWithout | undefined;
  /** The draws to keep for the next night; absent when nothing new was drawn that could be kept. */
  baselineDraws?: BaselineDrawsRecord | undefined;
}

/** The run was interrupted while this loop ran; `partial` is what the loop had recorded by then. */
export class LoopInterrupted extends SkillclimbError {
  readonly kind = 'interrupted';
  override readonly name = 'LoopInterrupted';
  constructor(
    readonly interruption: RunInterrupted,
    readonly partial: SkillLoopResult,
  ) {
    super(interruption.message, { cause: interruption });
  }
}
