/**
 * The hill-climb loop's bookkeeping as a pure step (docs/how-it-works.md § The hill-climb loop): what one
 * judged attempt — the baseline or an iteration (Steps A–H) — does to the loop's state, and when the loop
 * stops. src/iterate/loop/ does the I/O around it (model calls, the commit, results.tsv, the reset).
 */
import type { EditProposal } from '../model-answers.js';
import type { KeptEdit, ResultsRow } from './run-result.js';
import type { AbsoluteResult, StructuralResult } from './score-types.js';
import type { IterationOutcome } from './taxonomy.js';
import { ZERO_USAGE, addUsage, type Usage } from '../usage.js';
import { NO_NOISE, poolNoise, type NoiseEstimate, type ScenarioParts } from './noise.js';

/** Step F / Step H: three reverts in a row switch the editor to radical mode; three crashes park. */
export const RADICAL_AFTER_REVERTS = 3;
export const PARK_AFTER_CRASHES = 3;
/** The commit column of a row whose edit never reached a commit (unusable proposal, commit failure). */
export const NO_COMMIT = '-';

/** The text at the branch tip — every next edit starts from it — and what its scoring said. */
export interface KeptState {
  text: string;
  score: number;
  structural: StructuralResult;
  absolute: AbsoluteResult | null;
  /** The N=3 saturation handler confirmed all-pass for this text (gates simplification mode). */
  confirmedAllPass: boolean;
  /** scenario id → render text (for the editor's failing-render excerpt). */
  renders: Map<string, string>;
  /** How many independent draws `score` is the mean of (1 when absent: a single draw). */
  draws?: number | undefined;
}

export interface LoopState {
  /** The branch tip; undefined until a baseline scored. */
  kept: KeptState | undefined;
  /** null until a baseline scored. */
  baselineScore: number | null;
  /** Iterations judged (the baseline is not one). */
  iterations: number;
  consecutiveReverts: number;
  consecutiveCrashes: number;
  rows: ResultsRow[];
  keptEdits: KeptEdit[];
  /** Descriptions of real proposals reverted in this run, so the editor does not propose them again. */
  revertedDescriptions: string[];
  usage: Usage;
  /** The composite's within-text spread, pooled over every text measured more than once this night. */
  noise: NoiseEstimate;
}

/** One judged attempt, as its row was written to results.tsv. */
export type IterationRecord =
  | {
      kind: 'baseline';
      row: ResultsRow;
      /** Set when the baseline scored: the state the loop climbs from. */
      kept?: KeptState;
      usage: Usage;
      /** The composites of independent draws of the text, when it was measured more than once. */
      measured?: readonly number[];
      /** Each of those draws split by scenario, when known (spread.ts `withinTextSquares`). */
      measuredParts?: ReadonlyArray<ScenarioParts | undefined>;
    }
  | {
      kind: 'iteration';
      row: ResultsRow;
      outcome: IterationOutcome;
      /** The editor answered with a usable proposal shape (a real description, not "no edit"). */
      proposed: boolean;
      /** The edit's own description (the row's may carry a note). */
      description: string;
      /** Set when the outcome is keep: the new branch tip. */
      kept?: KeptState;
      usage: Usage;
      /** The composites of independent draws of the edited text, when it was re-measured. */
      measured?: readonly number[];
      /** Each of those draws split by scenario, when known (spread.ts `withinTextSquares`). */
      measuredParts?: ReadonlyArray<ScenarioParts | undefined>;
    };

export type LoopStopReason =
  | 'iteration cap'
  | 'wall-clock budget'
  | 'consecutive crashes'
  | 'cost budget'
  /** The baseline render answered `AMBIGUOUS:`: the skill cannot be judged, so it is not iterated. */
  | 'baseline ambiguous';

export interface LoopLimits {
  perSkillIterations: number;
  perSkillBudgetMs: number;
  maxCostUsd: number | undefined;
}

export function initialLoopState(): LoopState {
  return {
    kept: undefined,
    baselineScore: null,
    iterations: 0,
    consecutiveReverts: 0,
    consecutiveCrashes: 0,
    rows: [],
    keptEdits: [],
    revertedDescriptions: [],
    usage: ZERO_USAGE,
    noise: NO_NOISE,
  };
}

