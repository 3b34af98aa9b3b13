/**
 * When a pull request closes, the team's answers to the loop's findings become evals of the reviewer
 * skill (docs/how-it-works.md § The reviewer learns, "Feedback becomes evals"; docs/app.md § Feedback
 * becomes evals). Written at the close because only then is the feedback final: a "won't fix" may come
 * after the loop ended, and whether a finding was fixed is settled by the merge; and because it is one
 * burst of four writes per pull request (through the App's paced client, src/app/write-pacer.ts), never
 * during a round.
 *
 * - Dismissed: a `/review-loop dismiss`, or a "won't fix"/"by design" reply on the finding's thread.
 * - Accepted (merged pull requests only): a finding a round raised on one head and the last round, on a
 *   later head, no longer raises — a fix commit, the App's or a person's, or an applied suggestion.
 *   A finding both dismissed and gone later is dismissed: the explicit answer wins, and a dismissed finding
 *   is left out of later rounds anyway, so its absence proves nothing.
 * - Only a person with write access counts (the dismisser; for an accepted finding, whoever merged), never
 *   a bot, whatever `allowed_roles` admits to run commands.
 * - `learn_from_feedback: false` in `.github/review-loop.yml` turns it off; on by default, since nothing
 *   lands until a maintainer merges the evals pull request.
 */
import { pullKey, type PullRef } from '../github/review/app-octokit.js';
import { EVALS_PULL_MARKER, writeEvalsPull } from '../github/review/evals-pull.js';
import type { AppLoopState } from '../github/review/loop-state.js';
import { readCompareDiff, readPullRequest } from '../github/review/pull-info.js';
import { dismissingAnswer, listFindingThreads } from '../github/review/review-threads.js';
import { describeApiError } from '../github/octokit.js';
import { sameFinding } from '../core/review/finding-identity.js';
import { StoredStateSchema, type RoundSummary, type StoredState } from '../core/review/state.js';
import { records } from '../core/review/sticky-records.js';
import {
  DEFAULT_REVIEWER_SKILL_DIR,
  type FeedbackKind,
  type ReviewFeedback,
} from '../core/reviewer-skill.js';
import { counted } from '../core/text/counted.js';
import { redactSecrets } from '../core/text/redact.js';
import { inertInline, postable } from '../core/text/untrusted-text.js';
import {
  appendFeedbackEvals,
  evalsOfPull,
  evalsPathOf,
  evalsPullBody,
  hunkFor,
  readAppendable,
  type FeedbackItem,
} from './feedback-evals.js';
import type { ClosedEvent } from './validation/event.js';
import { checkPermission } from './validation/permission.js';
import { isBotSender } from './validation/sender.js';
import type { EventTools, WorkerContext } from './worker-context.js';

/** The roles whose answers count: write access (write, maintain, admin). */
const WRITE_ACCESS = ['write'];

/** A finding with the team's answer, before its hunk is read. */
interface Candidate {
  feedback: ReviewFeedback;
  /** The head of the round that raised it, whose diff holds its hunk. */
  head: string | undefined;
}

function engineState(state: AppLoopState): StoredState | undefined {
  const parsed = StoredStateSchema.safeParse(records(state.review).state);
  return parsed.success ? parsed.data : undefined;
}

/** The scored rounds, in order. */
function roundsOf(engine: StoredState | undefined): RoundSummary[] {
  return [...(engine?.history ?? [])].filter((r) => r.score !== null).sort((a, b) => a.round - b.round);
}

type Key = { title: string; file?: string | null | undefined; line?: number | null | undefined };

/** The head of the first round that raised the finding (`round` when known), else the last reviewed. */
function headOf(key: Key, rounds: readonly RoundSummary[], fallback: string | undefined, round?: number) {
  const at =
    rounds.find((r) => r.round === round) ??
    rounds.find((r) => r.weaknesses.some((w) => sameFinding(w, key)));
  return at?.head ?? fallback;
}

function record(kind: FeedbackKind, key: Key, pr: number, reason: string, by: string): ReviewFeedback {
  return {
    kind,
    title: key.title,
    ...(key.file ? { file: key.file } : {}),
    ...(key.line && key.line > 0 ? { line: Math.trunc(key.line) } : {}),
    pr,
    reason,
    by,
  };
}

