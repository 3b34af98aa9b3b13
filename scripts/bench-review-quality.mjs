#!/usr/bin/env node
/**
 * `npm run bench:review-quality`: does the review loop's "approved" tell the truth? A benchmark with a
 * ground truth.
 *
 * Each simulated pull request (scripts/lib/review-world.mjs) is a small TypeScript service and a change
 * adding reservations, discount codes and an order desk — a real unified diff — with 0–3 of its 15 defect
 * slots (critical, major or minor) seeded with their defective line. The REAL review engine runs on it in
 * this process — runReviewLoop with the CLI's local store, `fix: auto`, medium, 4 rounds — through the
 * REAL provider layer (AI SDK, structured output, zod) over real HTTP to a loopback model server per pull
 * request (scripts/lib/latency-model-server.mjs), whose reviewer, checker and executor answer from the
 * hidden truth (scripts/lib/review-responder.mjs): a reviewer that finds each present defect with
 * probability r, invents findings and flips its verdict with probability f; an executor that fixes a named
 * defect with probability q and now and then breaks a correct line. The pull request itself is held in
 * memory (scripts/lib/review-pull.mjs implements the engine's ReviewTarget port: commits, diffs, reads,
 * fix commits), so a loop spawns no git process and 360 loops fit in a few minutes on a shared machine.
 *
 * Per reviewer-noise level and build it prints: loops approved; approved with a critical or major defect
 * in the head (escaped); false findings posted per PR (findings in a round's review that are invented or
 * about a defect no longer in that head); real defects fixed (of the seeded ones); defects the executor
 * introduced that remain; rounds, model calls and tokens per PR. Then the targets at the default level,
 * PASS or MISS: escaped <= 1 per 10 approvals; false findings posted <= half the baseline's; model calls
 * per PR <= 1.5 x the baseline's (the last two need --baseline-ref).
 *
 * --baseline-ref <commit> builds that commit in a temporary git worktree (scripts/lib/baseline-build.mjs)
 * and runs it on the same pull requests with the same random streams, in the same run.
 *
 * What it leaves out: GitHub and git. The target is a pull request in memory, so the App's writes
 * (reviews, inline threads, the sticky comment, check runs) are not counted, and "posted" means listed in a
 * round's review — a standing finding listed again in a later round counts again. The models are
 * simulated: their mistakes are independent draws (a real reviewer's misses are correlated across rounds
 * and with the checker's, which makes a second look worth less than here), a check of a named finding is
 * more reliable than a blind search (probabilities below), the executor's edits are one line each; no
 * checkpoint, no debate (medium), no manual fixes, no costs.
 *
 * Options: --prs <n> (60), --levels <name,…> (quiet,default,noisy), --baseline-ref <commit>, --seed <s>
 * (1), --jobs <n> (3 loops at once), --max-rounds <n> (4), --json, --verbose. Exit code 1 when a target
 * is missed, 2 for a bad command line.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prepareBaseline } from './lib/baseline-build.mjs';
import { flagReader } from './lib/bench-project.mjs';
import { startLatencyModelServer } from './lib/latency-model-server.mjs';
import { prng } from './lib/quality-world.mjs';
import { createPullTarget } from './lib/review-pull.mjs';
import { createReviewResponder } from './lib/review-responder.mjs';
import { SLOTS, SLOT_BY_TITLE, baseFiles, headFiles, presentSlots } from './lib/review-world.mjs';
import { benchReviewModels } from './lib/bench-review-models.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = { level: 'default', escapedPer10: 1, falseShare: 0.5, callsRatio: 1.5 };
/** What every level shares: re-checking a carried finding, repeating an invented one, the executor. */
const COMMON = { carried: 0.9, stick: 0.5, fixRate: 0.7, breakRate: 0.1 };
const LEVELS = {
  quiet: { r: 0.9, invent: 0.1, flip: 0.02, checkKeep: 0.97, checkFalse: 0.05 },
  default: { r: 0.7, invent: 0.4, flip: 0.1, checkKeep: 0.9, checkFalse: 0.2 },
  noisy: { r: 0.5, invent: 0.8, flip: 0.2, checkKeep: 0.8, checkFalse: 0.35 },
};
/** Seeded defects per pull request: 0, 1, 2 or 3 with these weights. */
const SEEDED_WEIGHTS = [0.1, 0.35, 0.35, 0.2];
const BLOCKING = new Set(['critical', 'major']);
const SEVERITY = new Map(SLOTS.map((s) => [s.id, s.severity]));

class UsageError extends Error {}

