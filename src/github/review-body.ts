/**
 * The Markdown of one round's PR review (docs/how-it-works.md § Review rounds): score, verdict, ranked
 * weaknesses with their minimum fix, the memory update, and the raw answer folded in `<details>`. Every
 * piece of model text goes through safe-text.ts; an acquittal carries a hidden receipt (run id, round,
 * models, families, score, verdict, head SHA) that any later reader can check against the check run.
 */
import { GITHUB_BODY_LIMIT, boundedBody, quoteBlock, quoteInline } from './safe-text.js';

export type Verdict = 'ready' | 'almost' | 'not ready';

export interface WeaknessView {
  title: string;
  minimumFix: string;
  path?: string | undefined;
  line?: number | undefined;
}

/**
 * The acquittal receipt as the engine writes it (run id, round, models, families, score, verdict, trace)
 * plus the head SHA the App binds it to; kept as data, rendered as a hidden block.
 */
export type AcquittalReceipt = Record<string, unknown> & { head_sha: string };

/** What the App shows of one round; the engine's round result maps onto it. */
export interface RoundReviewView {
  runId: string;
  round: number;
  maxRounds: number;
  headSha: string;
  reviewerModel: string;
  score: number;
  verdict: Verdict;
  weaknesses: WeaknessView[];
  memoryUpdate: string;
  raw: string;
  /** Why the stop gate did or did not acquit (e.g. "same model family"), one sentence by the App. */
  gateNote?: string | undefined;
  receipt?: AcquittalReceipt | undefined;
}

const RECEIPT_PREFIX = '<!-- skillclimb:review-loop-receipt ';

export function receiptBlock(receipt: AcquittalReceipt): string {
  return `${RECEIPT_PREFIX}${Buffer.from(JSON.stringify(receipt), 'utf8').toString('base64')} -->`;
}

function location(weakness: WeaknessView): string {
  if (!weakness.path) return '';
  return ` (${quoteInline(weakness.line ? `${weakness.path}:${weakness.line}` : weakness.path, 200)})`;
}

export function renderRoundReview(view: RoundReviewView): string {
  const lines = [
    `## review-loop round ${view.round}/${view.maxRounds}: ${view.score}/10, ${view.verdict}`,
    '',
    `Reviewer ${quoteInline(view.reviewerModel, 100)} on \`${view.headSha.slice(0, 7)}\` (run \`${view.runId}\`).`,
  ];
  if (view.gateNote) lines.push('', view.gateNote);
  lines.push('', '### Weaknesses');
  if (view.weaknesses.length === 0) lines.push('', 'None named.');
  view.weaknesses.forEach((weakness, index) => {
    lines.push(
      '',
      `${index + 1}. ${quoteInline(weakness.title, 500)}${location(weakness)}`,
      `   - Minimum fix: ${quoteInline(weakness.minimumFix, 800)}`,
    );
  });
  lines.push(
    '',
    '### Memory update',
    '',
    view.memoryUpdate.trim() ? quoteBlock(view.memoryUpdate, 4000) : 'None.',
  );
  const head = lines.join('\n');
  const tailRoom = GITHUB_BODY_LIMIT - 1 - head.length - 400;
  lines.push(
    '',
    '<details>',
    '<summary>Raw reviewer answer</summary>',
    '',
    quoteBlock(view.raw, Math.max(1000, Math.min(40_000, tailRoom))),
    '',
    '</details>',
  );
  // However many weaknesses a model names, the body fits; the receipt (last) is never what is cut.
  const receipt = view.receipt ? `\n\n${receiptBlock(view.receipt)}` : '';
  return `${boundedBody(lines.join('\n'), GITHUB_BODY_LIMIT - 1 - receipt.length)}${receipt}`;
}

/** The text of an inline comment for a weakness that cites a line inside the diff. */
export function renderInlineNote(weakness: WeaknessView, index: number, round: number): string {
  return `**review-loop round ${round}, weakness ${index + 1}:** ${quoteInline(weakness.title, 500)}\n\nMinimum fix: ${quoteInline(weakness.minimumFix, 800)}`;
}
