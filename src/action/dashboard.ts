/**
 * The dashboard issue in the Action's steps (docs/how-it-works.md § The dashboard issue): the orders are
 * read before the queue is planned, honoured by the night, and the issue is rewritten at its end. Nothing
 * about the dashboard ever fails a night: an API error is a warning, and the night's work stands.
 */
import { readStateBranch } from '../github/action/state-store.js';
import { repositoryRoot } from '../git/repo.js';
import type { IterateOptions } from '../iterate/options.js';
import { skillsGlobsOf } from '../iterate/queue.js';
import { findSkills } from '../iterate/skill-finder.js';
import { specViolationLines } from '../iterate/spec-check.js';
import { messageOf } from '../core/errors.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { secretsOf } from './secrets.js';
import {
  editorsSinceAction,
  findDashboardIssues,
  hasWriteAccess,
  writeDashboardIssue,
  type DashboardIssue,
} from '../github/action/dashboard-issue.js';
import { createGitHubClient, describeApiError, type GitHubClient, type RepoRef } from '../github/octokit.js';
import type { Freshness } from '../ports/freshness.js';
import type { Logger } from '../ports/logger.js';
import {
  DASHBOARD_TITLE,
  NO_ORDERS,
  renderDashboard,
  resolveOrders,
  type EditAttribution,
  type OrderState,
  type ResolvedOrders,
} from './dashboard-body.js';
import { dashboardInput, type RecordedSkill } from './dashboard-model.js';
import type { RunFile } from './result-file.js';

export interface DashboardOrders extends ResolvedOrders {
  issue: DashboardIssue | undefined;
}

const NONE: DashboardOrders = { issue: undefined, orders: NO_ORDERS, notes: [] };

/** Who edited the issue since the Action wrote it, and whether every one of them may write. */
async function attribute(
  client: GitHubClient,
  repo: RepoRef,
  issue: DashboardIssue,
): Promise<EditAttribution> {
  const editors = await editorsSinceAction(client, repo, issue);
  if ('unknown' in editors) return { kind: 'unknown', why: editors.unknown };
  if (editors.logins.length === 0) {
    return { kind: 'unknown', why: 'no edit by anyone but the Action is in the issue history' };
  }
  const refused: string[] = [];
  for (const login of editors.logins) {
    const writes = await hasWriteAccess(client, repo, login);
    if (writes === undefined) return { kind: 'unknown', why: `the permission of ${login} could not be read` };
    if (!writes) refused.push(login);
  }
  return refused.length > 0
    ? { kind: 'not-writers', logins: refused }
    : { kind: 'writers', logins: editors.logins };
}

/** The orders of the dashboard issue, for the skills `known`; none (with a warning) when it cannot be read. */
export async function readDashboardOrders(
  client: GitHubClient,
  repo: RepoRef,
  known: ReadonlySet<string>,
  log: Logger,
): Promise<DashboardOrders> {
  let issue: DashboardIssue | undefined;
  try {
    issue = (await findDashboardIssues(client, repo))[0];
  } catch (error) {
    log.warn(`dashboard: the issue could not be read (${describeApiError(error)}); no orders tonight`);
    return NONE;
  }
  if (!issue) return NONE;
  const found = issue;
  const resolved = await resolveOrders(issue.body, () => attribute(client, repo, found), known);
  for (const note of resolved.notes) log.warn(`dashboard: ${note}`);
  const given = Object.entries(resolved.orders).filter(([, names]) => names.length > 0);
  if (given.length > 0) {
    log.info(
      `dashboard #${issue.number} orders: ${given.map(([kind, names]) => `${kind} ${names.join(', ')}`).join('; ')}`,
    );
  }
  return { issue, ...resolved };
}

/**
 * The orders a plan honours (`mode: plan`, a dry run): read-only, and only with a token and a repository;
 * the skills known are those the skills setting finds.
 */
export async function dashboardOrdersForPlan(
  inputs: ActionInputs,
  ctx: ActionContext,
  options: IterateOptions,
  io: ActionIo,
): Promise<DashboardOrders | undefined> {
  if (!inputs.dashboard || !ctx.repo || !inputs.githubToken) return undefined;
  const client = createGitHubClient({
    token: inputs.githubToken,
    apiUrl: ctx.apiUrl,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
  });
  const repository = (await repositoryRoot(options.project)) ?? options.project;
  const found = await findSkills({ project: options.project, repository, globs: skillsGlobsOf(options) });
  return readDashboardOrders(client, ctx.repo, new Set(found.skills.map((s) => s.name)), io.log);
}

