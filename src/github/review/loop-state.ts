/**
 * What the App keeps in its sticky comment (docs/how-it-works.md § Review state, memory and receipts):
 * its own bookkeeping — run id, phase, the check run, trigger comments already handled, heads it pushed,
 * pending checkpoint answers, one row per round — next to the review engine's own state, which the App
 * stores without looking inside. Everything is bounded so the comment stays under GitHub's limit.
 */
import { z } from 'zod';
import { DIFFICULTIES, DismissedWeaknessSchema, FIX_MODES, PRESETS } from '../../core/review/state.js';
import type { Difficulty, FixMode, Preset } from '../../core/review/state.js';
import { CHECK_CONCLUSIONS } from './check-runs.js';
import { inertInline } from '../../core/text/untrusted-text.js';

export const PHASES = [
  /** No loop has run on this pull request yet (a note kept before the first start). */
  'idle',
  'running',
  'waiting-fix',
  'waiting-checkpoint',
  'acquitted',
  'gave-up',
  /** The last review passed the head, but its reviewer shares the executor's model family: no approval. */
  'not-independent',
  /** `fix: none`: one review, no fix, and so no acquittal. */
  'reviewed',
  'stopped',
  'closed',
  'failed',
  'interrupted',
] as const;
export type Phase = (typeof PHASES)[number];

/** Phases in which the loop is over: a new `/review-loop` starts a fresh run. */
export const FINISHED_PHASES: readonly Phase[] = [
  'idle',
  'acquitted',
  'gave-up',
  'not-independent',
  'reviewed',
  'stopped',
  'closed',
  'failed',
];

/** Trigger comments remembered as handled (a redelivery of an older one is also older than the loop). */
const HANDLED_LIMIT = 100;
const PUSHED_LIMIT = 50;
const ROUNDS_LIMIT = 40;
/** Dismissed findings kept (each a title, a file and a reason of at most 200 characters). */
export const DISMISSALS_LIMIT = 20;

/**
 * How a round's review is filed on GitHub (docs/app.md § Configuration, `review_event`): `comment` files
 * every review as a comment, and its heading says what the reviewer found without claiming a GitHub review
 * state; `approve` files a passing round as an approval and a round that asks for changes as "changes
 * requested", so GitHub's state of the review and its heading agree and the App's review counts under
 * branch protection.
 */
export const REVIEW_EVENT_MODES = ['comment', 'approve'] as const;
type ReviewEventMode = (typeof REVIEW_EVENT_MODES)[number];

/** What one loop runs with, after command options over the repository file over the App's defaults. */
export interface LoopSettings {
  /** Unset: chosen by the model keys in the App's environment (src/app/engine-models.ts). */
  reviewerModel?: string | undefined;
  executorModel?: string | undefined;
  difficulty: Difficulty;
  rounds: number;
  fix: FixMode;
  checkpoint: boolean;
  preset: Preset;
  /** How each round's PR review is filed (`review_event`, docs/app.md § Configuration). */
  reviewEvent: ReviewEventMode;
  allowedRoles: string[];
  fixPaths: string[];
  /** `reviewer_skill`: the reviewer skill's folder, read from the default branch; unset: the default folder. */
  reviewerSkill?: string | undefined;
  budget: { maxTokens: number; maxCostUsd: number };
}

const LoopSettingsSchema = z.object({
  reviewerModel: z.string().optional(),
  executorModel: z.string().optional(),
  difficulty: z.enum(DIFFICULTIES),
  rounds: z.number().int().positive(),
  fix: z.enum(FIX_MODES),
  checkpoint: z.boolean(),
  preset: z.enum(PRESETS),
  // A state written before the modes were named kept GitHub's event: each reads as `comment`, the mode
  // that never approves (an approval is given only by an operator's choice).
  reviewEvent: z.preprocess(
    (value) => (value === 'COMMENT' || value === 'REQUEST_CHANGES' ? 'comment' : value),
    z.enum(REVIEW_EVENT_MODES),
  ),
  allowedRoles: z.array(z.string()),
  fixPaths: z.array(z.string()),
  reviewerSkill: z.string().optional(),
  budget: z.object({ maxTokens: z.number(), maxCostUsd: z.number() }),
});

export const RoundRowSchema = z.object({
  round: z.number().int().positive(),
  head: z.string(),
  score: z.number().nullable(),
  verdict: z.string(),
  /** Up to three weakness titles, already cut short. */
  weaknesses: z.array(z.string()),
  action: z.string(),
  reviewUrl: z.string().nullable(),
});
export type RoundRow = z.infer<typeof RoundRowSchema>;

