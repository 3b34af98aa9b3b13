/**
 * The Markdown of one round's PR review (docs/how-it-works.md § Review rounds), in a reviewer's plain
 * words: the decision (approved, changes requested, not yet) with the score and the pass rule, the
 * reviewer's summary, the ranked weaknesses each with its severity, a link to its place in the PR's diff,
 * the minimum fix and — for a finding that stands from an earlier round — since when and its thread, the
 * fixes the executor proposes (manual mode: suggestions the author applies), the debate (hard, nightmare)
 * as Markdown, and the round's time and cost. The model's raw answer is not shown (every field of it that
 * matters is, in words; the App's log keeps it), nor the reviewer's memory (the sticky state keeps it).
 * Every piece of model text goes through src/core/text/untrusted-text.ts and the whole body is bounded under GitHub's
 * limit; an approving review carries a hidden block (run id, round, models, families, score, verdict,
 * head SHA) that any later reader can check against the check run.
 */
import { createHash } from 'node:crypto';
import { counted } from '../../core/text/counted.js';
import { fenceFor } from '../../core/text/neutralise.js';
import { redactSecrets, redactValue } from '../../core/text/redact.js';
import { PublishedRoundSchema, type PublishedRound } from '../../core/review/state.js';
import { BODY_LIMIT, clip, inertBlock, inertInline, postable } from '../../core/text/untrusted-text.js';

/** The reviewer's verdict; `unavailable` when it gave no usable answer twice (REVIEW_UNAVAILABLE). */
export type Verdict = 'ready' | 'almost' | 'not ready' | 'unavailable';

/** What the round means for the author, in a reviewer's words. */
export type Decision = 'approved' | 'changes requested' | 'not yet';

/** The pass rule, said once per review (docs/how-it-works.md § Independence and the stop gate). */
/** The stop gate in a reviewer's words (docs/how-it-works.md § Approval under noise). */
export const PASS_RULE =
  'A change passes at ≥ 6/10 with the verdict ready or almost, no critical or major finding left, and a ' +
  'fresh second review that finds none.';

export interface WeaknessView {
  /** The reviewer's rank (1 = most severe); what `/review-loop dismiss <n>` names. */
  rank?: number | undefined;
  title: string;
  /** critical, major or minor. */
  severity?: string | undefined;
  detail?: string | undefined;
  minimumFix: string;
  /** The reviewer's estimate of the work (trivial, small, medium, large). */
  effort?: string | undefined;
  path?: string | undefined;
  line?: number | undefined;
  /** An accepted rebuttal in the debate resolved it: shown, but not fixed. */
  resolved?: boolean | undefined;
  /**
   * The thread an earlier round opened for this same finding (src/core/review/finding-identity.ts): the
   * finding stands, so it gets no new inline comment, and the review says since when it is open.
   */
  thread?: { url: string; since: number } | undefined;
}

/** One contested weakness of the debate: the executor's rebuttal and the reviewer's ruling. */
export interface DebateEntryView {
  weakness: number;
  title: string;
  stance: string;
  argument: string;
  evidence: string;
  ruling?: { ruling: string; reason: string; required: string | null } | undefined;
}

export interface DebateView {
  entries: DebateEntryView[];
  /** Weakness ranks an accepted rebuttal resolved. */
  resolved: number[];
  /** A debate known only by its transcript (a round resumed from the checkpoint): shown line by line. */
  transcript?: string | undefined;
}

/**
 * A fix the executor proposes (manual mode): lines `startLine`–`endLine` of `path` at the head become
 * `newLines` (`startLine > endLine` inserts before `startLine`).
 */
export interface ProposedChangeView {
  path: string;
  startLine: number;
  endLine: number;
  oldLines: string[];
  newLines: string[];
}

/**
 * The hidden block an approving review carries: what the engine writes (run id, round, models, families,
 * score, verdict, trace) plus the head SHA the App binds it to; kept as data, rendered as a hidden block.
 */
export type AcquittalReceipt = Record<string, unknown> & { head_sha: string };

