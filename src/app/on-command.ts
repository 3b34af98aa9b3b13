/**
 * `/review-loop …` comments, in the background (docs/how-it-works.md § The App): the permission check
 * first (a refused user gets one reply and nothing else), then the configuration, the 👀, the sticky
 * state — and the command: start, go / skip / continue, stop, status, help, or a note for the next fix.
 * A command that needs a loop when none is under way is told so (replies.ts NO_LOOP), never given a
 * status that did not happen.
 */
import { pullKey } from '../github/review/app-octokit.js';
import { describeApiError } from '../github/octokit.js';
import type { PullInfo } from '../github/review/pull-info.js';
import { readPullRequest } from '../github/review/pull-info.js';
import { clip, inertInline } from '../core/text/untrusted-text.js';
import type { RepoConfig } from './config.js';
import { applyStartOptions, maxRoundsFor, settingsFrom } from './config.js';
import type { LoopTrigger } from './loop-runner.js';
import type { AppLoopState, Phase } from '../github/review/loop-state.js';
import { DISMISSALS_LIMIT, rememberComment } from '../github/review/loop-state.js';
import { StoredStateSchema, type RankedWeakness } from '../core/review/state.js';
import { records } from '../core/review/sticky-records.js';
import { concludeCheck, launchLoop, newRunId, resumeLoop, withoutEngineRun } from './loop-turn.js';
import { NO_LOOP, phaseWords, refuse, reply, statusLine } from './replies.js';
import type { Command, StartOptions } from './validation/command.js';
import { COMMAND, MAX_GUIDANCE_CHARS, helpText, malformedReply } from './validation/command.js';
import type { CommandEvent } from './validation/event.js';
import { checkPermission } from './validation/permission.js';
import type { EventTools, WorkerContext } from './worker-context.js';
import { isFinished, isStale } from './worker-context.js';

/** Commands that may start a round, so they claim the PR's loop at enqueue. */
function claimsLoop(command: Command): boolean {
  return ['start', 'go', 'continue', 'skip', 'guidance'].includes(command.kind);
}

/**
 * `run.rerun`: the replica that ran this command's job first died (docs/how-it-works.md § The App,
 * "Shared state and takeover"). A comment the sticky state records as handled was taken that far (a loop
 * started, a note kept) and is left alone; a claim the dead replica took is waited for until it expires;
 * and a reply is looked for before it is posted.
 */
export async function onCommand(
  ctx: WorkerContext,
  event: CommandEvent,
  eventTools: EventTools,
  run: { rerun: boolean } = { rerun: false },
): Promise<void> {
  const key = pullKey(event.pr);
  const tools = run.rerun ? { ...eventTools, replyAfter: event.commentId } : eventTools;
  const config = await ctx.readConfig(tools);
  const allowed = ctx.allowedRoles(config);
  const permission = await checkPermission(tools.octokit, event.pr, event.sender.login, allowed);
  if (!permission.allowed) {
    tools.log.info(`${event.sender.login} (${permission.role}) may not run the review loop on ${key}`);
    await refuse(ctx, tools, event.pr, event.sender.login, permission.role, allowed);
    return;
  }
  if (!config.ok) {
    tools.log.warn(`${key}: the configuration has problems: ${config.problems.join('; ')}`);
    await reply(ctx, tools, event.pr, `The review loop did not start: ${config.problem}`);
    return;
  }
  if (event.parsed.status === 'malformed') {
    tools.log.info(`${key}: malformed command from ${event.sender.login}: ${event.parsed.problem}`);
    await reply(
      ctx,
      tools,
      event.pr,
      malformedReply(event.parsed, maxRoundsFor(config.config, ctx.deps.env)),
    );
    return;
  }
  // The claim comes only now, after the permission check (docs/how-it-works.md § The App): a comment
  // from someone who may not run the loop never holds a PR's loop, so a writer's command always gets it.
  if (run.rerun) {
    const state = await ctx.readState(tools, event.pr);
    if (state?.handledComments.includes(event.commentId)) {
      tools.log.info(`comment ${event.commentId} was handled before its replica stopped; not handled again`);
      // A stop recorded before its check was concluded: the check is concluded now.
      if (
        event.parsed.command.kind === 'stop' &&
        state.phase === 'stopped' &&
        state.check?.completed === false
      ) {
        await concludeStopped(ctx, tools, event, state);
      }
      return;
    }
  }
  const { queue } = ctx.deps;
  const claim = !claimsLoop(event.parsed.command)
    ? undefined
    : run.rerun
      ? await queue.claimPatiently(key)
      : await queue.claim(key);
  let handedOver = false;
  try {
    await tools.octokit.rest.reactions.createForIssueComment({
      owner: event.pr.owner,
      repo: event.pr.repo,
      comment_id: event.commentId,
      content: 'eyes',
    });
    const state = await ctx.readState(tools, event.pr);
    if (state?.handledComments.includes(event.commentId)) {
      tools.log.info(`comment ${event.commentId} is recorded as handled on ${key}; ignored`);
      return;
    }
    handedOver = await dispatch(ctx, event, event.parsed.command, tools, config.config, state, claim);
  } finally {
    if (claim && !handedOver) await ctx.deps.queue.release(key, claim);
  }
}

