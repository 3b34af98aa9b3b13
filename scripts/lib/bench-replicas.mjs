/**
 * `npm run bench:app -- --replicas`: two App replicas on one Redis (docs/app.md § Scale path). A real
 * `redis-server` on a free loopback port without persistence, the GitHub stand-in and the model stand-in
 * of the loop figures, and two built Apps (`build/app/main.js`) with the same REDIS_URL; then `prs × copies`
 * signed `/review-loop` deliveries at once, alternating between the replicas as a round-robin load balancer
 * would. Printed: whether every loop finished, whether any PR got two loops (at the stand-in: a head
 * reviewed twice, or a second sticky comment), check runs left `in_progress`, ack p50/p99 (target p99 ≤
 * 200 ms on an idle machine). Then the same with replica A killed (SIGKILL) halfway: half the deliveries
 * go out, A is killed while its loops run, the other half goes to B (the load balancer's only replica left).
 *
 * A build that does not share its queue and claims through REDIS_URL would show two loops per PR here,
 * which is a fact of that build, not a figure: a probe loop runs first, and when it leaves no key of a
 * shared queue or claim in Redis (see SHARED_STATE_KEY), the run prints that it was skipped
 * (`--replicas-anyway` runs it regardless, to show what unshared replicas do).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { startGitHubStandIn } from './github-standin.mjs';
import { startLatencyModelServer } from './latency-model-server.mjs';

const TARGET_P99_MS = 200;
/** One round that acquits: the bench measures coordination, not the loop's length. */
export const REPLICA_COMMAND = '/review-loop checkpoint: off rounds: 2';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reviewer passes the change at once (the executor is never asked). */
function acquitting(call) {
  if (call.api === 'anthropic') return JSON.stringify({ summary: 'nothing to fix', edits: [] });
  return JSON.stringify({
    score: 8,
    verdict: 'ready',
    summary: 'Right as it is.',
    weaknesses: [],
    memory_update: 'Nothing to watch.',
  });
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A `redis-server` on loopback, no persistence, its own folder; undefined when it is not installed (or exits). */
async function startRedisServer(port) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillclimb-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  let missing = false;
  child.once('error', () => (missing = true));
  const deadline = Date.now() + 10_000;
  while (!(await portOpen(port))) {
    if (missing || child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    if (Date.now() > deadline)
      throw new Error(`redis-server did not listen on 127.0.0.1:${port} within 10 s`);
    await sleep(50);
  }
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  return {
    url: `redis://127.0.0.1:${port}`,
    client,
    async stop() {
      client.disconnect();
      child.kill('SIGKILL');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The App's shared queue and claims in Redis: the keys of its shared state (`skillclimb:app:…`) and of its
 * BullMQ queue (`skillclimb-bull:…`) — not Probot's rate limiting (Bottleneck's `b_…`), the write pacer's
 * (`skillclimb:pace:…`) or the recovery's once-guard (`skillclimb:recovery:…`), which any build with
 * REDIS_URL leaves.
 */
const SHARED_STATE_KEY = /^(skillclimb:app:|skillclimb-bull:)/;

async function sharedKeys(client) {
  const keys = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch.filter((key) => SHARED_STATE_KEY.test(key)));
  } while (cursor !== '0' && keys.length < 1000);
  return keys;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function ackFigures(results) {
  const answered = results.filter((r) => r.status >= 200 && r.status < 300);
  const sorted = answered.map((r) => r.ms).sort((a, b) => a - b);
  return {
    sent: results.length,
    answered2xx: answered.length,
    failed: results.length - answered.length,
    p50Ms: Number(percentile(sorted, 50).toFixed(1)),
    p99Ms: Number(percentile(sorted, 99).toFixed(1)),
  };
}

/**
 * Per PR at the stand-in: reviews per head (two on one head = that round ran twice), sticky comments
 * created (two = two loops wrote their own state), check runs still `in_progress`.
 */
function loopCensus(github, numbers) {
  let twoLoops = 0;
  let inProgress = 0;
  const duplicates = [];
  for (const n of numbers) {
    const pull = github.pulls.get(n);
    const perHead = new Map();
    for (const review of pull?.reviews ?? [])
      perHead.set(review.commit_id, (perHead.get(review.commit_id) ?? 0) + 1);
    const stickies = github.writes.filter((w) => w.pr === n && w.kind === 'sticky comment create').length;
    const reviewedTwice = [...perHead.values()].some((count) => count > 1);
    if (reviewedTwice || stickies > 1) {
      twoLoops += 1;
      duplicates.push({ pr: n, reviews: pull?.reviews.length ?? 0, stickyComments: stickies });
    }
  }
  for (const check of github.checks.values()) {
    const pull = [...github.pulls.values()].find(
      (p) => p.head === check.head_sha || p.first === check.head_sha,
    );
    if (pull && numbers.includes(pull.number) && check.status !== 'completed') inProgress += 1;
  }
  // What the stand-in saw of each unfinished PR: where its loop stopped.
  const unfinished = numbers
    .filter((n) => !github.done(n))
    .slice(0, 5)
    .map((n) => {
      const kinds = {};
      for (const w of github.writes.filter((x) => x.pr === n)) kinds[w.kind] = (kinds[w.kind] ?? 0) + 1;
      return { pr: n, writes: kinds };
    });
  return { twoLoops, inProgress, duplicates: duplicates.slice(0, 5), unfinished };
}

async function waitLoops(github, numbers, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const finished = new Set();
  while (finished.size < numbers.length && Date.now() < deadline) {
    for (const n of numbers) if (github.done(n)) finished.add(n);
    await sleep(100);
  }
  return finished;
}

async function waitQuiet(github, quietMs, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() - github.lastRequestAt < quietMs && Date.now() < deadline) await sleep(50);
}

/**
 * One replica run on fresh stand-ins and a fresh Redis. `tools` are bench-app.mjs's own: spawnApp(port,
 * key, env), deliver(port, prepared), prepare(n, options), waitReady(origin), stopApp(child), freePort().
 */
async function replicaRun(tools, options, { kill }) {
  const { spawnApp, deliver, prepare, waitReady, stopApp, freePort } = tools;
  const redis = await startRedisServer(await freePort());
  if (!redis) return { skipped: 'redis-server is not installed (Debian: apt-get install redis-server)' };
  const github = await startGitHubStandIn({ latencyMs: options.apiLatency });
  const models = await startLatencyModelServer({ latencyMs: options.modelLatency, respond: acquitting });
  const ports = [await freePort(), await freePort()];
  const env = {
    GHE_HOST: `127.0.0.1:${github.port}`,
    OPENAI_BASE_URL: `${models.url}/v1`,
    ANTHROPIC_BASE_URL: models.url,
    OPENAI_API_KEY: 'sk-bench-openai',
    ANTHROPIC_API_KEY: 'sk-ant-bench',
    REDIS_URL: redis.url,
    REVIEW_LOOP_CONCURRENCY: String(options.prs),
  };
  const children = ports.map((port) => spawnApp(port, options.privateKey, env));
  try {
    await Promise.all(ports.map((port) => waitReady(`http://127.0.0.1:${port}`)));

    // The probe: one loop on replica A; a build that shares its state leaves keys of its own in Redis.
    const probeStarted = Date.now();
    await deliver(ports[0], prepare(1, { commentId: 1, body: REPLICA_COMMAND }));
    const probe = await waitLoops(github, [1], options.loopTimeoutS * 1000);
    if (!probe.has(1)) throw new Error(`the probe loop did not finish within ${options.loopTimeoutS} s`);
    const keys = await sharedKeys(redis.client);
    const probeMs = Date.now() - probeStarted;
    if (keys.length === 0 && !options.anyway) {
      return {
        skipped:
          'this build does not share state through REDIS_URL (a whole loop left no key of a shared queue or claim in Redis)',
      };
    }
    await waitQuiet(github, 1000, 10_000);
    // Warm-up of both replicas' webhook path (JIT, sockets): comments that are no command start no work.
    for (const port of ports)
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          deliver(
            port,
            prepare(2_000_000 + port * 10 + i, { commentId: 2_000_000 + port * 10 + i, body: 'warm-up' }),
          ),
        ),
      );

    const numbers = Array.from({ length: options.prs }, (_, i) => 201 + i);
    const deliveries = [];
    for (let copy = 0; copy < options.copies; copy += 1)
      for (const n of numbers)
        deliveries.push(prepare(n, { commentId: n * 100 + copy, body: REPLICA_COMMAND }));
    const send = (batch, targets) =>
      Promise.all(
        batch.map(async (delivery, i) => {
          const port = targets[i % targets.length];
          try {
            return await deliver(port, delivery);
          } catch {
            return { ms: Number.NaN, status: 0 };
          }
        }),
      );

    const started = performance.now();
    let results;
    let afterKill = [];
    let killedAtMs;
    if (!kill) {
      results = await send(deliveries, ports);
    } else {
      const half = Math.floor(deliveries.length / 2);
      results = await send(deliveries.slice(0, half), ports);
      // A is killed while its loops run: once some round is under way at the stand-in (a check run exists).
      const deadline = Date.now() + 30_000;
      while (github.checks.size < 2 && Date.now() < deadline) await sleep(20);
      await sleep(500);
      children[0].kill('SIGKILL');
      killedAtMs = Math.round(performance.now() - started);
      afterKill = await send(deliveries.slice(half), [ports[1]]);
    }
    const finished = await waitLoops(github, numbers, options.timeoutS * 1000);
    const ms = Math.round(performance.now() - started);
    await waitQuiet(github, 2000, 30_000);
    return {
      shared: keys.length > 0,
      sharedKeysSample: keys.slice(0, 3),
      probeMs,
      prs: options.prs,
      deliveries: deliveries.length,
      ack: ackFigures([...results, ...afterKill]),
      ackAfterKill: kill ? ackFigures(afterKill) : undefined,
      killedAtMs,
      finished: finished.size,
      ms,
      timedOut: finished.size < numbers.length,
      ...loopCensus(github, numbers),
      reviews: numbers.reduce((sum, n) => sum + (github.pulls.get(n)?.reviews.length ?? 0), 0),
    };
  } finally {
    await Promise.all(children.map((child) => stopApp(child)));
    await github.close();
    await models.close();
    await redis.stop();
  }
}

