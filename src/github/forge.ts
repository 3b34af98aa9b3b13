/**
 * Defect-park as GitHub issues: one open issue per parked skill, found again by a hidden marker; a later
 * park comments on it. When the API fails the report goes to the local park file and the run goes on.
 */
import type { Forge, Logger, ParkOutcome, ParkReport } from '../iterate/ports.js';
import { createLocalForge } from '../iterate/local-forge.js';
import type { GitHubClient, RepoRef } from './octokit.js';
import { describeApiError } from './octokit.js';
import { hasParkMarker, parkMarker } from './markers.js';

export const DEFECT_PARK_LABEL = 'defect-park';

export interface GitHubForgeOptions {
  client: GitHubClient;
  repo: RepoRef;
  /** Where the local fallback writes `docs/skill-iterate-runs/parked-<skill>-<epoch>.md`. */
  project: string;
  log: Logger;
  runUrl: string | undefined;
  label?: string;
  /** Injected in tests; defaults to the CLI's park-file forge. */
  fallback?: Forge;
}

export interface ParkRecord {
  skill: string;
  kind: ParkReport['kind'];
  location: string;
  via: ParkOutcome['via'];
  /** 'created' | 'commented' for issues, 'file' for the local fallback. */
  action: 'created' | 'commented' | 'file';
}

export interface GitHubForge extends Forge {
  readonly parks: ParkRecord[];
}

interface IssueRef {
  number: number;
  html_url: string;
}

/** The open issue carrying the skill's marker, among the open issues with the park label. */
export async function findOpenParkIssue(
  client: GitHubClient,
  repo: RepoRef,
  skill: string,
  label = DEFECT_PARK_LABEL,
): Promise<IssueRef | undefined> {
  const issues = await client.paginate(client.rest.issues.listForRepo, {
    ...repo,
    state: 'open',
    labels: label,
    per_page: 100,
  });
  // The issues endpoint lists pull requests too; a PR is never a park issue.
  return issues.find((issue) => !issue.pull_request && hasParkMarker(issue.body, skill));
}

export function createGitHubForge(options: GitHubForgeOptions): GitHubForge {
  const label = options.label ?? DEFECT_PARK_LABEL;
  const parks: ParkRecord[] = [];
  const runLine = options.runUrl ? `\n\n[Workflow run](${options.runUrl})` : '';

  async function parkAsIssue(report: ParkReport): Promise<ParkRecord> {
    const existing = await findOpenParkIssue(options.client, options.repo, report.skill, label);
    if (existing) {
      const { data } = await options.client.rest.issues.createComment({
        ...options.repo,
        issue_number: existing.number,
        body: `### Parked again: ${report.title}\n\n${report.body}${runLine}`,
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
      body: `${report.body}${runLine}\n\n${parkMarker(report.skill)}`,
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
      record = await parkAsIssue(report);
      options.log.info(`${report.skill}: parked (${report.kind}): ${record.location}`);
    } catch (error) {
      const fallback = options.fallback ?? createLocalForge(options.project);
      const local = await fallback.park(report);
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