/** What the App shows of one round; the engine's round report maps onto it. */
export interface RoundReviewView {
  runId: string;
  round: number;
  maxRounds: number;
  headSha: string;
  reviewerModel: string;
  /** The PR's page (`https://github.com/o/r/pull/7`): file:line locations link into its diff. */
  pullUrl?: string | undefined;
  /** Null when the round had no verdict. */
  score: number | null;
  verdict: Verdict;
  /** Defaults from score and verdict: approved only when the App says so (the gate passed). */
  decision?: Decision | undefined;
  /**
   * How the review is filed on GitHub (`review_event`): `approve` files the decision as GitHub's review
   * state, so the heading names it; `comment` (the default) files a comment, so the heading says what the
   * reviewer found without naming a review state GitHub does not show.
   */
  filed?: 'comment' | 'approve' | undefined;
  /** The reviewer's summary: two or three sentences on what holds up and what does not. */
  summary?: string | undefined;
  weaknesses: WeaknessView[];
  debate?: DebateView | null | undefined;
  /** Why the round is "not yet" (e.g. the reviewer shares the executor's model family), in plain words. */
  gateNote?: string | undefined;
  /** Manual mode: the executor's proposed fixes (suggestions where they change lines of the diff). */
  proposed?: ProposedChangeView[] | undefined;
  /** The round's time and model cost so far (`costUsd` null when a model has no known price). */
  seconds?: number | undefined;
  usage?: { calls: number; tokens: number; costUsd: number | null } | undefined;
  receipt?: AcquittalReceipt | undefined;
  /**
   * The round as the engine decided it (verdict, whether it passed, the findings in full), carried in a
   * hidden block so a resumed loop reads the round back instead of reviewing the head again.
   */
  record?: PublishedRound | undefined;
}

const RECEIPT_PREFIX = '<!-- skillclimb:review-loop-receipt ';
const ROUND_PREFIX = '<!-- skillclimb:review-loop-round ';
/** Findings a round block keeps (more than a fix takes: MAX_FIXES_PER_ROUND), and their texts' lengths. */
const BLOCK_FINDINGS = 12;

/**
 * The hidden block every round review carries (docs/how-it-works.md § The App, "A resumed loop"): the
 * run, the round and its verdict, and the findings the fix works from, bounded and redacted before they
 * are encoded (the request sink redacts hidden blocks decoded, too). base64 JSON, as the receipt.
 */
export function roundBlock(runId: string, record: PublishedRound): string {
  const weaknesses = record.weaknesses.slice(0, BLOCK_FINDINGS).map((w) => ({
    ...w,
    title: clip(w.title, 300),
    detail: clip(w.detail, 800),
    minimum_fix: clip(w.minimum_fix, 600),
    file: w.file === null ? null : clip(w.file, 300),
  }));
  const data = redactValue({ run: runId, ...record, summary: clip(record.summary, 1500), weaknesses });
  return `${ROUND_PREFIX}${Buffer.from(JSON.stringify(data), 'utf8').toString('base64')} -->`;
}

const ROUND_BLOCK = /^<!-- skillclimb:review-loop-round ([A-Za-z0-9+/=]+) -->$/m;

/** The run id and round of a review's hidden round block, or undefined (none, or one that does not read). */
export function parseRoundBlock(
  body: string | null | undefined,
): { runId: string; record: PublishedRound } | undefined {
  const match = ROUND_BLOCK.exec(body ?? '');
  if (!match) return undefined;
  try {
    const data = JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as { run?: unknown };
    const record = PublishedRoundSchema.safeParse(data);
    if (typeof data.run !== 'string' || !record.success) return undefined;
    return { runId: data.run, record: record.data };
  } catch {
    return undefined;
  }
}

/** base64 has no `-`, `>` or `<`: nothing in a receipt can end the comment early. */
export function receiptBlock(receipt: AcquittalReceipt): string {
  return `${RECEIPT_PREFIX}${Buffer.from(JSON.stringify(receipt), 'utf8').toString('base64')} -->`;
}

/** GitHub's anchor for a file in a PR's "Files changed" tab: `diff-` + the SHA-256 of its path. */
export function diffAnchor(path: string, line?: number): string {
  const hash = createHash('sha256').update(path, 'utf8').digest('hex');
  return `diff-${hash}${line ? `R${line}` : ''}`;
}

