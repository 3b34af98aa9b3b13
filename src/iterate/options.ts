/**
 * The options of one skill-iterate run and their defaults, stated once for the CLI and the Action
 * (docs/how-it-works.md § The hill-climb loop).
 */
import type { CommandSetting } from '../core/iterate/skill-layout.js';
import type { ScoreMode } from '../core/iterate/score-types.js';
import { DEFAULT_MIN_GAIN } from '../core/iterate/ship-gate.js';
import { DEFAULT_KEEP_RULE, DEFAULT_MARGIN, DEFAULT_TRIALS, type KeepRule } from '../core/iterate/noise.js';
import type { StructuralSettings } from '../core/iterate/structural.js';

/** The engine's defaults; the CLI's flags and the Action's inputs start from these. */
export const ITERATE_DEFAULTS = {
  /** The wall-clock cap per skill, as typed (`--per-skill-budget`, the `per-skill-budget` input). */
  perSkillBudget: '1h',
  perSkillBudgetMs: 3_600_000,
  perSkillIterations: 12,
  /**
   * The most renders and grades in flight at once within one scoring pass: enough for one iteration's calls
   * to all go out together (a 10-scenario skill re-graded three times has 30 grades at once), so an
   * iteration costs its critical path and not more. Endpoints that answer 429 or "overloaded" get fewer
   * (src/llm/adaptive-concurrency.ts), so this rarely needs tuning.
   */
  concurrency: 32,
  /** The hard cap on one iteration's model calls and scoring. */
  iterationTimeoutMs: 600_000,
  mode: 'composite' as ScoreMode,
  /** The cross-night-resume window: a skill whose last run is younger is left out of the queue. */
  freshnessWindowMs: 86_400_000,
  /** The smallest composite gain that ships on its own (docs/how-it-works.md § Shipping). */
  minGain: DEFAULT_MIN_GAIN,
  /** Independent draws of the baseline, of a promising candidate and of each confirmed text. */
  trials: DEFAULT_TRIALS,
  /** Standard errors of the difference a gain must clear (docs/how-it-works.md § Decisions under noise). */
  margin: DEFAULT_MARGIN,
  keepRule: DEFAULT_KEEP_RULE,
} as const;

export interface IterateOptions {
  project: string;
  skill: string | undefined;
  queueFile: string | undefined;
  perSkillBudgetMs: number;
  perSkillIterations: number;
  /** `--skip-list` extension (the embedded list is always added). */
  skipList: string[];
  calibrate: boolean;
  dryRun: boolean;
  mode: ScoreMode;
  /** Concurrent renders/grades across scenarios (default ITERATE_DEFAULTS.concurrency). */
  concurrency: number;
  /** Hard per-iteration scoring cap (default ITERATE_DEFAULTS.iterationTimeoutMs). */
  iterationTimeoutMs: number;
  /** Parent folder of `worktree_skill-iterate-*` (default: the home directory; `$RUNNER_TEMP` in the Action). */
  worktreeHome: string;
  /** Stop between iterations once the run's estimated cost reaches this (undefined: no budget). */
  maxCostUsd: number | undefined;
  /**
   * The night budget (`--night-budget`, the `night-budget` input, config `nightBudgetUsd`): once the run's
   * estimated cost reaches it, no new skill starts; the skill already running finishes under its own caps.
   * The skills not started are recorded and run first next night (docs/how-it-works.md § Caps and budgets).
   */
  nightBudgetUsd?: number | undefined;
  /**
   * The cross-night-resume window: a skill whose last run is younger than this is left out of the queue.
   * Default (undefined): 24 hours, which the CLI keeps. A nightly schedule wants less: the last run is
   * recorded when a skill finishes, so tonight's start is under 24 h after last night's finish.
   */
  freshnessWindowMs?: number;
  /**
   * What a kill-switch that cannot be read means (docs/how-it-works.md § Pre-flight): `stop` (the default:
   * a switch nobody can check might be set) or `continue` (a flaky check must not end the night; say so
   * explicitly with `--kill-switch-read-error continue` or the `kill-switch-read-error` input).
   */
  killSwitchReadError?: KillSwitchReadErrorPolicy;
  /** Below this composite gain a higher final score is `no-improvement` (default ITERATE_DEFAULTS.minGain). */
  minGain?: number | undefined;
  /** Independent draws per measurement (default ITERATE_DEFAULTS.trials; `--trials`, `trials`). */
  trials?: number | undefined;
  /** Standard errors a gain must clear (default ITERATE_DEFAULTS.margin; `--margin`, `margin`). */
  margin?: number | undefined;
  /** `noise-aware` (default) or `original` (`--keep-rule`, `keepRule`, input `keep-rule`). */
  keepRule?: KeepRule | undefined;
  /**
   * Structural-metric settings from the config (`structural` in skillclimb.config.json): the line limit, the
   * banned phrases, and the required sections a skill without evals/required_sections.json uses.
   */
  structural?: StructuralSettings | undefined;
  /** The `skills` setting: globs of skill folders (default DEFAULT_SKILLS_GLOBS, docs/how-it-works.md § The queue). */
  skills?: readonly string[] | undefined;
  /**
   * The options as the operator typed them (`--project`, `--skills`, `--mode`): every command the plan,
   * the messages and the summary print carries them, so it works when pasted (docs/cli.md § Printed
   * commands). Undefined: nothing to carry.
   */
  command?: CommandSetting | undefined;
  /** Queue skills that ran within the freshness window too (`--ignore-freshness`). */
  ignoreFreshness?: boolean | undefined;
}

export type KillSwitchReadErrorPolicy = 'stop' | 'continue';
export const KILL_SWITCH_READ_ERROR_POLICIES: readonly KillSwitchReadErrorPolicy[] = ['stop', 'continue'];
