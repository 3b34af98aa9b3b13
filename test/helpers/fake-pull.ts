/* eslint-disable @typescript-eslint/no-explicit-any -- recorded request bodies are untyped JSON */
/**
 * One pull request on a fake GitHub, answered by nock at the HTTP layer so Probot's Octokit and the App's
 * adapters run for real: commits with their files, the PR's head moving with the App's Git Data API
 * commits (fast-forward only, as `force: false` asks) and with pushes the test makes, comments, reviews,
 * check runs, and the defect-park issues. Every interceptor is persisted, and each group is registered
 * only when the test expects it to be used, so `pendingMocks()` names any part of the flow that never
 * happened.
 */
import { createHash } from 'node:crypto';
import nock from 'nock';
import { API, APP_ID, BASE, HEAD, OWNER, PR, REPO, REPO_PATH, pullData } from './app-fixtures.js';

export const BRANCH_REF = 'heads%2Ffeature%2Fthing';

export interface FakeComment {
  id: number;
  body: string;
  byApp: boolean;
}

export interface FakeCheck {
  id: number;
  head_sha: string;
  external_id: string;
  status: string;
  conclusion?: string;
  title: string;
  summary: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  comments: string[];
}

type Files = Record<string, string>;

function sha(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

/** A naive unified diff (every line of a changed file replaced): enough for the App and the reviewer. */
function unifiedDiff(path: string, before: string | undefined, after: string | undefined): string {
  const old = before === undefined ? [] : before.replace(/\n$/, '').split('\n');
  const now = after === undefined ? [] : after.replace(/\n$/, '').split('\n');
  const hunk = `@@ -${old.length ? 1 : 0},${old.length} +${now.length ? 1 : 0},${now.length} @@`;
  return [hunk, ...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`)].join('\n');
}

/**
 * A real unified diff, as `git diff` writes it: the changed runs found by a longest common subsequence of
 * lines, each hunk with up to three lines of context, hunks that touch merged. Written apart from the
 * App's own line mapping, so a test exercises that mapping on hunks it did not make.
 */
export function gitStyleDiff(before: string | undefined, after: string | undefined, context = 3): string {
  const a = before === undefined ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === undefined ? [] : after.replace(/\n$/, '').split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  // The edit script: ' ' keeps, '-' drops a line of a, '+' adds a line of b.
  const ops: Array<{ op: ' ' | '-' | '+'; text: string; ai: number; bi: number }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ op: ' ', text: a[i]!, ai: i++, bi: j++ });
    else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!))
      ops.push({ op: '+', text: b[j]!, ai: i, bi: j++ });
    else ops.push({ op: '-', text: a[i]!, ai: i++, bi: j });
  }
  const changed = ops.map((o, k) => (o.op === ' ' ? -1 : k)).filter((k) => k >= 0);
  const hunks: Array<[number, number]> = [];
  for (const k of changed) {
    const from = Math.max(0, k - context);
    const to = Math.min(ops.length - 1, k + context);
    const last = hunks.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  return hunks
    .map(([from, to]) => {
      const part = ops.slice(from, to + 1);
      const oldCount = part.filter((o) => o.op !== '+').length;
      const newCount = part.filter((o) => o.op !== '-').length;
      const oldStart = oldCount ? part.find((o) => o.op !== '+')!.ai + 1 : part[0]!.ai;
      const newStart = newCount ? part.find((o) => o.op !== '-')!.bi + 1 : part[0]!.bi;
      return [
        `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`,
        ...part.map((o) => `${o.op}${o.text}`),
      ].join('\n');
    })
    .join('\n');
}

export class FakePull {
  readonly commits = new Map<string, { files: Files; parent: string | undefined }>();
  /** The messages of the commits written through the Git Data API, by SHA. */
  readonly messages = new Map<string, string>();
  readonly blobs = new Map<string, string>();
  readonly trees = new Map<string, Files>();
  head: string;
  readonly base = BASE;
  /** The commit the repository's default branch (`main`) is at: where the App reads the reviewer skill. */
  defaultHead: string = BASE;
  readonly fork: boolean;
  /** Patches and diffs as `git diff` writes them (hunks with context) instead of whole-file replacements. */
  readonly gitDiffs: boolean;
  config: string | null = null;
  roles: Record<string, string> = { maintainer: 'write' };
  /** The installation token the fake hands the App. */
  token = 'ghs_test';
  readonly comments: FakeComment[] = [];
  readonly reviews: any[] = [];
  readonly checks: FakeCheck[] = [];
  /** Every check-run request, in order: `create` or `update` with its body. */
  readonly checkRequests: Array<{ kind: 'create' | 'update'; id: number; body: any }> = [];
  readonly issues: FakeIssue[] = [];
  readonly reactions: number[] = [];
  readonly refUpdates: any[] = [];
  /** Edits of existing comments (the sticky comment is edited in place, never re-posted). */
  commentEdits = 0;
  /**
   * Writes to carry out and then answer 502 (a "ghost write"), once each: `comment`, `check`, `review`,
   * `issue`, `tree`, `commit`, `ref`.
   */
  readonly ghosts = new Set<string>();
  /** The ghost writes that happened. */
  readonly ghosted: string[] = [];
  /** Review threads resolved through GraphQL, by id (`PRRT_<review>_<comment>`). */
  readonly resolvedThreads: string[] = [];
  /**
   * The later comments of a thread, by thread id, in order: answers people wrote (the test adds them) and
   * the App's replies (`byApp`, through `addPullRequestReviewThreadReply`).
   */
  readonly threadAnswers = new Map<
    string,
    Array<{ login: string; body: string; association: string; byApp?: boolean }>
  >();
  /** Threads the App reopened (`unresolveReviewThread`), by id, in order. */
  readonly reopenedThreads: string[] = [];
  /** Every body of the sticky comment as written, in order: its creation, then each edit. */
  readonly stickyWrites: string[] = [];
  /** Every GraphQL request body, in order. */
  readonly graphql: any[] = [];
  #nextId = 9000;

  constructor(options: { base: Files; head: Files; fork?: boolean; gitDiffs?: boolean }) {
    this.gitDiffs = options.gitDiffs ?? false;
    this.commits.set(BASE, { files: options.base, parent: undefined });
    this.commits.set(HEAD, { files: options.head, parent: BASE });
    this.head = HEAD;
    this.fork = options.fork ?? false;
  }

  filesAt(commit: string): Files {
    const found = this.commits.get(commit);
    if (!found) throw new Error(`fake GitHub: no commit ${commit}`);
    return found.files;
  }

  /** A commit someone pushed: the head moves (the test delivers the synchronize webhook itself). */
  push(change: Files): string {
    const files = { ...this.filesAt(this.head), ...change };
    const commit = sha(`push ${this.head} ${JSON.stringify(files)}`);
    this.commits.set(commit, { files, parent: this.head });
    this.head = commit;
    return commit;
  }

  /** `answer`, or — when `write` is a pending ghost — the same write done and answered 502. */
  #ghost(write: string, answer: [number, unknown]): [number, unknown] {
    if (!this.ghosts.delete(write)) return answer;
    this.ghosted.push(write);
    return [502, { message: 'Bad Gateway' }];
  }

  sticky(): FakeComment | undefined {
    return this.comments.find((c) => c.byApp && c.body.startsWith('<!-- skillclimb:review-loop -->'));
  }

  replies(): string[] {
    return this.comments.filter((c) => c !== this.sticky()).map((c) => c.body);
  }

  #commentJson(c: FakeComment) {
    return {
      id: c.id,
      body: c.body,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#issuecomment-${c.id}`,
      user: c.byApp ? { login: 'review-loop[bot]', type: 'Bot' } : { login: 'someone', type: 'User' },
      performed_via_github_app: c.byApp ? { id: APP_ID } : null,
    };
  }

  #patch(path: string, before: string | undefined, after: string | undefined): string {
    return this.gitDiffs ? gitStyleDiff(before, after) : unifiedDiff(path, before, after);
  }

  #changed(from: string, to: string): string[] {
    const a = this.filesAt(from);
    const b = this.filesAt(to);
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => a[p] !== b[p]).sort();
  }

  #diff(from: string, to: string): string {
    const a = this.filesAt(from);
    const b = this.filesAt(to);
    return this.#changed(from, to)
      .map((p) => `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n${this.#patch(p, a[p], b[p])}\n`)
      .join('');
  }

  #treeSha(files: Files): string {
    const id = `tree${sha(JSON.stringify(files)).slice(0, 36)}`;
    this.trees.set(id, files);
    return id;
  }

  /** The entries of folder `prefix` ('' = root) of a tree: sub-trees get their own ids. */
  #treeEntries(files: Files, prefix: string) {
    const entries = new Map<string, any>();
    for (const [path, text] of Object.entries(files)) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const [name = '', ...deeper] = rest.split('/');
      if (deeper.length === 0) {
        const blob = sha(text);
        this.blobs.set(blob, text);
        entries.set(name, { path: name, mode: '100644', type: 'blob', sha: blob });
      } else {
        const sub = Object.fromEntries(
          Object.entries(files)
            .filter(([p]) => p.startsWith(`${prefix}${name}/`))
            .map(([p, t]) => [p, t]),
        );
        const id = `sub${sha(`${prefix}${name}/${JSON.stringify(sub)}`).slice(0, 37)}`;
        this.trees.set(id, sub);
        this.#subPrefix.set(id, `${prefix}${name}/`);
        entries.set(name, { path: name, mode: '040000', type: 'tree', sha: id });
      }
    }
    return [...entries.values()];
  }

  readonly #subPrefix = new Map<string, string>();

  /**
   * The token, the configuration, comments, the PR and its check runs — and, unless the test only pushes
   * (`commands: false`), what a command needs: the commenter's permission, the 👀, a new comment.
   */
  interceptBase(scope = nock(API), options: { commands?: boolean } = {}): nock.Scope {
    if (options.commands ?? true) {
      scope
        .persist()
        .get(/\/collaborators\/[^/]+\/permission$/)
        .reply((uri) => {
          const login = decodeURIComponent(uri.split('/').at(-2) ?? '');
          const role = this.roles[login] ?? 'none';
          return [
            200,
            { permission: role === 'maintain' ? 'write' : role, role_name: role, user: { login } },
          ];
        })
        .post(/\/issues\/comments\/\d+\/reactions$/)
        .reply((uri) => {
          this.reactions.push(Number(uri.split('/').at(-2)));
          return [201, { id: 1, content: 'eyes' }];
        })
        .post(`${REPO_PATH}/issues/${PR}/comments`)
        .reply((_uri, body: any) => {
          const comment = { id: this.#nextId++, body: body.body, byApp: true };
          this.comments.push(comment);
          if (comment === this.sticky()) this.stickyWrites.push(comment.body);
          return this.#ghost('comment', [201, this.#commentJson(comment)]);
        });
    }
    scope
      .persist()
      .post('/app/installations/1/access_tokens')
      .reply(() => [201, { token: this.token, expires_at: '2099-01-01T00:00:00Z', permissions: {} }])
      .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
      .reply(() =>
        this.config === null
          ? [404, { message: 'Not Found' }]
          : [200, this.config, { 'content-type': 'text/plain; charset=utf-8' }],
      )
      .get(`${REPO_PATH}/issues/${PR}/comments`)
      .query(true)
      .reply(() => [200, this.comments.map((c) => this.#commentJson(c))])
      .patch(/\/issues\/comments\/\d+$/)
      .reply((uri, body: any) => {
        const comment = this.comments.find((c) => c.id === Number(uri.split('/').at(-1)));
        if (!comment) return [404, { message: 'Not Found' }];
        comment.body = body.body;
        this.commentEdits += 1;
        if (comment === this.sticky()) this.stickyWrites.push(comment.body);
        return [200, this.#commentJson(comment)];
      })
      .get(`${REPO_PATH}/pulls/${PR}`)
      .reply(() => [200, pullData({ head: this.head, fork: this.fork })])
      .post(`${REPO_PATH}/check-runs`)
      .reply((_uri, body: any) => {
        const id = 100 + this.checks.length;
        this.checkRequests.push({ kind: 'create', id, body });
        this.checks.push({
          id,
          head_sha: body.head_sha,
          external_id: body.external_id,
          status: body.status,
          conclusion: body.conclusion,
          title: body.output?.title,
          summary: body.output?.summary,
        });
        return this.#ghost('check', [
          201,
          { id, head_sha: body.head_sha, html_url: `https://github.com/${OWNER}/${REPO}/runs/${id}` },
        ]);
      })
      .patch(/\/check-runs\/\d+$/)
      .reply((uri, body: any) => {
        const id = Number(uri.split('/').at(-1));
        this.checkRequests.push({ kind: 'update', id, body });
        const check = this.checks.find((c) => c.id === id);
        if (!check) return [404, { message: 'Not Found' }];
        Object.assign(check, {
          status: body.status,
          conclusion: body.conclusion,
          title: body.output?.title,
          summary: body.output?.summary,
          ...(body.external_id ? { external_id: body.external_id } : {}),
        });
        return [200, { id }];
      });
    if (this.config === null) {
      scope
        .get(`/repos/${OWNER}/.github/contents/.github%2Freview-loop.yml`)
        .reply(404, { message: 'Not Found' });
    }
    return scope;
  }

  /**
   * What a round reads and writes on the PR: its files and diffs, contents at a SHA, the default branch's head (the
   * reviewer skill is read there), and the reviews.
   * `reviewed: false` for a round that fails before its review: it neither posts one nor lists the PR's files.
   */
  interceptReads(scope = nock(API), options: { reviewed?: boolean } = {}): nock.Scope {
    scope.persist();
    if (options.reviewed ?? true) this.#interceptReviewed(scope);
    return scope
      .get(`${REPO_PATH}/git/ref/heads%2Fmain`)
      .reply(() => [200, { ref: 'refs/heads/main', object: { sha: this.defaultHead } }])
      .get(/\/compare\/[0-9a-f]{40}\.\.\.[0-9a-f]{40}$/)
      .matchHeader('accept', /diff/)
      .reply((uri) => {
        const [from, to] = uri.split('/compare/')[1]!.split('...');
        return [200, this.#diff(this.#mergeBase(from!, to!), to!), { 'content-type': 'text/plain' }];
      })
      .get(/\/compare\/[0-9a-f]{40}\.\.\.[0-9a-f]{40}$/)
      .matchHeader('accept', (value) => !/diff/.test(value))
      .reply((uri) => {
        const [from, to] = uri.split('/compare/')[1]!.split('...');
        const base = this.#mergeBase(from!, to!);
        return [
          200,
          {
            merge_base_commit: { sha: base },
            files: this.#changed(base, to!).map((filename) => ({ filename, status: 'modified' })),
          },
        ];
      })
      .get(/\/contents\/(?!\.github%2Freview-loop\.yml)[^?]+$/)
      .query(true)
      .reply((uri) => {
        const url = new URL(uri, API);
        const path = decodeURIComponent(url.pathname.split('/contents/')[1] ?? '');
        const text = this.filesAt(url.searchParams.get('ref') ?? this.head)[path];
        if (text === undefined) return [404, { message: 'Not Found' }];
        const content = Buffer.from(text).toString('base64');
        return [
          200,
          {
            type: 'file',
            name: path.split('/').at(-1),
            path,
            sha: sha(text),
            size: text.length,
            content,
            encoding: 'base64',
          },
        ];
      });
  }

  /** The PR's files (for a review's inline comments) and the reviews posted. */
  #interceptReviewed(scope: nock.Scope): void {
    scope
      .get(`${REPO_PATH}/pulls/${PR}/files`)
      .query(true)
      .reply(() => [
        200,
        this.#changed(this.base, this.head).map((filename) => ({
          filename,
          status: 'modified',
          additions: 1,
          deletions: 1,
          patch: this.#patch(filename, this.filesAt(this.base)[filename], this.filesAt(this.head)[filename]),
        })),
      ])
      .post(`${REPO_PATH}/pulls/${PR}/reviews`)
      .reply((_uri, body: any) => {
        this.reviews.push(body);
        const id = this.reviews.length;
        return this.#ghost('review', [
          200,
          { id, html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#pullrequestreview-${id}` },
        ]);
      });
  }

  /** The commit both sides share: the PR's base for the PR's range, else `from` (an earlier head). */
  #mergeBase(from: string, to: string): string {
    let at: string | undefined = to;
    while (at !== undefined) {
      if (at === from) return from;
      at = this.commits.get(at)?.parent;
    }
    return this.base;
  }

  /**
   * The Git Data API as a whole-file fix uses it: commits and trees read, one tree (the files' texts
   * inline) and one commit written, the branch moved fast-forward only.
   */
  interceptGitData(
    scope = nock(API),
    options: {
      /** GitHub takes the ref update but does not move the branch, and its answer carries no commit. */
      refNotMoved?: boolean;
    } = {},
  ): nock.Scope {
    if (options.refNotMoved) {
      scope
        .persist()
        .get(`${REPO_PATH}/git/ref/${BRANCH_REF}`)
        .reply(() => [200, { ref: 'refs/heads/feature/thing', object: { sha: this.head } }]);
    }
    return scope
      .persist()
      .get(/\/git\/commits\/[0-9a-f]{40}$/)
      .reply((uri) => {
        const commit = uri.split('/').at(-1)!;
        const parent = this.commits.get(commit)?.parent;
        return [
          200,
          {
            sha: commit,
            tree: { sha: this.#treeSha(this.filesAt(commit)) },
            message: this.messages.get(commit) ?? 'a commit',
            parents: parent ? [{ sha: parent }] : [],
          },
        ];
      })
      .get(/\/git\/trees\/[^/]+$/)
      .reply((uri) => {
        const id = uri.split('/').at(-1)!;
        const files = this.trees.get(id);
        if (!files) return [404, { message: 'Not Found' }];
        return [200, { sha: id, tree: this.#treeEntries(files, this.#subPrefix.get(id) ?? '') }];
      })
      .post(`${REPO_PATH}/git/trees`)
      .reply((_uri, body: any) => {
        const files = { ...(this.trees.get(body.base_tree) ?? {}) };
        // each file's text inline, as a fix lands (no blob is written first)
        for (const entry of body.tree) files[entry.path] = entry.content;
        return this.#ghost('tree', [201, { sha: this.#treeSha(files) }]);
      })
      .post(`${REPO_PATH}/git/commits`)
      .reply((_uri, body: any) => {
        const files = this.trees.get(body.tree) ?? {};
        const commit = sha(`commit ${body.message} ${body.parents.join(',')} ${JSON.stringify(files)}`);
        this.commits.set(commit, { files, parent: body.parents[0] });
        this.messages.set(commit, body.message);
        return this.#ghost('commit', [201, { sha: commit }]);
      })
      .patch(`${REPO_PATH}/git/refs/${BRANCH_REF}`)
      .reply((_uri, body: any) => {
        this.refUpdates.push(body);
        if (body.force !== false) return [422, { message: 'the App must never force' }];
        if (this.commits.get(body.sha)?.parent !== this.head) {
          return [422, { message: 'Update is not a fast forward' }];
        }
        if (options.refNotMoved) return [200, {}];
        this.head = body.sha;
        return this.#ghost('ref', [200, { ref: 'refs/heads/feature/thing', object: { sha: body.sha } }]);
      });
  }

  /**
   * What the App reads to find a ghost write before it writes again: the PR's reviews, the check runs of
   * a commit, the branch's ref. Registered only by tests that make ghost writes.
   */
  interceptLookups(scope = nock(API), options: { ref?: boolean } = {}): nock.Scope {
    scope
      .persist()
      .get(`${REPO_PATH}/pulls/${PR}/reviews`)
      .query(true)
      .reply(() => [
        200,
        this.reviews.map((review, i) => ({
          id: i + 1,
          commit_id: review.commit_id,
          body: review.body,
          user: { login: 'review-loop[bot]', type: 'Bot' },
          html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#pullrequestreview-${i + 1}`,
        })),
      ])
      .get(/\/commits\/[0-9a-f]{40}\/check-runs$/)
      .query(true)
      .reply((uri) => {
        const head = new URL(uri, API).pathname.split('/').at(-2);
        const runs = this.checks
          .filter((check) => check.head_sha === head)
          .map((check) => ({
            id: check.id,
            head_sha: check.head_sha,
            external_id: check.external_id,
            status: check.status,
            conclusion: check.conclusion ?? null,
            output: { title: check.title, summary: check.summary },
            app: { id: APP_ID },
            html_url: `https://github.com/${OWNER}/${REPO}/runs/${check.id}`,
          }));
        return [200, { total_count: runs.length, check_runs: runs }];
      });
    // `ref: false`: a test whose App reads the reviews and check runs (a record rebuilt) but never the ref.
    if (options.ref === false) return scope;
    return scope
      .get(`${REPO_PATH}/git/ref/${BRANCH_REF}`)
      .reply(() => [200, { ref: 'refs/heads/feature/thing', object: { sha: this.head } }]);
  }

  /**
   * GraphQL as the App's thread follow-up uses it: `reviewThreads` lists one thread per inline comment
   * of the reviews posted (the App's, with any answers the test added and the App's replies), aliased
   * `resolveReviewThread`, `unresolveReviewThread` and `addPullRequestReviewThreadReply` mutations resolve,
   * reopen and answer (any number in one request).
   */
  interceptThreads(scope = nock(API)): nock.Scope {
    return scope
      .persist()
      .post('/graphql')
      .reply((_uri, body: any) => {
        this.graphql.push(body);
        const query = String(body.query);
        if (query.startsWith('mutation')) {
          // aliased mutations, each alias with its own variables: `t0: resolveReviewThread(…)` ($t0),
          // `u0: unresolveReviewThread(…)` ($u0), `r0: addPullRequestReviewThreadReply(…)` ($r0, $b0)
          const data: Record<string, unknown> = {};
          const variables = body.variables as Record<string, string>;
          for (const [, alias, kind] of query.matchAll(/(\w+): (\w+)\(/g)) {
            const id = variables[alias!]!;
            if (kind === 'resolveReviewThread') {
              this.resolvedThreads.push(id);
              data[alias!] = { thread: { id, isResolved: true } };
            } else if (kind === 'unresolveReviewThread') {
              this.reopenedThreads.push(id);
              const at = this.resolvedThreads.indexOf(id);
              if (at !== -1) this.resolvedThreads.splice(at, 1);
              data[alias!] = { thread: { id, isResolved: false } };
            } else if (kind === 'addPullRequestReviewThreadReply') {
              const text = variables[`b${alias!.slice(1)}`]!;
              const later = this.threadAnswers.get(id) ?? [];
              later.push({ login: 'review-loop', body: text, association: 'NONE', byApp: true });
              this.threadAnswers.set(id, later);
              data[alias!] = { comment: { id: `PRRC_${id}_${later.length}` } };
            }
          }
          return [200, { data }];
        }
        const nodes = this.reviews.flatMap((review, i) =>
          (review.comments ?? []).map((comment: any, j: number) => {
            const id = `PRRT_${i}_${j}`;
            const answers = (this.threadAnswers.get(id) ?? []).map((a) => ({
              body: a.body,
              viewerDidAuthor: a.byApp ?? false,
              authorAssociation: a.association,
              author: { login: a.login },
              url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#discussion_r${id}`,
            }));
            return {
              id,
              isResolved: this.resolvedThreads.includes(id),
              comments: {
                nodes: [
                  {
                    body: comment.body,
                    viewerDidAuthor: true,
                    authorAssociation: 'NONE',
                    author: { login: 'review-loop' },
                    url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#discussion_${id}`,
                  },
                  ...answers,
                ],
              },
            };
          }),
        );
        return [
          200,
          {
            data: {
              repository: {
                pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } },
              },
            },
          },
        ];
      });
  }

  /** The defect-park issues: found by label, created, commented on. */
  interceptParkIssues(scope = nock(API), options: { comment?: boolean } = {}): nock.Scope {
    scope
      .persist()
      .get(`${REPO_PATH}/issues`)
      .query(true)
      .reply(() => [
        200,
        this.issues.map((issue) => ({
          number: issue.number,
          title: issue.title,
          html_url: `https://github.com/${OWNER}/${REPO}/issues/${issue.number}`,
          body: issue.body,
          labels: issue.labels.map((name) => ({ name })),
          user: { login: 'review-loop[bot]', type: 'Bot' },
          performed_via_github_app: { id: APP_ID },
        })),
      ])
      .post(`${REPO_PATH}/issues`)
      .reply((_uri, body: any) => {
        const number = 50 + this.issues.length;
        this.issues.push({ number, title: body.title, body: body.body, labels: body.labels, comments: [] });
        return this.#ghost('issue', [
          201,
          { number, html_url: `https://github.com/${OWNER}/${REPO}/issues/${number}` },
        ]);
      });
    if (options.comment) {
      scope.post(/\/issues\/(?!7\/)\d+\/comments$/).reply((uri, body: any) => {
        const issue = this.issues.find((i) => i.number === Number(uri.split('/').at(-2)));
        if (!issue) return [404, { message: 'Not Found' }];
        issue.comments.push(body.body);
        return [201, { id: 1, html_url: `https://github.com/${OWNER}/${REPO}/issues/${issue.number}#c` }];
      });
    }
    return scope;
  }
}