/** True when `claim` was handed to a loop (which releases it). */
async function dispatch(
  ctx: WorkerContext,
  event: CommandEvent,
  command: Command,
  tools: EventTools,
  config: RepoConfig,
  state: AppLoopState | undefined,
  claim: string | undefined,
): Promise<boolean> {
  const finished = isFinished(state, ctx.deps.clock());
  const busy = claimsLoop(command) && !claim;
  const phase: Phase | undefined = finished ? undefined : state?.phase;
  const resume = async (trigger: LoopTrigger, read?: PullInfo) => {
    const pr = read ?? (await readPull(ctx, tools, event));
    if (!pr) return false;
    await resumeLoop(ctx, tools, {
      pr,
      config,
      state,
      claim: claim!,
      trigger,
      commentId: event.commentId,
    });
    return true;
  };

  switch (command.kind) {
    case 'help':
      await reply(ctx, tools, event.pr, helpText(maxRoundsFor(config, ctx.deps.env)));
      return false;
    case 'status':
      await reply(
        ctx,
        tools,
        event.pr,
        statusLine(state, finished, await ctx.deps.queue.isClaimed(pullKey(event.pr))),
      );
      return false;
    case 'stop':
      await stop(ctx, event, tools, state, finished);
      return false;
    case 'guidance':
      if (phase === 'waiting-checkpoint' && claim) {
        return resume({ kind: 'answer', answer: command });
      }
      await guidance(ctx, event, command.text, tools, finished);
      return false;
    case 'dismiss':
      await dismiss(ctx, event, command, tools, state);
      return false;
    case 'start':
      if (busy) {
        if (await onceBusy(ctx, tools, event)) {
          await reply(
            ctx,
            tools,
            event.pr,
            'A review loop is already running on this pull request; `/review-loop status` shows where it is, `/review-loop stop` ends it.',
          );
        }
        return false;
      }
      if (!finished && state) {
        await reply(
          ctx,
          tools,
          event.pr,
          `A review loop is already under way here (${phaseWords(state.phase)}). Use \`/review-loop continue\` or \`/review-loop stop\`.`,
        );
        return false;
      }
      return start(ctx, event, command.options, tools, config, claim!);
    case 'go':
    case 'skip':
    case 'continue': {
      if (busy) {
        if (await onceBusy(ctx, tools, event)) {
          await reply(ctx, tools, event.pr, 'A review loop is already running on this pull request.');
        }
        return false;
      }
      if (phase === 'waiting-checkpoint') {
        return resume({ kind: 'answer', answer: command.kind === 'skip' ? command : { kind: 'go' } });
      }
      // A failed loop (a missing key, an API error) is finished for a new start, and resumable by continue.
      const failed = state?.phase === 'failed' && !isStale(state, ctx.deps.clock());
      const resumes =
        ((phase !== undefined || failed) && command.kind === 'continue') ||
        (phase !== undefined && command.kind === 'go');
      if (resumes && phase === 'waiting-fix') return continueAfterFix(ctx, tools, event, state!, resume);
      if (resumes) return resume({ kind: 'continue' });
      await reply(
        ctx,
        tools,
        event.pr,
        phase !== undefined && command.kind === 'skip'
          ? `The loop is ${phaseWords(phase)}, not at a checkpoint, so there is nothing to skip.`
          : NO_LOOP,
      );
      return false;
    }
  }
}