function parseArgs(argv) {
  const args = {
    prs: 60,
    levels: ['quiet', 'default', 'noisy'],
    baselineRef: undefined,
    seed: '1',
    jobs: 3,
    maxRounds: 4,
    json: false,
    verbose: false,
  };
  const flags = flagReader(argv, UsageError);
  for (let flag = flags.next(); flag !== undefined; flag = flags.next()) {
    if (flag === '--prs') args.prs = flags.int();
    else if (flag === '--jobs') args.jobs = flags.int();
    else if (flag === '--max-rounds') args.maxRounds = flags.int();
    else if (flag === '--seed') args.seed = flags.value();
    else if (flag === '--baseline-ref') args.baselineRef = flags.value();
    else if (flag === '--levels') {
      args.levels = flags.value().split(',');
      const unknown = args.levels.filter((l) => !(l in LEVELS));
      if (unknown.length > 0 || args.levels.length === 0)
        throw new UsageError(`--levels expects names from ${Object.keys(LEVELS).join(', ')}`);
    } else if (flag === '--json') args.json = true;
    else if (flag === '--verbose') args.verbose = true;
    else
      throw new UsageError(
        `unknown option ${flag} (expected --prs, --levels, --baseline-ref, --seed, --jobs, --max-rounds, --json, --verbose)`,
      );
  }
  return args;
}

/** The pull requests: which slots each seeds, the same for every level and build. */
function makePulls(seed, count) {
  const pulls = [];
  for (let i = 0; i < count; i++) {
    const random = prng(`${seed}:pull:${i}`);
    let draw = random();
    let k = 0;
    while (k < SEEDED_WEIGHTS.length - 1 && draw >= SEEDED_WEIGHTS[k]) draw -= SEEDED_WEIGHTS[k++];
    const ids = SLOTS.map((s) => s.id);
    const seeded = [];
    while (seeded.length < k) {
      const id = ids.splice(Math.floor(random() * ids.length), 1)[0];
      seeded.push(id);
    }
    pulls.push({ index: i, seeded: SLOTS.map((s) => s.id).filter((id) => seeded.includes(id)) });
  }
  return pulls;
}

/** The slots present in a commit's files. */
function truthOf(files) {
  return new Set(presentSlots(files));
}

async function loadEngine(buildDir, label) {
  const load = (p) => import(pathToFileURL(path.join(buildDir, p)).href);
  const [run, store, factory, modelId, reviewModels] = await Promise.all([
    load('review/run.js'),
    load('adapters/local/review-store.js'),
    load('llm/factory.js'),
    load('llm/model-id.js'),
    load('llm/review-models.js'),
  ]);
  return { label, ...run, ...store, ...factory, ...modelId, ...reviewModels };
}

// ---------------------------------------------------------------------------------------------------------
// One loop: a fresh repository, its model server, the engine

