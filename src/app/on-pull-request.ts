/**
 * Pushes, closes and the check's Re-run button, in the background (docs/how-it-works.md § The App): a
 * push continues a loop waiting for a manual fix (never for a head the App pushed itself) or marks a
 * stale acquittal; a closed PR ends its loop; Re-run runs a round on that head for a permitted requester.
 */
import type { PullRef } from '../github/review/app-octokit.js';
import { pullKey } from '../github/review/app-octokit.js';
import { supersededState, updateCheckRun } from '../github/review/check-runs.js';
import { readPullRequest } from '../github/review/pull-info.js';
import { FINISHED_PHASES } from '../github/review/loop-state.js';
import type { AppLoopState } from '../github/review/loop-state.js';
import { describeApiError } from '../github/octokit.js';
import { learnFromFeedback } from './learn-from-feedback.js';
import { concludeCheck, resumeLoop } from './loop-turn.js';
import { refuse, reply } from './replies.js';
import type { ClosedEvent, PushEvent, RerequestEvent } from './validation/event.js';
import { checkPermission } from './validation/permission.js';
import type { EventTools, WorkerContext } from './worker-context.js';
import { isFinished } from './worker-context.js';

/** The status's words once a head is pushed after the approval (said once: later pushes change nothing). */
const LATER_PUSH = 'A later push is not reviewed: comment /review-loop to review the newest head.';

/**
 * With `review_event: approve` the App's approval counts under branch protection, and GitHub keeps it on
 * a PR whose head moved unless the repository dismisses stale approvals: the App dismisses its own, so it
 * never approves a head it did not review (docs/app.md § Configuration). A failure is logged: the check
 * of the new head still says it is not reviewed.
 */
async function withdrawApproval(tools: EventTools, pr: PullRef, state: AppLoopState): Promise<void> {
  if (state.settings?.reviewEvent !== 'approve') return;
  const row = [...state.rounds].reverse().find((r) => r.head === state.head && r.reviewUrl);
  const id = /#pullrequestreview-(\d+)$/.exec(row?.reviewUrl ?? '')?.[1];
  if (!id) return;
  try {
    await tools.octokit.rest.pulls.dismissReview({
      owner: pr.owner,
      repo: pr.repo,
      pull_number: pr.number,
      review_id: Number(id),
      message: `This approval was for ${(state.head ?? '').slice(0, 7)}; a later push is not reviewed.`,
    });
  } catch (error) {
    tools.log.warn(
      `${pullKey(pr)}: could not dismiss the App's approval of ${(state.head ?? '').slice(0, 7)} after a push: ${describeApiError(error)}`,
    );
  }
}

/** `run.rerun`: its first run's replica died, perhaps holding the PR's claim, which is waited for. */
export async function onPush(
  ctx: WorkerContext,
  event: PushEvent,
  tools: EventTools,
  run: { rerun: boolean } = { rerun: false },
): Promise<void> {
  const state = await ctx.readState(tools, event.pr);
  if (!state || state.pushedHeads.includes(event.headSha) || state.head === event.headSha) return;
  if (state.phase === 'acquitted') {
    // The receipt was for the acquitted head; the new head has not been reviewed. The status names the
    // approved head (loop-state.ts phaseLine) and this says the push after it is not reviewed.
    const acquitted = state.head ?? 'an earlier head';
    const next = await ctx.write(tools, event.pr, (s) => ({ ...s, message: LATER_PUSH }));
    if (state.message !== LATER_PUSH) await withdrawApproval(tools, event.pr, state);
    await concludeCheck(ctx, tools, event.pr, { ...next, check: null }, event.headSha, 'action_required', {
      title: 'Not reviewed: the approval was for an earlier commit',
      summary: `The approval was for \`${acquitted.slice(0, 7)}\`; this head has not been reviewed. Comment \`/review-loop\` to review it.`,
    });
    return;
  }
  if (isFinished(state, ctx.deps.clock()) || state.phase === 'waiting-checkpoint') return;
  // waiting-fix (manual mode), or a loop a restart interrupted: the push continues it.
  const key = pullKey(event.pr);
  const { queue } = ctx.deps;
  const claim = run.rerun ? await queue.claimPatiently(key) : await queue.claim(key);
  if (!claim) return;
  let handed = false;
  try {
    const config = await ctx.readConfig(tools);
    const pr = await readPullRequest(tools.octokit, event.pr);
    if (pr.headSha !== event.headSha) return; // an older push; the newer one's event follows
    await resumeLoop(ctx, tools, {
      pr,
      config: config.ok ? config.config : {},
      state,
      claim,
      trigger: { kind: 'continue' },
    });
    handed = true;
  } finally {
    if (!handed) await ctx.deps.queue.release(key, claim);
  }
}

