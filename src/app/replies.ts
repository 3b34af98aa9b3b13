/**
 * The App's short replies on a pull request (docs/how-it-works.md § The App): one sentence each, redacted,
 * bounded, any untrusted part quoted by the caller through src/core/text/untrusted-text.ts. A refused user
 * is told once per pull request, never again (no reply storm from a user who keeps trying).
 */
import { redactSecrets } from '../core/text/redact.js';
import type { PullRef } from '../github/review/app-octokit.js';
import { isByApp, pullKey } from '../github/review/app-octokit.js';
import { postable, inertInline } from '../core/text/untrusted-text.js';
import type { AppLoopState, Phase } from '../github/review/loop-state.js';
import { admittedRoles } from './validation/permission.js';
import type { EventTools, WorkerContext } from './worker-context.js';

export async function reply(ctx: WorkerContext, tools: EventTools, pr: PullRef, body: string): Promise<void> {
  const text = postable(redactSecrets(body, ctx.deps.secrets));
  if (tools.replyAfter !== undefined && (await repliedAlready(ctx, tools, pr, text, tools.replyAfter))) {
    tools.log.info(`${pullKey(pr)}: the reply to comment ${tools.replyAfter} was posted before; not again`);
    return;
  }
  await tools.octokit.rest.issues.createComment({
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    body: text,
  });
}

/**
 * A re-run command's reply (its first run's replica died): the App's comment with this text, newer than
 * the command (comment ids grow), is the reply that run posted.
 */
async function repliedAlready(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullRef,
  text: string,
  after: number,
): Promise<boolean> {
  const comments = await tools.octokit.paginate(tools.octokit.rest.issues.listComments, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    per_page: 100,
  });
  return comments.some(
    (comment) => comment.id > after && isByApp(comment, ctx.deps.identity) && comment.body === text,
  );
}

/** `a`, `a or b`, `a, b or c`: the roles as a person reads them. */
function rolesWords(roles: readonly string[]): string {
  const quoted = roles.map((role) => inertInline(role, 60));
  return quoted.length <= 1
    ? (quoted[0] ?? '(none)')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1) ?? ''}`;
}

/**
 * The one reply a refused user gets on a PR (docs/how-it-works.md § The App). It names the roles
 * `allowed_roles` admits, not a fixed "write access": a repository may admit triage, or only admins.
 */
export async function refuse(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullRef,
  login: string,
  role: string,
  allowed: readonly string[],
): Promise<void> {
  const key = `${pullKey(pr)}:${login.toLowerCase()}`;
  if (!(await ctx.refuseOnce(key))) return;
  const roles = admittedRoles(allowed);
  const who = roles.length === 1 ? 'the role' : 'one of the roles';
  await reply(
    ctx,
    tools,
    pr,
    `Sorry, only collaborators with ${who} ${rolesWords(roles)} can run the review loop here (your role: ${inertInline(role, 60)}).`,
  );
}

/** Where a loop is, in a few plain words (a status reply, "already under way (…)"). */
export function phaseWords(phase: Phase): string {
  switch (phase) {
    case 'idle':
      return 'not started';
    case 'running':
      return 'running';
    case 'waiting-fix':
      return 'waiting for a fix';
    case 'waiting-checkpoint':
      return 'waiting at the checkpoint';
    case 'acquitted':
      return 'approved';
    case 'gave-up':
      return 'gave up';
    case 'not-independent':
      return 'not approved (the reviewer is not independent of the executor)';
    case 'reviewed':
      return 'reviewed once (`fix: none`)';
    case 'stopped':
      return 'stopped';
    case 'closed':
      return 'ended with the pull request';
    case 'failed':
      return 'failed';
    case 'interrupted':
      return 'interrupted by a restart';
  }
}

/** The reply to a command that needs a loop when none is under way. */
export const NO_LOOP = 'No loop is running on this pull request; start one with `/review-loop`.';

/** The answer to `/review-loop status`. */
export function statusLine(state: AppLoopState | undefined, finished: boolean, running: boolean): string {
  if (!state || (state.phase === 'idle' && !running)) return NO_LOOP;
  const rounds = state.rounds.length;
  const last = state.rounds.at(-1);
  const score = last ? ` Last round: ${last.score ?? '–'}/10, ${last.verdict}.` : '';
  // An approval names its head: a head pushed after it is not what was approved.
  const approved = state.phase === 'acquitted' && state.head ? ` \`${state.head.slice(0, 7)}\`` : '';
  const where = running
    ? 'running'
    : finished
      ? `finished, ${phaseWords(state.phase)}${approved}`
      : phaseWords(state.phase);
  return `Review loop \`${state.runId ?? 'none'}\`: ${where}, ${rounds} round${rounds === 1 ? '' : 's'}.${score}`;
}