/** A freshness that says "never ran" for the skills ordered to run tonight. */
export function ignoringFreshnessOf(freshness: Freshness, skills: readonly string[]): Freshness {
  if (skills.length === 0) return freshness;
  const ordered = new Set(skills);
  return {
    lastRunAt: (skill) => (ordered.has(skill.name) ? Promise.resolve(null) : freshness.lastRunAt(skill)),
  };
}

/** What became of tonight's "run" orders: honoured (the skill ran) or why not. */
export function runOrderNotes(orders: OrderState, file: RunFile): string[] {
  return orders.run.map((skill) => {
    if (file.run.results.some((r) => r.skill === skill && r.rows.length > 0)) {
      return `Ran \`${skill}\` as ordered (freshness ignored); the box is cleared.`;
    }
    const excluded = (file.run.excludedOther ?? []).find((e) => e.skill === skill);
    if (excluded)
      return `\`${skill}\` was ordered to run but cannot be scored (${excluded.reason}); the box is cleared.`;
    if (orders.skip.includes(skill))
      return `\`${skill}\` was ordered to run and to skip: skipped; the run box is cleared.`;
    return `\`${skill}\` was ordered to run but did not run tonight (the night stopped before it, or it was not asked for); the box is cleared.`;
  });
}

/** The state branch's records per skill, read-only; none (with a warning) when it cannot be read. */
export async function readRecordedSkills(
  project: string,
  branch: string,
  log: Logger,
): Promise<ReadonlyMap<string, RecordedSkill>> {
  try {
    return (await readStateBranch({ project, branch })).skills;
  } catch (error) {
    log.warn(`dashboard: state branch ${branch} could not be read (${messageOf(error)}); no trends`);
    return new Map();
  }
}

export interface DashboardPublish {
  client: GitHubClient | undefined;
  repo: RepoRef | undefined;
  file: RunFile;
  recorded: ReadonlyMap<string, RecordedSkill>;
  ticked: OrderState;
  notes: readonly string[];
  freshnessWindowMs: number;
  minGain: number;
  now: Date;
  runUrl: string | undefined;
  log: Logger;
  /** A dry run: the body goes to the job summary only; nothing is written. */
  dryRun: boolean;
  writeSummary: (markdown: string) => Promise<void>;
  /** The project and its skills setting, to list the Agent Skills rules the skills break; none without it. */
  skills?: { project: string; globs: readonly string[] } | undefined;
}

/** The specification's violations of the skills the setting finds; none (with a warning) when they cannot be read. */
async function specViolationsOf(p: DashboardPublish): Promise<string[]> {
  if (p.skills === undefined) return [];
  try {
    const { project, globs } = p.skills;
    const repository = (await repositoryRoot(project)) ?? project;
    return await specViolationLines(project, (await findSkills({ project, repository, globs })).skills);
  } catch (error) {
    p.log.warn(`dashboard: the skills' SKILL.md files could not be checked (${messageOf(error)})`);
    return [];
  }
}

/** Renders the dashboard and writes it to its issue (or, in a dry run, shows it). Never throws. */
export async function publishDashboard(p: DashboardPublish): Promise<string | undefined> {
  const body = renderDashboard(
    dashboardInput({
      file: p.file,
      recorded: p.recorded,
      ticked: p.ticked,
      orderNotes: p.notes,
      freshnessWindowMs: p.freshnessWindowMs,
      minGain: p.minGain,
      now: p.now,
      runUrl: p.runUrl,
      specViolations: await specViolationsOf(p),
    }),
  );
  if (p.dryRun || !p.client || !p.repo) {
    const why = p.dryRun ? 'a dry run writes nothing' : 'no repository or token to write it with';
    p.log.info(`dashboard: not written (${why}); the body it would write is in the job summary`);
    await p.writeSummary(
      `## The dashboard issue it would write (${why})\n\n<details><summary>Body</summary>\n\n${fenced(body)}\n\n</details>\n`,
    );
    return undefined;
  }
  try {
    const written = await writeDashboardIssue(p.client, p.repo, { title: DASHBOARD_TITLE, body, log: p.log });
    p.log.info(`dashboard: ${written.url} (${written.action})`);
    return written.url;
  } catch (error) {
    p.log.warn(
      `dashboard: the issue could not be written (${describeApiError(error)}); the night's results stand`,
    );
    return undefined;
  }
}

/** The body verbatim in a fence longer than any backtick run in it. */
function fenced(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}markdown\n${body}\n${fence}`;
}