export async function replicaFigures(tools, options) {
  const steady = await replicaRun(tools, options, { kill: false });
  if (steady.skipped) return { skipped: steady.skipped };
  const killed = await replicaRun(tools, options, { kill: true });
  return { steady, killed, targetP99Ms: TARGET_P99_MS };
}

export function printReplicas(figures, { label = 'this build', apiLatency, modelLatency, timeoutS }) {
  console.log(
    `bench:app — 2 replicas on one Redis (${label}; \`${REPLICA_COMMAND}\`, GitHub stand-in ${apiLatency} ms, models ${modelLatency} ms)`,
  );
  if (figures.skipped) {
    console.log(`  replicas run skipped: ${figures.skipped}`);
    return;
  }
  const mark = (pass) => (pass ? 'PASS' : 'MISS');
  for (const [name, run] of [
    ['both replicas', figures.steady],
    ['A killed halfway', figures.killed],
  ]) {
    if (run.skipped) {
      console.log(`  ${name}: skipped: ${run.skipped}`);
      continue;
    }
    console.log(
      `  ${name.padEnd(18)}${run.deliveries} deliveries on ${run.prs} PRs at once${run.killedAtMs !== undefined ? ` (SIGKILL to A at ${(run.killedAtMs / 1000).toFixed(1)} s, the second half to B)` : ''}${run.shared ? '' : ' — this build does NOT share state: figures of unshared replicas'}`,
    );
    console.log(
      `    loops finished  ${run.finished}/${run.prs} in ${(run.ms / 1000).toFixed(1)} s${run.timedOut ? ` (stopped waiting at ${timeoutS} s)` : ''} ${mark(!run.timedOut)}`,
    );
    console.log(
      `    two loops       ${run.twoLoops} PRs (a head reviewed twice or a second sticky comment; ${run.reviews} reviews in all) ${mark(run.twoLoops === 0)}`,
    );
    console.log(
      `    in_progress     ${run.inProgress} check runs left running ${mark(run.inProgress === 0)}`,
    );
    console.log(
      `    ack             p50 ${run.ack.p50Ms} ms, p99 ${run.ack.p99Ms} ms (target p99 <= ${figures.targetP99Ms} ms) ${mark(run.ack.p99Ms <= figures.targetP99Ms)}; ${run.ack.answered2xx}/${run.ack.sent} answered 2xx`,
    );
    if (run.ackAfterKill)
      console.log(
        `    after the kill  p50 ${run.ackAfterKill.p50Ms} ms, p99 ${run.ackAfterKill.p99Ms} ms; ${run.ackAfterKill.answered2xx}/${run.ackAfterKill.sent} answered 2xx by B`,
      );
    for (const d of run.duplicates)
      console.log(`      PR #${d.pr}: ${d.reviews} reviews, ${d.stickyComments} sticky comments`);
    for (const u of run.unfinished)
      console.log(
        `      unfinished PR #${u.pr}: ${
          Object.entries(u.writes)
            .map(([kind, count]) => `${count} ${kind}`)
            .join(', ') || 'no write at all'
        }`,
      );
  }
}
