/**
 * The review threads of the App's inline finding comments (docs/how-it-works.md § The App), through
 * GraphQL (REST has no threads): a thread whose finding a later round no longer raises is resolved; one
 * a maintainer answered with "won't fix" or "by design" becomes a dismissal the reviewer is told about.
 */
import { clip } from '../core/text/untrusted-text.js';
import type { AppOctokit, PullRef } from './app-octokit.js';
import { parseWeaknessMarker, type ThreadFinding } from './review-body.js';

/** One of the App's finding threads: its finding, whether it is resolved, and maintainers' answers on it. */
export interface FindingThread {
  id: string;
  resolved: boolean;
  finding: ThreadFinding;
  answers: Array<{ login: string; body: string }>;
}

const THREADS_QUERY = `query ($owner: String!, $repo: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          comments(first: 50) {
            nodes { body viewerDidAuthor authorAssociation author { login } }
          }
        }
      }
    }
  }
}`;

const RESOLVE_MUTATION = `mutation ($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

interface ThreadsAnswer {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: Array<{
          id: string;
          isResolved: boolean;
          comments: {
            nodes: Array<{
              body: string;
              viewerDidAuthor: boolean;
              authorAssociation: string;
              author: { login: string } | null;
            }>;
          };
        }>;
      };
    } | null;
  } | null;
}

/** Whose answer on a thread counts: people with a hand in the repository, never a drive-by commenter. */
const MAINTAINERS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** At most this many pages of 100 threads are read. */
const MAX_PAGES = 5;

/** The App's finding threads on the PR (its own first comment with a finding marker), oldest first. */
export async function listFindingThreads(octokit: AppOctokit, pr: PullRef): Promise<FindingThread[]> {
  const threads: FindingThread[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer: ThreadsAnswer = await octokit.graphql<ThreadsAnswer>(THREADS_QUERY, {
      owner: pr.owner,
      repo: pr.repo,
      number: pr.number,
      cursor,
    });
    const list = answer.repository?.pullRequest?.reviewThreads;
    if (!list) break;
    for (const node of list.nodes) {
      const [first, ...later] = node.comments.nodes;
      if (!first?.viewerDidAuthor) continue;
      const finding = parseWeaknessMarker(first.body);
      if (!finding) continue;
      threads.push({
        id: node.id,
        resolved: node.isResolved,
        finding,
        answers: later
          .filter((c) => !c.viewerDidAuthor && MAINTAINERS.has(c.authorAssociation) && c.author)
          .map((c) => ({ login: c.author!.login, body: c.body })),
      });
    }
    if (!list.pageInfo.hasNextPage) break;
    cursor = list.pageInfo.endCursor;
  }
  return threads;
}

export async function resolveThread(octokit: AppOctokit, threadId: string): Promise<void> {
  await octokit.graphql(RESOLVE_MUTATION, { threadId });
}

/** "won't fix", "wontfix", "by design", "as designed", "intended", "not a bug", "dismiss". */
const DISMISSING =
  /\b(?:won[’']?t\s+fix|wontfix|by\s+design|as\s+designed|intended|intentional|not\s+a\s+bug|dismiss(?:ed)?)\b/i;

/** A maintainer's answer that dismisses the thread's finding, as its reason (clipped), or undefined. */
export function dismissingAnswer(thread: FindingThread): { login: string; reason: string } | undefined {
  const answer = [...thread.answers].reverse().find((a) => DISMISSING.test(a.body));
  return answer && { login: answer.login, reason: clip(answer.body.replace(/\s+/g, ' ').trim(), 200) };
}
