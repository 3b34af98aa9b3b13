#!/usr/bin/env node
/**
 * `npm run bench:review-nights`: the review-quality world with nights (issue 31 item 4). Does a reviewer
 * that learns from the team's dismissals and accepted findings raise fewer false findings without letting
 * more real defects through?
 *
 * The world (scripts/lib/review-nights-world.mjs): a team whose pull requests carry recurring false-finding
 * triggers (unsorted imports, vendored files, generated code, TODOs naming an issue — each silenced when the
 * reviewer skill carries its instruction line) and real defects (a missing null check, an off-by-one loop,
 * SQL built by concatenation, a promise not awaited); a simulated reviewer that reports a trigger with
 * probability pFalse and finds a defect with probability r, unless the skill silences it — a harmful line
 * ("do not report possible null values", "report only critical and major problems") silences real defects.
 *
 * Each day, `--prs` pull requests are reviewed with the day's skill; the team dismisses every false finding
 * and accepts (fixes) every real one, and each answer becomes an eval beside the skill in the Agent Skills
 * format (`.github/skills/review-loop-reviewer/evals/evals.json`: the diff hunk as the prompt, "The review
 * does not report: <title> in <file>" or "The review reports: …" as the assertion, the feedback record in
 * `skillclimb.feedback`; one eval per kind, class and file; every fourth a holdout). Each night the REAL CLI
 * (`bin/skillclimb.js iterate --json`, as bench:quality runs it: worktree, the provider layer over real
 * HTTP, keep/revert, confirmation, holdouts, the ship gate, the local squash-merge) improves the skill
 * against those evals, answered by a loopback model server (scripts/lib/review-nights-responder.mjs): an
 * editor whose added line is the suppressing instruction of a failing dismissal 40 % of the time, a harmful
 * line 25 % and a neutral one otherwise (never one the engine lists as reverted); renders that follow the
 * SKILL.md — the eval's hunk draws its finding again with probability `--repeat` (0.9: a reviewer's
 * judgement of the same code is correlated; 0.7 makes every render a fresh draw at the day's rates); a
 * grader that flips a verdict with probability `--noise`, half of its flips repeating on a re-grade; and the
 * silencing probe's writer (asked before an edit is kept): for a change that adds a harmful line, each of its
 * probes is the hunk of a real class that line silences with probability 0.8, else of a real class it does
 * not silence; for a good or neutral line, hunks of real classes it does not silence. What ships is the next
 * day's skill.
 *
 * After each night it reviews a fixed set of `--measure` pull requests (not the team's, so every night is
 * measured on the same code) with the learning reviewer's skill and with the never-learning one's (the
 * initial skill, unchanged), with the same draws, and prints per seed and night: false findings per PR,
 * escaped defects per approval (every pull request is approved once the team has fixed what it accepted; a
 * defect the review did not report escapes, minor ones too), real defects found, the evals, what the night
 * kept (by the truth: good, neutral, harmful) and shipped, and its model calls. Targets, pooled over the
 * seeds, PASS or MISS: after `--nights` nights, false findings per PR <= half the never-learning reviewer's,
 * and escaped defects per approval not higher.
 *
 * What it leaves out: the day's reviews do not run the review engine — they are the world's reviewer rule
 * applied in-process to the skill text (the same rule that answers the night's renders), so the App's
 * reading of the skill from the default branch, its feedback collection, the evals pull request and its
 * review rounds are not exercised here (their tests cover them), and day reviews cost no model calls here;
 * the team's answers are perfect (every false finding dismissed, every real one accepted, nothing ignored)
 * and come from one maintainer; a class is silenced by one exact line, not by any wording that means the
 * same; the editor adds lines and never rewords or removes; the grader's mistakes are flips, not
 * misreadings; the probe writer's hunks are the world's own class hunks, titled exactly as the world's
 * grader reads them (a real model writes new code and words its titles freely), and it knows which lines
 * are harmful only through their text; evals are never pruned or edited by a person; no costs, no GitHub.
 *
 * Options: --nights <n> (5), --prs <n> (8 a day), --measure <n> (60), --noise <p> (0.1), --repeat <p>
 * (0.9), --iterations <n> (8 a night), --seed <n> (1), --seeds <n> (2: seeds n, n+1, …), --jobs <n> (2
 * seeds at once), --json, --verbose. Exit code 1 when a target is missed, 2 for a bad command line.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { flagReader, git } from './lib/bench-project.mjs';
import { startLatencyModelServer } from './lib/latency-model-server.mjs';
import { uniform } from './lib/quality-world.mjs';
import { createNightResponder } from './lib/review-nights-responder.mjs';
import {
  DEFAULTS,
  FALSE_CLASSES,
  HARMFUL,
  NEUTRAL,
  appendFeedback,
  baselineSkill,
  makePull,
  review,
  rulesOf,
} from './lib/review-nights-world.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKILL_DIR = path.join('.github', 'skills', 'review-loop-reviewer');
const RUN_TIMEOUT_MS = 20 * 60_000;
const MODEL = 'anthropic:claude-sonnet-4-5';

class UsageError extends Error {}

function parseArgs(argv) {
  const args = {
    nights: 5,
    prs: 8,
    measure: 60,
    noise: 0.1,
    iterations: 8,
    seed: '1',
    seeds: 2,
    jobs: 2,
    repeat: DEFAULTS.repeat,
    json: false,
    verbose: false,
  };
  const flags = flagReader(argv, UsageError);
  for (let flag = flags.next(); flag !== undefined; flag = flags.next()) {
    if (flag === '--nights') args.nights = flags.int();
    else if (flag === '--prs') args.prs = flags.int();
    else if (flag === '--measure') args.measure = flags.int();
    else if (flag === '--iterations') args.iterations = flags.int();
    else if (flag === '--seed') {
      args.seed = flags.value();
      if (!/^\d+$/.test(args.seed)) throw new UsageError('--seed expects a whole number');
    } else if (flag === '--seeds') args.seeds = flags.int();
    else if (flag === '--jobs') args.jobs = flags.int();
    else if (flag === '--repeat') {
      const n = Number(flags.value());
      if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError('--repeat expects a number in [0, 1]');
      args.repeat = n;
    } else if (flag === '--noise') {
      const n = Number(flags.value());
      if (!Number.isFinite(n) || n < 0 || n >= 0.5)
        throw new UsageError('--noise expects a number in [0, 0.5)');
      args.noise = n;
    } else if (flag === '--json') args.json = true;
    else if (flag === '--verbose') args.verbose = true;
    else
      throw new UsageError(
        `unknown option ${flag} (expected --nights, --prs, --measure, --noise, --repeat, --iterations, --seed, --seeds, --jobs, --json, --verbose)`,
      );
  }
  return args;
}

// ---------------------------------------------------------------------------------------------------------
// Days: reviews with a skill's rule lines, and what they let through

/** Reviews `pulls` with `rules`; the draws depend on the pull request and the class, not on the skill. */
function reviewAll(seed, pulls, rules, level) {
  const out = { prs: pulls.length, falseFindings: 0, present: 0, found: 0, escaped: 0, reviews: [] };
  for (const pull of pulls) {
    const found = review(
      rules,
      pull.diff,
      (c, file) => uniform(seed, pull.stream, pull.index, 'review', c.id, file),
      level,
    );
    out.reviews.push({ pull, found });
    out.falseFindings += found.filter((f) => f.c.kind === 'false').length;
    const real = pull.items.filter((i) => i.c.kind === 'real');
    out.present += real.length;
    const reported = real.filter((i) => found.some((f) => f.c === i.c && f.file === i.file)).length;
    out.found += reported;
    out.escaped += real.length - reported;
  }
  // Every pull request is approved once the team has fixed what it accepted: one approval each.
  return { ...out, falsePerPr: out.falseFindings / out.prs, escapedPerApproval: out.escaped / out.prs };
}

