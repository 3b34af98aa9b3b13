/**
 * The issues API as the dashboard uses it, under nock at the HTTP layer (the real Octokit client runs):
 * a small in-memory store of issues with their edit history (GraphQL `userContentEdits`) and the
 * collaborators' permissions. A person's edit is `editAsPerson`: the body changes and the history names
 * them, as GitHub records it.
 */
import nock from 'nock';

export const BOT = 'github-actions[bot]';

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  author: string;
  /** Oldest first: who edited the body, and when (the creation is the author's first entry). */
  edits: Array<{ login: string | null; at: string }>;
}

export interface FakeIssues {
  issues: FakeIssue[];
  /** Repository permission per login (`admin`, `write`, `read`, …); a login absent is not a collaborator. */
  permissions: Record<string, string>;
  /** Every request, `METHOD path`. */
  requests: string[];
  /** Runs when an issue is created, before the answer: where a concurrent job can create its own. */
  onCreate?: (() => void) | undefined;
  /** The answer of the GraphQL edit history (default: the history). */
  graphqlStatus?: number | undefined;
  add(issue: Partial<FakeIssue> & Pick<FakeIssue, 'body'>): FakeIssue;
  editAsPerson(number: number, login: string, edit: (body: string) => string): void;
  open(): FakeIssue[];
}

let clock = Date.parse('2026-05-20T00:00:00Z');
const tick = () => new Date((clock += 60_000)).toISOString();

const view = (api: string, issue: FakeIssue) => ({
  number: issue.number,
  title: issue.title,
  body: issue.body,
  state: issue.state,
  state_reason: issue.state_reason,
  html_url: `https://github.test/acme/skills/issues/${issue.number}`,
  url: `${api}/repos/acme/skills/issues/${issue.number}`,
  user: { login: issue.author },
  labels: issue.labels.map((name) => ({ name })),
});

/** Persistent nock interceptors on `api` for acme/skills; `nock.cleanAll()` removes them. */
export function fakeIssues(api: string): FakeIssues {
  let next = 1;
  const fake: FakeIssues = {
    issues: [],
    permissions: {},
    requests: [],
    add(partial) {
      const issue: FakeIssue = {
        number: next++,
        title: 'skillclimb dashboard',
        state: 'open',
        state_reason: null,
        labels: ['skill-iterate'],
        author: BOT,
        edits: [],
        ...partial,
      };
      if (issue.edits.length === 0) issue.edits.push({ login: issue.author, at: tick() });
      fake.issues.push(issue);
      return issue;
    },
    editAsPerson(number, login, edit) {
      const issue = fake.issues.find((i) => i.number === number)!;
      issue.body = edit(issue.body);
      issue.edits.push({ login, at: tick() });
    },
    open: () => fake.issues.filter((i) => i.state === 'open'),
  };
  const record = (method: string, uri: string) => fake.requests.push(`${method} ${uri.split('?')[0]}`);

  nock(api)
    .persist()
    .get('/repos/acme/skills/issues')
    .query(true)
    .reply(function (uri) {
      record('GET', uri);
      const query = new URL(uri, api).searchParams;
      const label = query.get('labels');
      const state = query.get('state') ?? 'open';
      const listed = fake.issues
        .filter((i) => state === 'all' || i.state === state)
        .filter((i) => !label || i.labels.includes(label))
        .sort((a, b) => (query.get('direction') === 'desc' ? b.number - a.number : a.number - b.number));
      return [200, listed.map((i) => view(api, i))];
    })
    .post('/repos/acme/skills/issues')
    .reply(function (uri, body) {
      record('POST', uri);
      const { title, body: text, labels } = body as { title: string; body: string; labels?: string[] };
      fake.onCreate?.();
      const issue = fake.add({ title, body: text, labels: labels ?? [] });
      return [201, view(api, issue)];
    })
    .patch(/^\/repos\/acme\/skills\/issues\/\d+$/)
    .reply(function (uri, body) {
      record('PATCH', uri);
      const issue = fake.issues.find((i) => i.number === Number(uri.split('/').pop()));
      if (!issue) return [404, { message: 'Not Found' }];
      const patch = body as { body?: string; state?: 'open' | 'closed'; state_reason?: string };
      if (patch.body !== undefined && patch.body !== issue.body) {
        issue.body = patch.body;
        issue.edits.push({ login: BOT, at: tick() });
      }
      if (patch.state) issue.state = patch.state;
      if (patch.state_reason) issue.state_reason = patch.state_reason;
      return [200, view(api, issue)];
    })
    .post('/graphql')
    .reply(function (uri, body) {
      record('POST', uri);
      if (fake.graphqlStatus) return [fake.graphqlStatus, { message: 'Bad Gateway' }];
      const { variables } = body as { variables: { number: number } };
      const issue = fake.issues.find((i) => i.number === variables.number);
      const nodes = (issue?.edits ?? []).slice(-50).map((e) => ({
        editedAt: e.at,
        // GraphQL names a bot without its `[bot]` suffix.
        editor: e.login === null ? null : { login: e.login.replace(/\[bot\]$/, '') },
      }));
      return [200, { data: { repository: { issue: issue ? { userContentEdits: { nodes } } : null } } }];
    })
    .get(/^\/repos\/acme\/skills\/collaborators\/[^/]+\/permission$/)
    .reply(function (uri) {
      record('GET', uri);
      const login = decodeURIComponent(uri.split('/').at(-2)!);
      const permission = fake.permissions[login];
      if (permission === undefined) return [404, { message: 'Not Found' }];
      return [200, { permission, user: { login } }];
    });
  return fake;
}
