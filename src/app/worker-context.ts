/**
 * What every background step of the App shares (docs/how-it-works.md § The App): its dependencies, the
 * little it remembers between events (who was refused, PRs told "already running", pushes that arrived
 * while a loop ran — in the shared state, so every replica sees them), and the sticky-state and
 * configuration reads every handler needs.
 */
import { STALE_AFTER_MS } from '../core/review/state.js';
import type { AppIdentity, AppOctokit, PullRef } from '../github/review/app-octokit.js';
import { pullKey } from '../github/review/app-octokit.js';
import { httpStatusOf } from '../github/octokit.js';
import { inertInline } from '../core/text/untrusted-text.js';
import type { StickyStore } from '../github/review/sticky-comment.js';
import type { ConfigRead } from './config-files.js';
import type { AppEnvSettings, ConfigResult } from './config.js';
import { CONFIG_PATH, configProblems, settingsFrom, validateRepoConfig } from './config.js';
import type { LoopRunner } from './loop-runner.js';
import type { AppLoopState } from '../github/review/loop-state.js';
import { FINISHED_PHASES, rememberComment } from '../github/review/loop-state.js';
import { writeLoopState } from '../github/review/pull-session.js';
import type { PushEvent } from './validation/event.js';
import { DEFAULT_ALLOWED_ROLES } from './validation/permission.js';
import type { WorkQueue } from './work-queue.js';
import { TTL } from './coordination/shared-state.js';

export interface EventLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a handler hands the worker from Probot's context (or a loop job builds from its installation). */
export interface EventTools {
  /** The installation the delivery came from: a loop job builds its client from it on any replica. */
  installationId: number;
  octokit: AppOctokit;
  log: EventLog;
  /**
   * Set on a re-run of a command's job: a reply is first looked for among the App's comments after this
   * comment id, so the re-run never posts one the first run already posted (replies.ts).
   */
  replyAfter?: number | undefined;
  /** `context.config('review-loop.yml')`: the default branch's file with `_extends`, or null; and an unreadable `_extends:` target. */
  readConfig(): Promise<ConfigRead>;
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
  /**
   * The tools of an installation, for work no delivery is at hand for: a loop job (run by any replica,
   * or resumed after a restart) and a push that waited for its PR's loop.
   */
  toolsFor(installationId: number, repo: { owner: string; repo: string }): Promise<EventTools>;
}

export type { EndReason } from './work-queue.js';

/**
 * A loop left untouched for a day is abandoned, whatever its phase: the engine's own rule
 * (docs/how-it-works.md § Review state, memory and receipts), so a new start begins afresh.
 */
export function isStale(state: AppLoopState, now: Date): boolean {
  return now.getTime() - Date.parse(state.updatedAt) > STALE_AFTER_MS;
}

/** True when no loop is under way: none ran, it ended, or it was left untouched for a day. */
export function isFinished(state: AppLoopState | undefined, now: Date): boolean {
  return !state || FINISHED_PHASES.includes(state.phase) || isStale(state, now);
}

/**
 * What the App remembers between events lives in the shared state (src/app/coordination/), so every
 * replica sees it: users refused once per PR (a refused user gets one reply), PRs already answered
 * "already running" during their loop (later starts get the 👀 only: one reply per PR per wave of
 * commands, since each comment creation costs seconds of GitHub's write spacing), and the newest push
 * on a PR whose loop was running (looked at once the loop ends).
 */
export class WorkerContext {
  readonly deps: WorkerDeps;

  constructor(deps: WorkerDeps) {
    this.deps = deps;
  }

  /** True the first time a user is refused on a PR (`key`: the PR and the login). */
  async refuseOnce(key: string): Promise<boolean> {
    return !(await this.deps.queue.shared.mark(`refused:${key}`, TTL.markMs));
  }

  /** True the first time the PR `key`'s running loop is to be answered "already running". */
  async tellBusyOnce(key: string): Promise<boolean> {
    return !(await this.deps.queue.shared.mark(`busy:${key}`, TTL.markMs));
  }

  async loopEnded(key: string): Promise<void> {
    await this.deps.queue.shared.unmark(`busy:${key}`);
  }

  async deferPush(event: PushEvent, tools: EventTools): Promise<void> {
    const value = JSON.stringify({ event, installationId: tools.installationId });
    await this.deps.queue.shared.put(`push:${pullKey(event.pr)}`, value, TTL.valueMs);
  }

  async takeDeferredPush(pr: PullRef): Promise<{ event: PushEvent; installationId: number } | undefined> {
    const value = await this.deps.queue.shared.take(`push:${pullKey(pr)}`);
    return value === undefined
      ? undefined
      : (JSON.parse(value) as { event: PushEvent; installationId: number });
  }

  /** The repository's `.github/review-loop.yml`, validated; a problem names the file and the field. */
  async readConfig(tools: EventTools): Promise<ConfigResult> {
    let raw: unknown;
    try {
      const read = await tools.readConfig();
      if (read.missingExtends !== undefined) {
        return configProblems([
          `\`_extends\` names ${inertInline(read.missingExtends, 200)}, whose \`${CONFIG_PATH}\` the App cannot read (the repository or the file is missing, or the App is not installed on it)`,
        ]);
      }
      raw = read.config;
    } catch (error) {
      const detail = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      // An HTTP answer (a rate limit still in force after the waits, a 5xx) is GitHub's, not the file's.
      const status = httpStatusOf(error);
      if (status !== undefined) {
        const problem = `GitHub did not answer the read of \`${CONFIG_PATH}\` (HTTP ${status}: ${inertInline(detail, 200)}); try again in a few minutes.`;
        return { ok: false, problem, problems: [problem] };
      }
      return configProblems([`it could not be read: ${inertInline(detail, 300)}`]);
    }
    return validateRepoConfig(raw);
  }

  /** The roles a configuration allows (the defaults when the file is bad: a bad file must not lock out its fixers). */
  allowedRoles(config: ConfigResult): string[] {
    return config.ok ? settingsFrom(config.config, this.deps.env).allowedRoles : [...DEFAULT_ALLOWED_ROLES];
  }

  readState(tools: EventTools, pr: PullRef): Promise<AppLoopState | undefined> {
    return this.deps.store.read(tools.octokit, pr).then((read) => read.state);
  }

  write(
    tools: EventTools,
    pr: PullRef,
    change: (state: AppLoopState) => AppLoopState,
  ): Promise<AppLoopState> {
    return writeLoopState(
      { octokit: tools.octokit, store: this.deps.store, clock: this.deps.clock },
      pr,
      change,
    );
  }

  /** A state change that also records `commentId` as handled (a redelivery of it is then ignored). */
  async remember(
    tools: EventTools,
    pr: PullRef,
    commentId: number,
    change: (state: AppLoopState) => AppLoopState = (state) => state,
  ): Promise<AppLoopState> {
    return this.write(tools, pr, (state) => rememberComment(change(state), commentId));
  }
}
