/**
 * One turn of a pull request's loop (docs/how-it-works.md § The App): the claimed loop runs in the queue —
 * the check goes in progress, the runner runs the engine until the loop ends or needs a person — and its
 * outcome lands on the check run, the sticky comment and, on give-up, the defect-park issue. A push that
 * arrived while it ran is looked at once it ends.
 */
import { randomBytes } from 'node:crypto';
import { redactSecrets } from '../core/text/redact.js';
import { runIdFor } from '../core/review/state.js';
import type { PullRef } from '../github/review/app-octokit.js';
import { pullKey } from '../github/review/app-octokit.js';
import { describeApiError } from '../github/octokit.js';
import type { PullInfo } from '../github/review/pull-info.js';
import { parkReviewLoop } from '../github/review/review-park.js';
import { clip } from '../core/text/untrusted-text.js';
import { checkCompleted, concludedInPlace, sameCheck } from '../github/review/check-tracker.js';
import type { RepoConfig } from './config.js';
import { applyStartOptions, maxRoundsFor, settingsFrom } from './config.js';
import type { LoopOutcome, LoopTrigger } from './loop-runner.js';
import type { AppLoopState, LoopSettings, RoundRow } from '../github/review/loop-state.js';
import { rememberComment, withRounds } from '../github/review/loop-state.js';
import { listRoundRows } from '../github/review/record-rebuild.js';
import { GitHubPullSession } from '../github/review/pull-session.js';
import type { EndReason, EventTools, WorkerContext } from './worker-context.js';
import { isStale } from './worker-context.js';
import type { LoopJob } from './coordination/loop-jobs.js';
import { readPullRequest } from '../github/review/pull-info.js';
import { learnAfterClosedLoop } from './learn-from-feedback.js';
import { phaseWords } from './replies.js';
import { messageOf } from '../core/errors.js';
import { endWords, endingOf, type Conclusion, type Ending } from './loop-ending.js';

/**
 * A fresh run id, made by the engine's own `runIdFor` (docs/how-it-works.md § The App: a fresh engine run
 * takes the id the App put on the check run), so both always agree on the format.
 */
export function newRunId(now: Date): string {
  return runIdFor(now, randomBytes(4).toString('hex'));
}

/** The engine's records without its run state: memory and receipts stay as the PR's audit trail. */
export function withoutEngineRun(review: unknown): unknown {
  if (review === null || typeof review !== 'object') return undefined;
  const { state: _dropped, ...rest } = review as Record<string, unknown>;
  return rest;
}

/** Completes the check of `head` (superseding one on an older head) and records it, unless `state` has it so already. */
export async function concludeCheck(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullRef,
  state: AppLoopState,
  head: string | null,
  conclusion: Conclusion,
  text: { title: string; summary: string },
  options: { runId?: string | undefined; detailsUrl?: string | undefined } = {},
): Promise<void> {
  if (!head) return;
  const check = await checkCompleted(
    {
      octokit: tools.octokit,
      repo: pr,
      runId: options.runId ?? state.runId ?? 'none',
      detailsUrl: options.detailsUrl,
      now: ctx.deps.clock(),
    },
    state.check,
    head,
    conclusion,
    { title: text.title, summary: redactSecrets(text.summary, ctx.deps.secrets) },
  );
  if (!sameCheck(state.check, check)) await ctx.write(tools, pr, (s) => ({ ...s, check }));
}

/**
 * Hands the claim to a loop job: queued, then run by whichever replica has a free slot (this process
 * without Redis); the runner runs there, then its outcome lands on the check and the comment.
 */
export async function launchLoop(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullInfo,
  settings: LoopSettings,
  runId: string,
  trigger: LoopTrigger,
  state: AppLoopState,
  claim: string,
): Promise<void> {
  await ctx.deps.queue.submit({
    installationId: tools.installationId,
    pr,
    settings,
    runId,
    trigger,
    token: claim,
    state,
  });
}

/**
 * Runs one loop job (docs/how-it-works.md § The App, "Shared state and takeover"). A re-run — the job's
 * replica died mid-round, or a restart resumed it — first reads the PR's sticky state: only a loop still
 * running there (and not stale) goes on, from the engine's saved state, as a `continue`. A loop a
 * shutdown interrupted is handed on with its claim (its state stays running, its check in progress), so
 * it continues after the restart or on another replica.
 */
