/**
 * The review loop's defect-park issue (docs/how-it-works.md § Defect park): when the rounds run out
 * without an acquittal, one issue per pull request lists the blockers left with an effort estimate and
 * links the PR. It is found again by the hidden marker on its first line — in an issue the App itself
 * opened, never anyone else's — and later give-ups comment on it instead of opening another. Blocker
 * titles and efforts are model text: quoted by src/core/text/untrusted-text.ts, the body bounded under
 * GitHub's limit.
 */
import type { AppIdentity, AppOctokit, PullRef } from './app-octokit.js';
import { isByApp } from './app-octokit.js';
import { DEFECT_PARK_LABEL } from '../forge.js';
import { firstLine, reviewParkMarker } from '../markers.js';
import { postable, inertInline } from '../../core/text/untrusted-text.js';

export interface Blocker {
  title: string;
  /** The reviewer's or executor's estimate, e.g. "an afternoon", "S", "2 days". */
  effort: string;
}

export interface ReviewParkInput {
  pr: PullRef;
  prTitle: string;
  runId: string;
  rounds: number;
  lastScore: number | undefined;
  lastVerdict: string | undefined;
  headSha: string;
  blockers: Blocker[];
  checkRunUrl?: string | undefined;
}

export interface ParkedIssue {
  number: number;
  url: string;
  action: 'created' | 'commented';
}

function report(input: ReviewParkInput): string {
  const score = input.lastScore === undefined ? 'no score' : `${input.lastScore}/10`;
  const lines = [
    `Pull request #${input.pr.number} (${inertInline(input.prTitle, 200)}) ran ${input.rounds} review rounds ` +
      `(run \`${input.runId}\`) and changes are still requested. Last verdict on \`${input.headSha.slice(0, 7)}\`: ` +
      `${score}, ${inertInline(input.lastVerdict ?? 'none', 40)}.`,
    '',
    '| # | Blocker | Effort |',
    '| --- | --- | --- |',
    ...input.blockers.map(
      (b, i) => `| ${i + 1} | ${inertInline(b.title, 300)} | ${inertInline(b.effort, 60)} |`,
    ),
  ];
  if (input.blockers.length === 0) lines.push('| – | (the reviewer named none) | – |');
  lines.push(
    '',
    'Continue by hand (push fixes and comment `/review-loop` on the pull request), or close this issue ' +
      'if the change is being reworked or dropped.',
  );
  if (input.checkRunUrl) lines.push('', `[review-loop check run](${input.checkRunUrl})`);
  return lines.join('\n');
}

/** The App's park issue for this PR, in any state (the newest, should there be several). */
export async function findReviewParkIssue(
  octokit: AppOctokit,
  pr: PullRef,
  app: AppIdentity,
): Promise<{ number: number; url: string } | undefined> {
  const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
    owner: pr.owner,
    repo: pr.repo,
    state: 'all',
    labels: DEFECT_PARK_LABEL,
    sort: 'created',
    direction: 'desc',
    per_page: 100,
  });
  const marker = reviewParkMarker(pr.number);
  const ours = issues.find(
    (issue) => !issue.pull_request && isByApp(issue, app) && firstLine(issue.body) === marker,
  );
  return ours && { number: ours.number, url: ours.html_url };
}

export async function parkReviewLoop(
  octokit: AppOctokit,
  app: AppIdentity,
  input: ReviewParkInput,
): Promise<ParkedIssue> {
  const existing = await findReviewParkIssue(octokit, input.pr, app);
  const { owner, repo } = input.pr;
  if (existing) {
    const { data } = await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number: existing.number,
      body: postable(`### Gave up again (run \`${input.runId}\`)\n\n${report(input)}`),
    });
    return { number: existing.number, url: data.html_url, action: 'commented' };
  }
  const { data } = await octokit.rest.issues.create({
    owner,
    repo,
    title: `review-loop: pull request #${input.pr.number} parked after ${input.rounds} rounds`,
    body: postable(`${reviewParkMarker(input.pr.number)}\n${report(input)}`),
    labels: [DEFECT_PARK_LABEL],
  });
  return { number: data.number, url: data.html_url, action: 'created' };
}