/** Every dismissal the loop knows of, once each: the sticky's commands, the engine's, the threads'. */
async function dismissals(
  tools: EventTools,
  event: ClosedEvent,
  state: AppLoopState,
  engine: StoredState | undefined,
): Promise<Candidate[]> {
  const rounds = roundsOf(engine);
  const last = engine?.reviewed_head ?? state.head ?? undefined;
  const found: Candidate[] = [];
  const add = (key: Key, reason: string, by: string, round?: number) => {
    if (found.some((c) => sameFinding(c.feedback, key))) return;
    found.push({
      feedback: record('dismissed', key, event.pr.number, reason, by),
      head: headOf(key, rounds, last, round),
    });
  };
  for (const d of [...state.dismissals, ...(engine?.dismissed ?? [])]) add(d, d.reason, d.by);
  if (state.inlineThreads) {
    try {
      for (const thread of await listFindingThreads(tools.octokit, event.pr)) {
        const answer = dismissingAnswer(thread);
        if (answer) add(thread.finding, answer.reason, answer.login, thread.finding.round);
      }
    } catch (error) {
      tools.log.warn(
        `${pullKey(event.pr)}: could not read the review threads for feedback evals (${describeApiError(error)})`,
      );
    }
  }
  return found;
}

/**
 * Findings a round raised and the last round, on a later head, no longer raises (none resolved in the
 * debate, none dismissed), each once, with the head of the round that first raised it.
 */
function accepted(
  engine: StoredState | undefined,
  event: ClosedEvent,
  dismissed: readonly Candidate[],
): Candidate[] {
  const by = event.mergedBy;
  if (!event.merged || !by) return [];
  const rounds = roundsOf(engine);
  const last = rounds.at(-1);
  if (!last) return [];
  const found: Candidate[] = [];
  for (const round of rounds.slice(0, -1)) {
    if (round.head === last.head) continue;
    for (const w of round.weaknesses) {
      if (w.resolved_by_debate || last.weaknesses.some((o) => sameFinding(o, w))) continue;
      if (dismissed.some((d) => sameFinding(d.feedback, w)) || found.some((c) => sameFinding(c.feedback, w)))
        continue;
      const reason = `fixed before the merge: round ${last.round} reviewed ${last.head.slice(0, 7)} without it`;
      found.push({ feedback: record('accepted', w, event.pr.number, reason, by.login), head: round.head });
    }
  }
  return found;
}

/** Only answers by people with write access count; bots never do. One permission read per login. */
async function byWriters(
  tools: EventTools,
  event: ClosedEvent,
  candidates: Candidate[],
): Promise<Candidate[]> {
  const verdicts = new Map<string, boolean>();
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    const login = candidate.feedback.by ?? '';
    if (!verdicts.has(login)) {
      const bot =
        login === '' ||
        isBotSender({ login }) ||
        (login === event.mergedBy?.login && isBotSender(event.mergedBy));
      verdicts.set(
        login,
        !bot && (await checkPermission(tools.octokit, event.pr, login, WRITE_ACCESS)).allowed,
      );
    }
    if (verdicts.get(login)) kept.push(candidate);
    else
      tools.log.info(
        `${pullKey(event.pr)}: ${login || 'nobody'}'s answer on "${inertInline(candidate.feedback.title, 80)}" is not written as an eval (no write access)`,
      );
  }
  return kept;
}

/** The candidates with their hunks (one compare per head); those without a file or hunk are said and dropped. */
async function withHunks(
  tools: EventTools,
  event: ClosedEvent,
  engine: StoredState | undefined,
  candidates: Candidate[],
  leftOut: string[],
): Promise<FeedbackItem[]> {
  let base = engine?.base ?? undefined;
  const diffs = new Map<string, string>();
  const items: FeedbackItem[] = [];
  for (const { feedback, head } of candidates) {
    const said = `${feedback.kind} finding "${oneTitle(feedback.title)}" of #${feedback.pr}`;
    if (!feedback.file || !head) {
      leftOut.push(`${said}: ${feedback.file ? 'no reviewed commit is known for it' : 'it names no file'}`);
      continue;
    }
    base ??= (await readPullRequest(tools.octokit, event.pr)).baseSha;
    if (!diffs.has(head)) diffs.set(head, await readCompareDiff(tools.octokit, event.pr, base, head));
    const hunk = hunkFor(diffs.get(head)!, feedback.file, feedback.line);
    if (hunk === undefined) leftOut.push(`${said}: the change's diff does not touch its file`);
    else items.push({ feedback, hunk });
  }
  return items;
}

function oneTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().slice(0, 120);
}

/** Never fails the close: a failure is logged, and this pull request's feedback is not written. */
export async function learnFromFeedback(
  ctx: WorkerContext,
  tools: EventTools,
  event: ClosedEvent,
  state: AppLoopState,
): Promise<void> {
  try {
    await learn(ctx, tools, event, state);
  } catch (error) {
    tools.log.warn(`${pullKey(event.pr)}: the feedback evals were not written (${describeApiError(error)})`);
  }
}

