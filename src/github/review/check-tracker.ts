/**
 * The `review-loop` check run's life (docs/how-it-works.md § The App): `in_progress` while a round runs,
 * `action_required` while a person is needed, `success` only on acquittal and only on the acquitted head,
 * `failure` on give-up or stop. When a fix or a push replaces the head, the old head's check completes
 * `neutral` and links the new head's run — an open one, and one left `action_required` (it asked a person
 * for something the new head now answers); a verdict (`success`, `failure`) is never touched. A completed
 * check is never reopened: the next round on the same head gets a new check run (GitHub shows the newest
 * per name and head).
 */
import type { AppOctokit } from '../app-octokit.js';
import type { CheckConclusion, CheckState } from '../check-runs.js';
import { createCheckRun, supersededState, updateCheckRun } from '../check-runs.js';
import type { CheckRef } from './loop-state.js';

interface Target {
  octokit: AppOctokit;
  repo: { owner: string; repo: string };
  runId: string;
  detailsUrl: string | undefined;
  now: Date;
}

/**
 * Whether the check of a replaced head gives way to the new head's: while open, or while it waits for a
 * person (`action_required`). A state written before conclusions were kept has none: left as it is.
 */
function supersedable(check: CheckRef): boolean {
  return !check.completed || check.conclusion === 'action_required';
}

/**
 * Writes `state` on the check of `head`: the current check when it is that head's and still open, else a
 * new one, with the check of an older head superseded (supersedable) so that it links the new one.
 */
async function putCheck(
  target: Target,
  current: CheckRef | null,
  head: string,
  state: CheckState,
): Promise<Pick<CheckRef, 'id' | 'headSha' | 'url'>> {
  if (current && current.headSha === head && !current.completed) {
    // The run id is stamped again: a resumed engine run may have brought its own.
    await updateCheckRun(target.octokit, target.repo, current.id, {
      state,
      detailsUrl: target.detailsUrl,
      runId: target.runId,
      now: target.now,
    });
    return { id: current.id, headSha: current.headSha, url: current.url };
  }
  const created = await createCheckRun(target.octokit, target.repo, {
    headSha: head,
    runId: target.runId,
    detailsUrl: target.detailsUrl,
    state,
    now: target.now,
  });
  if (current && current.headSha !== head && supersedable(current)) {
    await updateCheckRun(target.octokit, target.repo, current.id, {
      state: supersededState(head, created.url),
      now: target.now,
    });
  }
  return created;
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
