/**
 * What the App does with each event, in the background (docs/how-it-works.md § The App). `intake` is the
 * only part that runs inside a webhook handler: it records, claims and enqueues, synchronously, without
 * any API call. Everything else — the permission check, the 👀 reaction, the configuration, the sticky
 * state, check runs, the loop itself — happens in queued work after the delivery was answered.
 */
import { randomBytes } from 'node:crypto';
import { redactSecrets } from '../core/redact.js';
import type { AppIdentity, AppOctokit, PullRef } from '../github/app-octokit.js';
import { pullKey } from '../github/app-octokit.js';
import { supersededState, updateCheckRun } from '../github/check-runs.js';
import { describeApiError } from '../github/octokit.js';
import type { PullInfo } from '../github/pull-info.js';
import { readPullRequest } from '../github/pull-info.js';
import { parkReviewLoop } from '../github/review-park.js';
import type { StickyStore } from '../github/sticky-comment.js';
import { clip, quoteInline } from '../github/safe-text.js';
import { checkCompleted } from './check-tracker.js';
import type { AppEnvSettings, LoopSettings, RepoConfig } from './config.js';
import { CONFIG_PATH, applyStartOptions, maxRoundsFor, settingsFrom, validateRepoConfig } from './config.js';
import type { LoopOutcome, LoopRunner, LoopTrigger } from './loop-runner.js';
import { EngineNotWiredError } from './loop-runner.js';
import type { AppLoopState, Phase } from './loop-state.js';
import { FINISHED_PHASES, emptyLoopState, rememberComment } from './loop-state.js';
import { GitHubPullSession, writeLoopState } from './pull-session.js';
import type { CommandEvent, AppEvent, PushEvent, ClosedEvent, RerequestEvent } from './validation/event.js';
import type { Command } from './validation/command.js';
import { COMMAND, MAX_GUIDANCE_CHARS } from './validation/command.js';
import { DEFAULT_ALLOWED_ROLES, checkPermission } from './validation/permission.js';
import type { WorkQueue } from './work-queue.js';

/** docs/how-it-works.md § Review state, memory and receipts: an unfinished loop untouched for a day is abandoned; a new start begins afresh. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export interface EventLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a handler hands the worker from Probot's context. */
export interface EventTools {
  octokit: AppOctokit;
  log: EventLog;
  /** `context.config('review-loop.yml')`: the default branch's file with `_extends`, or null. */
  readConfig(): Promise<unknown>;
}

export interface WorkerDeps {
  identity: AppIdentity;
  env: AppEnvSettings;
  runner: LoopRunner;
  queue: WorkQueue;
  store: StickyStore<AppLoopState>;
  clock: () => Date;
  /** Secrets to redact from anything the App posts (model keys, the private key). */
  secrets: readonly string[];
}

type EndReason = 'stop' | 'closed';

/** `run_<YYYYMMDD>_<8 hex>`, the run id format of the review engine. */
export function newRunId(now: Date): string {
  return `run_${now.toISOString().slice(0, 10).replace(/-/g, '')}_${randomBytes(4).toString('hex')}`;
}

/** Commands that may start a round, so they claim the PR's loop at enqueue. */
function claimsLoop(command: Command): boolean {
  return ['start', 'go', 'continue', 'skip', 'guidance'].includes(command.kind);
}

function isFinished(state: AppLoopState | undefined, now: Date): boolean {
  if (!state || FINISHED_PHASES.includes(state.phase)) return true;
  return now.getTime() - Date.parse(state.updatedAt) > STALE_AFTER_MS;
}

