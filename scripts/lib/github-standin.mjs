/**
 * A loopback GitHub (Enterprise Server, so `GHE_HOST=127.0.0.1:<port>`, paths under /api/v3 and
 * /api/graphql) that carries a whole review loop on any number of pull requests of one repository
 * `bench/repo`: the token, the (absent) configuration, permissions, comments and their edits, reactions,
 * the PR and its files, compares (JSON and diff), contents at a SHA, reviews, check runs, review threads
 * (GraphQL), park issues and the Git Data API (blobs, trees with `sha` or inline `content`, commits, the
 * branch moved fast-forward only). Each PR n starts with `calc.ts` adding `half()` that divides by 3.
 *
 * Every request that is not a GET is recorded with its kind (`writes`), so a benchmark can count what the
 * App writes; GraphQL queries are reads and recorded apart (kind `graphql query`).
 *
 *   const gh = await startGitHubStandIn({ latencyMs: 20 });
 *   gh.port; gh.writes; gh.pulls.get(n); gh.checks; gh.done(n); gh.lastRequestAt; await gh.close();
 */
import { createHash } from 'node:crypto';
import http from 'node:http';

export const OWNER = 'bench';
export const REPO = 'repo';
export const README = '# calc\n\nSmall arithmetic helpers.\n';
export const CALC_BASE = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
export const CALC_HEAD = `${CALC_BASE}\nexport function half(n: number): number {\n  return n / 3;\n}\n`;
const APP_ID = 1;

const sha = (text) => createHash('sha1').update(text).digest('hex');