export async function runLoopJob(
  ctx: WorkerContext,
  job: LoopJob,
  run: { rerun: boolean; signal: AbortSignal },
): Promise<void> {
  const key = pullKey(job.pr.pr);
  const { queue, runner, store, identity, clock } = ctx.deps;
  let tools: EventTools;
  try {
    tools = await ctx.deps.toolsFor(job.installationId, job.pr.pr);
  } catch (error) {
    // No client for the installation (GitHub did not hand out its token): the loop's state stays running,
    // and its PR's next event or `/review-loop continue` resumes it.
    await queue.release(key, job.token).catch(() => undefined);
    throw error;
  }
  // Every line the loop logs names its pull request: an operator reads many loops' lines interleaved.
  const log = {
    info: (message: string) => tools.log.info(`${key}: ${message}`),
    warn: (message: string) => tools.log.warn(`${key}: ${message}`),
  };
  let pr = job.pr;
  let handedOff = false;
  try {
    let state = job.state;
    let trigger = job.trigger;
    let runId = job.runId;
    // A loop handed on by a shutdown is a fresh job, yet the same loop going on: treated as a re-run.
    const rerun = run.rerun || job.handoffs > 0;
    if (rerun || !state) {
      state = await ctx.readState(tools, job.pr.pr);
      if (!state || state.phase !== 'running' || isStale(state, clock())) {
        log.info(
          `the loop ${job.runId} is not running any more (its state: ${state ? phaseWords(state.phase) : 'none'}); not resumed`,
        );
        return;
      }
      pr = await readPullRequest(tools.octokit, job.pr.pr);
      runId = state.runId ?? runId;
      if (pr.state === 'closed') {
        // Closed while no replica ran the loop (a restart, a takeover): it ends with the PR.
        await finishLoop(ctx, tools, pr, runId, undefined, undefined, 'closed', state);
        return;
      }
      trigger = { kind: 'continue' };
      log.info(`resuming the loop ${runId} from its saved state`);
      // The record lists every round whose review is on the PR, a round cut short by the restart too.
      state = await withPostedRounds(ctx, tools, pr, state, log);
    }
    const session = new GitHubPullSession({
      octokit: tools.octokit,
      identity,
      store,
      pr,
      settings: job.settings,
      runId,
      log,
      clock,
      lookBeforeReview: rerun,
    });
    let outcome: LoopOutcome | undefined;
    let failure: string | undefined;
    try {
      await session.roundStarted(roundUnderWay(state, pr.headSha), pr.headSha);
      outcome = await runner.run({ runId, trigger, settings: job.settings, session, signal: run.signal });
    } catch (error) {
      failure = redactSecrets(messageOf(error), ctx.deps.secrets);
      tools.log.error(`review loop on ${key} failed: ${failure}`);
    }
    const reason = queue.takeEndReason(key);
    if (reason === 'shutdown' && (failure !== undefined || outcome?.status === 'interrupted')) {
      // A loop handed on keeps its phase: only the engine's saves the session still holds are written
      // (issue 18's write budget holds them for the next phase change), so the next run resumes from them.
      try {
        await session.update((current) => current);
      } catch (error) {
        tools.log.error(`could not save the engine's state on ${key}: ${describeApiError(error)}`);
      }
      await queue.handOff({ ...job, runId: session.runId });
      handedOff = true;
      log.info('interrupted by the shutdown: the loop goes on after the restart (or on another replica)');
      return;
    }
    await finishLoop(
      ctx,
      tools,
      pr,
      session.runId,
      outcome,
      failure,
      reason === 'shutdown' ? undefined : reason,
      {
        ...state,
        check: session.check ?? state.check,
      },
      // The loop's end goes through the session: the engine's last saves and the round's row go with it,
      // in one edit of the comment (issue 18's write budget).
      (change) => session.update(change),
    );
  } finally {
    if (!handedOff) await endClaim(ctx, key, job.token, pr.pr);
  }
}

/**
 * The round a turn goes on with, for the check's "Round N of M running" (never a round that is not
 * running): the last recorded round when it was on this head (its checkpoint answered, its fix resumed),
 * else the one after it.
 */
function roundUnderWay(state: AppLoopState, head: string): number {
  const last = state.rounds.at(-1);
  if (!last) return 1;
  return last.head === head ? last.round : last.round + 1;
}

/**
 * A resumed loop's state with a row for each of this run's rounds whose review the App posted but whose
 * row was not written before the restart (rows are written at phase changes): a review on a head this
 * loop reviewed or pushed, numbered past the recorded rows. Reading the reviews may fail: the rows then
 * wait for the rounds that follow.
 */