async function oneLoop(engine, pull, levelName, args, root) {
  const level = { ...COMMON, ...LEVELS[levelName] };
  const responder = createReviewResponder(`${args.seed}:${levelName}:${pull.index}`, level);
  const server = await startLatencyModelServer({ latencyMs: 0, respond: responder.respond });
  const dir = path.join(root, `${engine.label.replace(/\W+/g, '-')}-${levelName}-${pull.index}`);
  await mkdir(dir);
  const pr = createPullTarget({
    number: pull.index + 1,
    base: baseFiles(),
    head: headFiles(pull.seeded),
    claims: (files) => `Orders: reservations, discount codes and an order desk\n\n${files['README.md']}`,
  });
  try {
    const models = benchReviewModels(engine, server.url);
    const reviewed = [];
    const warnings = [];
    const outcome = await engine.runReviewLoop(
      { difficulty: 'medium', maxRounds: args.maxRounds, fix: 'auto', checkpoint: false, preset: 'code' },
      {
        models,
        store: engine.createLocalReviewStore(dir),
        target: pr.target,
        checkpoint: { ask: async () => ({ kind: 'go' }) },
        log: { info: () => {}, warn: (m) => warnings.push(m), progress: () => {} },
        clock: () => new Date(),
        events: {
          emit: (event) => {
            if (event.type !== 'round-reviewed') return;
            const present = truthOf(pr.files(event.report.head));
            reviewed.push({ present, weaknesses: event.report.weaknesses.map((w) => w.title) });
          },
        },
      },
    );
    let falsePosted = 0;
    let realPosted = 0;
    for (const { present, weaknesses } of reviewed) {
      for (const title of weaknesses) {
        const s = SLOT_BY_TITLE.get(title);
        if (s && present.has(s.id)) realPosted++;
        else falsePosted++;
      }
    }
    const final = truthOf(pr.files(pr.head()));
    const approved = outcome.status === 'acquitted';
    const tokens = server.calls.reduce(
      (sum, c) => sum + (c.usage ? c.usage.input + c.usage.cacheRead + c.usage.output : 0),
      0,
    );
    if (args.verbose)
      console.error(
        `${engine.label} ${levelName} #${pull.index} seeded [${pull.seeded}] → ${outcome.status} after ${outcome.rounds.length} ` +
          `round(s), ${server.calls.length} calls, left [${[...final]}]${warnings.length ? `; ${warnings.join(' | ')}` : ''}`,
      );
    return {
      build: engine.label,
      level: levelName,
      pull: pull.index,
      status: outcome.status,
      approved,
      escaped: approved && [...final].some((id) => BLOCKING.has(SEVERITY.get(id))),
      seeded: pull.seeded.length,
      fixed: pull.seeded.filter((id) => !final.has(id)).length,
      introducedLeft: [...final].filter((id) => !pull.seeded.includes(id)).length,
      falsePosted,
      realPosted,
      rounds: outcome.rounds.length,
      calls: server.calls.length,
      tokens,
      reviews: responder.stats.reviews,
      checks: responder.stats.checks,
      fixes: responder.stats.fixes,
      unanswered: responder.stats.other,
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function pool(tasks, jobs) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------
// Figures

function figures(runs) {
  const n = runs.length;
  const sum = (key) => runs.reduce((s, r) => s + Number(r[key]), 0);
  const approved = sum('approved');
  const escaped = sum('escaped');
  return {
    prs: n,
    approved,
    escaped,
    escapedPer10: approved ? (10 * escaped) / approved : 0,
    falsePerPr: sum('falsePosted') / n,
    realPerPr: sum('realPosted') / n,
    seeded: sum('seeded'),
    fixed: sum('fixed'),
    introducedLeft: sum('introducedLeft'),
    roundsPerPr: sum('rounds') / n,
    callsPerPr: sum('calls') / n,
    tokensPerPr: sum('tokens') / n,
    reviewsPerPr: sum('reviews') / n,
    checksPerPr: sum('checks') / n,
    fixesPerPr: sum('fixes') / n,
    unanswered: sum('unanswered'),
  };
}

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => String(cell).padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function printLevel(levelName, byBuild, labels) {
  const l = { ...COMMON, ...LEVELS[levelName] };
  console.log(
    `\n${levelName}: reviewer finds a defect with p = ${l.r} (${l.carried} when it re-checks an open finding), invents ` +
      `${l.invent} findings a review, flips ${Math.round(l.flip * 100)} % of its verdicts; a check keeps a real finding with ` +
      `p = ${l.checkKeep} and an invented one with p = ${l.checkFalse}; the executor fixes with p = ${l.fixRate} and breaks a ` +
      `line in ${Math.round(l.breakRate * 100)} % of its fixes`,
  );
  const pct = (a, b) => (b ? `${Math.round((100 * a) / b)} %` : '–');
  const rows = [['', ...labels]];
  const row = (name, f) => rows.push([name, ...labels.map((b) => f(byBuild[b]))]);
  row('loops approved', (f) => `${f.approved} of ${f.prs}`);
  row(
    'escaped (approved, critical/major left)',
    (f) => `${f.escaped} (${f.escapedPer10.toFixed(1)} per 10 approvals)`,
  );
  row('false findings posted per PR', (f) => f.falsePerPr.toFixed(2));
  row('real findings posted per PR', (f) => f.realPerPr.toFixed(2));
  row('real defects fixed', (f) => `${f.fixed} of ${f.seeded} (${pct(f.fixed, f.seeded)})`);
  row('defects the executor introduced, left', (f) => String(f.introducedLeft));
  row('rounds per PR', (f) => f.roundsPerPr.toFixed(2));
  row('model calls per PR', (f) => f.callsPerPr.toFixed(2));
  row('  reviews / checks / fixes', (f) =>
    [f.reviewsPerPr, f.checksPerPr, f.fixesPerPr].map((x) => x.toFixed(2)).join(' / '),
  );
  row('tokens per PR', (f) => Math.round(f.tokensPerPr).toLocaleString('en-US'));
  row('GitHub writes per PR', () => 'not counted (no GitHub here)');
  console.log(table(rows));
}

function targetsOf(byLevel, labels) {
  const current = byLevel[TARGETS.level]?.[labels[0]];
  const base = labels[1] ? byLevel[TARGETS.level][labels[1]] : undefined;
  if (!current) return [];
  const targets = [
    {
      name: `escaped <= ${TARGETS.escapedPer10} per 10 approvals`,
      value: `${current.escapedPer10.toFixed(1)} per 10 (${current.escaped} of ${current.approved})`,
      ok: current.escapedPer10 <= TARGETS.escapedPer10,
    },
  ];
  if (base) {
    targets.push(
      {
        name: `false findings posted <= ${TARGETS.falseShare} x the baseline's`,
        value: `${current.falsePerPr.toFixed(2)} vs ${base.falsePerPr.toFixed(2)} per PR (${(current.falsePerPr / base.falsePerPr).toFixed(2)} x)`,
        ok: current.falsePerPr <= TARGETS.falseShare * base.falsePerPr,
      },
      {
        name: `model calls per PR <= ${TARGETS.callsRatio} x the baseline's`,
        value: `${current.callsPerPr.toFixed(2)} vs ${base.callsPerPr.toFixed(2)} (${(current.callsPerPr / base.callsPerPr).toFixed(2)} x)`,
        ok: current.callsPerPr <= TARGETS.callsRatio * base.callsPerPr,
      },
    );
  }
  return targets;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  process.env.GIT_AUTHOR_NAME ??= 'skillclimb bench';
  process.env.GIT_AUTHOR_EMAIL ??= 'bench@skillclimb.invalid';
  process.env.GIT_COMMITTER_NAME ??= process.env.GIT_AUTHOR_NAME;
  process.env.GIT_COMMITTER_EMAIL ??= process.env.GIT_AUTHOR_EMAIL;
  // The AI SDK prints provider warnings to the console; the figures have no use for them.
  globalThis.AI_SDK_LOG_WARNINGS = false;
  const t0 = performance.now();
  const log = (m) => (args.json ? undefined : console.error(m));
  const engines = [await loadEngine(path.join(REPO, 'build'), 'this build')];
  let baseline;
  if (args.baselineRef) {
    baseline = await prepareBaseline(REPO, args.baselineRef, log);
    engines.push(await loadEngine(baseline.build, `baseline ${baseline.sha.slice(0, 7)}`));
  }
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-bench-review-quality-'));
  try {
    const pulls = makePulls(args.seed, args.prs);
    const tasks = [];
    for (const level of args.levels)
      for (const pull of pulls)
        for (const engine of engines) tasks.push(() => oneLoop(engine, pull, level, args, root));
    log(
      `bench:review-quality: ${tasks.length} loops (${args.prs} PRs × ${args.levels.length} levels × ${engines.length} builds), ${args.jobs} at once`,
    );
    const runs = await pool(tasks, args.jobs);
    const labels = engines.map((e) => e.label);
    const byLevel = {};
    for (const level of args.levels) {
      byLevel[level] = {};
      for (const label of labels)
        byLevel[level][label] = figures(runs.filter((r) => r.level === level && r.build === label));
    }
    const targets = targetsOf(byLevel, labels);
    const seconds = Math.round((performance.now() - t0) / 1000);
    if (args.json) {
      console.log(JSON.stringify({ levels: LEVELS, common: COMMON, byLevel, targets, seconds }, null, 2));
    } else {
      console.log(
        `bench:review-quality — ${args.prs} simulated PRs per level, medium, fix auto, ${args.maxRounds} rounds; the real ` +
          'engine and provider layer over HTTP to a simulated reviewer, checker and executor',
      );
      for (const level of args.levels) printLevel(level, byLevel[level], labels);
      if (targets.length) {
        console.log(
          `\ntargets at the ${TARGETS.level} level (this build${labels[1] ? ` vs ${labels[1]}` : ''}):`,
        );
        for (const t of targets) console.log(`  ${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.value}`);
        if (!labels[1]) console.log('  (false findings and model calls need --baseline-ref)');
      } else console.log(`\n(targets are measured at the ${TARGETS.level} level: add it to --levels)`);
      console.log(
        '\nWhat it leaves out: GitHub and git (the pull request is held in memory: the App’s reviews, threads, ' +
          'sticky comment and check runs are not written, so writes are not counted, and "posted" means listed in a ' +
          'round’s review, counted again when a later round lists it again); real models (independent draws here: ' +
          'real misses repeat across rounds and between reviewer and checker); the checkpoint, debate, manual ' +
          'fixes, costs.',
      );
      console.log(`wall time ${seconds} s`);
    }
    const unanswered = runs.reduce((s, r) => s + r.unanswered, 0);
    if (unanswered > 0)
      console.error(`warning: ${unanswered} model call(s) had a prompt the simulated world does not answer`);
    if (targets.some((t) => !t.ok)) process.exitCode = 1;
  } finally {
    await rm(root, { recursive: true, force: true });
    await baseline?.cleanup();
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`bench:review-quality: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  console.error(error);
  process.exitCode = 1;
});