/** `https://github.com/o/r/pull/7/files#diff-…R12`: the line in the PR's diff (right side, the head). */
export function diffLink(pullUrl: string, path: string, line?: number): string {
  return `${pullUrl.replace(/\/+$/, '')}/files#${diffAnchor(path, line)}`;
}

function locationText(path: string, line: number | undefined): string {
  return inertInline(line ? `${path}:${line}` : path, 200);
}

/** `[src/a.ts:3](…#diff-…R3)` — the text is inert, the address the App's own. */
function location(view: Pick<RoundReviewView, 'pullUrl'>, weakness: WeaknessView): string {
  if (!weakness.path) return '';
  const text = locationText(weakness.path, weakness.line);
  return view.pullUrl ? `[${text}](${diffLink(view.pullUrl, weakness.path, weakness.line)})` : text;
}

export function decisionOf(view: Pick<RoundReviewView, 'decision' | 'score' | 'verdict'>): Decision {
  if (view.decision) return view.decision;
  return view.score === null ? 'not yet' : 'changes requested';
}

/** The heading's word for the decision: a GitHub review state only where the review is filed as one. */
function headingDecision(decision: Decision, filed: 'comment' | 'approve' | undefined): string {
  if (filed === 'approve' || decision === 'not yet') return decision;
  return decision === 'approved' ? 'passed' : 'changes needed';
}

/**
 * The GitHub event a review is filed with (docs/app.md § Configuration, `review_event`): with `approve`,
 * the decision itself; with `comment`, always a comment. A round without a decision is a comment.
 */
export function reviewEventOf(
  decision: Decision,
  filed: 'comment' | 'approve' | undefined,
): 'COMMENT' | 'APPROVE' | 'REQUEST_CHANGES' {
  if (filed !== 'approve' || decision === 'not yet') return 'COMMENT';
  return decision === 'approved' ? 'APPROVE' : 'REQUEST_CHANGES';
}

function scoreText(view: RoundReviewView): string {
  return view.score === null
    ? 'the reviewer gave no usable answer'
    : `${Number.isInteger(view.score) ? view.score : view.score.toFixed(1)}/10, ${view.verdict}`;
}

function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function costLine(view: RoundReviewView): string | undefined {
  if (view.seconds === undefined && view.usage === undefined) return undefined;
  const parts: string[] = [];
  if (view.seconds !== undefined) parts.push(formatSeconds(view.seconds));
  if (view.usage) {
    parts.push(counted(view.usage.calls, 'model call'), counted(view.usage.tokens, 'token'));
    parts.push(view.usage.costUsd === null ? 'cost unknown' : `$${view.usage.costUsd.toFixed(4)}`);
  }
  return parts.join(' · ');
}