/** The skill's lines a night added, named by what they do. */
function linesLabel(rules, initial) {
  const names = [];
  for (const line of rules) {
    if (initial.includes(line)) continue;
    const c = FALSE_CLASSES.find((x) => x.instruction === line);
    const h = HARMFUL.find((x) => x.text === line);
    names.push(c ? c.id : h ? `harmful ${h.id}` : NEUTRAL.includes(line) ? 'neutral' : 'other');
  }
  return names.length ? names.join(', ') : '–';
}

// ---------------------------------------------------------------------------------------------------------
// Nights: the real CLI on a project holding the reviewer skill and its evals

function runCli(project, home, serverUrl, args) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    GIT_AUTHOR_NAME: 'skillclimb bench',
    GIT_AUTHOR_EMAIL: 'bench@skillclimb.invalid',
    GIT_COMMITTER_NAME: 'skillclimb bench',
    GIT_COMMITTER_EMAIL: 'bench@skillclimb.invalid',
    ANTHROPIC_API_KEY: 'bench-anthropic-key',
    ANTHROPIC_BASE_URL: serverUrl,
  };
  const cli = [
    path.join(REPO, 'bin', 'skillclimb.js'),
    'iterate',
    '--project',
    project,
    '--skills',
    '.github/skills/*',
    '--model',
    MODEL,
    '--per-skill-iterations',
    String(args.iterations),
    '--worktree-home',
    home,
    // One call at a time: the world's draws follow the order of the engine's calls, so a seed replays.
    '--concurrency',
    '1',
    '--json',
    '--quiet',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cli, { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGTERM'), RUN_TIMEOUT_MS);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve({ code, result: JSON.parse(out) });
      } catch {
        reject(
          new Error(`skillclimb iterate exited ${code} without a JSON result: ${err.trim().slice(-2000)}`),
        );
      }
    });
  });
}

