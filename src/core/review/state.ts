/**
 * REVIEW_STATE.json and the rules that decide, at the start of an invocation, whether it is a fresh run or
 * the next round of one in progress (docs/how-it-works.md § Review state, memory and receipts). The
 * original's fields keep their names and meaning (`run_id`, `round`, `threadId`, `status`, `last_score`,
 * `last_verdict`, `pending_experiments`, `timestamp`, `difficulty`, the model identities and
 * `family_relation`); the rest is what a run needs to pause and resume across invocations.
 */
import { z } from 'zod';
import { EFFORTS, SEVERITIES, VERDICTS } from './answers.js';
import type { ModelFamily } from '../families.js';
import type { FamilyRelation } from './gate.js';
import type { Usage } from '../usage.js';

export const DIFFICULTIES = ['medium', 'hard', 'nightmare'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export const FIX_MODES = ['auto', 'manual', 'none'] as const;
export type FixMode = (typeof FIX_MODES)[number];
export const PRESETS = ['code', 'research'] as const;
export type Preset = (typeof PRESETS)[number];

/** The original's MAX_ROUNDS: the rounds before the loop gives up, by default, in the CLI and the App. */
export const DEFAULT_MAX_ROUNDS = 4;

/** The original's rule: an in-progress state older than this is abandoned (fresh run, file deleted). */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** `run_<YYYYMMDD>_<8 hex>`. */
export const RUN_ID_PATTERN = /^run_\d{8}_[0-9a-f]{8}$/;

/** The run's date in UTC, so the same instant gives the same id on every machine. */
export function runIdFor(now: Date, hex8: string): string {
  if (!/^[0-9a-f]{8}$/.test(hex8))
    throw new Error(`run id suffix must be 8 lowercase hex digits, got "${hex8}"`);
  const date = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `run_${date}_${hex8}`;
}

/** The original's log line for a legacy state file without `run_id`, verbatim. */
export function legacyRunIdLine(runId: string): string {
  return `No run_id in legacy state file; assigned ${runId} for this resume.`;
}

/**
 * The original logs "Recovered from context compaction. Resuming at Round N." — a CLI process or an App
 * event does not compact, so the line says what actually happened (`stateLocation`: where the state was
 * read) and keeps the original's tail for anyone grepping.
 */
export function resumeLine(runId: string, round: number, stateLocation: string): string {
  return `Recovered ${runId} from ${stateLocation}. Resuming at Round ${round}.`;
}

const UsageSchema = z.object({
  calls: z.number().default(0),
  inputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  cacheReadTokens: z.number().default(0),
  cacheWriteTokens: z.number().default(0),
  costUsd: z.number().nullable().default(null),
});

const WeaknessStateSchema = z.object({
  rank: z.number().int(),
  title: z.string(),
  severity: z.enum(SEVERITIES),
  detail: z.string(),
  minimum_fix: z.string(),
  effort: z.enum(EFFORTS),
  file: z.string().nullable(),
  line: z.number().nullable(),
  source: z.enum(['reviewer', 'verifier']),
  resolved_by_debate: z.boolean(),
});
export type RankedWeakness = z.infer<typeof WeaknessStateSchema>;

/** A finding a maintainer dismissed (a `/review-loop dismiss` or a "won't fix" reply): never raised again. */
export const DismissedWeaknessSchema = z.object({
  title: z.string(),
  file: z.string().nullable(),
  /** Where the finding was (absent in a record written before it was kept): a nearby line counts. */
  line: z.number().nullable().optional(),
  reason: z.string(),
  by: z.string(),
});
export type DismissedWeakness = z.infer<typeof DismissedWeaknessSchema>;

const RoundVerdictSchema = z.union([z.enum(VERDICTS), z.literal('unavailable')]);

/** One finished (or paused) round, as kept in the state so every invocation can report the whole run. */
export const RoundSummarySchema = z.object({
  round: z.number().int().positive(),
  head: z.string(),
  score: z.number().nullable(),
  verdict: RoundVerdictSchema,
  positive: z.boolean(),
  seconds: z.number(),
  usage: UsageSchema,
  weaknesses: z.array(WeaknessStateSchema),
  commit: z.string().nullable().default(null),
});
export type RoundSummary = z.infer<typeof RoundSummarySchema>;

/**
 * A round's review as it was published before the run's state recorded the round's end (the App: the
 * review on the pull request, read back from its hidden block). A resumed run takes it as the round's
 * verdict and goes on from the step after the review — the fix of the findings it names — instead of
 * reviewing the head again (docs/how-it-works.md § The App, "A resumed loop").
 */
export const PublishedRoundSchema = z.object({
  round: z.number().int().positive(),
  head: z.string(),
  score: z.number().nullable(),
  verdict: RoundVerdictSchema,
  /** Whether the round passed the stop gate (the confirmation included) when it was published. */
  positive: z.boolean(),
  summary: z.string(),
  weaknesses: z.array(WeaknessStateSchema),
});
export type PublishedRound = z.infer<typeof PublishedRoundSchema>;

/** A round paused at the checkpoint: reviewed, debated, waiting for the person before Phase C. */
export const PendingRoundSchema = z.object({
  round: z.number().int().positive(),
  head: z.string(),
  score: z.number().nullable(),
  verdict: RoundVerdictSchema,
  summary: z.string(),
  raw: z.string(),
  verifier_raw: z.string().nullable(),
  memory_update: z.string(),
  weaknesses: z.array(WeaknessStateSchema),
  debate: z.string().nullable(),
  seconds: z.number(),
  usage: UsageSchema,
  started_at: z.string(),
});
export type PendingRound = z.infer<typeof PendingRoundSchema>;

export const SettingsSchema = z.object({
  max_rounds: z.number().int().positive(),
  fix: z.enum(FIX_MODES),
  checkpoint: z.boolean(),
  preset: z.enum(PRESETS),
});
export type StateSettings = z.infer<typeof SettingsSchema>;

/**
 * The state file as read: every field of ours optional, since a legacy file (or the original skill's own)
 * has only some of them; unknown fields are kept.
 */
export const StoredStateSchema = z
  .object({
    run_id: z.string().optional(),
    round: z.number().int().nonnegative().catch(0).default(0),
    threadId: z.string().nullable().optional(),
    status: z.string().optional(),
    last_score: z.number().nullable().optional(),
    last_verdict: z.string().nullable().optional(),
    pending_experiments: z.array(z.unknown()).optional(),
    timestamp: z.string().optional(),
    difficulty: z.enum(DIFFICULTIES).optional().catch(undefined),
    trace_id: z.string().nullable().optional(),
    base: z.string().nullable().optional(),
    reviewed_head: z.string().nullable().optional(),
    awaiting: z.enum(['fix', 'checkpoint']).nullable().optional().catch(null),
    pending: PendingRoundSchema.nullable().optional().catch(null),
    settings: SettingsSchema.optional().catch(undefined),
    history: z.array(RoundSummarySchema).optional().catch([]),
    usage: UsageSchema.optional().catch(undefined),
    outcome: z.string().nullable().optional(),
    dismissed: z.array(DismissedWeaknessSchema).optional().catch([]),
  })
  .loose();
export type StoredState = z.infer<typeof StoredStateSchema>;

export interface ModelIdentity {
  /** `provider:model`. */
  id: string;
  family: ModelFamily;
}

/** What the engine writes (the original's fields first, then skillclimb's). */
export interface ReviewState {
  run_id: string;
  /** The last round whose Phase E completed (0 before the first). */
  round: number;
  /** The original kept a reviewer thread id; every call here is a fresh request, so it is always null. */
  threadId: null;
  status: 'in_progress' | 'completed';
  last_score: number | null;
  last_verdict: string | null;
  pending_experiments: [];
  timestamp: string;
  difficulty: Difficulty;
  reviewer_model: string;
  reviewer_family: ModelFamily;
  executor_model: string;
  executor_family: ModelFamily;
  family_relation: FamilyRelation;
  /** The trace folder under `.aris/traces/` (e.g. `auto-review-loop/2026-11-30_run01`), once created. */
  trace_id: string | null;
  /** The base commit the change is measured from (merge base), and the head the last round reviewed. */
  base: string | null;
  reviewed_head: string | null;
  /** What a paused run waits for: the person's fix (`--fix manual`) or a checkpoint answer. */
  awaiting: 'fix' | 'checkpoint' | null;
  pending: PendingRound | null;
  settings: StateSettings;
  history: RoundSummary[];
  usage: Usage;
  /** How a completed run ended (the outcome status), null while in progress. */
  outcome: string | null;
  /** Findings the maintainers dismissed during this run, already written to the reviewer's memory. */
  dismissed?: DismissedWeakness[] | undefined;
}

export type StartDecision =
  | { kind: 'fresh'; reason: 'no-state' | 'completed' | 'stale' | 'unreadable-status'; deleteState: boolean }
  | { kind: 'resume'; runId: string | undefined; state: StoredState };

/**
 * The original's initialization rules: no state → fresh; `completed` → fresh (old receipts stay as an
 * audit trail); `in_progress` older than 24 h → fresh and the file deleted; `in_progress` within 24 h →
 * resume at the next round. A state with another status, or no readable timestamp, is treated as stale:
 * resuming on a guess could bind a new verdict to an old run.
 */
export function decideStart(
  state: StoredState | undefined,
  now: Date,
  staleAfterMs = STALE_AFTER_MS,
): StartDecision {
  if (state === undefined) return { kind: 'fresh', reason: 'no-state', deleteState: false };
  if (state.status === 'completed') return { kind: 'fresh', reason: 'completed', deleteState: false };
  if (state.status !== 'in_progress')
    return { kind: 'fresh', reason: 'unreadable-status', deleteState: true };
  const at = state.timestamp === undefined ? Number.NaN : Date.parse(state.timestamp);
  if (!Number.isFinite(at) || now.getTime() - at > staleAfterMs) {
    return { kind: 'fresh', reason: 'stale', deleteState: true };
  }
  const runId = state.run_id !== undefined && RUN_ID_PATTERN.test(state.run_id) ? state.run_id : undefined;
  return { kind: 'resume', runId, state };
}

/** Why a fresh run started, for the log. */
export function freshReason(decision: Extract<StartDecision, { kind: 'fresh' }>): string {
  switch (decision.reason) {
    case 'no-state':
      return 'no review state: fresh run';
    case 'completed':
      return 'the previous run completed: fresh run (its receipts stay in ACQUITTAL_LOG.jsonl as an audit trail)';
    case 'stale':
      return 'the review state in progress is older than 24 hours: abandoned, fresh run';
    case 'unreadable-status':
      return 'the review state has no usable status: fresh run';
  }
}

export interface SettingsChoice {
  maxRounds: number;
  fix: FixMode;
  checkpoint: boolean;
  preset: Preset;
  difficulty: Difficulty;
}

/**
 * A resumed run keeps its own settings unless the caller set one explicitly: `skillclimb review` after a
 * manual fix must not fall back to `--fix auto`. `given(name)` tells whether the caller chose that value.
 */
export function resumeSettings(
  state: StoredState,
  chosen: SettingsChoice,
  given: (name: keyof SettingsChoice) => boolean,
): SettingsChoice {
  const saved = state.settings;
  const pick = <K extends keyof SettingsChoice>(name: K, fromState: SettingsChoice[K] | undefined) =>
    given(name) || fromState === undefined ? chosen[name] : fromState;
  return {
    maxRounds: pick('maxRounds', saved?.max_rounds),
    fix: pick('fix', saved?.fix),
    checkpoint: pick('checkpoint', saved?.checkpoint),
    preset: pick('preset', saved?.preset),
    difficulty: pick('difficulty', state.difficulty),
  };
}
