/**
 * Everything a loop may do on its pull request, in one object handed to the runner: the GitHub side of
 * the engine's store and target ports (docs/how-it-works.md § Layers and ports). State goes to the sticky
 * comment (the engine's part opaque, next to the App's), reviews are posted bound to their SHA, fixes
 * land through the Git Data API, and every head change moves the check run along.
 */
import { isDeepStrictEqual } from 'node:util';
import { messageOf } from '../../core/errors.js';
import { checkEditPath } from '../../core/review/edits.js';
import type { AppIdentity, AppOctokit, PullRef } from './app-octokit.js';
import type { PullSession, SessionLog, StandingThread } from './pull-session-port.js';
import type { CommitFixResult } from './fix-commit.js';
import { commitFileTexts } from './fix-commit.js';
import type { EntryRead, PullInfo } from './pull-info.js';
import {
  compareCommits,
  listChangedFiles,
  listFolderAt,
  readCompareDiff,
  readEntryAt,
  defaultBranchHead,
  readPullRequest,
} from './pull-info.js';
import type { RoundReviewView } from './review-body.js';
import type { PostedReview } from './round-review.js';
import { findPublishedRound, findRoundReview, ownFixCommit, postRoundReview } from './round-review.js';
import type { FoundRound } from '../../ports/review.js';
import type { StickyStore } from './sticky-comment.js';
import { checkInProgress } from './check-tracker.js';
import { counted } from '../../core/text/counted.js';
import type { DismissedWeakness } from '../../core/review/state.js';
import { pairFindings, sameFinding, type FindingKey } from '../../core/review/finding-identity.js';
import { dismissingAnswer, listFindingThreads, writeThreads, type FindingThread } from './review-threads.js';
import type { AppLoopState, CheckRef, LoopSettings, RoundRow } from './loop-state.js';
import {
  DISMISSALS_LIMIT,
  emptyLoopState,
  rememberPushedHead,
  renderLoopLog,
  withRounds,
} from './loop-state.js';

/** A reply to a maintainer's answer on a finding's thread: the finding still stands, and how to end it. */
export function stillStandsReply(round: number, head: string, rank: number): string {
  return `Round ${round} still raises this on \`${head.slice(0, 7)}\`. If it is not to be fixed here, reply "won't fix" or "by design" with your reason, or comment \`/review-loop dismiss ${rank}\`.`;
}

/** A reply on a resolved thread whose finding came back: it is open again. */
export function raisedAgainReply(round: number, head: string): string {
  return `Round ${round} raises this again on \`${head.slice(0, 7)}\`, so the thread is open again.`;
}

export interface SessionDeps {
  octokit: AppOctokit;
  identity: AppIdentity;
  store: StickyStore<AppLoopState>;
  pr: PullInfo;
  settings: LoopSettings;
  runId: string;
  log: SessionLog;
  clock: () => Date;
  /**
   * A re-run of a loop (its replica died, a restart resumed it): the round its state is at is read back
   * from the App's review of it (`publishedRound`); and before a round's review is posted, the App's review
   * of that round on that head is looked for, so it is never posted twice — unless it states another
   * decision (a review posted by an App without the round block): then the new one is posted, so the check
   * follows the verdict the PR shows last.
   */
  lookBeforeReview?: boolean | undefined;
}

/**
 * Read-modify-write of a PR's sticky state under its lock; the visible log is rendered from the result.
 * Every state change is written (what it records must survive a restart); the log shows what each one
 * records, and a change that changes nothing makes no edit.
 */
export async function writeLoopState(
  deps: Pick<SessionDeps, 'octokit' | 'store' | 'clock'>,
  pr: PullRef,
  change: (state: AppLoopState) => AppLoopState,
): Promise<AppLoopState> {
  const { state } = await deps.store.update(deps.octokit, pr, (current) => {
    const changed = change(current ?? emptyLoopState(deps.clock()));
    // A change that changes nothing keeps its time: the body is then the comment's, and no edit is made.
    const next =
      current && sameState(changed, current)
        ? current
        : { ...changed, updatedAt: deps.clock().toISOString() };
    return { state: next, visible: renderLoopLog(next) };
  });
  return state;
}

