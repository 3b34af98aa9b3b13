/**
 * One PR review per round, bound to the reviewed SHA (`commit_id`), with inline comments for weaknesses
 * that cite a line inside the diff hunks. GitHub rejects the whole review (422) when one inline comment
 * points outside the diff it knows; the review is then posted again without them, so the verdict always
 * lands.
 */
import { commentableLines } from '../core/review/diff-lines.js';
import type { AppOctokit, PullRef } from './app-octokit.js';
import { httpStatusOf } from './octokit.js';
import type { RoundReviewView } from './review-body.js';
import { renderInlineNote, renderRoundReview } from './review-body.js';

export interface InlineComment {
  path: string;
  line: number;
  side: 'RIGHT';
  body: string;
}

export interface PostedReview {
  id: number;
  url: string;
  /** Inline comments GitHub accepted (0 after the fallback). */
  inline: number;
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

/** The weaknesses that can be inline comments: a path and a line inside that file's hunks. */
export function inlineComments(view: RoundReviewView, index: Map<string, Set<number>>): InlineComment[] {
  const comments: InlineComment[] = [];
  view.weaknesses.forEach((weakness, i) => {
    if (!weakness.path || !weakness.line) return;
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

export async function postRoundReview(
  octokit: AppOctokit,
  pr: PullRef,
  view: RoundReviewView,
  event: 'COMMENT' | 'REQUEST_CHANGES' = 'COMMENT',
): Promise<PostedReview> {
  const body = renderRoundReview(view);
  const cited = view.weaknesses.some((weakness) => weakness.path && weakness.line);
  const comments = cited ? inlineComments(view, await diffLineIndex(octokit, pr)) : [];
  const base = {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    commit_id: view.headSha,
    body,
    event,
  };
  if (comments.length > 0) {
    try {
      const { data } = await octokit.rest.pulls.createReview({ ...base, comments });
      return { id: data.id, url: data.html_url, inline: comments.length, fellBack: false };
    } catch (error) {
      if (httpStatusOf(error) !== 422) throw error;
    }
  }
  const { data } = await octokit.rest.pulls.createReview(base);
  return { id: data.id, url: data.html_url, inline: 0, fellBack: comments.length > 0 };
}