async function withPostedRounds(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullInfo,
  state: AppLoopState,
  log: { warn(message: string): void },
): Promise<AppLoopState> {
  let posted: RoundRow[];
  try {
    posted = await listRoundRows(tools.octokit, pr.pr);
  } catch (error) {
    log.warn(`could not read the pull request's reviews to complete the record: ${describeApiError(error)}`);
    return state;
  }
  const heads = new Set([
    state.head,
    state.check?.headSha,
    ...state.pushedHeads,
    ...state.rounds.map((r) => r.head),
  ]);
  const recorded = state.rounds.at(-1)?.round ?? 0;
  const missing = posted.filter((row) => row.round > recorded && heads.has(row.head));
  if (missing.length === 0) return state;
  return ctx.write(tools, pr.pr, (s) =>
    withRounds(s, [...s.rounds, ...missing.filter((row) => !s.rounds.some((r) => r.round === row.round))]),
  );
}

/** The claim goes before a push that came meanwhile is looked at: that push may continue the loop. */
async function endClaim(ctx: WorkerContext, key: string, token: string, pr: PullRef): Promise<void> {
  const { queue } = ctx.deps;
  try {
    await queue.release(key, token);
    await ctx.loopEnded(key);
    const deferred = await ctx.takeDeferredPush(pr);
    // An event job like a delivery's: with Redis, it survives this replica too.
    if (deferred) await queue.enqueue({ installationId: deferred.installationId, event: deferred.event });
  } catch (error) {
    // Redis is away: the claim expires by its TTL; the push waits for the PR's next event.
    queue.task(`end of the loop on ${key}`, () => Promise.reject(error));
  }
}

/** The configured settings for a run no command set up (the Re-run button): fork PRs stay manual. */
function freshSettings(ctx: WorkerContext, config: RepoConfig, pr: PullInfo): LoopSettings {
  const applied = applyStartOptions(
    settingsFrom(config, ctx.deps.env),
    {},
    {
      isFork: pr.isFork,
      maxRounds: maxRoundsFor(config, ctx.deps.env),
    },
  );
  return applied.ok ? applied.settings : settingsFrom(config, ctx.deps.env);
}

/**
 * Continues the PR's loop from its sticky state (a checkpoint answer, a manual fix done, a restart, the
 * Re-run button): the loop keeps its run id and settings.
 */
export async function resumeLoop(
  ctx: WorkerContext,
  tools: EventTools,
  input: {
    pr: PullInfo;
    config: RepoConfig;
    state: AppLoopState | undefined;
    claim: string;
    trigger: LoopTrigger;
    commentId?: number | undefined;
  },
): Promise<void> {
  const { pr, state, trigger, claim, commentId } = input;
  const settings: LoopSettings = state?.settings ?? freshSettings(ctx, input.config, pr);
  const runId = state?.runId ?? newRunId(ctx.deps.clock());
  const next = await ctx.write(tools, pr.pr, (s) => {
    const updated: AppLoopState = {
      ...s,
      runId,
      phase: 'running',
      // What the last turn said ("the fix waits for your answer") is over once the loop goes on.
      message: null,
      settings,
      ...(state?.runId ? {} : { review: withoutEngineRun(s.review), rounds: [], record: null }),
    };
    return commentId === undefined ? updated : rememberComment(updated, commentId);
  });
  await launchLoop(ctx, tools, pr, settings, runId, trigger, next, claim);
}

