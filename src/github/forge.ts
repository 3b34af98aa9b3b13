/**
 * Defect-park as GitHub issues: one issue per parked skill, found again by the hidden marker on its first
 * line, in any state. A later park comments on the open one; an issue a human closed as not planned is
 * respected (no new issue, no reopening: no nightly spam); one closed as completed gets a new issue.
 * When the API fails the report goes to the local park file and the run goes on.
 */
import { GITHUB_BODY_LIMIT, boundBody } from '../core/text/body-limit.js';
import type { Forge, ParkOutcome } from '../ports/forge.js';
import type { Logger } from '../ports/logger.js';
import type { ParkReport } from '../core/iterate/park.js';
import type { GitHubClient, RepoRef } from './octokit.js';
import { describeApiError } from './octokit.js';
import { hasParkMarker, parkMarker } from './markers.js';

export const DEFECT_PARK_LABEL = 'defect-park';

export interface GitHubForgeOptions {
  client: GitHubClient;
  repo: RepoRef;
  log: Logger;
  runUrl: string | undefined;
  label?: string;
  /** Where a report goes when the issues API fails: the park files of src/adapters/local/forge.ts. */
  fallback: Forge;
  /**
   * Keeps the full report where it outlives the runner (the Action: the state branch) when its issue body
   * has to be cut to GitHub's limit; resolves where that is, for the note that says what was cut.
   */
  keepFullText?: (report: ParkReport) => Promise<string>;
}

export interface ParkRecord {
  skill: string;
  kind: ParkReport['kind'];
  location: string;
  via: ParkOutcome['via'];
  /**
   * 'created' | 'commented' for issues, 'not-reopened' when the skill's issue was closed as not planned
   * (location: that issue), 'file' for the local fallback.
   */
  action: 'created' | 'commented' | 'not-reopened' | 'file';
}

export interface GitHubForge extends Forge {
  readonly parks: ParkRecord[];
}

interface IssueRef {
  number: number;
  html_url: string;
}

export interface ParkIssues {
  /** The skill's open issue (the newest, should there be several). */
  open: IssueRef | undefined;
  /** The most recently closed one, with GitHub's `state_reason` (`completed`, `not_planned`, …). */
  lastClosed: (IssueRef & { stateReason: string | null }) | undefined;
}

/** The skill's park issues in every state, found by the marker on their first line among the labelled ones. */
export async function findParkIssues(
  client: GitHubClient,
  repo: RepoRef,
  skill: string,
  label = DEFECT_PARK_LABEL,
): Promise<ParkIssues> {
  const issues = await client.paginate(client.rest.issues.listForRepo, {
    ...repo,
    state: 'all',
    labels: label,
    sort: 'created',
    direction: 'desc',
    per_page: 100,
  });
  // The issues endpoint lists pull requests too; a PR is never a park issue.
  const ours = issues.filter((issue) => !issue.pull_request && hasParkMarker(issue.body, skill));
  const open = ours.find((issue) => issue.state === 'open');
  const closed = ours
    .filter((issue) => issue.state === 'closed')
    .sort((a, b) => (b.closed_at ?? '').localeCompare(a.closed_at ?? ''))[0];
  return {
    open: open && { number: open.number, html_url: open.html_url },
    lastClosed: closed && {
      number: closed.number,
      html_url: closed.html_url,
      stateReason: closed.state_reason ?? null,
    },
  };
}

/** The issue body: the marker on the first line, exactly once (core's park reports already start with it). */
export function parkIssueBody(report: ParkReport, runLine: string): string {
  const body = hasParkMarker(report.body, report.skill)
    ? report.body
    : `${parkMarker(report.skill)}\n${report.body}`;
  return `${body}${runLine}`;
}

export function createGitHubForge(options: GitHubForgeOptions): GitHubForge {
  const label = options.label ?? DEFECT_PARK_LABEL;
  const parks: ParkRecord[] = [];
  const runLine = options.runUrl ? `\n\n[Workflow run](${options.runUrl})` : '';

  /**
   * `body` under GitHub's limit (docs/how-it-works.md § Untrusted text and secrets). When it must be cut, the
   * full report is kept first — on the state branch, else in the local park file — and the note says where.
   */
  async function bounded(report: ParkReport, body: string): Promise<string> {
    const limit = GITHUB_BODY_LIMIT - 1;
    if (body.length <= limit) return body;
    let fullTextAt: string;
    try {
      if (!options.keepFullText) throw new Error('no durable place configured');
      fullTextAt = await options.keepFullText(report);
    } catch (error) {
      const local = await options.fallback.park(report);
      options.log.warn(
        `${report.skill}: the full park report could not be kept on the state branch (${describeApiError(error)}); ` +
          `it is at ${local.location} on the runner`,
      );
      fullTextAt = `${local.location} on the runner`;
    }
    return boundBody(body, { limit, fullTextAt }).body;
  }

  async function parkAsIssue(report: ParkReport): Promise<ParkRecord & { note?: string }> {
    const { open: existing, lastClosed } = await findParkIssues(
      options.client,
      options.repo,
      report.skill,
      label,
    );
    if (!existing && lastClosed?.stateReason === 'not_planned') {
      // A maintainer said no: the report stays in the run's summary and log, not in a new issue.
      return {
        skill: report.skill,
        kind: report.kind,
        location: lastClosed.html_url,
        via: 'issue',
        action: 'not-reopened',
        note: `issue #${lastClosed.number} was closed as not planned; not reopened`,
      };
    }
    if (existing) {
      const { data } = await options.client.rest.issues.createComment({
        ...options.repo,
        issue_number: existing.number,
        body: await bounded(report, `### Parked again: ${report.title}\n\n${report.body}${runLine}`),
      });
      return {
        skill: report.skill,
        kind: report.kind,
        location: data.html_url,
        via: 'issue',
        action: 'commented',
      };
    }
    const { data } = await options.client.rest.issues.create({
      ...options.repo,
      title: report.title,
      body: await bounded(report, parkIssueBody(report, runLine)),
      labels: [label],
    });
    return {
      skill: report.skill,
      kind: report.kind,
      location: data.html_url,
      via: 'issue',
      action: 'created',
    };
  }

  async function park(report: ParkReport): Promise<ParkOutcome> {
    let record: ParkRecord;
    try {
      const { note, ...issue } = await parkAsIssue(report);
      record = issue;
      options.log.info(
        note
          ? `${report.skill}: parked (${note})`
          : `${report.skill}: parked (${report.kind}): ${record.location}`,
      );
    } catch (error) {
      const local = await options.fallback.park(report);
      options.log.warn(
        `${report.skill}: issues API failed (${describeApiError(error)}); parked locally at ${local.location}`,
      );
      record = {
        skill: report.skill,
        kind: report.kind,
        location: local.location,
        via: local.via,
        action: 'file',
      };
    }
    parks.push(record);
    return { location: record.location, via: record.via };
  }

  return { park, parks };
}
