/**
 * The dashboard issue on GitHub (docs/how-it-works.md § The dashboard issue): ONE open issue per repository,
 * found by the hidden marker on its first line among the issues with its label, created when missing and
 * rewritten in place. Two jobs writing at once (two matrix summaries) may each create one: each looks again
 * right after creating, keeps the oldest and closes the newer as a duplicate. Who edited the issue since
 * the Action last wrote it comes from GraphQL `userContentEdits`, checked against the repository permission.
 */
import type { Logger } from '../../ports/logger.js';
import { DASHBOARD_MARKER_PREFIX, firstLine } from '../markers.js';
import { describeApiError, httpStatusOf, type GitHubClient, type RepoRef } from '../octokit.js';

export const DASHBOARD_LABEL = 'skill-iterate';

export interface DashboardIssue {
  number: number;
  url: string;
  body: string;
  /** Who opened it (the Action's bot): its edits are the Action's own. */
  author: string | undefined;
}

const isDashboard = (body: string | null | undefined) => firstLine(body).startsWith(DASHBOARD_MARKER_PREFIX);

/** The open dashboard issues, oldest first. */
export async function findDashboardIssues(
  client: GitHubClient,
  repo: RepoRef,
  label = DASHBOARD_LABEL,
): Promise<DashboardIssue[]> {
  const issues = await client.paginate(client.rest.issues.listForRepo, {
    ...repo,
    state: 'open',
    labels: label,
    sort: 'created',
    direction: 'asc',
    per_page: 100,
  });
  return issues
    .filter((issue) => !issue.pull_request && isDashboard(issue.body))
    .sort((a, b) => a.number - b.number)
    .map((issue) => ({
      number: issue.number,
      url: issue.html_url,
      body: issue.body ?? '',
      author: issue.user?.login,
    }));
}

export interface DashboardWrite {
  number: number;
  url: string;
  action: 'created' | 'updated';
  /** Newer duplicates this write closed. */
  closed: number[];
}

/**
 * Writes `body` to the dashboard: the oldest open one when there is one, else a new issue — then looks
 * again, and when another job created one meanwhile, keeps the oldest (writing `body` to it) and closes
 * every newer one as a duplicate.
 */
export async function writeDashboardIssue(
  client: GitHubClient,
  repo: RepoRef,
  input: { title: string; body: string; label?: string; log: Logger },
): Promise<DashboardWrite> {
  const label = input.label ?? DASHBOARD_LABEL;
  const [existing, ...newer] = await findDashboardIssues(client, repo, label);
  if (existing) {
    await client.rest.issues.update({ ...repo, issue_number: existing.number, body: input.body });
    // Duplicates an earlier pair of writers left (one could not close its own): closed now.
    const closed = await closeDuplicates(client, repo, newer);
    return { number: existing.number, url: existing.url, action: 'updated', closed };
  }
  const { data: created } = await client.rest.issues.create({
    ...repo,
    title: input.title,
    body: input.body,
    labels: [label],
  });
  const open = await findDashboardIssues(client, repo, label);
  const oldest = open[0];
  if (!oldest || oldest.number === created.number) {
    return { number: created.number, url: created.html_url, action: 'created', closed: [] };
  }
  // Another job made one first: it is the dashboard; ours (and any other newer one) is closed.
  const closed = await closeDuplicates(client, repo, open.slice(1));
  await client.rest.issues.update({ ...repo, issue_number: oldest.number, body: input.body });
  input.log.info(
    `dashboard: #${oldest.number} already existed; closed the duplicate ${closed.map((n) => `#${n}`).join(', ')}`,
  );
  return { number: oldest.number, url: oldest.url, action: 'updated', closed };
}

async function closeDuplicates(
  client: GitHubClient,
  repo: RepoRef,
  duplicates: readonly DashboardIssue[],
): Promise<number[]> {
  for (const issue of duplicates) {
    await client.rest.issues.update({
      ...repo,
      issue_number: issue.number,
      state: 'closed',
      state_reason: 'not_planned',
    });
  }
  return duplicates.map((issue) => issue.number);
}

const EDITS_QUERY = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) {
      userContentEdits(last: 50) { nodes { editedAt editor { login } } }
    }
  }
}`;

interface EditsAnswer {
  repository: {
    issue: {
      userContentEdits: { nodes: Array<{ editedAt: string; editor: { login: string } | null } | null> };
    } | null;
  } | null;
}

/** `github-actions[bot]` (REST) and `github-actions` (GraphQL) are the same account. */
const account = (login: string) => login.replace(/\[bot\]$/i, '').toLowerCase();

/**
 * The logins that edited the issue since its author (the Action) last did, or a reason they are unknown:
 * an edit whose editor GitHub no longer names (a deleted account) cannot be attributed.
 */
export async function editorsSinceAction(
  client: GitHubClient,
  repo: RepoRef,
  issue: Pick<DashboardIssue, 'number' | 'author'>,
): Promise<{ logins: string[] } | { unknown: string }> {
  if (!issue.author) return { unknown: 'the issue has no author' };
  let answer: EditsAnswer;
  try {
    answer = await client.graphql<EditsAnswer>(EDITS_QUERY, {
      owner: repo.owner,
      name: repo.repo,
      number: issue.number,
    });
  } catch (error) {
    return { unknown: `the edit history could not be read: ${describeApiError(error)}` };
  }
  const nodes = answer.repository?.issue?.userContentEdits.nodes;
  if (!nodes) return { unknown: 'the edit history could not be read' };
  const edits = nodes
    .filter((n): n is NonNullable<typeof n> => n !== null)
    .sort((a, b) => a.editedAt.localeCompare(b.editedAt));
  const own = account(issue.author);
  const lastOwn = edits.findLastIndex((e) => e.editor !== null && account(e.editor.login) === own);
  const since = edits.slice(lastOwn + 1);
  if (since.some((e) => e.editor === null))
    return { unknown: 'an edit was made by an account GitHub no longer names' };
  return { logins: [...new Set(since.map((e) => e.editor!.login))] };
}

/** Whether `login` has write access (write, maintain or admin); undefined when the API does not say. */
export async function hasWriteAccess(
  client: GitHubClient,
  repo: RepoRef,
  login: string,
): Promise<boolean | undefined> {
  try {
    const { data } = await client.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: login });
    return data.permission === 'admin' || data.permission === 'write' || data.permission === 'maintain';
  } catch (error) {
    // 404: not a collaborator at all.
    if (httpStatusOf(error) === 404) return false;
    return undefined;
  }
}