/** `run.rerun`: its first run's replica died, perhaps after recording the close but before the check. */
export async function onClosed(
  ctx: WorkerContext,
  event: ClosedEvent,
  tools: EventTools,
  run: { rerun: boolean } = { rerun: false },
): Promise<void> {
  const state = await ctx.readState(tools, event.pr);
  if (!state) return;
  await endLoop(ctx, event, tools, state, run);
  // Whatever the loop's phase: the team's answers are final now (learn-from-feedback.ts).
  await learnFromFeedback(ctx, tools, event, state);
}

async function endLoop(
  ctx: WorkerContext,
  event: ClosedEvent,
  tools: EventTools,
  state: AppLoopState,
  run: { rerun: boolean },
): Promise<void> {
  const recorded = run.rerun && state.phase === 'closed';
  if (FINISHED_PHASES.includes(state.phase) && !recorded) return;
  const next = recorded
    ? state
    : await ctx.write(tools, event.pr, (s) => ({
        ...s,
        phase: 'closed',
        message: event.merged ? 'The pull request was merged.' : 'The pull request was closed.',
      }));
  // An open check, or one waiting for a person who no longer can answer: the loop ended with the PR.
  if (next.check && (!next.check.completed || next.check.conclusion === 'action_required')) {
    await concludeCheck(ctx, tools, event.pr, next, next.check.headSha, 'cancelled', {
      title: 'Pull request closed',
      summary: 'The loop ended with the pull request.',
    });
  }
}

async function pullForCommit(
  tools: EventTools,
  repo: { owner: string; repo: string },
  sha: string,
): Promise<PullRef | undefined> {
  const { data } = await tools.octokit.rest.repos.listPullRequestsAssociatedWithCommit({
    ...repo,
    commit_sha: sha,
  });
  const open = data.find((pull) => pull.state === 'open');
  return open && { ...repo, number: open.number };
}

export async function onRerequest(
  ctx: WorkerContext,
  event: RerequestEvent,
  tools: EventTools,
  run: { rerun: boolean } = { rerun: false },
): Promise<void> {
  const ref = event.pr ?? (await pullForCommit(tools, event.repo, event.headSha));
  if (!ref) return;
  const config = await ctx.readConfig(tools);
  const allowed = ctx.allowedRoles(config);
  const permission = await checkPermission(tools.octokit, ref, event.sender.login, allowed);
  if (!permission.allowed) {
    await refuse(ctx, tools, ref, event.sender.login, permission.role, allowed);
    return;
  }
  if (!config.ok) {
    tools.log.warn(`${pullKey(ref)}: the configuration has problems: ${config.problems.join('; ')}`);
    await reply(ctx, tools, ref, `The review loop did not re-run: ${config.problem}`);
    return;
  }
  const pr = await readPullRequest(tools.octokit, ref);
  if (pr.state === 'closed') return;
  if (pr.headSha !== event.headSha) {
    await updateCheckRun(tools.octokit, ref, event.checkRunId, {
      state: supersededState(pr.headSha, pr.url),
    });
    return;
  }
  const key = pullKey(ref);
  const { queue } = ctx.deps;
  const claim = run.rerun ? await queue.claimPatiently(key) : await queue.claim(key);
  if (!claim) return; // a round is already running on this PR
  let handed = false;
  try {
    const state = await ctx.readState(tools, ref);
    // A finished loop re-runs as a fresh run (new run id, the configured settings); an unfinished one goes on.
    const fresh = isFinished(state, ctx.deps.clock());
    await resumeLoop(ctx, tools, {
      pr,
      config: config.config,
      state: fresh ? undefined : state,
      claim,
      trigger: { kind: 'rerun', headSha: event.headSha },
    });
    handed = true;
  } finally {
    if (!handed) await ctx.deps.queue.release(key, claim);
  }
}
