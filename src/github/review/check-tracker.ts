/**
 * The `review-loop` check run's life (docs/how-it-works.md § The App): ONE check run per head per run,
 * created once and then updated through its states — `in_progress` while a round runs,
 * `action_required` while a person is needed, `success` only on acquittal and only on the acquitted head,
 * `failure` on give-up or stop. A resumed round on the same head (a checkpoint answer, `continue`) moves
 * that same check back to `in_progress`; should GitHub refuse to reopen a completed check, only its text
 * changes and the next state lands on it all the same. When the loop moves past a head (a fix, a push),
 * the old head's check completes `neutral` "Superseded by …" and links the new head's — whatever its
 * state in this run, `action_required` included; a verdict an earlier run gave (`success`, `failure`) is
 * never touched. A new run on a head gets its own check (GitHub shows the newest per name and head).
 */
import type { AppOctokit } from './app-octokit.js';
import type { CheckConclusion, CheckState } from './check-runs.js';
import { createCheckRun, supersededState, updateCheckRun } from './check-runs.js';
import { httpStatusOf } from '../octokit.js';
import type { CheckRef } from './loop-state.js';

interface Target {
  octokit: AppOctokit;
  repo: { owner: string; repo: string };
  runId: string;
  detailsUrl: string | undefined;
  now: Date;
}

/** Whether `check` is this run's (a state written before checks kept their run: only while open). */
function ofRun(check: CheckRef, runId: string): boolean {
  return check.runId === undefined ? !check.completed : check.runId === runId;
}

/**
 * Whether the check of a replaced head gives way to the new head's: this run's, whatever its state, or
 * any still open or waiting for a person (`action_required`: it asked for something the new head answers).
 */
function supersedable(check: CheckRef, runId: string): boolean {
  return ofRun(check, runId) || !check.completed || check.conclusion === 'action_required';
}

/** Updates the check in place; a completed check GitHub will not reopen keeps its state and takes the text. */
async function updateInPlace(target: Target, current: CheckRef, state: CheckState): Promise<void> {
  const update = (given: CheckState, textOnly = false) =>
    updateCheckRun(target.octokit, target.repo, current.id, {
      state: given,
      detailsUrl: target.detailsUrl,
      // The run id is stamped again: a resumed engine run may have brought its own.
      runId: target.runId,
      now: target.now,
      textOnly,
    });
  try {
    await update(state);
  } catch (error) {
    if (!(current.completed && state.status === 'in_progress' && httpStatusOf(error) === 422)) throw error;
    await update(state, true);
  }
}

/**
 * Writes `state` on the check of `head`: this run's check of that head when there is one, else a new
 * one, with the check of an older head superseded (supersedable) so that it links the new one.
 */
async function putCheck(
  target: Target,
  current: CheckRef | null,
  head: string,
  state: CheckState,
): Promise<Pick<CheckRef, 'id' | 'headSha' | 'url' | 'runId'>> {
  if (current && current.headSha === head && ofRun(current, target.runId)) {
    await updateInPlace(target, current, state);
    return { id: current.id, headSha: current.headSha, url: current.url, runId: target.runId };
  }
  const created = await createCheckRun(target.octokit, target.repo, {
    headSha: head,
    runId: target.runId,
    detailsUrl: target.detailsUrl,
    state,
    now: target.now,
  });
  if (current && current.headSha !== head && supersedable(current, target.runId)) {
    await updateCheckRun(target.octokit, target.repo, current.id, {
      state: supersededState(head, created.url),
      now: target.now,
    });
  }
  return { ...created, runId: target.runId };
}

/** Puts the check of `head` in progress, superseding the check of an older head; returns the current check. */
export async function checkInProgress(
  target: Target,
  current: CheckRef | null,
  head: string,
  text: { title: string; summary: string },
): Promise<CheckRef> {
  const check = await putCheck(target, current, head, { status: 'in_progress', ...text });
  return { ...check, completed: false, conclusion: null };
}

/**
 * Completes the check of `head` with `conclusion`. A check on another (older) head is superseded first and
 * a new one made for `head`, so a verdict never lands on a SHA it was not about.
 */
export async function checkCompleted(
  target: Target,
  current: CheckRef | null,
  head: string,
  conclusion: CheckConclusion,
  text: { title: string; summary: string },
): Promise<CheckRef> {
  const check = await putCheck(target, current, head, { status: 'completed', conclusion, ...text });
  return { ...check, completed: true, conclusion };
}

/**
 * The check `current` becomes once `checkCompleted` concludes it in place — this run's check of `head` —
 * or undefined when concluding makes a new check (another head, another run). Known before the write,
 * so the loop's end records it in the sticky comment with the same edit that says how the loop ended
 * (issue 18's write budget).
 */
export function concludedInPlace(
  current: CheckRef | null,
  head: string,
  runId: string,
  conclusion: CheckConclusion,
): CheckRef | undefined {
  if (!current || current.headSha !== head || !ofRun(current, runId)) return undefined;
  return { ...current, runId, completed: true, conclusion };
}

/** Whether two records name the same check in the same state (then there is nothing to write). */
export function sameCheck(a: CheckRef | null | undefined, b: CheckRef | null | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.id === b.id &&
    a.headSha === b.headSha &&
    a.url === b.url &&
    a.completed === b.completed &&
    (a.conclusion ?? null) === (b.conclusion ?? null) &&
    a.runId === b.runId
  );
}
