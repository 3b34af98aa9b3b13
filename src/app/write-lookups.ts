/**
 * Finding a write GitHub may have carried out although it answered a 5xx (docs/how-it-works.md § The App):
 * before a POST is sent again, the App looks for what it would create — its own comment with that body,
 * its review of that commit with that body, its check run with that run id, head and output, its issue
 * with that title and body — so a "ghost write" is never duplicated. The lookups match on what the App
 * sent, after the sink's redaction, and only on objects GitHub stamps as the App's.
 */
import type { AppIdentity, AppOctokit } from '../github/review/app-octokit.js';
import { isByApp } from '../github/review/app-octokit.js';

type Params = Record<string, unknown>;

interface Lookup {
  /** The POST's route template, as Octokit passes it to the request hooks. */
  route: RegExp;
  find(octokit: AppOctokit, params: Params, app: AppIdentity): Promise<unknown>;
}

const repo = (params: Params) => ({ owner: params.owner as string, repo: params.repo as string });

const LOOKUPS: readonly Lookup[] = [
  {
    route: /^\/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/comments$/,
    async find(octokit, params, app) {
      const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        ...repo(params),
        issue_number: params.issue_number as number,
        per_page: 100,
      });
      return comments.reverse().find((comment) => isByApp(comment, app) && comment.body === params.body);
    },
  },
  {
    route: /^\/repos\/\{owner\}\/\{repo\}\/pulls\/\{pull_number\}\/reviews$/,
    async find(octokit, params) {
      const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, {
        ...repo(params),
        pull_number: params.pull_number as number,
        per_page: 100,
      });
      // Reviews carry no App stamp: the commit, the body and a bot author identify the App's.
      return reviews
        .reverse()
        .find(
          (review) =>
            review.commit_id === params.commit_id &&
            review.body === params.body &&
            review.user?.type === 'Bot',
        );
    },
  },
  {
    route: /^\/repos\/\{owner\}\/\{repo\}\/check-runs$/,
    async find(octokit, params, app) {
      const output = params.output as { title?: string; summary?: string } | undefined;
      const { data } = await octokit.rest.checks.listForRef({
        ...repo(params),
        ref: params.head_sha as string,
        check_name: params.name as string,
        filter: 'all',
        per_page: 100,
      });
      return data.check_runs
        .sort((a, b) => b.id - a.id)
        .find(
          (run) =>
            run.app?.id === app.appId &&
            run.external_id === params.external_id &&
            run.status === params.status &&
            run.output.title === output?.title &&
            run.output.summary === output?.summary,
        );
    },
  },
  {
    route: /^\/repos\/\{owner\}\/\{repo\}\/issues$/,
    async find(octokit, params, app) {
      const { data } = await octokit.rest.issues.listForRepo({
        ...repo(params),
        state: 'all',
        sort: 'created',
        direction: 'desc',
        per_page: 50,
      });
      return data.find(
        (issue) => isByApp(issue, app) && issue.title === params.title && issue.body === params.body,
      );
    },
  },
];

/** The lookup for a POST route, or undefined when the route has none (it is then never sent twice). */
export function lookupFor(route: string): Lookup | undefined {
  return LOOKUPS.find((lookup) => lookup.route.test(route));
}
