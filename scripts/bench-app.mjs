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
 * Then whole `fix: auto` loops against a loopback GitHub stand-in (scripts/lib/github-standin.mjs) and model
 * stand-in (scripts/lib/latency-model-server.mjs), on a fresh App:
 *   - writes per round: every non-GET request of one loop alone, by kind, / its rounds   target: <= 8
 *   - the wave: `--copies` signed commands on each of `--prs` PRs, `--concurrency` in flight; how many loops
 *     finish and when. The throttle (@octokit/plugin-throttling, keyed by installation; the stand-in's PRs
 *     share one) spaces EVERY write and GraphQL request >= 1 s apart, so the wave cannot end before (its
 *     throttled requests) × 1 s: the target is all loops within that floor + 2 × one loop alone (issue
 *     18's first target, 2 × one loop + 1 s, cannot hold for 20 PRs under one write a second;
 *     docs/benchmarks.md § bench:app).
 * Options: --deliveries <n> (50), --api-latency <ms> (50), --model-latency <ms> (200), --prs <n> (20),
 *   --copies <n> (5), --concurrency <n> (5), --wave-timeout <s> (900), --installations <n> (1: the wave's
 *   PRs spread over n installations, each with its own throttle), --no-loops, --no-wave (one loop alone
 *   only), --json.
 * Exit code 1 when the ack target fails (the loop figures print PASS/MISS and do not change it).
 *
 * --replicas runs, instead, two replicas on one Redis (scripts/lib/bench-replicas.mjs): `--prs` × `--copies`
 * deliveries at once, then the same with one replica killed halfway; PASS/MISS, exit code unchanged.
 * With it: --replica-timeout <s> (600), --replicas-anyway (run even on a build that does not share state
 * through REDIS_URL), --baseline-ref <commit> (the same run against that commit's build, afterwards).
 */
import { spawn } from 'node:child_process';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { prepareBaseline } from './lib/baseline-build.mjs';
import { printReplicas, replicaFigures } from './lib/bench-replicas.mjs';
import { startGitHubStandIn } from './lib/github-standin.mjs';
import { startLatencyModelServer } from './lib/latency-model-server.mjs';

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
const MODEL_LATENCY = option('model-latency', 200);
const WAVE_PRS = option('prs', 20);
const WAVE_COPIES = option('copies', 5);
/** The wave's PRs spread over this many installations (each has its own throttle and write budget). */
const WAVE_INSTALLATIONS = Math.max(1, option('installations', 1));
const WAVE_CONCURRENCY = option('concurrency', 5);
const WAVE_TIMEOUT_S = option('wave-timeout', 900);
const LOOP_TIMEOUT_S = 120;
const NO_LOOPS = process.argv.includes('--no-loops');
const NO_WAVE = process.argv.includes('--no-wave');
/** Writes per round of one whole `fix: auto` loop (issue 18 item 4). */
const TARGET_WRITES_PER_ROUND = 8;
/**
 * @octokit/plugin-throttling's minimum spacing of two writes (its `write` group's minTime, which GraphQL
 * requests go through too), shared by every client of one installation (Probot keys it by installation id).
 */
const THROTTLE_SPACING_MS = 1000;
/** Requests the throttle spaces: every write but the installation token (its `auth` group), and GraphQL. */
const throttled = (w) => w.kind !== 'installation token';
const COMMAND = '/review-loop fix: auto checkpoint: off rounds: 3';
const JSON_OUT = process.argv.includes('--json');
const REPLICAS = process.argv.includes('--replicas');
const REPLICAS_ANYWAY = process.argv.includes('--replicas-anyway');
const REPLICA_TIMEOUT_S = option('replica-timeout', 600);
const BASELINE_REF = (() => {
  const at = process.argv.indexOf('--baseline-ref');
  if (at === -1) return undefined;
  const ref = process.argv[at + 1];
  if (!ref || ref.startsWith('--')) {
    console.error('--baseline-ref: expected a commit');
    process.exit(2);
  }
  return ref;
})();

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

function payload(n, { commentId = 10_000 + n, body = '/review-loop', installation = 1 } = {}) {
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
      id: commentId,
      body,
      html_url: 'http://github.test/c',
      user: { login: 'maintainer', type: 'User' },
    },
    repository,
    sender: { login: 'maintainer', type: 'User' },
    installation: { id: installation },
  });
}