/** The same state as it would be written (JSON: an absent field and an undefined one are alike), time aside. */
function sameState(a: AppLoopState, b: AppLoopState): boolean {
  const plain = (state: AppLoopState): unknown => JSON.parse(JSON.stringify({ ...state, updatedAt: '' }));
  return isDeepStrictEqual(plain(a), plain(b));
}

export class GitHubPullSession implements PullSession {
  readonly pr: PullInfo;
  readonly log: SessionLog;
  readonly #deps: SessionDeps;
  #runId: string;
  /** Said on every check this session moves (e.g. why the run cannot acquit). */
  #note: string | undefined;
  #touched: Set<string> | undefined;
  /** The check this session last put in progress, known even when the sticky write after it failed. */
  #check: CheckRef | undefined;
  /**
   * What the last `roundStarted` wrote (round, head, run, the check's text) and on which check: the same
   * start again — the App starts the round, then the engine announces it — writes nothing.
   */
  #started: { key: string; check: CheckRef } | undefined;
  /**
   * The engine's latest saved records, not yet in the sticky comment (issue 18's write budget): the engine
   * saves many times a round, the comment is edited at phase changes only. Every sticky write of this
   * session carries them (a round's start, a note, the loop's end: loop-turn.ts writes the end through
   * `update`); a crash loses at most what the engine saved since the last such write, and the engine
   * resumes by re-running that round.
   */
  #pendingReview: { value: unknown } | undefined;
  /**
   * Changes of the App's own state made between phase changes (a round's row, the pushed head, that
   * inline threads exist), applied in order by the session's next sticky write — the next round's start
   * or the loop's end, moments later: the comment is edited at phase changes only (docs/how-it-works.md
   * § The App). Reads through the session see them at once. A push made meanwhile cannot resume a loop
   * before they are written: it is deferred while this loop holds the PR's claim, and the loop's end is
   * written before the claim goes.
   */
  readonly #pendingChanges: Array<(state: AppLoopState) => AppLoopState> = [];

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.pr = deps.pr;
    this.log = deps.log;
    this.#runId = deps.runId;
  }

  get runId(): string {
    return this.#runId;
  }

  async useRunId(runId: string): Promise<void> {
    if (runId === this.#runId) return;
    this.log.info(`continuing the engine's run ${runId} (the App had ${this.#runId})`);
    this.#runId = runId;
    // This run's checks are the engine's run's now: the check of the head goes on (one per head per run).
    await this.update((state) => ({ ...state, runId, check: state.check && { ...state.check, runId } }));
  }

  async currentHead(): Promise<string> {
    return (await readPullRequest(this.#deps.octokit, this.pr.pr)).headSha;
  }

  /**
   * Read-modify-write of the sticky state; the comment is re-rendered from the result. The engine's
   * records saved since the last write go with it.
   */
  async update(change: (state: AppLoopState) => AppLoopState): Promise<AppLoopState> {
    const pending = this.#pendingReview;
    const changes = [...this.#pendingChanges];
    const next = await writeLoopState(this.#deps, this.pr.pr, (state) =>
      change(this.#overlay(state, pending, changes)),
    );
    if (this.#pendingReview === pending) this.#pendingReview = undefined;
    // Only what this write carried is dropped (a change deferred while it was under way waits its turn).
    for (const written of changes) {
      const at = this.#pendingChanges.indexOf(written);
      if (at !== -1) this.#pendingChanges.splice(at, 1);
    }
    return next;
  }

  /** `state` with what this session has not written yet. */
  #overlay(
    state: AppLoopState,
    pending = this.#pendingReview,
    changes: ReadonlyArray<(state: AppLoopState) => AppLoopState> = this.#pendingChanges,
  ): AppLoopState {
    const withReview = pending ? { ...state, review: pending.value } : state;
    // A record rebuilt from the App's reviews (record-rebuild.ts) has no settings: this loop's are known.
    const withSettings = withReview.settings ? withReview : { ...withReview, settings: this.#deps.settings };
    return changes.reduce((current, apply) => apply(current), withSettings);
  }

  /** A change for the next phase-change write (see `#pendingChanges`). */
  #defer(change: (state: AppLoopState) => AppLoopState): void {
    this.#pendingChanges.push(change);
  }

  /** The sticky state as this session knows it: the comment's, with what is not written yet. */
  async #read(): Promise<AppLoopState | undefined> {
    const { state } = await this.#deps.store.read(this.#deps.octokit, this.pr.pr);
    if (!state && !this.#pendingReview && this.#pendingChanges.length === 0) return undefined;
    return this.#overlay(state ?? emptyLoopState(this.#deps.clock()));
  }

  async loadReviewState(): Promise<unknown> {
    if (this.#pendingReview) return this.#pendingReview.value;
    return (await this.#read())?.review;
  }

  /** Kept in memory until the session's next sticky write (see `#pendingReview`). */
  async saveReviewState(review: unknown): Promise<void> {
    this.#pendingReview = { value: review };
  }

  readCompareDiff(base: string, head: string): Promise<string> {
    return readCompareDiff(this.#deps.octokit, this.pr.pr, base, head);
  }

  compare(base: string, head: string) {
    return compareCommits(this.#deps.octokit, this.pr.pr, base, head);
  }

  readEntry(path: string, ref: string, maxBytes: number): Promise<EntryRead> {
    return readEntryAt(this.#deps.octokit, this.pr.pr, path, ref, maxBytes);
  }

  listFolder(path: string, ref: string) {
    return listFolderAt(this.#deps.octokit, this.pr.pr, path, ref);
  }

  async readOnDefaultBranch(path: string, maxBytes: number) {
    const { octokit } = this.#deps;
    const { branch, commit } = await defaultBranchHead(octokit, this.pr.pr, this.pr.defaultBranch);
    return { branch, commit, entry: await readEntryAt(octokit, this.pr.pr, path, commit, maxBytes) };
  }

  async roundStarted(round: number, head: string): Promise<void> {
    const { octokit, clock, settings } = this.#deps;
    const runId = this.#runId;
    const text = {
      title: `Round ${round} of ${settings.rounds} running`,
      summary: `Reviewing \`${head.slice(0, 7)}\` (run \`${runId}\`).${this.#note ? ` ${this.#note}` : ''}`,
    };
    // Said already, on this very check: nothing changed, so nothing is written (issue 18's write budget).
    const key = JSON.stringify([round, head, runId, text.title, text.summary]);
    if (this.#started && this.#started.key === key && this.#started.check === this.#check) return;
    const current = await this.#currentCheck();
    const check = await checkInProgress(
      { octokit, repo: this.pr.pr, runId, detailsUrl: this.pr.url, now: clock() },
      current,
      head,
      text,
    );
    this.#check = check;
    await this.update((state) => ({ ...state, phase: 'running', head, check }));
    this.#started = { key, check };
  }

  async publishedRound(runId: string, round: number): Promise<FoundRound | undefined> {
    // Only a re-run looks (a loop's first run has posted nothing it has not recorded): no read otherwise.
    if (!this.#deps.lookBeforeReview) return undefined;
    const found = await findPublishedRound(this.#deps.octokit, this.pr.pr, runId, round);
    if (found) {
      // Its inline threads are followed by the rounds to come (the flag went with the lost round's end).
      if (found.record.weaknesses.some((w) => w.file !== null && w.line !== null))
        this.#defer((state) => ({ ...state, inlineThreads: true }));
      this.log.info(
        `round ${round}'s review is on the PR already (${found.url}): the loop goes on from it, the head is not reviewed again`,
      );
    }
    if (!found || found.record.head === this.pr.headSha) return found?.record;
    // The head moved on since the review: this run's own fix of that round, when its commit says so.
    const fix = await ownFixCommit(this.#deps.octokit, this.pr.pr, { runId, round, head: this.pr.headSha });
    if (fix?.parent !== found.record.head) return found.record;
    this.#defer((state) => rememberPushedHead(state, fix.sha));
    return { ...found.record, fixCommit: { sha: fix.sha, files: fix.files } };
  }

  async postReview(view: RoundReviewView): Promise<PostedReview> {
    if (this.#deps.lookBeforeReview) {
      const earlier = await findRoundReview(this.#deps.octokit, this.pr.pr, view);
      if (earlier) {
        this.log.info(`round ${view.round}'s review is already on the PR (${earlier.url}); not posted again`);
        return earlier;
      }
    }
    const posted = await postRoundReview(this.#deps.octokit, this.pr.pr, {
      ...view,
      filed: this.#deps.settings.reviewEvent,
    });
    // Written with the round's end: a round posts its review before its end, moments apart.
    if (posted.findings > 0) this.#defer((state) => ({ ...state, inlineThreads: true }));
    return posted;
  }

  /** The App's finding threads, read only once it has posted some (a PR without them costs no query). */
  async #threads(): Promise<{ threads: FindingThread[]; dismissed: DismissedWeakness[] }> {
    const state = await this.#read();
    const dismissed = state?.dismissals ?? [];
    if (!state?.inlineThreads) return { threads: [], dismissed };
    try {
      return { threads: await listFindingThreads(this.#deps.octokit, this.pr.pr), dismissed };
    } catch (error) {
      // Threads only follow the work: a round goes on without them (the dismissals stored in the sticky
      // state still apply), and the log says what was skipped.
      this.log.warn(
        `${this.pr.url}: could not read the review threads (${messageOf(error)}); their answers and resolutions wait for a later round`,
      );
      return { threads: [], dismissed };
    }
  }

  async dismissals(): Promise<DismissedWeakness[]> {
    const { threads, dismissed } = await this.#threads();
    const listed = [...dismissed];
    for (const thread of threads) {
      const answer = dismissingAnswer(thread);
      if (!answer || listed.some((d) => d.title === thread.finding.title)) continue;
      listed.push({
        title: thread.finding.title,
        file: thread.finding.file,
        line: thread.finding.line,
        reason: answer.reason,
        by: answer.login,
      });
    }
    // Bounded like the sticky's own list: the engine keeps them in its state, which lives in the comment.
    return listed.slice(-DISMISSALS_LIMIT);
  }

  async followThreads(
    round: number,
    head: string,
    findings: ReadonlyArray<FindingKey & { rank: number }>,
  ): Promise<Array<StandingThread | undefined>> {
    const links: Array<StandingThread | undefined> = findings.map(() => undefined);
    const { threads, dismissed } = await this.#threads();
    // A dismissed finding's thread is the people's: never matched, resolved or reopened.
    const live = threads.filter(
      (thread) => !dismissingAnswer(thread) && !dismissed.some((d) => sameFinding(d, thread.finding)),
    );
    if (live.length === 0) return links;
    const paired = pairFindings(
      findings,
      live.map((thread) => thread.finding),
    );
    const reopen: string[] = [];
    const reply: Array<{ id: string; body: string }> = [];
    paired.forEach((at, i) => {
      const thread = live[at];
      if (!thread) return;
      links[i] = { url: thread.url, since: thread.finding.round };
      if (thread.resolved) {
        reopen.push(thread.id);
        reply.push({ id: thread.id, body: raisedAgainReply(round, head) });
      } else if (thread.answeredSinceApp) {
        reply.push({ id: thread.id, body: stillStandsReply(round, head, findings[i]!.rank) });
      }
    });
    const standing = new Set(paired);
    const resolve = live
      .filter(
        (thread, at) =>
          !thread.resolved &&
          thread.finding.round < round &&
          !standing.has(at) &&
          // A second thread of a finding that stands (opened before threads were matched) stays open.
          !findings.some((finding) => sameFinding(finding, thread.finding)),
      )
      .map((thread) => thread.id);
    if (resolve.length + reopen.length + reply.length === 0) return links;
    // All of them in one request (aliased mutations): one write however many threads a round touches.
    const written = await writeThreads(this.#deps.octokit, { resolve, reopen, reply }).catch(
      (error: unknown) => ({
        resolved: [] as string[],
        reopened: [] as string[],
        replied: [] as string[],
        failed: [{ id: 'every thread', kind: 'resolve' as const, reason: messageOf(error) }],
      }),
    );
    for (const failure of written.failed)
      this.log.warn(`${this.pr.url}: could not ${failure.kind} a review thread (${failure.reason})`);
    const said = [
      written.resolved.length > 0 &&
        `resolved ${counted(written.resolved.length, 'thread')} whose finding was addressed`,
      written.reopened.length > 0 &&
        `reopened ${counted(written.reopened.length, 'thread')} whose finding came back`,
      written.replied.length > 0 && `answered on ${counted(written.replied.length, 'thread')}`,
    ].filter((part): part is string => typeof part === 'string');
    if (said.length > 0) this.log.info(`${this.pr.url}: round ${round} ${said.join(', ')}`);
    return links;
  }

  commitFiles(
    files: Array<{ path: string; text: string }>,
    message: string,
    expectedHead: string,
  ): Promise<CommitFixResult> {
    return this.#push((guard) =>
      commitFileTexts(this.#deps.octokit, {
        ...guard,
        branch: this.pr.headRef,
        expectedHead,
        files,
        message,
      }),
    );
  }

  /** Fork and manual PRs are refused here too; on success the new head is remembered as the App's own. */
  async #push(
    commit: (guard: {
      repo: PullRef;
      isFork: boolean;
      pathProblem: (path: string) => string | undefined;
    }) => Promise<CommitFixResult>,
  ): Promise<CommitFixResult> {
    const { settings } = this.#deps;
    if (this.pr.isFork || settings.fix !== 'auto') {
      return {
        status: 'refused',
        reason: 'fixes on this pull request are manual; the App does not push to it',
      };
    }
    this.#touched ??= new Set(
      (await listChangedFiles(this.#deps.octokit, this.pr.pr)).map((file) => file.path),
    );
    const touched = this.#touched;
    const result = await commit({
      repo: this.pr.pr,
      isFork: this.pr.isFork,
      pathProblem: (path) => {
        const checked = checkEditPath(path, { touched, globs: settings.fixPaths });
        if (!checked.ok) return `\`${path}\`: ${checked.reason}`;
        return checked.path === path ? undefined : `\`${path}\` is not in its plain form \`${checked.path}\``;
      },
    });
    if (result.status === 'committed') {
      // Remembered as the App's own by the next write — the next round's start, moments later, or the
      // loop's end — before this loop lets go of the PR's claim: the push webhook for this commit waits
      // for the claim, and then finds it (see `#pendingChanges`).
      this.#defer((state) => rememberPushedHead({ ...state, head: result.sha }, result.sha));
      this.log.info(`committed fix ${result.sha.slice(0, 7)} on ${this.pr.headRef}`);
    } else if (result.status === 'not-landed') {
      this.log.warn(`fix did not land on ${this.pr.headRef}: ${result.reason}`);
      await this.note(
        `This round's fix did not land on the branch (${result.reason}); the App does not take that commit for its own.`,
      );
    }
    return result;
  }

  /** Written with the next phase change (see `#pendingChanges`): a round's end is the next round's start. */
  async recordRound(row: RoundRow): Promise<void> {
    this.#defer((state) => {
      const earlier = state.rounds.find((r) => r.round === row.round);
      // A round finished by a later call (after a checkpoint) keeps the link to the review posted before.
      const reviewUrl = row.reviewUrl ?? earlier?.reviewUrl ?? null;
      return withRounds(state, [...state.rounds.filter((r) => r.round !== row.round), { ...row, reviewUrl }]);
    });
  }

  async note(message: string): Promise<void> {
    this.#note = message;
    await this.update((state) => ({ ...state, message }));
  }

  async takeGuidance(): Promise<string | null> {
    const state = await this.#read();
    if (!state?.guidance) return null;
    let taken: string | null = null;
    await this.update((current) => {
      taken = current.guidance;
      return { ...current, guidance: null };
    });
    return taken;
  }

  /** The check this session last put in progress (the loop's end concludes it, whatever else failed). */
  get check(): CheckRef | undefined {
    return this.#check;
  }

  async #currentCheck() {
    return (await this.#read())?.check ?? null;
  }
}