/** A thread's address as GitHub gave it; anything else is not linked. */
const THREAD_URL = /^https:\/\/[^\s()<>[\]`]+$/;

/** ` · open since round 1 ([thread](…))` for a finding that stands. */
function standing(weakness: WeaknessView): string {
  if (!weakness.thread) return '';
  const { url, since } = weakness.thread;
  return ` · open since round ${since}${THREAD_URL.test(url) ? ` ([thread](${url}))` : ''}`;
}

function weaknessLines(view: RoundReviewView, weakness: WeaknessView, index: number): string[] {
  const number = weakness.rank ?? index + 1;
  const severity = weakness.severity ? `**${inertInline(weakness.severity, 20)}** · ` : '';
  const where = weakness.path ? ` — ${location(view, weakness)}` : '';
  const effort = weakness.effort ? ` · effort: ${inertInline(weakness.effort, 40)}` : '';
  const resolved = weakness.resolved ? ' · resolved in the debate' : '';
  const lines = [
    '',
    `${number}. ${severity}${inertInline(weakness.title, 500)}${where}${effort}${resolved}${standing(weakness)}`,
  ];
  if (weakness.detail?.trim()) lines.push(`   ${inertInline(weakness.detail, 1200)}`);
  lines.push(`   - Minimum fix: ${inertInline(weakness.minimumFix, 800)}`);
  return lines;
}

function debateLines(debate: DebateView): string[] {
  const lines: string[] = [];
  if (debate.entries.length === 0 && debate.transcript?.trim()) {
    for (const line of debate.transcript.split('\n'))
      if (line.trim()) lines.push(`- ${inertInline(line, 600)}`);
    return lines;
  }
  for (const entry of debate.entries) {
    const resolved = debate.resolved.includes(entry.weakness) ? ' (resolved)' : '';
    lines.push(
      '',
      `**Weakness ${entry.weakness}: ${inertInline(entry.title, 300)}**${resolved}`,
      '',
      `- The executor: ${inertInline(entry.stance, 40)} — ${inertInline(entry.argument, 1200)}`,
    );
    if (entry.evidence.trim()) lines.push(`- Evidence: ${inertInline(entry.evidence, 800)}`);
    if (entry.ruling) {
      const required = entry.ruling.required
        ? ` Still needed: ${inertInline(entry.ruling.required, 600)}`
        : '';
      lines.push(
        `- The reviewer: ${inertInline(entry.ruling.ruling, 40)} — ${inertInline(entry.ruling.reason, 1200)}${required}`,
      );
    } else {
      lines.push('- The reviewer: no ruling (the executor accepted the criticism).');
    }
  }
  if (lines.length === 0) lines.push('', 'No weakness was contested.');
  return lines;
}

/** A proposed change as a unified diff, for the fixes a suggestion cannot carry. */
export function changeDiff(change: ProposedChangeView): string {
  const oldCount = change.oldLines.length;
  const newCount = change.newLines.length;
  const start = oldCount === 0 ? change.startLine - 1 : change.startLine;
  return [
    `@@ -${start},${oldCount} +${start},${newCount} @@`,
    ...change.oldLines.map((l) => `-${l}`),
    ...change.newLines.map((l) => `+${l}`),
  ].join('\n');
}

function proposedLines(view: RoundReviewView, suggested: ReadonlySet<ProposedChangeView>): string[] {
  const proposed = view.proposed ?? [];
  if (proposed.length === 0) return [];
  const lines = ['', '#### Suggested fixes'];
  const inline = proposed.filter((c) => suggested.has(c));
  const listed = proposed.filter((c) => !suggested.has(c));
  if (inline.length > 0) {
    lines.push(
      '',
      `${counted(inline.length, 'suggested change')} ${inline.length === 1 ? 'sits' : 'sit'} on the lines ${inline.length === 1 ? 'it changes' : 'they change'}: apply ${inline.length === 1 ? 'it' : 'them'} from the conversation or the Files tab with one click.`,
    );
  }
  if (listed.length > 0) {
    lines.push(
      '',
      'These change lines outside the diff GitHub shows, so they cannot be one-click suggestions:',
    );
    for (const change of listed) {
      const at = change.startLine;
      const link = view.pullUrl
        ? `[${locationText(change.path, at)}](${diffLink(view.pullUrl, change.path)})`
        : locationText(change.path, at);
      lines.push('', `- ${link}`, '', inertBlock(changeDiff(change), 6000, 'diff'));
    }
  }
  return lines;
}

export function renderRoundReview(
  view: RoundReviewView,
  suggested: ReadonlySet<ProposedChangeView> = new Set(),
): string {
  const decision = headingDecision(decisionOf(view), view.filed);
  const lines = [`### Round ${view.round} of ${view.maxRounds}: ${decision} (${scoreText(view)})`];
  if (view.summary?.trim()) lines.push('', inertInline(view.summary, 1500));
  if (view.gateNote) lines.push('', inertInline(view.gateNote, 600));
  lines.push(
    '',
    `${PASS_RULE} Reviewed \`${view.headSha.slice(0, 7)}\` with ${inertInline(view.reviewerModel, 100)}.`,
  );
  const open = view.weaknesses.filter((w) => !w.resolved).length;
  lines.push(
    '',
    view.weaknesses.length === 0
      ? '#### No weaknesses named'
      : `#### ${counted(open, 'open weakness', 'open weaknesses')}`,
  );
  view.weaknesses.forEach((weakness, index) => lines.push(...weaknessLines(view, weakness, index)));
  lines.push(...proposedLines(view, suggested));
  if (view.debate) lines.push('', '#### Debate', ...debateLines(view.debate));
  const cost = costLine(view);
  if (cost) lines.push('', `<sub>Round ${view.round}: ${cost} · run \`${view.runId}\`</sub>`);
  // The hidden blocks are kept out of the bounding, so a cut never loses them: the receipt first, the
  // round's block last (the heading stays the first visible line for every reader of the review).
  const receipt = view.receipt ? `${receiptBlock(view.receipt)}\n` : '';
  const round = view.record ? `\n${roundBlock(view.runId, view.record)}` : '';
  return `${receipt}${postable(lines.join('\n'), BODY_LIMIT - receipt.length - round.length)}${round}`;
}