export async function finishLoop(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullInfo,
  runId: string,
  outcome: LoopOutcome | undefined,
  failure: string | undefined,
  reason: EndReason | undefined,
  /** The state as this turn last knew it: the check is concluded from it when the sticky comment fails. */
  known?: AppLoopState,
  /** How the loop's end is written (a running loop's session, carrying what it has not written yet). */
  write: (change: (state: AppLoopState) => AppLoopState) => Promise<AppLoopState> = (change) =>
    ctx.write(tools, pr.pr, change),
): Promise<void> {
  let status = outcome?.status;
  if (status === 'interrupted' && reason === 'stop') status = 'stopped';
  const verdict =
    outcome?.lastScore === undefined ? '' : ` Last: ${outcome.lastScore}/10, ${outcome.lastVerdict ?? '–'}.`;
  let ending: Ending;
  if (reason === 'closed') {
    ending = { phase: 'closed', conclusion: 'cancelled', title: 'Pull request closed' };
  } else if (failure !== undefined || !status || !outcome) {
    ending = { phase: 'failed', conclusion: 'failure', title: 'The review loop failed' };
  } else {
    ending = endingOf(status, outcome);
  }
  const forkNote =
    status === 'awaiting-fix' && pr.isFork
      ? ' This pull request comes from a fork: the App never pushes to it, so push your fix yourself.'
      : '';
  const said = endWords(outcome, failure, reason, status);
  const caveat = outcome?.caveat && !said?.includes(outcome.caveat) ? ` ${outcome.caveat}` : '';
  const message = said === undefined ? null : clip(`${said}${forkNote}${caveat}`, 1000);
  // Without an outcome (a failure), the verdict belongs on the head the check followed last.
  const stored = outcome ? undefined : await ctx.readState(tools, pr.pr).catch(() => undefined);
  const head = outcome?.head ?? stored?.check?.headSha ?? known?.check?.headSha ?? pr.headSha;
  let parkIssue: number | undefined;
  if (status === 'max-rounds' || status === 'budget') {
    try {
      const parked = await parkReviewLoop(tools.octokit, ctx.deps.identity, {
        pr: pr.pr,
        prTitle: pr.title,
        runId,
        rounds: outcome?.rounds ?? 0,
        lastScore: outcome?.lastScore,
        lastVerdict: outcome?.lastVerdict,
        headSha: head,
        blockers: outcome?.blockers ?? [],
      });
      parkIssue = parked.number;
      tools.log.info(
        `${pullKey(pr.pr)}: ${parked.action === 'created' ? 'filed' : 'commented on'} defect-park issue #${parked.number} (${parked.url})`,
      );
    } catch (error) {
      tools.log.warn(
        `could not file the defect-park issue for ${pullKey(pr.pr)}: ${describeApiError(error)}`,
      );
    }
  }
  let concludedAhead: AppLoopState['check'] | undefined;
  const change = (s: AppLoopState): AppLoopState => {
    // This run's check of `head` is concluded in place: recorded so in the same edit (one write at the end).
    const concluded = concludedInPlace(s.check, head, runId, ending.conclusion);
    concludedAhead = concluded;
    return {
      ...s,
      runId,
      phase: ending.phase,
      head,
      message,
      ...(parkIssue !== undefined ? { parkIssue } : {}),
      ...(concluded ? { check: concluded } : {}),
    };
  };
  // The check is concluded whatever happens to the sticky comment: a check left in_progress would block a
  // required status for good. When the comment cannot be written, the check says so.
  let next: AppLoopState | undefined;
  let unsaved = '';
  let recordedAhead: AppLoopState['check'] | undefined;
  try {
    next = await write(change);
    recordedAhead = concludedAhead;
  } catch (error) {
    const problem = describeApiError(error);
    tools.log.error(`could not save the review loop's state on ${pullKey(pr.pr)}: ${problem}`);
    unsaved = ` The loop's state could not be saved in its sticky comment (${problem}).`;
  }
  const fallback = known ?? stored;
  if (!next && !fallback) return;
  const parked = parkIssue !== undefined ? ` What is left is listed in #${parkIssue}.` : '';
  const used = outcome?.instructions ? ` ${outcome.instructions}` : '';
  const summary = `${message ?? ending.title}${verdict}${parked}${used}${unsaved}`;
  try {
    await concludeCheck(
      ctx,
      tools,
      pr.pr,
      next ?? change(fallback!),
      head,
      unsaved ? 'failure' : ending.conclusion,
      { title: unsaved ? 'The review loop failed' : ending.title, summary },
      { runId, detailsUrl: pr.url },
    );
  } catch (error) {
    // Concluding the check, or recording it in the comment afterwards, failed: said in the log.
    tools.log.error(`could not record the concluded check on ${pullKey(pr.pr)}: ${describeApiError(error)}`);
    // The comment recorded the check as concluded: it is not, so a later run must still supersede it.
    const open = recordedAhead;
    if (open) {
      await ctx
        .write(tools, pr.pr, (s) =>
          sameCheck(s.check, open) ? { ...s, check: { ...open, completed: false, conclusion: null } } : s,
        )
        .catch(() => undefined);
    }
  }
  // Closed while it ran: the close's own handler never ran, so the loop's end learns from its feedback.
  if (reason === 'closed' && next) await learnAfterClosedLoop(ctx, tools, pr.pr, next);
}
