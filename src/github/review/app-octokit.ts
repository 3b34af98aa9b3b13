/**
 * The client the App's GitHub adapters take: the installation-authenticated Octokit Probot hands every
 * event (`context.octokit`), REST methods under `.rest`. Tests build one with `new ProbotOctokit(…)`.
 */
import type { ProbotOctokit } from 'probot';

export type AppOctokit = ProbotOctokit;

/** One pull request, as every adapter addresses it. */
export interface PullRef {
  owner: string;
  repo: string;
  number: number;
}

export function pullKey(pr: PullRef): string {
  return `${pr.owner}/${pr.repo}#${pr.number}`;
}

/** The App's own identity, to recognise its comments, issues and pushes (docs/how-it-works.md § The App: never anyone else's). */
export interface AppIdentity {
  /** `APP_ID`: matches `performed_via_github_app.id` on what the App wrote. */
  appId: number;
}

interface Authored {
  performed_via_github_app?: { id?: number } | null;
}

/**
 * True only for what the App itself wrote: GitHub stamps `performed_via_github_app` with the App's id on
 * comments and issues made with its installation token. Neither the text nor the author's login counts
 * (a login could be looked alike; the stamp cannot be set by anyone else).
 */
export function isByApp(item: Authored, app: AppIdentity): boolean {
  return item.performed_via_github_app?.id === app.appId;
}

/** Just `{ owner, repo }`: spreading a PullRef into a request would send its `number` as a parameter. */
export function repoOf(ref: { owner: string; repo: string }): { owner: string; repo: string } {
  return { owner: ref.owner, repo: ref.repo };
}