export class ReviewLoopWorker {
  readonly #deps: WorkerDeps;
  /** Why a claimed loop was aborted, so its end is recorded as a stop or a close, not a restart. */
  readonly #endReasons = new Map<string, EndReason>();
  /** Users already told once that they may not run the loop, per PR (a refused user gets one reply). */
  readonly #refused = new Set<string>();

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
  }

  /** Synchronous, no I/O: runs inside the webhook handler. */
  intake(event: AppEvent, tools: EventTools): void {
    const { queue } = this.#deps;
    switch (event.kind) {
      case 'command': {
        if (queue.seenBefore(`comment:${event.commentId}`)) {
          tools.log.info(`comment ${event.commentId} was already handled (redelivery); ignored`);
          return;
        }
        const claim =
          event.parsed.status === 'ok' && claimsLoop(event.parsed.command)
            ? queue.claim(pullKey(event.pr))
            : undefined;
        queue.task(`command on ${pullKey(event.pr)}`, () => this.#command(event, tools, claim));
        return;
      }
      case 'push':
        if (queue.isClaimed(pullKey(event.pr))) return; // the running loop reviews the newest head itself
        queue.task(`push on ${pullKey(event.pr)}`, () => this.#push(event, tools));
        return;
      case 'closed':
        if (queue.abort(pullKey(event.pr), 'the pull request was closed')) {
          this.#endReasons.set(pullKey(event.pr), 'closed');
          return;
        }
        queue.task(`close of ${pullKey(event.pr)}`, () => this.#closed(event, tools));
        return;
      case 'rerequest':
        if (queue.seenBefore(`delivery:${event.delivery}`)) return;
        queue.task(`re-run of check ${event.checkRunId}`, () => this.#rerequest(event, tools));
        return;
    }
  }

  // ---------------------------------------------------------------- commands

  async #command(event: CommandEvent, tools: EventTools, claim: AbortController | undefined): Promise<void> {
    const key = pullKey(event.pr);
    let handedOver = false;
    try {
      const config = await this.#readConfig(tools);
      const allowed = config.ok
        ? settingsFrom(config.config, this.#deps.env).allowedRoles
        : [...DEFAULT_ALLOWED_ROLES];
      const permission = await checkPermission(tools.octokit, event.pr, event.sender.login, allowed);
      if (!permission.allowed) {
        tools.log.info(`${event.sender.login} (${permission.role}) may not run the review loop on ${key}`);
        await this.#refuse(tools, event.pr, event.sender.login, permission.role);
        return;
      }
      if (!config.ok) {
        await this.#reply(tools, event.pr, `The review loop did not start: ${config.problem}.`);
        return;
      }
      if (event.parsed.status === 'malformed') {
        await this.#reply(tools, event.pr, `\`${COMMAND}\`: ${event.parsed.problem}.`);
        return;
      }
      await tools.octokit.rest.reactions.createForIssueComment({
        owner: event.pr.owner,
        repo: event.pr.repo,
        comment_id: event.commentId,
        content: 'eyes',
      });
      const { state } = await this.#deps.store.read(tools.octokit, event.pr);
      if (state?.handledComments.includes(event.commentId)) {
        tools.log.info(`comment ${event.commentId} is recorded as handled on ${key}; ignored`);
        return;
      }
      handedOver = await this.#dispatch(event, event.parsed.command, tools, config.config, state, claim);
    } finally {
      if (claim && !handedOver) this.#deps.queue.release(key, claim);
    }
  }

  /** True when `claim` was handed to a loop (which releases it). */
  async #dispatch(
    event: CommandEvent,
    command: Command,
    tools: EventTools,
    config: RepoConfig,
    state: AppLoopState | undefined,
    claim: AbortController | undefined,
  ): Promise<boolean> {
    const now = this.#deps.clock();
    const finished = isFinished(state, now);
    const busy = claimsLoop(command) && !claim;
    const phase: Phase | undefined = finished ? undefined : state?.phase;

    switch (command.kind) {
      case 'status':
        await this.#reply(
          tools,
          event.pr,
          this.#statusLine(state, finished, this.#deps.queue.isClaimed(pullKey(event.pr))),
        );
        return false;
      case 'stop':
        return this.#stop(event, tools, state, finished);
      case 'guidance':
        if (phase === 'waiting-checkpoint' && claim) {
          return this.#resume(event, tools, config, state, claim, { kind: 'answer', answer: command });
        }
        await this.#remember(tools, event.pr, event.commentId, (s) => ({
          ...s,
          guidance: clip(
            [s.guidance, command.text].filter((part) => part).join('\n\n'),
            2 * MAX_GUIDANCE_CHARS,
          ),
        }));
        if (finished) {
          await this.#reply(
            tools,
            event.pr,
            'No review loop is running here; the guidance is kept for the next fix.',
          );
        }
        return false;
      case 'start':
        if (busy) {
          await this.#reply(
            tools,
            event.pr,
            'A review loop is already running on this pull request; `/review-loop status` shows where it is, `/review-loop stop` ends it.',
          );
          return false;
        }
        if (!finished && state) {
          await this.#reply(
            tools,
            event.pr,
            `A review loop is already under way here (${this.#phaseWords(state.phase)}). Use \`/review-loop continue\` or \`/review-loop stop\`.`,
          );
          return false;
        }
        return this.#start(event, command.options, tools, config, state, claim!);
      case 'go':
      case 'skip':
      case 'continue': {
        if (busy) {
          await this.#reply(tools, event.pr, 'A review loop is already running on this pull request.');
          return false;
        }
        if (phase === 'waiting-checkpoint') {
          const answer = command.kind === 'skip' ? command : { kind: 'go' as const };
          return this.#resume(event, tools, config, state, claim!, { kind: 'answer', answer });
        }
        if (phase !== undefined && command.kind !== 'skip') {
          return this.#resume(event, tools, config, state, claim!, { kind: 'continue' });
        }
        await this.#reply(
          tools,
          event.pr,
          command.kind === 'skip'
            ? 'Nothing is waiting at a checkpoint, so there is nothing to skip.'
            : 'No review loop is waiting here. Comment `/review-loop` to start one.',
        );
        return false;
      }
    }
  }

  async #start(
    event: CommandEvent,
    options: Extract<Command, { kind: 'start' }>['options'],
    tools: EventTools,
    config: RepoConfig,
    previous: AppLoopState | undefined,
    claim: AbortController,
  ): Promise<boolean> {
    const pr = await readPullRequest(tools.octokit, event.pr);
    if (pr.state === 'closed') {
      await this.#reply(tools, event.pr, 'This pull request is closed; reopen it to run the review loop.');
      return false;
    }
    const applied = applyStartOptions(settingsFrom(config, this.#deps.env), options, {
      isFork: pr.isFork,
      maxRounds: maxRoundsFor(config, this.#deps.env),
    });
    if (!applied.ok) {
      await this.#reply(tools, event.pr, `\`${COMMAND}\`: ${applied.problem}.`);
      return false;
    }
    const { settings } = applied;
    const missing = [
      settings.reviewerModel ? undefined : '`REVIEW_LOOP_REVIEWER_MODEL` (or `reviewer_model`)',
      settings.executorModel ? undefined : '`REVIEW_LOOP_EXECUTOR_MODEL` (or `executor_model`)',
    ].filter(Boolean);
    if (missing.length > 0) {
      await this.#reply(
        tools,
        event.pr,
        `The review loop did not start: no model is configured for ${missing.join(' and ')}. Set it in the App's environment or in \`${CONFIG_PATH}\`.`,
      );
      return false;
    }
    const runId = newRunId(this.#deps.clock());
    const base = previous ?? emptyLoopState(this.#deps.clock());
    const state = await this.#write(tools, event.pr, () =>
      rememberComment(
        {
          ...base,
          runId,
          phase: 'running',
          settings: {
            ...settings,
            reviewerModel: settings.reviewerModel,
            executorModel: settings.executorModel,
          },
          startedBy: event.sender.login,
          head: pr.headSha,
          guidance: null,
          skip: [],
          rounds: [],
          message: applied.notes.join(' ') || null,
          review: undefined,
        },
        event.commentId,
      ),
    );
    this.#launch(tools, pr, settings, runId, { kind: 'start' }, state, claim);
    return true;
  }

  /** Continues the PR's loop from its sticky state (checkpoint answer, manual fix done, restart). */
  async #resume(
    event: CommandEvent | undefined,
    tools: EventTools,
    config: RepoConfig,
    state: AppLoopState | undefined,
    claim: AbortController,
    trigger: LoopTrigger,
    pr?: PullInfo,
  ): Promise<boolean> {
    const ref = pr?.pr ?? event?.pr;
    if (!ref) return false;
    const info = pr ?? (await readPullRequest(tools.octokit, ref));
    const settings =
      (state?.settings as LoopSettings | null | undefined) ?? settingsFrom(config, this.#deps.env);
    const runId = state?.runId ?? newRunId(this.#deps.clock());
    const next = await this.#write(tools, ref, (s) => {
      const answered =
        trigger.kind === 'answer' && trigger.answer.kind === 'skip'
          ? { ...s, skip: trigger.answer.items }
          : s;
      const updated: AppLoopState = {
        ...answered,
        runId,
        phase: 'running',
        settings: state?.settings ?? settings,
      };
      return event ? rememberComment(updated, event.commentId) : updated;
    });
    this.#launch(tools, info, settings, runId, trigger, next, claim);
    return true;
  }

  async #stop(
    event: CommandEvent,
    tools: EventTools,
    state: AppLoopState | undefined,
    finished: boolean,
  ): Promise<boolean> {
    const key = pullKey(event.pr);
    if (this.#deps.queue.abort(key, 'stopped by /review-loop stop')) {
      this.#endReasons.set(key, 'stop');
      await this.#remember(tools, event.pr, event.commentId, (s) => s);
      return false;
    }
    if (finished || !state) {
      await this.#reply(tools, event.pr, 'No review loop is running here; nothing to stop.');
      return false;
    }
    const next = await this.#write(tools, event.pr, (s) =>
      rememberComment(
        { ...s, phase: 'stopped', message: `Stopped by @${event.sender.login}.` },
        event.commentId,
      ),
    );
    await this.#conclude(
      tools,
      event.pr,
      next,
      next.head,
      'failure',
      'Stopped',
      `The loop was stopped by \`${event.sender.login}\`.`,
    );
    return false;
  }

  // ---------------------------------------------------------------- the loop

  /** Hands the claim to a queued loop: the runner runs, then its outcome lands on the check and the comment. */
  #launch(
    tools: EventTools,
    pr: PullInfo,
    settings: LoopSettings,
    runId: string,
    trigger: LoopTrigger,
    state: AppLoopState,
    claim: AbortController,
  ): void {
    const key = pullKey(pr.pr);
    const { queue, runner, store, identity, clock } = this.#deps;
    queue.loop(`loop on ${key}`, key, claim, async (signal) => {
      const session = new GitHubPullSession({
        octokit: tools.octokit,
        identity,
        store,
        pr,
        settings,
        runId,
        log: tools.log,
        clock,
      });
      let outcome: LoopOutcome | undefined;
      let failure: string | undefined;
      try {
        await session.roundStarted(state.rounds.length + 1, pr.headSha);
        outcome = await runner.run({ runId, trigger, settings, session, signal });
      } catch (error) {
        failure =
          error instanceof EngineNotWiredError
            ? error.message
            : redactSecrets(error instanceof Error ? error.message : String(error), this.#deps.secrets);
        tools.log.error(`review loop on ${key} failed: ${failure}`);
      }
      const reason = this.#endReasons.get(key);
      this.#endReasons.delete(key);
      await this.#finish(tools, pr, runId, outcome, failure, reason);
    });
  }

  async #finish(
    tools: EventTools,
    pr: PullInfo,
    runId: string,
    outcome: LoopOutcome | undefined,
    failure: string | undefined,
    reason: EndReason | undefined,
  ): Promise<void> {
    let status = outcome?.status;
    if (status === 'interrupted' && reason === 'stop') status = 'stopped';
    const head = outcome?.head ?? pr.headSha;
    const verdict =
      outcome?.lastScore === undefined
        ? ''
        : ` Last: ${outcome.lastScore}/10, ${outcome.lastVerdict ?? '–'}.`;
    let phase: Phase;
    let conclusion: 'success' | 'failure' | 'action_required' | 'cancelled';
    let title: string;
    if (reason === 'closed') {
      [phase, conclusion, title] = ['closed', 'cancelled', 'Pull request closed'];
    } else if (failure !== undefined || !status) {
      [phase, conclusion, title] = ['failed', 'failure', 'The review loop failed'];
    } else {
      switch (status) {
        case 'acquitted':
          [phase, conclusion, title] = [
            'acquitted',
            'success',
            `Acquitted: ${outcome?.lastScore ?? '?'}/10, ${outcome?.lastVerdict ?? ''}`,
          ];
          break;
        case 'awaiting-fix':
          [phase, conclusion, title] = ['waiting-fix', 'action_required', 'Waiting for a fix'];
          break;
        case 'awaiting-checkpoint':
          [phase, conclusion, title] = ['waiting-checkpoint', 'action_required', 'Waiting at the checkpoint'];
          break;
        case 'interrupted':
          [phase, conclusion, title] = [
            'interrupted',
            'action_required',
            'Interrupted; comment /review-loop continue',
          ];
          break;
        case 'stopped':
          [phase, conclusion, title] = ['stopped', 'failure', 'Stopped'];
          break;
        case 'max-rounds':
        case 'budget':
          [phase, conclusion, title] = [
            'gave-up',
            'failure',
            status === 'budget' ? 'Budget spent without acquittal' : 'Rounds ran out without acquittal',
          ];
          break;
        default:
          [phase, conclusion, title] = ['gave-up', 'failure', 'Not acquitted'];
      }
    }
    const said = failure ?? outcome?.message;
    const message = said === undefined ? null : clip(said, 1000);
    let parkIssue: number | undefined;
    if (status === 'max-rounds' || status === 'budget') {
      try {
        const parked = await parkReviewLoop(tools.octokit, this.#deps.identity, {
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
      } catch (error) {
        tools.log.warn(
          `could not file the defect-park issue for ${pullKey(pr.pr)}: ${describeApiError(error)}`,
        );
      }
    }
    const next = await this.#write(tools, pr.pr, (s) => ({
      ...s,
      phase,
      head,
      message,
      ...(parkIssue !== undefined ? { parkIssue } : {}),
    }));
    await this.#conclude(
      tools,
      pr.pr,
      next,
      head,
      conclusion,
      title,
      `${message ?? title}${verdict}`,
      runId,
      pr.url,
    );
  }

  /** Completes the check of `head` (superseding one on an older head) and records it. */
  async #conclude(
    tools: EventTools,
    pr: PullRef,
    state: AppLoopState,
    head: string | null,
    conclusion: 'success' | 'failure' | 'action_required' | 'cancelled' | 'neutral',
    title: string,
    summary: string,
    runId = state.runId ?? 'none',
    detailsUrl?: string,
  ): Promise<void> {
    if (!head) return;
    const check = await checkCompleted(
      { octokit: tools.octokit, repo: pr, runId, detailsUrl, now: this.#deps.clock() },
      state.check,
      head,
      conclusion,
      { title, summary: redactSecrets(summary, this.#deps.secrets) },
    );
    await this.#write(tools, pr, (s) => ({ ...s, check }));
  }

  // ---------------------------------------------------------------- other events

  async #push(event: PushEvent, tools: EventTools): Promise<void> {
    const { state } = await this.#deps.store.read(tools.octokit, event.pr);
    if (!state || state.pushedHeads.includes(event.headSha)) return;
    const now = this.#deps.clock();
    if (state.phase === 'acquitted') {
      // The receipt was for the acquitted head; the new head has not been reviewed.
      const acquitted = state.head ?? 'an earlier head';
      const next = await this.#write(tools, event.pr, (s) => ({
        ...s,
        message: `Acquittal was for ${acquitted.slice(0, 7)}; a later push was not reviewed.`,
      }));
      await this.#conclude(
        tools,
        event.pr,
        { ...next, check: null },
        event.headSha,
        'action_required',
        'Not reviewed: the acquittal is stale',
        `The acquittal was for \`${acquitted.slice(0, 7)}\`; this head has not been reviewed. Comment \`/review-loop\` to review it.`,
      );
      return;
    }
    if (isFinished(state, now) || state.phase === 'waiting-checkpoint') return;
    // waiting-fix (manual mode), or a loop a restart interrupted: the push continues it.
    const claim = this.#deps.queue.claim(pullKey(event.pr));
    if (!claim) return;
    let handed = false;
    try {
      const config = await this.#readConfig(tools);
      const pr = await readPullRequest(tools.octokit, event.pr);
      if (pr.headSha !== event.headSha) return; // an older push; the newer one's event follows
      handed = await this.#resume(
        undefined,
        tools,
        config.ok ? config.config : {},
        state,
        claim,
        { kind: 'continue' },
        pr,
      );
    } finally {
      if (!handed) this.#deps.queue.release(pullKey(event.pr), claim);
    }
  }

  async #closed(event: ClosedEvent, tools: EventTools): Promise<void> {
    const { state } = await this.#deps.store.read(tools.octokit, event.pr);
    if (!state || FINISHED_PHASES.includes(state.phase)) return;
    const next = await this.#write(tools, event.pr, (s) => ({
      ...s,
      phase: 'closed',
      message: event.merged ? 'The pull request was merged.' : 'The pull request was closed.',
    }));
    if (next.check && !next.check.completed) {
      await this.#conclude(
        tools,
        event.pr,
        next,
        next.check.headSha,
        'cancelled',
        'Pull request closed',
        'The loop ended with the pull request.',
      );
    }
  }

  async #rerequest(event: RerequestEvent, tools: EventTools): Promise<void> {
    const ref = event.pr ?? (await this.#pullForCommit(tools, event.repo, event.headSha));
    if (!ref) return;
    const config = await this.#readConfig(tools);
    const allowed = config.ok
      ? settingsFrom(config.config, this.#deps.env).allowedRoles
      : [...DEFAULT_ALLOWED_ROLES];
    const permission = await checkPermission(tools.octokit, ref, event.sender.login, allowed);
    if (!permission.allowed) {
      await this.#refuse(tools, ref, event.sender.login, permission.role);
      return;
    }
    if (!config.ok) {
      await this.#reply(tools, ref, `The review loop did not re-run: ${config.problem}.`);
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
    const claim = this.#deps.queue.claim(pullKey(ref));
    if (!claim) return; // a round is already running on this PR
    let handed = false;
    try {
      const { state } = await this.#deps.store.read(tools.octokit, ref);
      const fresh = isFinished(state, this.#deps.clock());
      const base = fresh
        ? { ...(state ?? emptyLoopState(this.#deps.clock())), runId: null, rounds: [], review: undefined }
        : state!;
      handed = await this.#resume(
        undefined,
        tools,
        config.config,
        fresh ? { ...base, settings: null } : base,
        claim,
        { kind: 'rerun', headSha: event.headSha },
        pr,
      );
    } finally {
      if (!handed) this.#deps.queue.release(pullKey(ref), claim);
    }
  }

  async #pullForCommit(
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

  // ---------------------------------------------------------------- helpers

  async #readConfig(
    tools: EventTools,
  ): Promise<{ ok: true; config: RepoConfig } | { ok: false; problem: string }> {
    let raw: unknown;
    try {
      raw = await tools.readConfig();
    } catch (error) {
      const detail = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      return { ok: false, problem: `\`${CONFIG_PATH}\` could not be read: ${quoteInline(detail, 300)}` };
    }
    return validateRepoConfig(raw);
  }

  #write(
    tools: EventTools,
    pr: PullRef,
    change: (state: AppLoopState) => AppLoopState,
  ): Promise<AppLoopState> {
    return writeLoopState(
      { octokit: tools.octokit, store: this.#deps.store, clock: this.#deps.clock },
      pr,
      change,
    );
  }

  async #remember(
    tools: EventTools,
    pr: PullRef,
    commentId: number,
    change: (state: AppLoopState) => AppLoopState,
  ): Promise<void> {
    await this.#write(tools, pr, (s) => rememberComment(change(s), commentId));
  }

  async #reply(tools: EventTools, pr: PullRef, body: string): Promise<void> {
    await tools.octokit.rest.issues.createComment({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      body: redactSecrets(body, this.#deps.secrets),
    });
  }

  async #refuse(tools: EventTools, pr: PullRef, login: string, role: string): Promise<void> {
    const key = `${pullKey(pr)}:${login.toLowerCase()}`;
    if (this.#refused.has(key)) return;
    this.#refused.add(key);
    await this.#reply(
      tools,
      pr,
      `Sorry, only collaborators with write access can run the review loop here (your role: \`${role}\`).`,
    );
  }

  #phaseWords(phase: Phase): string {
    switch (phase) {
      case 'waiting-fix':
        return 'waiting for a fix';
      case 'waiting-checkpoint':
        return 'waiting at the checkpoint';
      case 'interrupted':
        return 'interrupted by a restart';
      default:
        return phase;
    }
  }

  #statusLine(state: AppLoopState | undefined, finished: boolean, running: boolean): string {
    if (!state) return 'No review loop has run on this pull request. Comment `/review-loop` to start one.';
    const rounds = state.rounds.length;
    const last = state.rounds.at(-1);
    const score = last ? ` Last round: ${last.score ?? '–'}/10, ${last.verdict}.` : '';
    const where = running
      ? 'running'
      : finished
        ? `finished (${state.phase})`
        : this.#phaseWords(state.phase);
    return `Review loop \`${state.runId ?? 'none'}\`: ${where}, ${rounds} round${rounds === 1 ? '' : 's'}.${score}`;
  }
}
