/**
 * The review threads of the App's inline finding comments (docs/how-it-works.md § The App), through
 * GraphQL (REST has no threads): a thread whose finding a later round no longer raises is resolved; one
 * a maintainer answered with "won't fix" or "by design" becomes a dismissal the reviewer is told about.
 */
import { clip } from '../../core/text/untrusted-text.js';
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

/**
 * Threads resolved per request: aliased `resolveReviewThread` mutations in one GraphQL document are one
 * request for the throttle and for GitHub's rate limits, however many threads a round closes (issue 18's
 * write budget). Bounded so one document stays small.
 */
const RESOLVE_BATCH = 20;

/** `mutation ($t0: ID!, …) { t0: resolveReviewThread(…) … }` for `count` threads. */
function resolveMutation(count: number): string {
  const aliases = Array.from({ length: count }, (_, i) => `t${i}`);
  const params = aliases.map((a) => `$${a}: ID!`).join(', ');
  const fields = aliases
    .map((a) => `  ${a}: resolveReviewThread(input: { threadId: $${a} }) { thread { id isResolved } }`)
    .join('\n');
  return `mutation (${params}) {\n${fields}\n}`;
}

type ResolveAnswer = Record<string, { thread: { id: string; isResolved: boolean } | null } | null>;

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

/** What `resolveThreads` did: the threads resolved, and each one that was not with why. */
export interface ResolvedThreads {
  resolved: string[];
  failed: Array<{ id: string; reason: string }>;
}

/**
 * Resolves the threads `ids`, up to RESOLVE_BATCH in one request. When GitHub answers with errors for
 * some, the others it resolved still count (a GraphQL answer carries both).
 */
export async function resolveThreads(octokit: AppOctokit, ids: readonly string[]): Promise<ResolvedThreads> {
  const out: ResolvedThreads = { resolved: [], failed: [] };
  for (let at = 0; at < ids.length; at += RESOLVE_BATCH) {
    const batch = ids.slice(at, at + RESOLVE_BATCH);
    const variables = Object.fromEntries(batch.map((id, i) => [`t${i}`, id]));
    let data: ResolveAnswer | undefined;
    let reason = 'GitHub did not say';
    try {
      data = await octokit.graphql<ResolveAnswer>(resolveMutation(batch.length), variables);
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
      // A GraphQL error answer keeps the data of the mutations that went through.
      data = (error as { data?: ResolveAnswer } | null)?.data ?? undefined;
    }
    batch.forEach((id, i) => {
      if (data?.[`t${i}`]?.thread?.isResolved) out.resolved.push(id);
      else out.failed.push({ id, reason });
    });
  }
  return out;
}

/** "won't fix", "wontfix", "by design", "as designed", "intended", "not a bug", "dismiss". */
const DISMISSING =
  /\b(?:won[’']?t\s+fix|wontfix|by\s+design|as\s+designed|intended|intentional|not\s+a\s+bug|dismiss(?:ed)?)\b/i;

/** A maintainer's answer that dismisses the thread's finding, as its reason (clipped), or undefined. */
export function dismissingAnswer(thread: FindingThread): { login: string; reason: string } | undefined {
  const answer = [...thread.answers].reverse().find((a) => DISMISSING.test(a.body));
  return answer && { login: answer.login, reason: clip(answer.body.replace(/\s+/g, ' ').trim(), 200) };
}