export const CheckRefSchema = z.object({
  id: z.number(),
  headSha: z.string(),
  url: z.string(),
  /** Whether the App already completed it (a completed check is never reopened: a new one is made). */
  completed: z.boolean(),
  /**
   * How it completed (null while open; absent in a state written before it was kept): a completed
   * `action_required` check on a replaced head is superseded too (docs/how-it-works.md § The App).
   */
  conclusion: z.enum(CHECK_CONCLUSIONS).nullable().optional(),
  /** The run it belongs to: one check per head per run (absent in a state written before it was kept). */
  runId: z.string().optional(),
});
export type CheckRef = z.infer<typeof CheckRefSchema>;

export const AppLoopStateSchema = z.object({
  v: z.literal(1),
  runId: z.string().nullable(),
  phase: z.enum(PHASES),
  settings: LoopSettingsSchema.nullable(),
  startedBy: z.string().nullable(),
  updatedAt: z.string(),
  /** The head SHA the loop is on (the last one reviewed or pushed). */
  head: z.string().nullable(),
  check: CheckRefSchema.nullable(),
  handledComments: z.array(z.number()),
  pushedHeads: z.array(z.string()),
  /** Instructions from `/review-loop note: <text>` for the next fix, until the engine takes them. */
  guidance: z.string().nullable(),
  rounds: z.array(RoundRowSchema),
  parkIssue: z.number().nullable(),
  message: z.string().nullable(),
  /** The review engine's own state (its REVIEW_STATE fields and reviewer memory), opaque here. */
  review: z.unknown().optional(),
  /** Findings the maintainers dismissed with `/review-loop dismiss`: left out of every later round. */
  dismissals: z.array(DismissedWeaknessSchema).max(DISMISSALS_LIMIT).default([]),
  /** Whether the App posted inline finding comments here: only then are review threads read. */
  inlineThreads: z.boolean().default(false),
  /**
   * What the App said when this comment's own record could not be read and it rebuilt it (record-rebuild.ts);
   * kept until a new loop starts.
   */
  record: z.string().nullable().default(null),
});
export type AppLoopState = z.infer<typeof AppLoopStateSchema>;