function unifiedDiff(before, after) {
  const old = before === undefined ? [] : before.replace(/\n$/, '').split('\n');
  const now = after === undefined ? [] : after.replace(/\n$/, '').split('\n');
  const hunk = `@@ -${old.length ? 1 : 0},${old.length} +${now.length ? 1 : 0},${now.length} @@`;
  return [hunk, ...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`)].join('\n');
}

/** The kind of a write, for the breakdown. */
export function writeKind(method, path, body) {
  if (path.endsWith('/access_tokens')) return 'installation token';
  if (path === '/graphql')
    return /^\s*mutation/.test(String(body?.query ?? '')) ? 'thread resolve' : 'graphql query';
  if (/\/reactions$/.test(path)) return 'reaction';
  if (/\/issues\/comments\/\d+$/.test(path) && method === 'PATCH') {
    return String(body?.body ?? '').startsWith('<!-- skillclimb:review-loop -->')
      ? 'sticky comment edit'
      : 'comment edit';
  }
  if (/\/issues\/\d+\/comments$/.test(path)) {
    return String(body?.body ?? '').startsWith('<!-- skillclimb:review-loop -->')
      ? 'sticky comment create'
      : 'comment';
  }
  if (/\/pulls\/\d+\/reviews$/.test(path)) return 'review';
  if (/\/check-runs$/.test(path)) return 'check-run create';
  if (/\/check-runs\/\d+$/.test(path)) return 'check-run update';
  if (/\/issues$/.test(path)) return 'issue';
  const git = /\/git\/(blobs|trees|commits|refs)/.exec(path);
  if (git) return { blobs: 'git blob', trees: 'git tree', commits: 'git commit', refs: 'git ref' }[git[1]];
  return `${method} ${path}`;
}

export async function startGitHubStandIn({ latencyMs = 0 } = {}) {
  const BASE = sha('base');
  const commits = new Map([[BASE, { files: { 'README.md': README }, parent: undefined }]]);
  commits.get(BASE).files['calc.ts'] = CALC_BASE;
  const blobs = new Map();
  const trees = new Map();
  const pulls = new Map();
  const comments = new Map();
  const checks = new Map();
  const issues = [];
  const writes = [];
  let nextId = 9000;
  let lastRequestAt = Date.now();

  const treeOf = (files) => {
    const id = sha(`tree ${JSON.stringify(files)}`);
    trees.set(id, files);
    return id;
  };
  const filesAt = (commit) => commits.get(commit)?.files;
  /** PR n: created on first sight, its head commit its own. */
  const pull = (n) => {
    if (!pulls.has(n)) {
      const head = sha(`head ${n}`);
      commits.set(head, { files: { 'README.md': README, 'calc.ts': CALC_HEAD }, parent: BASE });
      pulls.set(n, {
        number: n,
        head,
        first: head,
        branch: `pr-${n}`,
        reviews: [],
        resolved: [],
        done: false,
      });
    }
    return pulls.get(n);
  };
  const pullOfBranch = (branch) => [...pulls.values()].find((p) => p.branch === branch);
  const mergeBase = (from, to) => {
    for (let at = to; at !== undefined; at = commits.get(at)?.parent) if (at === from) return from;
    return BASE;
  };
  const changed = (from, to) => {
    const a = filesAt(from) ?? {};
    const b = filesAt(to) ?? {};
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => a[p] !== b[p]).sort();
  };
  const diff = (from, to) =>
    changed(from, to)
      .map(
        (p) =>
          `diff --git a/${p} b/${p}\n--- a/${p}\n+++ b/${p}\n${unifiedDiff(filesAt(from)[p], filesAt(to)[p])}\n`,
      )
      .join('');
  const commentJson = (c) => ({
    id: c.id,
    body: c.body,
    html_url: `http://github.test/${OWNER}/${REPO}/pull/${c.pr}#issuecomment-${c.id}`,
    user: c.byApp ? { login: 'review-loop[bot]', type: 'Bot' } : { login: 'someone', type: 'User' },
    performed_via_github_app: c.byApp ? { id: APP_ID } : null,
  });
  const pullJson = (p) => ({
    number: p.number,
    html_url: `http://github.test/${OWNER}/${REPO}/pull/${p.number}`,
    title: 'Add half()',
    body: 'Adds half().',
    state: 'open',
    merged: false,
    user: { login: 'author' },
    head: { sha: p.head, ref: p.branch, repo: { full_name: `${OWNER}/${REPO}` } },
    base: { sha: BASE, ref: 'main', repo: { full_name: `${OWNER}/${REPO}` } },
  });
  const checkJson = (c) => ({
    id: c.id,
    head_sha: c.head_sha,
    external_id: c.external_id ?? null,
    status: c.status,
    conclusion: c.conclusion ?? null,
    output: { title: c.title ?? null, summary: c.summary ?? null },
    app: { id: APP_ID },
    html_url: `http://github.test/${OWNER}/${REPO}/runs/${c.id}`,
  });

  /** [status, body, contentType?] for one request. */
  function answer(method, path, query, body, accept) {
    const R = `/repos/${OWNER}/${REPO}`;
    let m;
    if (path.endsWith('/access_tokens'))
      return [201, { token: 'ghs_bench', expires_at: '2099-01-01T00:00:00Z', permissions: {} }];
    if (path.includes('/contents/.github')) return [404, { message: 'Not Found' }];
    // The App's own routes: its identity (GET /ready) and its webhook deliveries (none failed).
    if (path === '/app') return [200, { id: APP_ID, slug: 'review-loop' }];
    if (path === '/app/hook/deliveries') return [200, []];
    if ((m = /\/collaborators\/([^/]+)\/permission$/.exec(path)))
      return [200, { permission: 'write', role_name: 'write', user: { login: decodeURIComponent(m[1]) } }];
    if (path === '/graphql') {
      const p = pull(Number(body?.variables?.number ?? 0));
      if (/resolveReviewThread/.test(String(body?.query))) {
        // aliased mutations, one per thread: `t0: resolveReviewThread(input: { threadId: $t0 })`
        const data = {};
        for (const [alias, id] of Object.entries(body.variables ?? {})) {
          for (const q of pulls.values()) if (String(id).startsWith(`PRRT_${q.number}_`)) q.resolved.push(id);
          data[alias] = { thread: { id, isResolved: true } };
        }
        return [200, { data }];
      }
      const nodes = p.reviews.flatMap((review, i) =>
        (review.comments ?? []).map((comment, j) => {
          const id = `PRRT_${p.number}_${i}_${j}`;
          return {
            id,
            isResolved: p.resolved.includes(id),
            comments: {
              nodes: [
                {
                  body: comment.body,
                  viewerDidAuthor: true,
                  authorAssociation: 'NONE',
                  author: { login: 'review-loop' },
                },
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
    }
    if ((m = /\/issues\/comments\/(\d+)\/reactions$/.exec(path))) return [201, { id: 1, content: 'eyes' }];
    if ((m = /\/issues\/comments\/(\d+)$/.exec(path))) {
      const c = comments.get(Number(m[1]));
      if (!c) return [404, { message: 'Not Found' }];
      if (method === 'PATCH') c.body = body.body;
      return [200, commentJson(c)];
    }
    if ((m = new RegExp(`^${R}/issues/(\\d+)/comments$`).exec(path))) {
      const n = Number(m[1]);
      if (method === 'GET') return [200, [...comments.values()].filter((c) => c.pr === n).map(commentJson)];
      const c = { id: nextId++, pr: n, body: body.body, byApp: true };
      comments.set(c.id, c);
      return [201, commentJson(c)];
    }
    if ((m = new RegExp(`^${R}/pulls/(\\d+)$`).exec(path))) return [200, pullJson(pull(Number(m[1])))];
    if ((m = new RegExp(`^${R}/pulls/(\\d+)/files$`).exec(path))) {
      const p = pull(Number(m[1]));
      return [
        200,
        changed(BASE, p.head).map((filename) => ({
          filename,
          status: 'modified',
          additions: 1,
          deletions: 1,
          patch: unifiedDiff(filesAt(BASE)[filename], filesAt(p.head)[filename]),
        })),
      ];
    }
    if ((m = new RegExp(`^${R}/pulls/(\\d+)/reviews$`).exec(path))) {
      const p = pull(Number(m[1]));
      if (method === 'POST') {
        p.reviews.push(body);
        const id = p.number * 100 + p.reviews.length;
        return [
          200,
          { id, html_url: `http://github.test/${OWNER}/${REPO}/pull/${p.number}#pullrequestreview-${id}` },
        ];
      }
      return [
        200,
        p.reviews.map((r, i) => ({
          id: p.number * 100 + i + 1,
          commit_id: r.commit_id,
          body: r.body,
          user: { login: 'review-loop[bot]', type: 'Bot' },
          html_url: `http://github.test/${OWNER}/${REPO}/pull/${p.number}#pullrequestreview-${i + 1}`,
        })),
      ];
    }
    if ((m = /\/compare\/([0-9a-f]{40})\.\.\.([0-9a-f]{40})$/.exec(path))) {
      const base = mergeBase(m[1], m[2]);
      if (/diff/.test(accept)) return [200, diff(base, m[2]), 'text/plain'];
      return [
        200,
        {
          merge_base_commit: { sha: base },
          files: changed(base, m[2]).map((filename) => ({ filename, status: 'modified' })),
        },
      ];
    }
    if ((m = /\/contents\/([^?]+)$/.exec(path))) {
      const file = decodeURIComponent(m[1]);
      const text = filesAt(query.get('ref') ?? BASE)?.[file];
      if (text === undefined) return [404, { message: 'Not Found' }];
      return [
        200,
        {
          type: 'file',
          name: file.split('/').at(-1),
          path: file,
          sha: sha(text),
          size: text.length,
          content: Buffer.from(text).toString('base64'),
          encoding: 'base64',
        },
      ];
    }
    if (path === `${R}/check-runs` && method === 'POST') {
      const c = { id: 100 + checks.size, ...body, title: body.output?.title, summary: body.output?.summary };
      checks.set(c.id, c);
      if (c.status === 'completed' && c.conclusion !== 'neutral') {
        const p = [...pulls.values()].find((q) => q.head === c.head_sha);
        if (p) p.done = true;
      }
      return [201, checkJson(c)];
    }
    if ((m = /\/check-runs\/(\d+)$/.exec(path))) {
      const c = checks.get(Number(m[1]));
      if (!c) return [404, { message: 'Not Found' }];
      if (method === 'PATCH') {
        Object.assign(c, {
          ...body,
          title: body.output?.title ?? c.title,
          summary: body.output?.summary ?? c.summary,
        });
        if (c.status === 'completed' && c.conclusion !== 'neutral') {
          const p = [...pulls.values()].find((q) => q.head === c.head_sha);
          if (p) p.done = true;
        }
      }
      return [200, checkJson(c)];
    }
    if ((m = /\/commits\/([0-9a-f]{40})\/check-runs$/.exec(path))) {
      const runs = [...checks.values()].filter((c) => c.head_sha === m[1]).map(checkJson);
      return [200, { total_count: runs.length, check_runs: runs }];
    }
    if (path === `${R}/issues`) {
      if (method === 'GET') return [200, []];
      const number = 5000 + issues.length;
      issues.push(body);
      return [201, { number, html_url: `http://github.test/${OWNER}/${REPO}/issues/${number}` }];
    }
    if ((m = /\/git\/commits\/([0-9a-f]{40})$/.exec(path))) {
      const files = filesAt(m[1]);
      if (!files) return [404, { message: 'Not Found' }];
      return [200, { sha: m[1], tree: { sha: treeOf(files) }, parents: [{ sha: commits.get(m[1]).parent }] }];
    }
    if ((m = /\/git\/trees\/([0-9a-f]{40})$/.exec(path)) && method === 'GET') {
      const files = trees.get(m[1]);
      if (!files) return [404, { message: 'Not Found' }];
      return [
        200,
        {
          sha: m[1],
          truncated: false,
          tree: Object.entries(files).map(([p, text]) => {
            blobs.set(sha(text), text);
            return { path: p, mode: '100644', type: 'blob', sha: sha(text), size: text.length };
          }),
        },
      ];
    }
    if (path === `${R}/git/blobs`) {
      const text = Buffer.from(body.content, body.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
      blobs.set(sha(text), text);
      return [201, { sha: sha(text) }];
    }
    if (path === `${R}/git/trees`) {
      const files = { ...(trees.get(body.base_tree) ?? {}) };
      for (const entry of body.tree) {
        if (entry.sha === null) delete files[entry.path];
        else files[entry.path] = entry.content ?? blobs.get(entry.sha) ?? '';
      }
      return [201, { sha: treeOf(files) }];
    }
    if (path === `${R}/git/commits`) {
      const files = trees.get(body.tree) ?? {};
      const commit = sha(`commit ${body.message} ${body.parents.join(',')} ${JSON.stringify(files)}`);
      commits.set(commit, { files, parent: body.parents[0] });
      return [201, { sha: commit }];
    }
    if ((m = /\/git\/refs?\/(.+)$/.exec(path))) {
      const ref = decodeURIComponent(m[1]).replace(/^heads\//, '');
      const p = pullOfBranch(ref);
      if (!p) return [404, { message: 'Not Found' }];
      if (method === 'PATCH') {
        if (body.force !== false || commits.get(body.sha)?.parent !== p.head)
          return [422, { message: 'Update is not a fast forward' }];
        p.head = body.sha;
      }
      return [200, { ref: `refs/heads/${p.branch}`, object: { sha: p.head } }];
    }
    return [404, { message: `stand-in: no route ${method} ${path}` }];
  }

  const server = http.createServer((req, res) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      lastRequestAt = Date.now();
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = url.pathname.replace(/^\/api\/v3/, '').replace(/^\/api\/graphql$/, '/graphql');
      let body;
      try {
        body = data ? JSON.parse(data) : undefined;
      } catch {
        body = undefined;
      }
      const method = req.method ?? 'GET';
      if (method !== 'GET') {
        const pr = /\/(?:pulls|issues)\/(\d+)/.exec(path)?.[1] ?? body?.variables?.number;
        let forPr = pr === undefined ? undefined : Number(pr);
        if (forPr === undefined && /\/issues\/comments\/(\d+)/.test(path))
          forPr = comments.get(Number(/\/issues\/comments\/(\d+)/.exec(path)[1]))?.pr;
        if (forPr === undefined && body?.head_sha)
          forPr = [...pulls.values()].find((p) => p.head === body.head_sha)?.number;
        if (forPr === undefined && /\/check-runs\/(\d+)$/.test(path)) {
          const c = checks.get(Number(/\/check-runs\/(\d+)$/.exec(path)[1]));
          forPr = [...pulls.values()].find((p) => p.head === c?.head_sha || p.first === c?.head_sha)?.number;
        }
        if (forPr === undefined && /\/git\/refs\//.test(path))
          forPr = pullOfBranch(
            decodeURIComponent(path.split('/git/refs/')[1]).replace(/^heads\//, ''),
          )?.number;
        writes.push({ kind: writeKind(method, path, body), method, path, pr: forPr, at: Date.now() });
      }
      const [status, payload, type = 'application/json'] = answer(
        method,
        path,
        url.searchParams,
        body,
        String(req.headers.accept ?? ''),
      );
      setTimeout(() => {
        res.writeHead(status, { 'content-type': type });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      }, latencyMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    writes,
    pulls,
    pull,
    checks,
    done: (n) => pulls.get(n)?.done === true,
    get lastRequestAt() {
      return lastRequestAt;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