/**
 * `continue` (or `go`) while the loop waits for a manual fix: with a new commit on the branch the next
 * round reviews it; without one there is nothing new to review, so nothing runs and the reply says what
 * the loop waits for (docs/how-it-works.md § The App) — never a silent round that reviews nothing.
 */
async function continueAfterFix(
  ctx: WorkerContext,
  tools: EventTools,
  event: CommandEvent,
  state: AppLoopState,
  resume: (trigger: LoopTrigger, pr: PullInfo) => Promise<boolean>,
): Promise<boolean> {
  const pr = await readPull(ctx, tools, event);
  if (!pr) return false;
  if (state.head === null || pr.headSha !== state.head) return resume({ kind: 'continue' }, pr);
  const round = state.rounds.at(-1)?.round ?? state.rounds.length;
  const reviewed = round > 0 ? `round ${round} reviewed` : 'the last review';
  await reply(
    ctx,
    tools,
    event.pr,
    `No new commit since ${reviewed} \`${pr.headSha.slice(0, 7)}\`, so there is nothing new to review yet. Push your fix to this pull request's branch (apply the review's suggestions, or commit your own): the push starts round ${round + 1} by itself.`,
  );
  return false;
}

/** True the first time a PR's running loop is to be answered "already running"; later times are logged only. */
async function onceBusy(ctx: WorkerContext, tools: EventTools, event: CommandEvent): Promise<boolean> {
  const key = pullKey(event.pr);
  if (await ctx.tellBusyOnce(key)) return true;
  tools.log.info(`comment ${event.commentId}: a loop is already running on ${key}; answered once already`);
  return false;
}

/**
 * `/review-loop note: <text>` outside a checkpoint: kept in the sticky state, where the engine's next fix
 * takes it (a running loop's next fix included), and confirmed in a reply. Never a claim: the loop that
 * runs, or the next, uses it.
 */
async function guidance(
  ctx: WorkerContext,
  event: CommandEvent,
  text: string,
  tools: EventTools,
  finished: boolean,
): Promise<void> {
  await ctx.remember(tools, event.pr, event.commentId, (s) => ({
    ...s,
    guidance: clip([s.guidance, text].filter((part) => part).join('\n\n'), 2 * MAX_GUIDANCE_CHARS),
  }));
  await reply(
    ctx,
    tools,
    event.pr,
    finished
      ? `${NO_LOOP} Your note is kept: the first fix of the next loop follows it.`
      : 'Noted: the next fix follows your note.',
  );
}

/** The pull request, or undefined after saying on it that GitHub did not answer (nothing else is started). */
async function readPull(
  ctx: WorkerContext,
  tools: EventTools,
  event: CommandEvent,
): Promise<PullInfo | undefined> {
  try {
    return await readPullRequest(tools.octokit, event.pr);
  } catch (error) {
    const problem = describeApiError(error);
    tools.log.error(`could not read ${pullKey(event.pr)}: ${problem}`);
    await reply(
      ctx,
      tools,
      event.pr,
      `The review loop did not start: GitHub did not answer the read of this pull request (${inertInline(problem, 200)}); try again in a few minutes.`,
    );
    return undefined;
  }
}

/** The last review's findings as the engine keeps them: the round waiting at the checkpoint, or the last one. */
function lastFindings(
  state: AppLoopState | undefined,
): { round: number; weaknesses: RankedWeakness[] } | undefined {
  const parsed = StoredStateSchema.safeParse(records(state?.review).state);
  if (!parsed.success) return undefined;
  const engine = parsed.data;
  if (engine.pending) return { round: engine.pending.round, weaknesses: engine.pending.weaknesses };
  const last = [...(engine.history ?? [])].reverse().find((r) => r.score !== null);
  return last && { round: last.round, weaknesses: last.weaknesses };
}

/**
 * `/review-loop dismiss <n> [reason]`: finding n of the last review is recorded as dismissed; the engine
 * writes it to the reviewer's memory before the next review and leaves it out of every later round.
 */