export function parseLoopState(raw: unknown): AppLoopState | undefined {
  const parsed = AppLoopStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

export function emptyLoopState(now: Date): AppLoopState {
  return {
    v: 1,
    runId: null,
    phase: 'idle',
    settings: null,
    startedBy: null,
    updatedAt: now.toISOString(),
    head: null,
    check: null,
    handledComments: [],
    pushedHeads: [],
    guidance: null,
    rounds: [],
    parkIssue: null,
    message: null,
    review: undefined,
    dismissals: [],
    inlineThreads: false,
    record: null,
  };
}

export function rememberComment(state: AppLoopState, commentId: number): AppLoopState {
  if (state.handledComments.includes(commentId)) return state;
  return { ...state, handledComments: [...state.handledComments, commentId].slice(-HANDLED_LIMIT) };
}

export function rememberPushedHead(state: AppLoopState, sha: string): AppLoopState {
  if (state.pushedHeads.includes(sha)) return state;
  return { ...state, pushedHeads: [...state.pushedHeads, sha].slice(-PUSHED_LIMIT) };
}

export function withRounds(state: AppLoopState, rows: readonly RoundRow[]): AppLoopState {
  return { ...state, rounds: [...rows].sort((a, b) => a.round - b.round).slice(-ROUNDS_LIMIT) };
}

const PHASE_LINES: Record<Exclude<Phase, 'acquitted'>, string> = {
  idle: 'No loop is running; start one with `/review-loop`.',
  running: 'A round is running.',
  'waiting-fix':
    'Waiting for a fix: push it to the branch and the next round starts (`/review-loop continue` after a push the App missed).',
  'waiting-checkpoint':
    'Waiting at the checkpoint: comment `/review-loop go`, `/review-loop skip 1,3`, `/review-loop stop`, or `/review-loop note: <what the fix should do>`.',
  // What was left (rounds, budget, a round without a verdict) is the message's: the status says only the end.
  'gave-up': 'Gave up: the loop ended without an approval.',
  'not-independent':
    'Not approved: the last review passed the change, but its reviewer is not independent of the executor.',
  reviewed: 'Reviewed once: with `fix: none` the loop makes no fix and ends after one review.',
  stopped: 'Stopped.',
  closed: 'The pull request was closed; the loop ended.',
  failed: 'The loop failed; comment `/review-loop continue` to retry.',
  interrupted: 'The App restarted during a round; comment `/review-loop continue` (or push) to resume.',
};

/**
 * The status line of a phase. An approval names the head it was for (docs/how-it-works.md § The App): a
 * head pushed after it is never called approved.
 */
function phaseLine(state: AppLoopState): string {
  if (state.phase !== 'acquitted') return PHASE_LINES[state.phase];
  return state.head
    ? `Approved: the reviewer passed \`${state.head.slice(0, 7)}\`.`
    : 'Approved: the reviewer passed the head it reviewed last.';
}

/** The settings as the sticky shows them: `fix: none` is one review, not a number of rounds. */
function settingsLine(s: LoopSettings): string {
  const review = s.reviewEvent === 'approve' ? ', reviews approve or request changes' : '';
  if (s.fix === 'none') {
    return `**Settings:** difficulty ${s.difficulty}, one review and no fix (fix none), preset ${s.preset}${review}`;
  }
  return `**Settings:** difficulty ${s.difficulty}, up to ${s.rounds} rounds, fix ${s.fix}, checkpoint ${s.checkpoint ? 'on' : 'off'}, preset ${s.preset}${review}`;
}

/** How a check run stands, in a few words. */
const CHECK_WORDS: Record<string, string> = {
  success: 'passed',
  failure: 'failed',
  action_required: 'waits for you',
  neutral: 'superseded',
  cancelled: 'cancelled',
};

/**
 * What the state records beyond the status, shown so that every write of the comment shows what it
 * changed (docs/how-it-works.md § The App, "Writes per round"): this run's check run, the findings the
 * maintainers dismissed, a note waiting for the next fix.
 */
function recordLines(state: AppLoopState): string[] {
  const lines: string[] = [];
  const check = state.check;
  if (check && (!check.runId || check.runId === state.runId)) {
    const how = check.completed ? (CHECK_WORDS[check.conclusion ?? ''] ?? 'completed') : 'in progress';
    const on = `on \`${check.headSha.slice(0, 7)}\``;
    const link = /^https:\/\/[^\s()<>[\]`]+$/.test(check.url) ? `[${on}](${check.url})` : on;
    lines.push(`**Check run:** ${link}, ${how}.`);
  }
  if (state.dismissals.length > 0) {
    const listed = state.dismissals.map((d) => `${inertInline(d.title, 120)} (by ${inertInline(d.by, 40)})`);
    lines.push(`**Dismissed, left out of later rounds:** ${listed.join('; ')}.`);
  }
  if (state.guidance?.trim()) lines.push('**A note waits for the next fix.**');
  if (state.record) lines.push(`**Record:** ${inertInline(state.record, 600)}`);
  return lines;
}

function row(r: RoundRow, full: boolean): string {
  const score = r.score === null ? '–' : `${r.score}/10`;
  const review = r.reviewUrl ? `[review](${r.reviewUrl})` : '–';
  const weaknesses =
    full && r.weaknesses.length > 0 ? r.weaknesses.map((w) => inertInline(w, 120)).join('; ') : '–';
  return `| ${r.round} | \`${r.head.slice(0, 7)}\` | ${score} | ${r.verdict} | ${weaknesses} | ${inertInline(r.action, 300)} | ${review} |`;
}

/**
 * The visible log: status, settings, one row per round. Older rounds are condensed first (their full text
 * lives in their reviews), then left out, so the whole comment fits `budget` characters.
 */
export function renderLoopLog(state: AppLoopState, budget = 50_000): string {
  const head = [
    '## review-loop',
    '',
    `**Status:** ${phaseLine(state)}${state.message ? ` ${inertInline(state.message, 400)}` : ''}`,
  ];
  if (state.parkIssue !== null) {
    head.push(`**Defect-park issue:** #${state.parkIssue} lists what the loop left open.`);
  }
  if (state.runId) head.push(`**Run:** \`${state.runId}\``);
  head.push(...recordLines(state));
  if (state.settings) head.push(settingsLine(state.settings));
  const table = [
    '| Round | Head | Score | Verdict | Top weaknesses | Actions | Review |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const rows = state.rounds;
  for (let fullFrom = 0; fullFrom <= rows.length; fullFrom++) {
    // Rows before `fullFrom` are condensed; try keeping as many full rows as fit.
    const lines = rows.map((r, i) => row(r, i >= fullFrom));
    const text = [...head, '', ...(rows.length > 0 ? [...table, ...lines] : ['No round has run yet.'])].join(
      '\n',
    );
    if (text.length <= budget) return text;
  }
  // Even condensed rows do not fit: keep the newest that do.
  const kept: string[] = [];
  let size = head.join('\n').length + table.join('\n').length + 200;
  for (const r of [...rows].reverse()) {
    const line = row(r, false);
    if (size + line.length + 1 > budget) break;
    kept.unshift(line);
    size += line.length + 1;
  }
  const omitted = rows.length - kept.length;
  return [
    ...head,
    '',
    `_${omitted} earlier rounds left out; each round's full text is in its review._`,
    '',
    ...table,
    ...kept,
  ].join('\n');
}
