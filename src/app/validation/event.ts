/**
 * Webhook payloads → the App's events, decided from the payload alone so the handler can answer the
 * delivery before any API call (docs/how-it-works.md § The App). Everything the background worker gets
 * is one of these; anything else is `ignored` with a reason for the debug log.
 */
import type { AppIdentity, PullRef } from '../../github/review/app-octokit.js';
import { CHECK_NAME } from '../../github/review/check-runs.js';
import type { ParsedCommand } from './command.js';
import { parseCommand } from './command.js';
import type { CommentAuthorship, Sender } from './sender.js';
import { isBotSender, isOwnComment } from './sender.js';

interface EventBase {
  /** `X-GitHub-Delivery`: one id per delivery (a redelivery of the same event has a new one). */
  delivery: string;
  pr: PullRef;
}

/** A `/review-loop …` comment on a pull request by a human. */
export interface CommandEvent extends EventBase {
  kind: 'command';
  commentId: number;
  commentUrl: string;
  sender: Sender;
  parsed: Exclude<ParsedCommand, { status: 'none' }>;
}

/** `pull_request.synchronize`: someone pushed to the PR's head branch. */
export interface PushEvent extends EventBase {
  kind: 'push';
  headSha: string;
  sender: Sender;
}

/** `pull_request.closed` (merged or not): the PR's loop ends. */
export interface ClosedEvent extends EventBase {
  kind: 'closed';
  merged: boolean;
  /** Who merged it (a merged PR's feedback counts as accepted only through a person with write access). */
  mergedBy?: Sender | undefined;
  /** The repository's default branch, as the payload names it. */
  defaultBranch?: string | undefined;
}

/** `check_run.rerequested` on the App's `review-loop` check: run a round on that head. */
export interface RerequestEvent {
  kind: 'rerequest';
  delivery: string;
  repo: { owner: string; repo: string };
  /** Absent for fork PRs: GitHub only lists same-repository PRs on a check run. */
  pr: PullRef | undefined;
  headSha: string;
  checkRunId: number;
  externalId: string | null;
  sender: Sender;
}

export type AppEvent = CommandEvent | PushEvent | ClosedEvent | RerequestEvent;

export interface Ignored {
  kind: 'ignored';
  reason: string;
}

export type Intake = AppEvent | Ignored;

const ignored = (reason: string): Ignored => ({ kind: 'ignored', reason });

interface RepositoryPayload {
  name: string;
  owner: { login: string };
  default_branch?: string;
}

function senderOf(sender: { login: string; type?: string } | null | undefined): Sender | undefined {
  return sender ? { login: sender.login, type: sender.type } : undefined;
}

export interface IssueCommentPayload {
  action: string;
  issue: { number: number; pull_request?: unknown };
  comment: CommentAuthorship & { id: number; body?: string | null; html_url: string };
  repository: RepositoryPayload;
  sender?: { login: string; type?: string } | null;
}

/** `issue_comment.created` → a command, or why not. Edited comments never count: they were seen once. */
export function commandEventFrom(payload: IssueCommentPayload, delivery: string, app: AppIdentity): Intake {
  if (payload.action !== 'created') return ignored(`issue_comment.${payload.action}`);
  if (!payload.issue.pull_request) return ignored('comment on an issue, not a pull request');
  if (isOwnComment(payload.comment, app)) return ignored("the App's own comment");
  const sender = senderOf(payload.sender);
  if (!sender || isBotSender(sender)) return ignored(`bot sender ${sender?.login ?? '(none)'}`);
  const parsed = parseCommand(payload.comment.body);
  if (parsed.status === 'none') return ignored('not a /review-loop command');
  return {
    kind: 'command',
    delivery,
    pr: {
      owner: payload.repository.owner.login,
      repo: payload.repository.name,
      number: payload.issue.number,
    },
    commentId: payload.comment.id,
    commentUrl: payload.comment.html_url,
    sender,
    parsed,
  };
}

export interface PullRequestPayload {
  action: string;
  number: number;
  pull_request: {
    number: number;
    merged?: boolean | null;
    merged_by?: { login: string; type?: string } | null;
    head: { sha: string };
  };
  repository: RepositoryPayload;
  sender?: { login: string; type?: string } | null;
}

/** `pull_request.synchronize` and `.closed`; other actions are not the App's business. */
export function pullRequestEventFrom(payload: PullRequestPayload, delivery: string): Intake {
  const pr = {
    owner: payload.repository.owner.login,
    repo: payload.repository.name,
    number: payload.pull_request.number,
  };
  if (payload.action === 'closed') {
    const merged = payload.pull_request.merged === true;
    return {
      kind: 'closed',
      delivery,
      pr,
      merged,
      ...(merged ? { mergedBy: senderOf(payload.pull_request.merged_by ?? payload.sender) } : {}),
      ...(payload.repository.default_branch ? { defaultBranch: payload.repository.default_branch } : {}),
    };
  }
  if (payload.action === 'synchronize') {
    const sender = senderOf(payload.sender);
    if (!sender) return ignored('push without a sender');
    return { kind: 'push', delivery, pr, headSha: payload.pull_request.head.sha, sender };
  }
  return ignored(`pull_request.${payload.action}`);
}

export interface CheckRunPayload {
  action: string;
  check_run: {
    id: number;
    name: string;
    head_sha: string;
    external_id?: string | null;
    app?: { id?: number } | null;
    pull_requests?: Array<{ number: number }>;
  };
  repository: RepositoryPayload;
  sender?: { login: string; type?: string } | null;
}

/** The Re-run button on the App's own `review-loop` check run. */
export function rerequestEventFrom(payload: CheckRunPayload, delivery: string, app: AppIdentity): Intake {
  if (payload.action !== 'rerequested') return ignored(`check_run.${payload.action}`);
  if (payload.check_run.name !== CHECK_NAME || payload.check_run.app?.id !== app.appId) {
    return ignored(`check run ${payload.check_run.name} is not the App's`);
  }
  const sender = senderOf(payload.sender);
  if (!sender || isBotSender(sender)) return ignored(`bot sender ${sender?.login ?? '(none)'}`);
  const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
  const number = payload.check_run.pull_requests?.[0]?.number;
  return {
    kind: 'rerequest',
    delivery,
    repo,
    pr: number === undefined ? undefined : { ...repo, number },
    headSha: payload.check_run.head_sha,
    checkRunId: payload.check_run.id,
    externalId: payload.check_run.external_id ?? null,
    sender,
  };
}
