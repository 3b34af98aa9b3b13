/**
 * One PR review per round, bound to the reviewed SHA (`commit_id`), with inline comments for weaknesses
 * that cite a line inside the diff hunks and, in manual mode, the executor's proposed fixes as GitHub
 * suggested changes on the lines they replace (docs/how-it-works.md § Review fixes). GitHub rejects the whole review (422) when one inline comment
 * points outside the diff it knows; the review is then posted again without them, so the verdict always
 * lands.
 */
import { commentableLines } from '../../core/review/diff-lines.js';
import type { AppOctokit, PullRef } from './app-octokit.js';
import { httpStatusOf } from '../octokit.js';
import type { Decision, ProposedChangeView, RoundReviewView } from './review-body.js';
import type { PublishedRound } from '../../core/review/state.js';
import {
  decisionOf,
  parseRoundBlock,
  renderInlineNote,
  renderRoundReview,
  renderSuggestion,
  reviewEventOf,
} from './review-body.js';

export interface InlineComment {
  path: string;
  line: number;
  side: 'RIGHT';
  /** A multi-line comment (a suggestion replacing several lines) starts here. */
  start_line?: number;
  start_side?: 'RIGHT';
  body: string;
}

export interface PostedReview {
  id: number;
  url: string;
  /** Inline comments GitHub accepted (0 after the fallback), suggestions included. */
  inline: number;
  /** Of those, comments on findings (each the start of a thread later rounds follow). */
  findings: number;
  /** True when the review went out a second time without inline comments after a 422. */
  fellBack: boolean;
}

/** Right-side commentable lines per file of the PR, from the patches GitHub lists. */
export async function diffLineIndex(octokit: AppOctokit, pr: PullRef): Promise<Map<string, Set<number>>> {
  const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  return new Map(files.map((file) => [file.filename, commentableLines(file.patch)]));
}

/**
 * The weaknesses that can be inline comments: a path and a line inside that file's hunks — and no thread
 * yet: a finding that stands from an earlier round keeps the thread it has (one thread per finding).
 */
export function inlineComments(view: RoundReviewView, index: Map<string, Set<number>>): InlineComment[] {
  const comments: InlineComment[] = [];
  view.weaknesses.forEach((weakness, i) => {
    if (!weakness.path || !weakness.line || weakness.resolved || weakness.thread) return;
    if (!index.get(weakness.path)?.has(weakness.line)) return;
    comments.push({
      path: weakness.path,
      line: weakness.line,
      side: 'RIGHT',
      body: renderInlineNote(weakness, i, view.round),
    });
  });
  return comments;
}

/** A proposed change can be a suggested change when every line it replaces is in the file's hunks. */
function suggestible(change: ProposedChangeView, index: Map<string, Set<number>>): boolean {
  const lines = index.get(change.path);
  if (!lines || change.startLine < 1 || change.endLine < change.startLine) return false;
  for (let line = change.startLine; line <= change.endLine; line++) if (!lines.has(line)) return false;
  return true;
}

/** The proposed fixes that fit the diff, as suggested changes on exactly the lines they replace. */
export function suggestionComments(
  view: RoundReviewView,
  index: Map<string, Set<number>>,
): Array<{ change: ProposedChangeView; comment: InlineComment }> {
  return (view.proposed ?? [])
    .filter((change) => suggestible(change, index))
    .map((change) => ({
      change,
      comment: {
        path: change.path,
        line: change.endLine,
        side: 'RIGHT' as const,
        ...(change.startLine < change.endLine
          ? { start_line: change.startLine, start_side: 'RIGHT' as const }
          : {}),
        body: renderSuggestion(change, view.round),
      },
    }));
}

/** Posts `view` as one PR review, filed as `view.filed` says (a comment unless `approve`: reviewEventOf). */
export async function postRoundReview(
  octokit: AppOctokit,
  pr: PullRef,
  view: RoundReviewView,
): Promise<PostedReview> {
  const event = reviewEventOf(decisionOf(view), view.filed);
  const cited = view.weaknesses.some((weakness) => weakness.path && weakness.line && !weakness.thread);
  const needsIndex = cited || (view.proposed ?? []).length > 0;
  const index = needsIndex ? await diffLineIndex(octokit, pr) : new Map<string, Set<number>>();
  const suggestions = suggestionComments(view, index);
  const findings = inlineComments(view, index);
  const comments = [...findings, ...suggestions.map((s) => s.comment)];
  const base = {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    commit_id: view.headSha,
    event,
  };
  if (comments.length > 0) {
    try {
      const body = renderRoundReview(view, new Set(suggestions.map((s) => s.change)));
      const { data } = await octokit.rest.pulls.createReview({ ...base, body, comments });
      return {
        id: data.id,
        url: data.html_url,
        inline: comments.length,
        findings: findings.length,
        fellBack: false,
      };
    } catch (error) {
      if (httpStatusOf(error) !== 422) throw error;
    }
  }
  // Without inline comments every proposed fix is listed in the body with its diff.
  const { data } = await octokit.rest.pulls.createReview({ ...base, body: renderRoundReview(view) });
  return { id: data.id, url: data.html_url, inline: 0, findings: 0, fellBack: comments.length > 0 };
}

