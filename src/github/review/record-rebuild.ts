/**
 * The loop's record rebuilt from what the App posted (docs/how-it-works.md § Review state, memory and
 * receipts, "A record that cannot be read"): when the sticky comment's state block does not decode (an
 * edit, a cut body), the App never starts over from an empty state. Its rounds come back from its reviews
 * on the pull request (each headed `### Round N of M: … (score/10, verdict)` and bound to its commit), its
 * check run from the `review-loop` check runs it made on the head; the engine's own memory is lost, and the
 * record says so and what the App does about it.
 */
import type { AppIdentity, AppOctokit, PullRef } from './app-octokit.js';
import { CHECK_CONCLUSIONS, CHECK_NAME } from './check-runs.js';
import type { AppLoopState, CheckRef, RoundRow } from './loop-state.js';
import { emptyLoopState } from './loop-state.js';

const HEADING = /^### Round (\d+) of \d+: ([^(\n]+?) \((?:(\d+(?:\.\d+)?)\/10, ([a-z ]+)|[^)\n]*)\)/;

interface ListedReview {
  commit_id: string | null;
  body?: string | null;
  html_url: string;
  user?: { type?: string } | null;
}

/** One row per round of the App's reviews (a bot's, with a round heading), in the order they were posted. */
function roundRowsFromReviews(reviews: readonly ListedReview[]): RoundRow[] {
  let rows: RoundRow[] = [];
  for (const review of reviews) {
    if (review.user?.type !== 'Bot' || !review.commit_id) continue;
    const body = (review.body ?? '').replace(/^<!--[^\n]*-->\n?/, '');
    const match = HEADING.exec(body);
    if (!match) continue;
    const round = Number(match[1]);
    // A round number not above the last one starts a later run of the loop: its rounds are the record.
    if (rows.length > 0 && round <= rows.at(-1)!.round) rows = rows.filter((row) => row.round < round);
    rows.push({
      round,
      head: review.commit_id,
      score: match[3] === undefined ? null : Number(match[3]),
      verdict: match[4] ?? match[2] ?? 'unknown',
      weaknesses: [],
      action: `${match[2]} (rebuilt from its review)`,
      reviewUrl: review.html_url,
    });
  }
  return rows;
}

/** The App's reviews on the pull request, as rows (the newest run of the loop). */
export async function listRoundRows(octokit: AppOctokit, pr: PullRef): Promise<RoundRow[]> {
  const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  return roundRowsFromReviews(reviews);
}

type CheckRun = Awaited<ReturnType<AppOctokit['rest']['checks']['listForRef']>>['data']['check_runs'][number];

/**
 * The App's `review-loop` check run the loop stands on: of the heads given (the PR's head, the last
 * reviewed one), one still in progress first — a loop is under way there, and its end must conclude it —
 * else the newest on the PR's head.
 */
async function standingCheck(
  octokit: AppOctokit,
  pr: PullRef,
  heads: readonly string[],
  app: AppIdentity,
): Promise<{ ref: CheckRef; startedAt: string | undefined } | null> {
  const runs: CheckRun[] = [];
  for (const head of new Set(heads)) {
    const { data } = await octokit.rest.checks.listForRef({
      owner: pr.owner,
      repo: pr.repo,
      ref: head,
      check_name: CHECK_NAME,
      per_page: 100,
    });
    runs.push(...data.check_runs.filter((run) => run.app?.id === app.appId));
  }
  const newest = [...runs].sort((a, b) => b.id - a.id);
  const ours =
    newest.find((run) => run.status !== 'completed') ?? newest.find((run) => run.head_sha === heads[0]);
  if (!ours) return null;
  const conclusion = CHECK_CONCLUSIONS.find((c) => c === ours.conclusion) ?? null;
  const ref: CheckRef = {
    id: ours.id,
    headSha: ours.head_sha,
    url: ours.html_url ?? '',
    completed: ours.status === 'completed',
    conclusion,
    ...(ours.external_id ? { runId: ours.external_id } : {}),
  };
  return { ref, startedAt: ours.started_at ?? undefined };
}

/**
 * The state of a sticky comment whose own could not be read (`problem`), rebuilt: the rounds from the
 * App's reviews, the check from its check runs on the PR's head. A check still in progress means a loop is
 * under way (it goes on, and its end concludes that check: one check per head per run); otherwise the
 * loop cannot go on without the engine's lost state, and the record says to start a new one.
 */
export async function rebuildLoopState(
  octokit: AppOctokit,
  pr: PullRef,
  app: AppIdentity,
  problem: string,
  now: Date,
): Promise<AppLoopState> {
  const { data: pull } = await octokit.rest.pulls.get({
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
  });
  const rounds = await listRoundRows(octokit, pr);
  const heads = [pull.head.sha, ...(rounds.length > 0 ? [rounds.at(-1)!.head] : [])];
  const newest = await standingCheck(octokit, pr, heads, app);
  const check = newest?.ref ?? null;
  const running = check !== null && !check.completed;
  const approved = check?.completed === true && check.conclusion === 'success';
  const found =
    rounds.length === 0
      ? 'no review of it'
      : rounds.length === 1
        ? 'its review'
        : `its ${rounds.length} reviews`;
  const action = running
    ? 'the loop under way goes on, and its end concludes its check run.'
    : approved
      ? 'the approval of this head stands (its check run passed).'
      : 'the App stopped the loop: comment `/review-loop` to start a new one.';
  const when = now.toISOString().slice(0, 16).replace('T', ' ');
  const record =
    `This comment's record could not be read on ${when} UTC (${problem}). The App rebuilt the rounds ` +
    `from ${found} on this pull request; the reviewer's memory of the loop is lost, so ${action}`;
  return {
    ...emptyLoopState(now),
    // A loop under way keeps its time (a loop left for a day is abandoned: § Review state, memory and receipts).
    updatedAt: (running && newest?.startedAt) || now.toISOString(),
    runId: check?.runId ?? null,
    phase: running ? 'running' : approved ? 'acquitted' : 'stopped',
    head: rounds.at(-1)?.head ?? check?.headSha ?? null,
    check,
    rounds,
    record,
  };
}