async function dismiss(
  ctx: WorkerContext,
  event: CommandEvent,
  command: Extract<Command, { kind: 'dismiss' }>,
  tools: EventTools,
  state: AppLoopState | undefined,
): Promise<void> {
  const found = lastFindings(state);
  const weakness = found?.weaknesses.find((w) => w.rank === command.item);
  if (!found || !weakness) {
    await reply(
      ctx,
      tools,
      event.pr,
      found
        ? `Round ${found.round} named ${found.weaknesses.length} weakness${found.weaknesses.length === 1 ? '' : 'es'}; there is no weakness ${command.item} to dismiss.`
        : 'There is no review here yet, so there is nothing to dismiss.',
    );
    return;
  }
  const dismissal = {
    title: clip(weakness.title, 200),
    file: weakness.file,
    line: weakness.line,
    reason: clip(command.reason || 'dismissed without a reason', 200),
    by: event.sender.login,
  };
  await ctx.remember(tools, event.pr, event.commentId, (s) => ({
    ...s,
    dismissals: [...s.dismissals.filter((d) => d.title !== dismissal.title), dismissal].slice(
      -DISMISSALS_LIMIT,
    ),
  }));
  tools.log.info(
    `${pullKey(event.pr)}: ${event.sender.login} dismissed weakness ${command.item} of round ${found.round}`,
  );
  await reply(
    ctx,
    tools,
    event.pr,
    `Dismissed weakness ${command.item} of round ${found.round} (${inertInline(weakness.title, 200)}): later rounds leave it out, and the reviewer is told why.`,
  );
}

async function start(
  ctx: WorkerContext,
  event: CommandEvent,
  options: StartOptions,
  tools: EventTools,
  config: RepoConfig,
  claim: string,
): Promise<boolean> {
  const pr = await readPull(ctx, tools, event);
  if (!pr) return false;
  if (pr.state === 'closed') {
    await reply(ctx, tools, event.pr, 'This pull request is closed; reopen it to run the review loop.');
    return false;
  }
  const applied = applyStartOptions(settingsFrom(config, ctx.deps.env), options, {
    isFork: pr.isFork,
    maxRounds: maxRoundsFor(config, ctx.deps.env),
  });
  if (!applied.ok) {
    await reply(ctx, tools, event.pr, `\`${COMMAND}\`: ${applied.problem}.`);
    return false;
  }
  const { settings } = applied;
  const runId = newRunId(ctx.deps.clock());
  const state = await ctx.write(tools, event.pr, (previous) =>
    rememberComment(
      {
        ...previous,
        runId,
        phase: 'running',
        settings,
        startedBy: event.sender.login,
        head: pr.headSha,
        rounds: [],
        // A new loop, a new record: what was said of an unreadable one is over.
        record: null,
        message: applied.notes.join(' ') || null,
        // A fresh run: the engine starts anew; its memory and receipts stay as the PR's audit trail.
        review: withoutEngineRun(previous.review),
      },
      event.commentId,
    ),
  );
  await launchLoop(ctx, tools, pr, settings, runId, { kind: 'start' }, state, claim);
  return true;
}

async function stop(
  ctx: WorkerContext,
  event: CommandEvent,
  tools: EventTools,
  state: AppLoopState | undefined,
  finished: boolean,
): Promise<void> {
  const key = pullKey(event.pr);
  if (await ctx.deps.queue.abort(key, 'stopped by /review-loop stop', 'stop')) {
    await ctx.remember(tools, event.pr, event.commentId);
    return;
  }
  if (finished || !state) {
    await reply(ctx, tools, event.pr, NO_LOOP);
    return;
  }
  const next = await ctx.remember(tools, event.pr, event.commentId, (s) => ({
    ...s,
    phase: 'stopped',
    message: `Ended by ${event.sender.login}.`,
  }));
  await concludeStopped(ctx, tools, event, next);
}

async function concludeStopped(
  ctx: WorkerContext,
  tools: EventTools,
  event: CommandEvent,
  state: AppLoopState,
): Promise<void> {
  await concludeCheck(ctx, tools, event.pr, state, state.head, 'failure', {
    title: 'Stopped',
    summary: `The loop was stopped by ${inertInline(event.sender.login, 60)}.`,
  });
}