async function oneNight(seed, night, skillMd, evals, args, level) {
  const responder = createNightResponder({
    seed: `${seed}:night${night}`,
    level,
    p: args.noise,
  });
  const server = await startLatencyModelServer({ latencyMs: 0, respond: responder.respond });
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-bench-review-nights-'));
  const t0 = performance.now();
  try {
    const project = path.join(root, 'project');
    const dir = path.join(project, SKILL_DIR);
    await mkdir(path.join(dir, 'evals'), { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), skillMd);
    const file = { skill_name: 'review-loop-reviewer', evals };
    await writeFile(path.join(dir, 'evals', 'evals.json'), `${JSON.stringify(file, null, 2)}\n`);
    await writeFile(
      path.join(project, '.gitignore'),
      'worktree_*/\n.skill-iterate.lock\n.github/skills/*/evals/results.tsv\n',
    );
    git(project, 'init', '-q', '-b', 'main');
    git(project, 'add', '-A');
    git(
      project,
      'commit',
      '-q',
      '-m',
      `review-nights: the reviewer skill and its evals before night ${night}`,
    );
    const home = path.join(root, 'home');
    await mkdir(home);
    const { code, result } = await runCli(project, home, server.url, args);
    const r = (result.results ?? [])[0];
    if (process.env.BENCH_DUMP)
      await writeFile(`${process.env.BENCH_DUMP}-${night}.json`, JSON.stringify(result, null, 2));
    const shipped = r?.status === 'shipped';
    const after = shipped ? await readFile(path.join(dir, 'SKILL.md'), 'utf8') : skillMd;
    const keeps = (r?.rows ?? [])
      .filter((row) => row.status === 'keep')
      .map((row) => responder.edits.get(/\[(edit [^\]]+)\]/.exec(row.description)?.[1])?.kind ?? '?');
    // Edits the silencing probe refused, by the truth.
    const silenced = (r?.rows ?? [])
      .filter((row) => row.status === 'revert' && row.description.includes('silences real defects'))
      .map((row) => responder.edits.get(/\[(edit [^\]]+)\]/.exec(row.description)?.[1])?.kind ?? '?');
    if (args.verbose)
      console.error(
        `seed ${seed} night ${night}: exit ${code}, ${r?.status ?? 'no result'} after ${r?.iterations ?? 0} iteration(s); ` +
          `kept [${keeps.join(', ')}]; probe refused [${silenced.join(', ')}]; ${JSON.stringify(responder.calls)}; ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
    return {
      code,
      status: r?.status ?? 'no result',
      skillMd: after,
      keeps,
      calls: { ...responder.calls },
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** One seed's run: the team's days, the real engine's nights, the measured reviews after each. */
async function runSeed(seed, args, level) {
  const t0 = performance.now();
  const initial = baselineSkill();
  const initialRules = rulesOf(initial);
  const measured = Array.from({ length: args.measure }, (_, i) => makePull(seed, 'measure', i, level));
  const never = reviewAll(seed, measured, initialRules, level);
  let skillMd = initial;
  const evals = [];
  const rows = [{ night: 0, learns: never, status: '–', keeps: [], calls: undefined, rules: initialRules }];
  let pr = 0;
  for (let night = 1; night <= args.nights; night++) {
    // The day: the team's pull requests reviewed with today's skill; its answers become evals.
    const day = reviewAll(
      seed,
      Array.from({ length: args.prs }, (_, i) => makePull(seed, `day${night}`, i, level)),
      rulesOf(skillMd),
      level,
    );
    let added = 0;
    for (const { pull, found } of day.reviews) added += appendFeedback(evals, pull, found, ++pr);
    // The night: the real engine on the skill and every eval so far.
    const n = evals.some((e) => e.skillclimb?.holdout !== true)
      ? await oneNight(seed, night, skillMd, evals, args, level)
      : {
          status: 'no evals',
          skillMd,
          keeps: [],
          calls: { editor: 0, render: 0, grader: 0, probe: 0, probeDraws: 0 },
        };
    skillMd = n.skillMd;
    const rules = rulesOf(skillMd);
    rows.push({
      night,
      added,
      evals: evals.length,
      dismissed: evals.filter((e) => e.skillclimb.feedback.kind === 'dismissed').length,
      status: n.status,
      keeps: n.keeps,
      calls: n.calls,
      rules,
      learns: reviewAll(seed, measured, rules, level),
    });
  }
  return { seed, rows, never, initialRules, seconds: (performance.now() - t0) / 1000 };
}

function printSeed(run) {
  const { seed, rows, never, initialRules } = run;
  console.log(
    `\nseed ${seed}: ${never.prs} measured PRs with ${never.present} real defects (${run.seconds.toFixed(0)} s)`,
  );
  const header = [
    'night',
    'evals (dismissed), new',
    'night result (kept edits)',
    'skill lines added',
    'false / PR: learns | never',
    'escaped / approval: learns | never',
    'real found: learns | never',
    'model calls (editor/render/grader/probe)',
  ];
  const body = rows.map((r) => [
    r.night,
    r.night === 0 ? '–' : `${r.evals} (${r.dismissed}), +${r.added}`,
    r.night === 0 ? '–' : `${r.status} (${r.keeps.join(', ') || 'none'})`,
    linesLabel(r.rules, initialRules),
    `${r.learns.falsePerPr.toFixed(2)} | ${never.falsePerPr.toFixed(2)}`,
    `${r.learns.escapedPerApproval.toFixed(3)} | ${never.escapedPerApproval.toFixed(3)}`,
    `${r.learns.found} | ${never.found}`,
    r.calls
      ? `${r.calls.editor + r.calls.render + r.calls.grader + r.calls.probe} (${r.calls.editor}/${r.calls.render}/${r.calls.grader}/${r.calls.probe})`
      : '–',
  ]);
  console.log(table(header, body));
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`bench-review-nights: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const t0 = performance.now();
  const level = { ...DEFAULTS, repeat: args.repeat };
  const seeds = Array.from({ length: args.seeds }, (_, i) => String(Number(args.seed) + i));
  const runs = [];
  let next = 0;
  const worker = async () => {
    while (next < seeds.length) {
      const i = next++;
      runs[i] = await runSeed(seeds[i], args, level);
    }
  };
  await Promise.all(Array.from({ length: Math.min(args.jobs, seeds.length) }, worker));
  // Pooled over seeds: the measured reviews after the last night, learns vs never.
  const pool = (pick) => {
    const xs = runs.map(pick);
    const sum = (k) => xs.reduce((a, x) => a + x[k], 0);
    const prs = sum('prs');
    return { prs, falsePerPr: sum('falseFindings') / prs, escaped: sum('escaped'), present: sum('present') };
  };
  const last = pool((r) => r.rows.at(-1).learns);
  const never = pool((r) => r.never);
  const targets = [
    {
      name: `false findings per PR after ${args.nights} nights <= half the never-learning reviewer's`,
      value: `${last.falsePerPr.toFixed(2)} vs ${never.falsePerPr.toFixed(2)} (${(last.falsePerPr / never.falsePerPr).toFixed(2)} x)`,
      ok: last.falsePerPr <= 0.5 * never.falsePerPr,
    },
    {
      name: `escaped defects per approval after ${args.nights} nights not higher`,
      value:
        `${(last.escaped / last.prs).toFixed(3)} vs ${(never.escaped / never.prs).toFixed(3)} ` +
        `(${last.escaped} vs ${never.escaped} of ${never.present} defects)`,
      ok: last.escaped <= never.escaped,
    },
  ];
  if (args.json) {
    const strip = (k, v) => (k === 'reviews' ? undefined : v);
    console.log(JSON.stringify({ args, level, runs, targets }, strip, 2));
  } else {
    console.log(
      `review-nights: seeds ${seeds.join(', ')}; the team's ${args.prs} PRs a day; each night measured on ` +
        `${args.measure} fixed PRs; reviewer: a false trigger reported with p = ${level.pFalse}, a defect found with ` +
        `p = ${level.r}, an eval's hunk drawing its finding again with p = ${level.repeat}; grader noise ${args.noise}; ` +
        `${args.iterations} iterations a night`,
    );
    for (const run of runs) printSeed(run);
    console.log(`\nTargets (pooled over ${seeds.length} seed(s))`);
    for (const t of targets) console.log(`  ${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.value}`);
    const nights = runs.flatMap((run) => run.rows.filter((r) => r.calls !== undefined));
    const total = nights.reduce(
      (a, r) => a + r.calls.editor + r.calls.render + r.calls.grader + r.calls.probe,
      0,
    );
    const probes = nights.reduce((a, r) => a + r.calls.probe, 0);
    const draws = nights.reduce((a, r) => a + r.calls.probeDraws, 0);
    console.log(
      `\nModel calls over ${nights.length} nights: ${total} (${(total / nights.length).toFixed(0)} a night; ` +
        `${probes} of them the probe writer's, ${draws} the renders and grades of its hunks)`,
    );
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
    console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${load}`);
  }
  if (targets.some((t) => !t.ok)) process.exitCode = 1;
}

await main();