/**
 * The App's review of `view`'s round on `view.headSha`, when one is there already: a loop re-run after its
 * replica died mid-round (docs/how-it-works.md § The App, "Shared state and takeover") may come back to
 * a round whose review was posted before the engine saved it, and must not post it twice. Reviews carry
 * no App stamp: the commit, a bot author and the round's heading identify it.
 */
export async function findRoundReview(
  octokit: AppOctokit,
  pr: PullRef,
  view: RoundReviewView,
): Promise<PostedReview | undefined> {
  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  const heading = `### Round ${view.round} of `;
  const found = reviews
    .reverse()
    .find(
      (review) =>
        review.commit_id === view.headSha &&
        review.user?.type === 'Bot' &&
        (review.body ?? '').replace(/^<!--[^\n]*-->\n?/, '').startsWith(heading),
    );
  if (!found) return undefined;
  // The check follows the verdict posted last: one the PR shows otherwise is posted, not taken for it.
  const said = postedDecision(found.body);
  if (said !== undefined && said !== decisionOf(view)) return undefined;
  return { id: found.id, url: found.html_url, inline: 0, findings: 0, fellBack: false };
}

const HEADING_DECISIONS: Record<string, Decision> = {
  approved: 'approved',
  passed: 'approved',
  'changes requested': 'changes requested',
  'changes needed': 'changes requested',
  'not yet': 'not yet',
};

/** The decision a round review's heading states (`### Round 1 of 4: changes needed (…)`), if it reads. */
function postedDecision(body: string | null | undefined): Decision | undefined {
  const heading = /^### Round \d+ of \d+: ([a-z ]+?) \(/.exec((body ?? '').replace(/^<!--[^\n]*-->\n?/, ''));
  return heading ? HEADING_DECISIONS[heading[1]!] : undefined;
}

/**
 * Round `round` of run `runId` as the App posted it, read back from the review's hidden round block: a
 * loop resumed after a restart, or taken over from a replica that died, goes on from that review instead
 * of reviewing the head again (docs/how-it-works.md § The App, "A resumed loop"). The newest such review
 * of a bot, on the commit the block names.
 */
export async function findPublishedRound(
  octokit: AppOctokit,
  pr: PullRef,
  runId: string,
  round: number,
): Promise<{ record: PublishedRound; url: string } | undefined> {
  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  for (const review of reviews.reverse()) {
    if (review.user?.type !== 'Bot') continue;
    const block = parseRoundBlock(review.body);
    if (!block || block.runId !== runId || block.record.round !== round) continue;
    if (block.record.head !== review.commit_id) continue;
    return { record: block.record, url: review.html_url };
  }
  return undefined;
}

/**
 * The head, when it is run `runId`'s own fix of round `round` (the fix commit's subject names both:
 * fix.ts commitMessage), with its parent and the files its message lists; undefined otherwise.
 */
export async function ownFixCommit(
  octokit: AppOctokit,
  pr: PullRef,
  at: { runId: string; round: number; head: string },
): Promise<{ sha: string; parent: string | undefined; files: string[] } | undefined> {
  const { data } = await octokit.rest.git.getCommit({ owner: pr.owner, repo: pr.repo, commit_sha: at.head });
  const [subject = '', ...rest] = data.message.split('\n');
  if (!subject.startsWith(`review-loop: round ${at.round} edits `) || !subject.endsWith(`(${at.runId})`))
    return undefined;
  // The files are the `- path: …` lines before the findings it was asked to address.
  const end = rest.findIndex((line) => line.startsWith('The findings of round'));
  const files = (end === -1 ? rest : rest.slice(0, end)).flatMap(
    (line) => /^- (\S+): /.exec(line)?.[1] ?? [],
  );
  return { sha: data.sha, parent: data.parents[0]?.sha, files };
}
