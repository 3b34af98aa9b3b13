/**
 * The App as `npm start` runs it — src/app/main.ts under Probot's `run`, in a child process configured by
 * Probot's environment — compiled file by file with esbuild (no bundling, so Probot's own dynamic imports
 * and log transports work as in production), with a fake GitHub Enterprise Server on loopback
 * (GHE_HOST/GHE_PROTOCOL) and a loopback model server that holds its answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { APP_ID, HEAD, PR, REPO_PATH, pullData } from './app-fixtures.js';
import { closeServer, listenOnLoopback, readBody } from './local-http.js';
import { CALC_BASE, CALC_BRANCH } from './review-fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Compiles src/ into a folder under node_modules/.cache (so packages resolve); returns main.js's path. */
export async function compileApp(): Promise<{ main: string; dir: string; remove: () => Promise<void> }> {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  await import('node:fs/promises').then((fs) => fs.mkdir(cache, { recursive: true }));
  const dir = await mkdtemp(path.join(cache, 'skillclimb-app-'));
  await build({
    entryPoints: [path.join(ROOT, 'src', '**', '*.ts')],
    outdir: dir,
    outbase: path.join(ROOT, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  return {
    main: path.join(dir, 'app', 'main.js'),
    dir,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

const API_PATH = `/api/v3${REPO_PATH}`;

/** Just enough of GitHub (under GHE's /api/v3) for a `/review-loop` to reach its first model call. */
export function pullRequestRoutes() {
  const comments: Array<{ id: number; body: string }> = [];
  const reviews: Array<Record<string, unknown>> = [];
  return (request: RecordedRequest) => {
    const path = request.url.split('?')[0] ?? '';
    const json = (status: number, body: unknown) => ({ status, body });
    if (path === '/api/v3/app/installations/1/access_tokens') {
      return json(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z', permissions: {} });
    }
    if (path === '/api/v3/app') return json(200, { id: APP_ID, slug: 'skillclimb-review-loop' });
    if (path.endsWith('/permission')) return json(200, { permission: 'write', role_name: 'write' });
    if (path.endsWith('/reactions')) return json(201, { id: 1 });
    if (path === `${API_PATH}/issues/${PR}/comments`) {
      if (request.method === 'GET') {
        return json(
          200,
          comments.map((c) => ({ ...c, html_url: 'u', performed_via_github_app: { id: APP_ID } })),
        );
      }
      const comment = {
        id: 9000 + comments.length,
        body: (JSON.parse(request.body) as { body: string }).body,
      };
      comments.push(comment);
      return json(201, { ...comment, html_url: 'u' });
    }
    const edited = /\/issues\/comments\/(\d+)$/.exec(path);
    if (edited && request.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(edited[1]));
      if (comment) comment.body = (JSON.parse(request.body) as { body: string }).body;
      return json(200, { id: Number(edited[1]), html_url: 'u' });
    }
    if (path === `${API_PATH}/pulls/${PR}`) return json(200, pullData());
    // The pull request's reviews as GitHub keeps them: a re-run looks for its round's review before posting one.
    if (path === `${API_PATH}/pulls/${PR}/reviews`) {
      if (request.method === 'GET') return json(200, reviews);
      const posted = JSON.parse(request.body) as { body?: string; commit_id?: string; event?: string };
      const review = {
        id: 7000 + reviews.length,
        body: posted.body ?? '',
        commit_id: posted.commit_id ?? HEAD,
        state:
          posted.event === 'APPROVE'
            ? 'APPROVED'
            : posted.event === 'REQUEST_CHANGES'
              ? 'CHANGES_REQUESTED'
              : 'COMMENTED',
        user: { login: 'skillclimb-review-loop[bot]', type: 'Bot' },
        performed_via_github_app: { id: APP_ID },
        html_url: 'u',
        submitted_at: new Date(request.at).toISOString(),
      };
      reviews.push(review);
      return json(200, review);
    }
    if (path.endsWith('/check-runs')) return json(201, { id: 1, head_sha: HEAD, html_url: 'u' });
    if (/\/check-runs\/\d+$/.test(path)) return json(200, { id: 1 });
    if (path.includes('/compare/')) {
      if (request.accept?.includes('diff')) {
        return {
          status: 200,
          body: '--- a/src/calc.ts\n+++ b/src/calc.ts\n@@ -1 +1 @@\n-a\n+b\n',
          type: 'text/plain',
        };
      }
      return json(200, { merge_base_commit: { sha: 'b'.repeat(40) }, files: [{ filename: 'src/calc.ts' }] });
    }
    if (path === `${API_PATH}/contents/src%2Fcalc.ts`) {
      const text = request.url.includes(HEAD) ? CALC_BRANCH : CALC_BASE;
      return json(200, {
        type: 'file',
        path: 'src/calc.ts',
        sha: 'f'.repeat(40),
        size: text.length,
        content: Buffer.from(text).toString('base64'),
      });
    }
    return undefined;
  };
}

export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}

export interface RecordedRequest {
  method: string;
  url: string;
  body: string;
  /** The Accept header (diffs are asked for as `application/vnd.github.v3.diff`). */
  accept?: string;
  at: number;
}

type Route = (request: RecordedRequest) => { status: number; body: unknown; type?: string } | undefined;

/**
 * A loopback GitHub Enterprise Server (`GHE_HOST`, paths under /api/v3) that answers what `routes` know
 * (404 otherwise) and records every request, for the App's background work to run its course.
 */
export async function answeringGitHub(routes: Route) {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((body) => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        body,
        accept: req.headers.accept ?? '',
        at: Date.now(),
      };
      requests.push(request);
      const answer = routes(request) ?? { status: 404, body: { message: 'Not Found' } };
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' }).end(text);
    });
  });
  const origin = await listenOnLoopback(server);
  return {
    host: origin.replace('http://', ''),
    requests,
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  };
}

/** A loopback model server (OpenAI and Anthropic alike) that records each request and answers none until `release`. */
export async function holdingModelServer() {
  const held: Array<RecordedRequest & { res: ServerResponse }> = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((body) =>
      held.push({ method: req.method ?? '', url: req.url ?? '', body, at: Date.now(), res }),
    );
  });
  const origin = await listenOnLoopback(server);
  let answered = 0;
  return {
    origin,
    held,
    answered: () => answered,
    release() {
      for (const request of held.splice(0)) {
        answered += 1;
        request.res
          .writeHead(503, { 'content-type': 'application/json' })
          .end('{"error":{"message":"test over"}}');
      }
    },
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  };
}

export function sign(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function startChild(
  main: string,
  cwd: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  let output = '';
  const clean = { ...process.env };
  for (const key of Object.keys(clean))
    if (/^(ANTHROPIC|OPENAI|GITHUB|APP_ID|PRIVATE_KEY|WEBHOOK|GHE_)/.test(key)) delete clean[key];
  const child = spawn(process.execPath, [main], {
    cwd,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { child, output: () => output };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