const WEAKNESS_MARKER = /^<!-- skillclimb:review-loop-weakness r=(\d+) n=(\d+) k=([A-Za-z0-9+/=]+) -->$/;

/** The finding an inline comment is about, as its hidden first line carries it. */
export interface ThreadFinding {
  round: number;
  rank: number;
  title: string;
  file: string | null;
  /** The line it was raised on, at the head that round reviewed (null in a marker written before it was kept). */
  line: number | null;
}

/**
 * The hidden first line of an inline finding comment: round, rank, and the finding's title, file and line
 * (base64 JSON: no `-`, `>` or `<`, so nothing can end the comment early), for a later round to match.
 */
export function weaknessMarker(round: number, weakness: WeaknessView, rank: number): string {
  // Redacted before it is encoded: a key in the title must not pass the body's redaction as base64.
  const title = redactSecrets(weakness.title.slice(0, 300));
  const key = Buffer.from(
    JSON.stringify({ t: title, f: weakness.path ?? null, l: weakness.line ?? null }),
    'utf8',
  );
  return `<!-- skillclimb:review-loop-weakness r=${round} n=${rank} k=${key.toString('base64')} -->`;
}

/** The finding of an inline comment the App posted (from its first line), or undefined. */
export function parseWeaknessMarker(body: string | null | undefined): ThreadFinding | undefined {
  const match = WEAKNESS_MARKER.exec((body ?? '').split('\n', 1)[0]?.trim() ?? '');
  if (!match) return undefined;
  try {
    const key = JSON.parse(Buffer.from(match[3]!, 'base64').toString('utf8')) as {
      t?: unknown;
      f?: unknown;
      l?: unknown;
    };
    if (typeof key.t !== 'string') return undefined;
    return {
      round: Number(match[1]),
      rank: Number(match[2]),
      title: key.t,
      file: typeof key.f === 'string' ? key.f : null,
      line: typeof key.l === 'number' && Number.isInteger(key.l) && key.l > 0 ? key.l : null,
    };
  } catch {
    return undefined;
  }
}

/** The text of an inline comment for a weakness that cites a line inside the diff. */
export function renderInlineNote(weakness: WeaknessView, index: number, round: number): string {
  const rank = weakness.rank ?? index + 1;
  const severity = weakness.severity ? `**${inertInline(weakness.severity, 20)}** · ` : '';
  const lines = [weaknessMarker(round, weakness, rank), `${severity}${inertInline(weakness.title, 500)}`];
  if (weakness.detail?.trim()) lines.push('', inertInline(weakness.detail, 1200));
  lines.push(
    '',
    `Minimum fix: ${inertInline(weakness.minimumFix, 800)}`,
    '',
    `<sub>Round ${round}, weakness ${rank}. Reply "won't fix" or "by design" with your reason, or comment \`/review-loop dismiss ${rank}\`, and later rounds leave it out.</sub>`,
  );
  return postable(lines.join('\n'));
}

/**
 * A GitHub suggested change: the lines it replaces are the comment's `start_line`–`line`; the block holds
 * their new text (model text, redacted, in a fence it cannot close — rendered as code, never live).
 */
export function renderSuggestion(change: ProposedChangeView, round: number): string {
  const content = redactSecrets(clip(change.newLines.join('\n'), 20_000));
  const fence = fenceFor(content);
  const block = content === '' ? `${fence}suggestion\n${fence}` : `${fence}suggestion\n${content}\n${fence}`;
  return postable(
    [
      `**Suggested fix** (round ${round}) for ${locationText(change.path, change.startLine)}:`,
      '',
      block,
    ].join('\n'),
  );
}