/** Keep-alive sockets, as GitHub's delivery service reuses connections; node:http keeps client cost low. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** A signed delivery, prepared before the clock starts so only the App's answer is timed. */
function prepare(n, options) {
  const body = payload(n, options);
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return { n: options?.commentId ?? n, body, signature };
}

/** The built App on loopback (this checkout's build, or `root`'s), quiet, with `extra` over its environment. */
function spawnApp(port, privateKey, extra, root = ROOT) {
  return spawn(process.execPath, [path.join(root, 'build', 'app', 'main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      APP_ID: '1',
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
      NODE_ENV: 'production',
      GHE_PROTOCOL: 'http',
      REVIEW_LOOP_REVIEWER_MODEL: 'openai:gpt-5',
      REVIEW_LOOP_EXECUTOR_MODEL: 'anthropic:claude-sonnet-4-5',
      ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitReady(origin) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the App did not answer /ping within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopApp(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), resolve()), 30_000);
    child.once('exit', () => (clearTimeout(timer), resolve()));
  });
}

async function freePort() {
  const probe = http.createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The models of a two-round `fix: auto` loop: round 1 finds half()'s bug (the finding check confirms it), the
 * fix halves, round 2 acquits (and the fresh review that confirms it agrees).
 */
function loopResponder(call) {
  if (call.api === 'anthropic') {
    return JSON.stringify({
      summary: 'divide by two',
      edits: [{ path: 'calc.ts', old_string: 'n / 3', new_string: 'n / 2' }],
    });
  }
  if (call.system.includes('You check findings')) {
    return JSON.stringify({ checks: [{ finding: 1, holds: true, evidence: 'n / 3 at calc.ts:6' }] });
  }
  const fixed = call.text.includes('n / 2');
  return JSON.stringify({
    score: fixed ? 8 : 4,
    verdict: fixed ? 'ready' : 'not ready',
    summary: fixed ? 'Right now.' : 'half() is wrong.',
    weaknesses: fixed
      ? []
      : [
          {
            title: 'half() divides by 3',
            severity: 'major',
            detail: 'See the diff.',
            minimum_fix: 'Divide by 2.',
            effort: 'small',
            file: 'calc.ts',
            line: 6,
          },
        ],
    memory_update: fixed ? 'The division is right now.' : 'Watch the division.',
  });
}

/** Resolves when every PR of `numbers` has concluded its loop (or the deadline passed); when each did. */
async function waitLoops(github, numbers, started, timeoutMs) {
  const finished = new Map();
  const deadline = started + timeoutMs;
  while (finished.size < numbers.length && Date.now() < deadline) {
    for (const n of numbers) if (!finished.has(n) && github.done(n)) finished.set(n, performance.now());
    await sleep(50);
  }
  return finished;
}

/** Waits until the App has sent nothing for `quietMs` (its last sticky edits after a check concluded), bounded. */
async function waitQuiet(github, quietMs, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() - github.lastRequestAt < quietMs && Date.now() < deadline) await sleep(50);
}

/**
 * Whole loops against the GitHub stand-in and a model stand-in: one loop alone (its writes by kind, per
 * round, and its time), then the 20-PR wave (each PR's command sent `copies` times, `concurrency` in flight).
 */