/** Adds spend that belongs to no judged attempt (an interrupted iteration's calls). */
export function withUsage(state: LoopState, usage: Usage): LoopState {
  return { ...state, usage: addUsage(state.usage, usage) };
}

/** The loop's state after one judged attempt: its row recorded, then keep, revert or crash applied. */
export function stepLoop(state: LoopState, record: IterationRecord): LoopState {
  const next: LoopState = {
    ...state,
    rows: [...state.rows, record.row],
    usage: addUsage(state.usage, record.usage),
    noise: record.measured ? poolNoise(state.noise, record.measured, record.measuredParts) : state.noise,
  };
  if (record.kind === 'baseline') {
    if (record.kept) return { ...next, kept: record.kept, baselineScore: record.kept.score };
    // An AMBIGUOUS baseline ends the loop without counting as a crash; any other failure is one.
    if (record.row.status === 'crash') return { ...next, consecutiveCrashes: state.consecutiveCrashes + 1 };
    return next;
  }
  const iteration = state.iterations + 1;
  if (record.outcome === 'keep' && record.kept) {
    const highWater = state.kept?.score ?? record.kept.score;
    return {
      ...next,
      iterations: iteration,
      kept: record.kept,
      keptEdits: [
        ...state.keptEdits,
        {
          iteration,
          commit: record.row.commit,
          description: record.description,
          score: record.kept.score,
          delta: record.kept.score - highWater,
        },
      ],
      consecutiveReverts: 0,
      consecutiveCrashes: 0,
    };
  }
  if (record.outcome === 'revert') {
    return {
      ...next,
      iterations: iteration,
      consecutiveReverts: state.consecutiveReverts + 1,
      consecutiveCrashes: 0,
      // Only real proposals: "no edit" tells the editor nothing about what not to try again.
      revertedDescriptions: record.proposed
        ? [...state.revertedDescriptions, record.description]
        : state.revertedDescriptions,
    };
  }
  return { ...next, iterations: iteration, consecutiveCrashes: state.consecutiveCrashes + 1 };
}

/**
 * Why the loop stops before its next attempt, if it does. Baseline attempts are not iterations: before the
 * baseline scored (`countIterations` false) only the crash, budget and cost caps apply. `runUsageBefore`:
 * what the run spent before this skill (the cost budget is per run).
 */
export function loopStopReason(
  state: LoopState,
  limits: LoopLimits,
  at: { elapsedMs: number; runUsageBefore: Usage; countIterations: boolean },
): LoopStopReason | undefined {
  if (state.consecutiveCrashes >= PARK_AFTER_CRASHES) return 'consecutive crashes';
  if (at.countIterations && state.iterations >= limits.perSkillIterations) return 'iteration cap';
  if (at.elapsedMs >= limits.perSkillBudgetMs) return 'wall-clock budget';
  if (limits.maxCostUsd !== undefined) {
    const spent = addUsage(at.runUsageBefore, state.usage).costUsd;
    if (spent !== null && spent >= limits.maxCostUsd) return 'cost budget';
  }
  return undefined;
}

export type ApplyResult = { ok: true; text: string } | { ok: false; reason: string };

function occurrences(text: string, needle: string): number {
  let count = 0;
  // Overlapping matches count too: "aa" in "aaa" is ambiguous, not unique.
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) count++;
  return count;
}

/** Step B: replace `old_string`, which must occur exactly once, by `new_string` (no `$` patterns). */
export function applyEdit(text: string, edit: Pick<EditProposal, 'old_string' | 'new_string'>): ApplyResult {
  const count = occurrences(text, edit.old_string);
  if (count !== 1) {
    return { ok: false, reason: `old_string occurs ${count} times in SKILL.md (must be exactly once)` };
  }
  if (edit.old_string === edit.new_string) return { ok: false, reason: 'the edit changes nothing' };
  const at = text.indexOf(edit.old_string);
  return { ok: true, text: text.slice(0, at) + edit.new_string + text.slice(at + edit.old_string.length) };
}
