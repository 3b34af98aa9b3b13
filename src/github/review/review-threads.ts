/**
 * The review threads of the App's inline finding comments (docs/how-it-works.md § The App), through
 * GraphQL (REST has no threads): a thread whose finding a later round no longer raises is resolved; one
 * whose finding stands stays the finding's one thread — reopened should it have been resolved, answered
 * only when there is something new to say; one a maintainer answered with "won't fix" or "by design"
 * becomes a dismissal the reviewer is told about.
 */
import { clip } from '../../core/text/untrusted-text.js';
import type { AppOctokit, PullRef } from './app-octokit.js';
import { parseWeaknessMarker, type ThreadFinding } from './review-body.js';

/** One of the App's finding threads: its finding, whether it is resolved, and maintainers' answers on it. */
export interface FindingThread {
  id: string;
  resolved: boolean;
  /** The address of its first comment (the finding), for the review to link. */
  url: string;
  finding: ThreadFinding;
  answers: Array<{ login: string; body: string }>;
  /** A maintainer wrote on it after the App's last comment there: the App owes an answer. */
  answeredSinceApp: boolean;
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
            nodes { body url viewerDidAuthor authorAssociation author { login } }
          }
        }
      }
    }
  }
}`;

/**
 * Thread writes per request: aliased mutations in one GraphQL document are one request for the throttle
 * and for GitHub's rate limits, however many threads a round resolves, reopens or answers (issue 18's
 * write budget). Bounded so one document stays small.
 */
const WRITE_BATCH = 20;

/** What a round does to its threads: resolve the addressed, reopen a resolved one that stands, answer. */
export interface ThreadWrites {
  resolve: readonly string[];
  reopen: readonly string[];
  reply: ReadonlyArray<{ id: string; body: string }>;
}

type ThreadWrite =
  | { kind: 'resolve'; id: string }
  | { kind: 'reopen'; id: string }
  | { kind: 'reply'; id: string; body: string };

/**
 * One document of aliased mutations, each alias with its own variables: `t0: resolveReviewThread` ($t0),
 * `u0: unresolveReviewThread` ($u0), `r0: addPullRequestReviewThreadReply` ($r0, $b0).
 */
function writeMutation(writes: readonly ThreadWrite[]): { query: string; variables: Record<string, string> } {
  const params: string[] = [];
  const fields: string[] = [];
  const variables: Record<string, string> = {};
  writes.forEach((write, i) => {
    if (write.kind === 'resolve') {
      params.push(`$t${i}: ID!`);
      variables[`t${i}`] = write.id;
      fields.push(`  t${i}: resolveReviewThread(input: { threadId: $t${i} }) { thread { id isResolved } }`);
    } else if (write.kind === 'reopen') {
      params.push(`$u${i}: ID!`);
      variables[`u${i}`] = write.id;
      fields.push(`  u${i}: unresolveReviewThread(input: { threadId: $u${i} }) { thread { id isResolved } }`);
    } else {
      params.push(`$r${i}: ID!`, `$b${i}: String!`);
      variables[`r${i}`] = write.id;
      variables[`b${i}`] = write.body;
      fields.push(
        `  r${i}: addPullRequestReviewThreadReply(input: { pullRequestReviewThreadId: $r${i}, body: $b${i} }) { comment { id } }`,
      );
    }
  });
  return { query: `mutation (${params.join(', ')}) {\n${fields.join('\n')}\n}`, variables };
}

type WriteAnswer = Record<
  string,
  { thread?: { id: string; isResolved: boolean } | null; comment?: { id: string } | null } | null
>;

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
              url?: string | null;
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
      const byMaintainer = (c: (typeof later)[number]) =>
        !c.viewerDidAuthor && MAINTAINERS.has(c.authorAssociation) && c.author !== null;
      const lastOwn = later.map((c) => c.viewerDidAuthor).lastIndexOf(true);
      threads.push({
        id: node.id,
        resolved: node.isResolved,
        url: first.url ?? '',
        finding,
        answers: later.filter(byMaintainer).map((c) => ({ login: c.author!.login, body: c.body })),
        answeredSinceApp: later.slice(lastOwn + 1).some(byMaintainer),
      });
    }
    if (!list.pageInfo.hasNextPage) break;
    cursor = list.pageInfo.endCursor;
  }
  return threads;
}

/** What `writeThreads` did: the threads each kind of write went through for, and each that failed with why. */
export interface WrittenThreads {
  resolved: string[];
  reopened: string[];
  replied: string[];
  failed: Array<{ id: string; kind: ThreadWrite['kind']; reason: string }>;
}

/**
 * Resolves, reopens and answers threads, up to WRITE_BATCH writes in one request. When GitHub answers
 * with errors for some, the others it carried out still count (a GraphQL answer carries both).
 */
export async function writeThreads(octokit: AppOctokit, plan: ThreadWrites): Promise<WrittenThreads> {
  const writes: ThreadWrite[] = [
    ...plan.resolve.map((id) => ({ kind: 'resolve' as const, id })),
    ...plan.reopen.map((id) => ({ kind: 'reopen' as const, id })),
    ...plan.reply.map(({ id, body }) => ({ kind: 'reply' as const, id, body })),
  ];
  const out: WrittenThreads = { resolved: [], reopened: [], replied: [], failed: [] };
  for (let at = 0; at < writes.length; at += WRITE_BATCH) {
    const batch = writes.slice(at, at + WRITE_BATCH);
    const { query, variables } = writeMutation(batch);
    let data: WriteAnswer | undefined;
    let reason = 'GitHub did not say';
    try {
      data = await octokit.graphql<WriteAnswer>(query, variables);
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
      // A GraphQL error answer keeps the data of the mutations that went through.
      data = (error as { data?: WriteAnswer } | null)?.data ?? undefined;
    }
    batch.forEach((write, i) => {
      const answer = data?.[`${write.kind === 'resolve' ? 't' : write.kind === 'reopen' ? 'u' : 'r'}${i}`];
      if (write.kind === 'resolve' && answer?.thread?.isResolved) out.resolved.push(write.id);
      else if (write.kind === 'reopen' && answer?.thread && !answer.thread.isResolved)
        out.reopened.push(write.id);
      else if (write.kind === 'reply' && answer?.comment) out.replied.push(write.id);
      else out.failed.push({ id: write.id, kind: write.kind, reason });
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