async function loopFigures(privateKey) {
  const github = await startGitHubStandIn({ latencyMs: API_LATENCY });
  const models = await startLatencyModelServer({ latencyMs: MODEL_LATENCY, respond: loopResponder });
  const port = await freePort();
  const child = spawnApp(port, privateKey, {
    GHE_HOST: `127.0.0.1:${github.port}`,
    OPENAI_BASE_URL: `${models.url}/v1`,
    ANTHROPIC_BASE_URL: models.url,
    OPENAI_API_KEY: 'sk-bench-openai',
    ANTHROPIC_API_KEY: 'sk-ant-bench',
    // every PR's loop may run at once: the wave measures GitHub's write spacing, not the App's queue
    REVIEW_LOOP_CONCURRENCY: String(WAVE_PRS),
  });
  try {
    await waitReady(`http://127.0.0.1:${port}`);
    // one loop alone
    const oneStarted = performance.now();
    const oneStartedAt = Date.now();
    await deliver(port, prepare(1, { commentId: 1, body: COMMAND }));
    const one = await waitLoops(github, [1], oneStartedAt, LOOP_TIMEOUT_S * 1000);
    if (!one.has(1)) throw new Error(`the single loop did not finish within ${LOOP_TIMEOUT_S} s`);
    const loopMs = one.get(1) - oneStarted;
    await waitQuiet(github, 2000, 30_000);
    const writes = github.writes.filter((w) => w.at >= oneStartedAt);
    const rounds = github.pulls.get(1).reviews.length;
    const byKind = {};
    for (const w of writes) byKind[w.kind] = (byKind[w.kind] ?? 0) + 1;
    const loopWrites = writes.filter((w) => w.kind !== 'graphql query').length;
    const loop = {
      rounds,
      ms: Math.round(loopMs),
      writes: loopWrites,
      writesPerRound: Number((loopWrites / Math.max(1, rounds)).toFixed(1)),
      byKind,
      targetWritesPerRound: TARGET_WRITES_PER_ROUND,
      pass: loopWrites / Math.max(1, rounds) <= TARGET_WRITES_PER_ROUND,
    };
    if (NO_WAVE) return { modelLatencyMs: MODEL_LATENCY, loop, wave: undefined };

    // the wave: PRs 101…, each command sent `copies` times (distinct comments), interleaved across PRs
    const numbers = Array.from({ length: WAVE_PRS }, (_, i) => 101 + i);
    const deliveries = [];
    for (let copy = 0; copy < WAVE_COPIES; copy += 1)
      for (const n of numbers)
        deliveries.push(
          prepare(n, {
            commentId: n * 100 + copy,
            body: COMMAND,
            installation: ((n - 101) % WAVE_INSTALLATIONS) + 1,
          }),
        );
    const waveWritesFrom = github.writes.length;
    const waveStarted = performance.now();
    const waveStartedAt = Date.now();
    const statuses = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: WAVE_CONCURRENCY }, async () => {
        while (next < deliveries.length) {
          const delivery = deliveries[next++];
          statuses.push((await deliver(port, delivery)).status);
        }
      }),
    );
    const finished = await waitLoops(github, numbers, waveStartedAt, WAVE_TIMEOUT_S * 1000);
    const waveMs = finished.size
      ? Math.max(...finished.values()) - waveStarted
      : performance.now() - waveStarted;
    const waveRequests = github.writes.slice(waveWritesFrom);
    const waveWrites = waveRequests.filter((w) => w.kind !== 'graphql query');
    const spaced = waveRequests.filter(throttled).length;
    // The throttle's floor (every spaced request of one installation one after another) plus 2 × one loop
    // alone. The throttle is per installation, and each installation's PRs make the same requests, so
    // with several installations the floor is one installation's share.
    const floorMs = Math.ceil(spaced / WAVE_INSTALLATIONS) * THROTTLE_SPACING_MS;
    const targetMs = floorMs + 2 * loopMs;
    const waveByKind = {};
    for (const w of waveWrites) waveByKind[w.kind] = (waveByKind[w.kind] ?? 0) + 1;
    return {
      modelLatencyMs: MODEL_LATENCY,
      loop,
      wave: {
        prs: WAVE_PRS,
        installations: WAVE_INSTALLATIONS,
        firstTargetPass: finished.size === numbers.length && waveMs <= 2 * loopMs + THROTTLE_SPACING_MS,
        deliveries: deliveries.length,
        concurrency: WAVE_CONCURRENCY,
        answered2xx: statuses.filter((s) => s >= 200 && s < 300).length,
        finished: finished.size,
        ms: Math.round(waveMs),
        timedOut: finished.size < numbers.length,
        timeoutS: WAVE_TIMEOUT_S,
        targetMs: Math.round(targetMs),
        floorMs,
        spacedRequests: spaced,
        firstTargetMs: Math.round(2 * loopMs + THROTTLE_SPACING_MS),
        writes: waveWrites.length,
        byKind: waveByKind,
        alreadyRunningReplies: waveWrites.filter((w) => w.kind === 'comment').length,
        pass: finished.size === numbers.length && waveMs <= targetMs,
      },
    };
  } finally {
    await stopApp(child);
    await github.close();
    await models.close();
  }
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