/** Whether the loop may hold feedback at all (`merged`: fixed findings count too); no request is made. */
function mayHoldFeedback(state: AppLoopState, merged: boolean): boolean {
  const engine = engineState(state);
  return (
    state.dismissals.length > 0 ||
    (engine?.dismissed ?? []).length > 0 ||
    state.inlineThreads ||
    (merged && roundsOf(engine).length > 1)
  );
}

/**
 * A pull request closed while its loop ran: the close aborted the loop instead of reaching `onClosed`, so
 * the loop's end writes the feedback, with the pull request read for whether and by whom it was merged.
 */
export async function learnAfterClosedLoop(
  ctx: WorkerContext,
  tools: EventTools,
  pr: PullRef,
  state: AppLoopState,
): Promise<void> {
  if (!mayHoldFeedback(state, true)) return;
  let event: ClosedEvent;
  try {
    const { data } = await tools.octokit.rest.pulls.get({
      owner: pr.owner,
      repo: pr.repo,
      pull_number: pr.number,
    });
    const merger = data.merged_by;
    event = {
      kind: 'closed',
      delivery: 'loop-end',
      pr,
      merged: data.merged === true,
      ...(data.merged === true && merger ? { mergedBy: { login: merger.login, type: merger.type } } : {}),
      ...(data.base.repo.default_branch ? { defaultBranch: data.base.repo.default_branch } : {}),
    };
  } catch (error) {
    tools.log.warn(`${pullKey(pr)}: the feedback evals were not written (${describeApiError(error)})`);
    return;
  }
  await learnFromFeedback(ctx, tools, event, state);
}

async function learn(
  ctx: WorkerContext,
  tools: EventTools,
  event: ClosedEvent,
  state: AppLoopState,
): Promise<void> {
  if (!mayHoldFeedback(state, event.merged)) return;
  const engine = engineState(state);
  const config = await ctx.readConfig(tools);
  if (!config.ok) {
    tools.log.warn(
      `${pullKey(event.pr)}: no feedback evals, the configuration has problems: ${config.problem}`,
    );
    return;
  }
  if (config.config.learn_from_feedback === false) return;
  const dismissed = await dismissals(tools, event, state, engine);
  const candidates = await byWriters(tools, event, [...dismissed, ...accepted(engine, event, dismissed)]);
  if (candidates.length === 0) return;
  const { secrets } = ctx.deps;
  const leftOut: string[] = [];
  const items = await withHunks(tools, event, engine, candidates, leftOut);
  if (items.length === 0) {
    for (const line of leftOut) tools.log.info(`${pullKey(event.pr)}: no feedback eval for the ${line}`);
    return;
  }
  const skillDir = config.config.reviewer_skill ?? DEFAULT_REVIEWER_SKILL_DIR;
  const path = evalsPathOf(skillDir);
  const defaultBranch =
    event.defaultBranch ??
    (await tools.octokit.rest.repos.get({ owner: event.pr.owner, repo: event.pr.repo })).data.default_branch;
  const inert = (text: string, max: number) => inertInline(text, max, [...secrets]);
  let added = 0;
  const result = await writeEvalsPull(tools.octokit, event.pr, {
    defaultBranch,
    path,
    plan: ({ onDefault, current, body }) => {
      const onMain = readAppendable(onDefault, path);
      const appended = appendFeedbackEvals({
        current: readAppendable(current, path),
        onDefault: onMain,
        skillName: skillDir.replace(/\/+$/, '').split('/').at(-1) ?? skillDir,
        items,
        secrets,
      });
      added = appended.added.length;
      if (appended.text === undefined) return undefined;
      const file = readAppendable(appended.text, path)!;
      return {
        text: redactSecrets(appended.text, secrets),
        title: 'Reviewer evals from review feedback',
        message: `Reviewer evals: ${counted(added, 'eval')} from #${event.pr.number}'s review feedback`,
        body: postable(
          redactSecrets(
            evalsPullBody({
              marker: EVALS_PULL_MARKER,
              path,
              evals: evalsOfPull(file, onMain),
              leftOut: [...leftOut, ...appended.leftOut],
              previousBody: body,
              inert,
            }),
            secrets,
          ),
        ),
      };
    },
  });
  const key = pullKey(event.pr);
  if (result.status === 'opened' || result.status === 'updated') {
    tools.log.info(`${key}: ${counted(added, 'feedback eval')} written to ${result.url} (${result.status})`);
  } else if (result.status === 'branch-moved') {
    tools.log.warn(
      `${key}: the evals branch moved while the App wrote to it (someone pushed to it); this pull request's feedback evals were not written`,
    );
  } else {
    tools.log.info(`${key}: no new feedback evals (every finding already has one, or none qualified)`);
  }
}
