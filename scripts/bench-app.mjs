#!/usr/bin/env node
/**
 * `npm run bench:app`: how fast the App acknowledges webhooks while it works in the background.
 *
 * Starts the built App (build/app/main.js, what `npm start` runs) as a child process on loopback, against a
 * fake GitHub Enterprise Server on loopback (GHE_HOST) that answers every API call after a fixed delay, then
 * sends 50 concurrent signed `/review-loop` deliveries (each on its own pull request, so each starts real
 * background work: token, config, permission, reaction, sticky comment, check run). It prints the time
 * from sending each delivery to its HTTP answer:
 *   - ack p50 / p99 / max        target: p99 <= 200 ms
 * Options: --deliveries <n> (50), --api-latency <ms> (50), --json. Exit code 1 when the target fails.
 */
import { spawn } from 'node:child_process';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_P99_MS = 200;
const SECRET = 'bench-webhook-secret';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name}: expected a positive number`);
    process.exit(2);
  }
  return value;
}
const DELIVERIES = option('deliveries', 50);
const API_LATENCY = option('api-latency', 50);
const JSON_OUT = process.argv.includes('--json');

function listen(server, port = 0) {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server.address().port)));
}

/** Answers like GitHub enough for the App's background work to run its course. */
function fakeGitHub() {
  let calls = 0;
  const server = http.createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        const url = req.url ?? '';
        const send = (status, body) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (url.includes('/access_tokens'))
          return send(201, { token: 'ghs_bench', expires_at: '2099-01-01T00:00:00Z' });
        if (url.includes('/contents/')) return send(404, { message: 'Not Found' });
        if (url.includes('/permission')) return send(200, { permission: 'write', role_name: 'write' });
        if (/\/pulls\/\d+$/.test(url.split('?')[0])) {
          const number = Number(url.split('?')[0].split('/').pop());
          return send(200, {
            number,
            html_url: `http://github.test/pull/${number}`,
            title: 'bench',
            body: '',
            state: 'open',
            user: { login: 'author' },
            head: { sha: 'a'.repeat(40), ref: 'feature', repo: { full_name: 'bench/repo' } },
            base: { sha: 'b'.repeat(40), ref: 'main', repo: { full_name: 'bench/repo' } },
          });
        }
        if (req.method === 'GET' && url.includes('/comments')) return send(200, []);
        if (url.includes('/check-runs'))
          return send(201, { id: 1, head_sha: 'a'.repeat(40), html_url: 'http://github.test/c/1' });
        return send(req.method === 'POST' ? 201 : 200, { id: 1, html_url: 'http://github.test/x' });
      }, API_LATENCY);
    });
  });
  return { server, calls: () => calls };
}

function payload(n) {
  const repository = {
    id: 1,
    name: 'repo',
    full_name: 'bench/repo',
    owner: { login: 'bench', id: 1, type: 'Organization' },
  };
  return JSON.stringify({
    action: 'created',
    issue: { number: n, pull_request: { url: `http://github.test/pulls/${n}` } },
    comment: {
      id: 10_000 + n,
      body: '/review-loop',
      html_url: 'http://github.test/c',
      user: { login: 'maintainer', type: 'User' },
    },
    repository,
    sender: { login: 'maintainer', type: 'User' },
    installation: { id: 1 },
  });
}

/** Keep-alive sockets, as GitHub's delivery service reuses connections; node:http keeps client cost low. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** A signed delivery, prepared before the clock starts so only the App's answer is timed. */
function prepare(n) {
  const body = payload(n);
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return { n, body, signature };
}

function deliver(port, { n, body, signature }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/github/webhooks',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-github-event': 'issue_comment',
          'x-github-delivery': `bench-${n}`,
          'x-hub-signature-256': signature,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const github = fakeGitHub();
  const ghPort = await listen(github.server);
  const probe = http.createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  const privateKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  const child = spawn(process.execPath, [path.join(ROOT, 'build', 'app', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      APP_ID: '1',
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
      NODE_ENV: 'production',
      GHE_HOST: `127.0.0.1:${ghPort}`,
      GHE_PROTOCOL: 'http',
      REVIEW_LOOP_REVIEWER_MODEL: 'openai:gpt-5',
      REVIEW_LOOP_EXECUTOR_MODEL: 'anthropic:claude-sonnet-4-5',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        if ((await fetch(`${origin}/ping`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the App did not answer /ping within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Warm-up: JIT, the installation token cache, open sockets.
    await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(port, prepare(1_000_000 + i))));
    const prepared = Array.from({ length: DELIVERIES }, (_, i) => prepare(i + 1));
    const results = await Promise.all(prepared.map((delivery) => deliver(port, delivery)));
    const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
    const ok = results.filter((r) => r.status >= 200 && r.status < 300).length;
    const figures = {
      deliveries: DELIVERIES,
      answered2xx: ok,
      apiLatencyMs: API_LATENCY,
      ackP50Ms: Number(percentile(sorted, 50).toFixed(1)),
      ackP99Ms: Number(percentile(sorted, 99).toFixed(1)),
      ackMaxMs: Number(sorted.at(-1).toFixed(1)),
      targetP99Ms: TARGET_P99_MS,
    };
    // Let the background work run a moment, to show the acks did not wait for it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    figures.githubCallsSoFar = github.calls();
    const pass = ok === DELIVERIES && figures.ackP99Ms <= TARGET_P99_MS;
    if (JSON_OUT) console.log(JSON.stringify({ ...figures, pass }));
    else {
      console.log(
        `bench:app — ${DELIVERIES} concurrent signed deliveries on loopback (fake GitHub answers after ${API_LATENCY} ms)`,
      );
      console.log(`  answered 2xx        ${ok}/${DELIVERIES}`);
      console.log(`  ack p50             ${figures.ackP50Ms} ms`);
      console.log(
        `  ack p99             ${figures.ackP99Ms} ms   (target <= ${TARGET_P99_MS} ms) ${pass ? 'PASS' : 'FAIL'}`,
      );
      console.log(`  ack max             ${figures.ackMaxMs} ms`);
      console.log(`  GitHub API calls    ${figures.githubCallsSoFar} (background work under way)`);
    }
    process.exitCode = pass ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), resolve()), 30_000);
      child.once('exit', () => (clearTimeout(timer), resolve()));
    });
    github.server.closeAllConnections();
    github.server.close();
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(`bench:app failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