/** `--replicas`: this build's replica run, then the baseline's when asked for. */
async function replicasMain(privateKey) {
  const options = {
    privateKey,
    prs: WAVE_PRS,
    copies: WAVE_COPIES,
    apiLatency: API_LATENCY,
    modelLatency: MODEL_LATENCY,
    timeoutS: REPLICA_TIMEOUT_S,
    loopTimeoutS: LOOP_TIMEOUT_S,
    anyway: REPLICAS_ANYWAY,
  };
  const toolsFor = (root) => ({
    spawnApp: (port, key, env) => spawnApp(port, key, env, root),
    deliver,
    prepare,
    waitReady,
    stopApp,
    freePort,
  });
  const runs = [{ label: 'this build', figures: await replicaFigures(toolsFor(ROOT), options) }];
  if (BASELINE_REF) {
    const baseline = await prepareBaseline(ROOT, BASELINE_REF, (line) => console.error(line));
    try {
      runs.push({
        label: `baseline ${baseline.sha.slice(0, 7)}`,
        figures: await replicaFigures(toolsFor(baseline.root), options),
      });
    } finally {
      await baseline.cleanup();
    }
  }
  if (JSON_OUT) console.log(JSON.stringify({ replicas: runs }));
  else
    for (const run of runs)
      printReplicas(run.figures, {
        label: run.label,
        apiLatency: API_LATENCY,
        modelLatency: MODEL_LATENCY,
        timeoutS: REPLICA_TIMEOUT_S,
      });
}

async function main() {
  if (REPLICAS) {
    const privateKey = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey;
    await replicasMain(privateKey);
    agent.destroy();
    return;
  }
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
  const child = spawnApp(port, privateKey, { GHE_HOST: `127.0.0.1:${ghPort}` });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitReady(origin);
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
    await stopApp(child);
    const loops = NO_LOOPS ? undefined : await loopFigures(privateKey);
    if (JSON_OUT) console.log(JSON.stringify({ ...figures, pass, loops }));
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
      if (loops) printLoops(loops);
    }
    process.exitCode = pass ? 0 : 1;
  } finally {
    await stopApp(child);
    github.server.closeAllConnections();
    github.server.close();
    agent.destroy();
  }
}

function printLoops({ loop, wave, modelLatencyMs }) {
  const mark = (pass) => (pass ? 'PASS' : 'MISS');
  console.log(
    `bench:app — whole loops (\`${COMMAND}\`) on a GitHub stand-in (${API_LATENCY} ms) and models (${modelLatencyMs} ms)`,
  );
  console.log(`  one loop            ${loop.rounds} rounds in ${(loop.ms / 1000).toFixed(1)} s`);
  console.log(
    `  writes per round    ${loop.writesPerRound}   (${loop.writes} non-GET requests / ${loop.rounds} rounds; target <= ${loop.targetWritesPerRound}) ${mark(loop.pass)}`,
  );
  for (const [kind, count] of Object.entries(loop.byKind).sort((a, b) => b[1] - a[1]))
    console.log(
      `    ${kind.padEnd(24)}${count}${kind === 'graphql query' ? '   (a read, not counted)' : ''}`,
    );
  if (!wave) return;
  console.log(
    `  ${wave.prs} PRs at once       ${wave.finished}/${wave.prs} loops finished in ${(wave.ms / 1000).toFixed(1)} s${wave.timedOut ? ` (stopped waiting at ${wave.timeoutS} s)` : ''}; ${wave.installations === 1 ? 'one installation' : `${wave.installations} installations`}`,
  );
  console.log(
    `    target            all within ${(wave.targetMs / 1000).toFixed(1)} s (${wave.installations === 1 ? `${wave.spacedRequests} throttled requests` : `${wave.spacedRequests} throttled requests / ${wave.installations} installations`} × ${THROTTLE_SPACING_MS / 1000} s + 2 × one loop) ${mark(wave.pass)}`,
  );
  console.log(
    `    throttle floor    ${(wave.floorMs / 1000).toFixed(1)} s: every write and GraphQL request of an installation ≥ ${THROTTLE_SPACING_MS / 1000} s apart`,
  );
  console.log(
    `    first target      2 × one loop + ${THROTTLE_SPACING_MS / 1000} s = ${(wave.firstTargetMs / 1000).toFixed(1)} s ${mark(wave.firstTargetPass)}${wave.installations === 1 && wave.prs > 1 ? ' (cannot hold when the PRs share one installation)' : ''}`,
  );
  console.log(
    `    deliveries        ${wave.deliveries} (${WAVE_COPIES} per PR, ${wave.concurrency} in flight), ${wave.answered2xx} answered 2xx`,
  );
  console.log(
    `    GitHub writes     ${wave.writes} (${wave.alreadyRunningReplies} plain comments: "already running" and such)`,
  );
  for (const [kind, count] of Object.entries(wave.byKind).sort((a, b) => b[1] - a[1]))
    console.log(`      ${kind.padEnd(22)}${count}`);
}

main().catch((error) => {
  console.error(`bench:app failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
