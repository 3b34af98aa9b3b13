/**
 * The Markdown of one round's PR review (docs/how-it-works.md § Review rounds): score, verdict, ranked
 * weaknesses with their minimum fix and effort, the memory update, the debate transcript (hard,
 * nightmare), and the raw answer folded in `<details>`. Every piece of model text goes through
 * src/core/text/untrusted-text.ts and the whole body is bounded under GitHub's limit; an acquittal carries a hidden receipt
 * (run id, round, models, families, score, verdict, head SHA) that any later reader can check against the
 * check run.
 */
import { BODY_LIMIT, postable, inertBlock, inertInline } from '../core/text/untrusted-text.js';

/** The reviewer's verdict; `unavailable` when it gave no usable answer twice (REVIEW_UNAVAILABLE). */
export type Verdict = 'ready' | 'almost' | 'not ready' | 'unavailable';

export interface WeaknessView {
  title: string;
  minimumFix: string;
  /** The reviewer's estimate of the work (trivial, small, medium, large). */
  effort?: string | undefined;
  path?: string | undefined;
  line?: number | undefined;
  /** An accepted rebuttal in the debate resolved it: shown, but not fixed. */
  resolved?: boolean | undefined;
}

/**
 * The acquittal receipt as the engine writes it (run id, round, models, families, score, verdict, trace)
 * plus the head SHA the App binds it to; kept as data, rendered as a hidden block.
 */
export type AcquittalReceipt = Record<string, unknown> & { head_sha: string };

/** What the App shows of one round; the engine's round report maps onto it. */
export interface RoundReviewView {
  runId: string;
  round: number;
  maxRounds: number;
  headSha: string;
  reviewerModel: string;
  /** Null when the round had no verdict. */
  score: number | null;
  verdict: Verdict;
  weaknesses: WeaknessView[];
  memoryUpdate: string;
  raw: string;
  /** The nightmare verifier's raw answer, when there was one. */
  verifierRaw?: string | null | undefined;
  /** The debate transcript (hard, nightmare). */
  debate?: string | null | undefined;
  /** Why the stop gate did or did not acquit (e.g. "same model family"), one sentence by the App. */
  gateNote?: string | undefined;
  receipt?: AcquittalReceipt | undefined;
}

const RECEIPT_PREFIX = '<!-- skillclimb:review-loop-receipt ';

/** base64 has no `-`, `>` or `<`: nothing in a receipt can end the comment early. */
export function receiptBlock(receipt: AcquittalReceipt): string {
  return `${RECEIPT_PREFIX}${Buffer.from(JSON.stringify(receipt), 'utf8').toString('base64')} -->`;
}

function location(weakness: WeaknessView): string {
  if (!weakness.path) return '';
  return ` (${inertInline(weakness.line ? `${weakness.path}:${weakness.line}` : weakness.path, 200)})`;
}

function scoreText(view: RoundReviewView): string {
  return view.score === null ? 'no verdict (REVIEW_UNAVAILABLE)' : `${view.score}/10, ${view.verdict}`;
}

/** A folded section, closed whatever its content (the content is a fence it cannot close). */
function folded(summary: string, content: string): string[] {
  return ['', '<details>', `<summary>${summary}</summary>`, '', content, '', '</details>'];
}

export function renderRoundReview(view: RoundReviewView): string {
  const lines = [
    `## review-loop round ${view.round}/${view.maxRounds}: ${scoreText(view)}`,
    '',
    `Reviewer ${inertInline(view.reviewerModel, 100)} on \`${view.headSha.slice(0, 7)}\` (run \`${view.runId}\`).`,
  ];
  if (view.gateNote) lines.push('', inertInline(view.gateNote, 600));
  lines.push('', '### Weaknesses');
  if (view.weaknesses.length === 0) lines.push('', 'None named.');
  view.weaknesses.forEach((weakness, index) => {
    const effort = weakness.effort ? ` — effort: ${inertInline(weakness.effort, 40)}` : '';
    const resolved = weakness.resolved ? ' — resolved in the debate' : '';
    lines.push(
      '',
      `${index + 1}. ${inertInline(weakness.title, 500)}${location(weakness)}${effort}${resolved}`,
      `   - Minimum fix: ${inertInline(weakness.minimumFix, 800)}`,
    );
  });
  lines.push(
    '',
    '### Memory update',
    '',
    view.memoryUpdate.trim() ? inertBlock(view.memoryUpdate, 4000, 'text') : 'None.',
  );
  if (view.debate?.trim()) lines.push(...folded('Debate', inertBlock(view.debate, 12_000, 'text')));
  lines.push(...folded('Raw reviewer answer', inertBlock(view.raw, 40_000, 'text')));
  if (view.verifierRaw?.trim()) {
    lines.push(...folded('Raw verifier answer', inertBlock(view.verifierRaw, 8_000, 'text')));
  }
  // The receipt goes first when the body is bounded: a cut must never lose it (bounding cuts the end).
  const receipt = view.receipt ? `${receiptBlock(view.receipt)}\n` : '';
  return `${receipt}${postable(lines.join('\n'), BODY_LIMIT - receipt.length)}`;
}

/** The text of an inline comment for a weakness that cites a line inside the diff. */
export function renderInlineNote(weakness: WeaknessView, index: number, round: number): string {
  return postable(
    `**review-loop round ${round}, weakness ${index + 1}:** ${inertInline(weakness.title, 500)}\n\nMinimum fix: ${inertInline(weakness.minimumFix, 800)}`,
  );
}
