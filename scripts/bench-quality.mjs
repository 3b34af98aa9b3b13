#!/usr/bin/env node
/**
 * `npm run bench:quality`: does a night's output tell the truth? A quality benchmark with a ground truth.
 *
 * It drives the REAL CLI (`bin/skillclimb.js iterate --json`, as a child process: lock, queue, worktrees,
 * the provider layer over real HTTP, keep/revert, the ship gate, the local squash-merge) against generated
 * temporary git projects and a loopback model server (scripts/lib/latency-model-server.mjs, no latency)
 * whose answers come from a simulated world with a hidden truth (scripts/lib/quality-world.mjs): which rule
 * lines of each SKILL.md truly make which assertions pass, an editor whose edits are a real improvement a
 * quarter of the time and otherwise neutral or harmful, renders that follow the SKILL.md they are given,
 * and a grader that flips each verdict with probability p, half of its mistakes repeating on a re-grade of
 * the same render. Levels p = 0, 0.15, 0.3 (`--levels`), each over `--skills` skills and `--seeds` seeds
 * (one CLI run, "a night", per build, level and seed).
 *
 * Per build and level it prints: skills shipped; real gains (shipped and truly better); shipped but not
 * better (of which truly worse); false keeps (kept iterations that were not truly better); the claimed gain
 * (what the run reports: final − baseline, or the confirmed gain when the build reports one) against the
 * true gain (from the hidden truth), both as means over shipped skills; the true gain per skill of the
 * night; model calls per iteration, per +0.01 of true gain and per night; the share of the noise-free
 * night's true gain each level captured; and the spread (min–max) across seeds. Then issue 28's targets,
 * PASS or MISS: at p = 0.15 ≤ 1 not-better ship per 10, the claimed gain within 25 % of the true one, the
 * true gain per skill at least the baseline build's, ≤ 1.25 × the original's calls per night; at p = 0 the
 * same skills as the original's rule for ≤ 1.1 × its calls; at p = 0.3 ≤ 1 not-better per 10 and a total
 * true gain at least the original's real gains (its truly better PRs), for ≤ 1.25 × its calls.
 *
 * Every run includes "the original's rule": this build with `--keep-rule original --trials 1`, the
 * original call for call. --baseline-ref <commit> builds that commit in a temporary git worktree and runs
 * it on the same worlds in the same run, interleaved with this build, printed side by side.
 *
 * What it leaves out: the world is simulated, not real models (real edits are not drawn from three kinds,
 * real renders vary in more than a nonce, a real grader's mistakes follow the text rather than a hash);
 * the noise model is a flip probability with one kind of correlation (the same render re-graded); rule
 * lines never change the structural score; no holdout scenarios, no `check` assertions, no costs.
 *
 * --also '<label>=<iterate flags>' (repeatable) adds this build run with those flags as one more row
 * (`--also 'margin 1.3=--margin 1.3'`): a setting's figures beside the default's, on the same worlds.
 * Targets are printed for this build with its defaults only.
 *
 * --nights <n> (1) runs each project n nights in a row (the CLI again with --ignore-freshness, its own
 * files where the last night left them) and prints the later nights' calls beside the first's, what they
 * shipped scored against the texts they started from, and the p = 0.15 cost and trust targets on them:
 * what a schedule pays, and gets, once the first night's records exist. It also prints a week of nightly
 * runs' calls per night (the first night, then six like the later ones) against the original's, beside
 * (never instead of) the first night's own target. The table is the first night's.
 *
 * Options: --skills <n> (16), --seeds <n> (2), --levels <p,p,…> (0,0.15,0.3), --iterations <n> (12),
 * --jobs <n> (2 runs at once), --nights <n> (1), --baseline-ref <commit>, --also <label=flags>, --provider anthropic|openai|openai-compatible
 * (anthropic), --sticky <share> (0.5), --json, --verbose. Exit code 1 when a target of this build is
 * missed, 2 for a bad command line.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { prepareBaseline } from './lib/baseline-build.mjs';
import { commitProject, flagReader, git, writeSkill } from './lib/bench-project.mjs';
import { startLatencyModelServer } from './lib/latency-model-server.mjs';
import { createQualityResponder } from './lib/quality-responder.mjs';
import { DEFAULTS, evalFiles, makeWorld, trueGain } from './lib/quality-world.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUN_TIMEOUT_MS = 20 * 60_000;
const EPS = 1e-9;
const TARGETS = { level: 0.15, notBetterPer10: 1, claimTolerance: 0.25 };
const MODELS = {
  anthropic: 'anthropic:claude-sonnet-4-5',
  openai: 'openai:gpt-5',
  'openai-compatible': 'openai-compatible:bench-model',
};

class UsageError extends Error {}

function parseArgs(argv) {
  const args = {
    skills: 16,
    seeds: 2,
    levels: [0, 0.15, 0.3],
    iterations: 12,
    jobs: 2,
    nights: 1,
    baselineRef: undefined,
    provider: 'anthropic',
    sticky: DEFAULTS.sticky,
    json: false,
    verbose: false,
    also: [],
  };
  const flags = flagReader(argv, UsageError);
  for (let flag = flags.next(); flag !== undefined; flag = flags.next()) {
    const { value, int } = flags;
    const share = (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} expects numbers in [0, 1]`);
      return n;
    };
    if (flag === '--skills') args.skills = int();
    else if (flag === '--seeds') args.seeds = int();
    else if (flag === '--iterations') args.iterations = int();
    else if (flag === '--jobs') args.jobs = int();
    else if (flag === '--nights') {
      args.nights = int();
      if (args.nights < 1) throw new UsageError('--nights expects a whole number of at least 1');
    } else if (flag === '--levels') args.levels = value().split(',').map(share);
    else if (flag === '--sticky') args.sticky = share(value());
    else if (flag === '--baseline-ref') args.baselineRef = value();
    else if (flag === '--provider') {
      args.provider = value();
      if (!(args.provider in MODELS))
        throw new UsageError('--provider expects anthropic, openai or openai-compatible');
    } else if (flag === '--also') args.also.push(alsoBuild(value()));
    else if (flag === '--json') args.json = true;
    else if (flag === '--verbose') args.verbose = true;
    else
      throw new UsageError(
        `unknown option ${flag} (expected --skills, --seeds, --levels, --iterations, --jobs, --nights, --baseline-ref, ` +
          '--also, --provider, --sticky, --json, --verbose)',
      );
  }
  return args;
}

/**
 * `--also '<label>=<iterate flags>'`: this build run with those flags too, as one more row on the same
 * worlds (`--also 'margin 1.3=--margin 1.3'`). The flags are split on spaces, so a value cannot hold one.
 */
function alsoBuild(spec) {
  const at = spec.indexOf('=');
  const label = at > 0 ? spec.slice(0, at).trim() : '';
  const extraArgs =
    at > 0
      ? spec
          .slice(at + 1)
          .split(' ')
          .filter(Boolean)
      : [];
  if (!label || extraArgs.length === 0)
    throw new UsageError(
      `--also expects '<label>=<iterate flags>', e.g. 'margin 1.3=--margin 1.3'; got '${spec}'`,
    );
  return { label, root: REPO, extraArgs };
}

// ---------------------------------------------------------------------------------------------------------
// One night: a generated project, the world's server, the real CLI

async function createProject(root, world) {
  const project = path.join(root, 'project');
  for (const skill of world.skills)
    await writeSkill(project, skill.name, skill.baselineText, evalFiles(skill));
  await commitProject(project, 'quality bench skills');
  return project;
}

function runCli(build, project, home, serverUrl, args, extraArgs = []) {
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
    OPENAI_API_KEY: 'bench-openai-key',
    OPENAI_BASE_URL: `${serverUrl}/v1`,
  };
  const cli = [
    path.join(build.root, 'bin', 'skillclimb.js'),
    'iterate',
    '--project',
    project,
    '--model',
    MODELS[args.provider],
    '--per-skill-iterations',
    String(args.iterations),
    '--worktree-home',
    home,
    '--json',
    '--quiet',
    ...(build.extraArgs ?? []),
    ...extraArgs,
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
          new Error(
            `${build.label}: skillclimb iterate exited ${code} without a JSON result: ${err.trim().slice(-2000)}`,
          ),
        );
      }
    });
  });
}

/** The gain the run reports for a skill: a confirmed gain when the build reports one, else final − baseline. */
function claimedGain(result) {
  const confirmation = result.measurement?.confirmation;
  if (Number.isFinite(confirmation?.gain)) return confirmation.gain;
  for (const [key, value] of Object.entries(result)) {
    if (!/confirm/i.test(key) || value === null || typeof value !== 'object') continue;
    if (Number.isFinite(value.gain)) return value.gain;
    const before = value.baselineScore ?? value.baseline;
    const after = value.finalScore ?? value.final;
    if (Number.isFinite(before) && Number.isFinite(after)) return after - before;
  }
  return result.finalScore - result.baselineScore;
}

function skillText(project, name) {
  return readFile(path.join(project, '.claude', 'skills', name, 'SKILL.md'), 'utf8');
}

/** Each skill of a night's JSON result against the truth: `startText(skill)` is the text it started from. */
async function scoreSkills(world, responder, project, result, startText) {
  const skills = [];
  for (const r of result.results ?? []) {
    const skill = world.byName.get(r.skill);
    if (!skill) continue;
    const shipped = r.status === 'shipped';
    const from = startText(skill);
    const finalText = shipped ? await skillText(project, r.skill) : from;
    const keeps = (r.rows ?? []).filter((row) => row.status === 'keep');
    const keepEffects = keeps.map((row) => {
      const tag = /\[(edit [^\]]+)\]/.exec(row.description)?.[1];
      return responder.edits.get(tag)?.trueDelta;
    });
    skills.push({
      skill: r.skill,
      status: r.status,
      shipped,
      iterations: r.iterations,
      claimed: shipped ? claimedGain(r) : 0,
      trueGain: trueGain(skill, from, finalText),
      keeps: keeps.length,
      falseKeeps: keepEffects.filter((d) => !(d > EPS)).length,
      untracedKeeps: keepEffects.filter((d) => d === undefined).length,
    });
  }
  return skills;
}

async function oneNight(build, seed, p, args) {
  const world = makeWorld(seed, args.skills);
  const responder = createQualityResponder(world, { p, sticky: args.sticky });
  const server = await startLatencyModelServer({ latencyMs: 0, respond: responder.respond });
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-bench-quality-'));
  const t0 = performance.now();
  try {
    const project = await createProject(root, world);
    const home = path.join(root, 'home');
    await mkdir(home);
    const { code, result } = await runCli(build, project, home, server.url, args);
    const skills = await scoreSkills(world, responder, project, result, (skill) => skill.baselineText);
    const iterations = skills.reduce((a, s) => a + s.iterations, 0);
    const callsSoFar = () => responder.calls.editor + responder.calls.render + responder.calls.grader;
    const calls = callsSoFar();
    const byRole = { ...responder.calls };
    const wallSeconds = (performance.now() - t0) / 1000;
    // --nights n: the same project again, as the next nights of a schedule find it (what shipped is on
    // its branch; the run's own files, results.tsv and the uplift's record, are where the last run left
    // them); only their calls are kept.
    const laterCalls = [];
    const laterSkills = [];
    for (let night = 2; night <= args.nights; night++) {
      const before = callsSoFar();
      const started = new Map();
      for (const skill of world.skills) started.set(skill.name, await skillText(project, skill.name));
      const later = await runCli(build, project, home, server.url, args, ['--ignore-freshness']);
      if (later.code !== 0 && later.code !== 1)
        throw new Error(`${build.label} p=${p} seed=${seed}: night ${night} exited ${later.code}`);
      laterCalls.push(callsSoFar() - before);
      // Scored as the first night is, each skill against the text this night started from.
      laterSkills.push(
        ...(await scoreSkills(world, responder, project, later.result, (skill) => started.get(skill.name))),
      );
    }
    if (args.verbose)
      console.error(
        `${build.label} p=${p} seed=${seed}: exit ${code}, ${skills.filter((s) => s.shipped).length}/${skills.length} ` +
          `shipped, ${calls} calls, ${wallSeconds.toFixed(0)} s` +
          (laterCalls.length ? `; later nights ${laterCalls.join(', ')} calls` : ''),
      );
    return {
      build: build.label,
      seed,
      p,
      code,
      skills,
      iterations,
      calls,
      laterCalls,
      laterSkills,
      byRole,
      wallSeconds,
    };
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Figures

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const mean = (xs) => (xs.length === 0 ? NaN : sum(xs) / xs.length);

/** The figures of one night, or of several pooled. */
function figures(nights) {
  const skills = nights.flatMap((n) => n.skills);
  const shipped = skills.filter((s) => s.shipped);
  const notBetter = shipped.filter((s) => !(s.trueGain > EPS));
  const iterations = sum(nights.map((n) => n.iterations));
  const calls = sum(nights.map((n) => n.calls));
  return {
    skills: skills.length,
    shipped: shipped.length,
    realGains: shipped.length - notBetter.length,
    notBetter: notBetter.length,
    worse: notBetter.filter((s) => s.trueGain < -EPS).length,
    keeps: sum(skills.map((s) => s.keeps)),
    falseKeeps: sum(skills.map((s) => s.falseKeeps)),
    untracedKeeps: sum(skills.map((s) => s.untracedKeeps)),
    claimed: mean(shipped.map((s) => s.claimed)),
    trueGain: mean(shipped.map((s) => s.trueGain)),
    truePerSkill: sum(shipped.map((s) => s.trueGain)) / Math.max(1, skills.length),
    trueTotal: sum(shipped.map((s) => s.trueGain)),
    realTotal: sum(shipped.filter((s) => s.trueGain > EPS).map((s) => s.trueGain)),
    nights: nights.length,
    notBetterPer10: shipped.length === 0 ? NaN : (10 * notBetter.length) / shipped.length,
    callsPerIteration: iterations === 0 ? NaN : calls / iterations,
    callsPerNight: calls / Math.max(1, nights.length),
    laterCallsPerNight: mean(nights.flatMap((n) => n.laterCalls)),
    later: (() => {
      const all = nights.flatMap((n) => n.laterSkills ?? []);
      const ships = all.filter((s) => s.shipped);
      const bad = ships.filter((s) => !(s.trueGain > EPS));
      return {
        skills: all.length,
        shipped: ships.length,
        notBetter: bad.length,
        worse: bad.filter((s) => s.trueGain < -EPS).length,
        trueTotal: sum(ships.map((s) => s.trueGain)),
      };
    })(),
    callsPerPoint: (() => {
      const gained = sum(shipped.map((s) => s.trueGain));
      return gained > EPS ? calls / (gained / 0.01) : NaN;
    })(),
    byRole: Object.fromEntries(
      ['editor', 'render', 'grader'].map((r) => [
        r,
        sum(nights.map((n) => n.byRole[r])) / Math.max(1, nights.length),
      ]),
    ),
    wallSeconds: mean(nights.map((n) => n.wallSeconds)),
    shippedSet: new Set(
      nights.flatMap((n) => n.skills.filter((s) => s.shipped).map((s) => `${n.seed}:${s.skill}`)),
    ),
  };
}

const fmt = (x, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const signed = (x, digits = 3) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(digits)}` : 'n/a');
const range = (xs, f = (x) => String(x)) => {
  const finite = xs.filter(Number.isFinite);
  if (finite.length === 0) return 'n/a';
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return lo === hi ? f(lo) : `${f(lo)}–${f(hi)}`;
};
const loadLine = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function groupRows(groups) {
  return groups.map((g) => {
    const f = g.all;
    const per = g.perSeed;
    return [
      g.p,
      g.build,
      `${f.shipped} of ${f.skills} (${range(per.map((x) => x.shipped))})`,
      `${f.realGains} (${range(per.map((x) => x.realGains))})`,
      `${f.notBetter} (${f.worse}) (${range(per.map((x) => x.notBetter))})`,
      `${f.falseKeeps} of ${f.keeps}`,
      `${signed(f.claimed)} (${range(
        per.map((x) => x.claimed),
        (x) => signed(x),
      )})`,
      `${signed(f.trueGain)} (${range(
        per.map((x) => x.trueGain),
        (x) => signed(x),
      )})`,
      signed(f.truePerSkill),
      fmt(f.callsPerIteration, 1),
      fmt(f.callsPerPoint, 0),
      `${Math.round(f.callsPerNight)} (${range(
        per.map((x) => x.callsPerNight),
        (x) => String(Math.round(x)),
      )})`,
    ];
  });
}

/**
 * How sure a "k of n per 10" is: the 90 % Wilson score interval of the share, per 10. With a handful of
 * not-better ships (4 seeds give about 15 ships, 8 about 30) one ship more or less moves the figure by
 * a third of the target, so the line says so instead of letting one run's luck read as a property.
 */
function per10Interval(k, n) {
  if (n === 0) return 'no ships';
  const z = 1.645;
  const share = k / n;
  const centre = (share + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((share * (1 - share)) / n + (z * z) / (4 * n * n));
  return `90 % interval ${fmt(10 * Math.max(0, centre - half), 1)}–${fmt(10 * Math.min(1, centre + half), 1)}`;
}

/** Issue 28's targets for this build, against the original's rule (and the baseline build when given). */
function verdictsFor(groups, current, original, baselineLabel) {
  const at = (p, build) => groups.find((g) => g.p === p && g.build === build);
  const out = [];
  const costRatio = (p, bound) => {
    const mine = at(p, current);
    const theirs = at(p, original);
    if (!mine || !theirs) return;
    const ratio = mine.all.callsPerNight / theirs.all.callsPerNight;
    out.push({
      what: `p = ${p}: calls per night <= ${bound} x the original's`,
      value: `${Math.round(mine.all.callsPerNight)} vs ${Math.round(theirs.all.callsPerNight)} (${fmt(ratio, 2)} x)`,
      ok: ratio <= bound + EPS,
    });
  };
  const trust = (p) => {
    const f = at(p, current)?.all;
    if (!f) return;
    out.push({
      what: `p = ${p}: shipped but not better <= ${TARGETS.notBetterPer10} per 10 shipped`,
      value: `${fmt(f.notBetterPer10, 1)} per 10 (${f.notBetter} of ${f.shipped}; ${per10Interval(f.notBetter, f.shipped)})`,
      ok: f.shipped > 0 && f.notBetterPer10 <= TARGETS.notBetterPer10,
    });
  };
  const noisy = at(TARGETS.level, current);
  if (noisy) {
    const f = noisy.all;
    trust(TARGETS.level);
    out.push({
      what: `p = ${TARGETS.level}: claimed gain within ${TARGETS.claimTolerance * 100} % of the true gain`,
      value: `${signed(f.claimed)} vs ${signed(f.trueGain)} (${fmt((100 * (f.claimed - f.trueGain)) / Math.abs(f.trueGain), 0)} %)`,
      ok: Math.abs(f.claimed - f.trueGain) <= TARGETS.claimTolerance * Math.abs(f.trueGain) && f.trueGain > 0,
    });
    const before = baselineLabel ? at(TARGETS.level, baselineLabel) : undefined;
    out.push(
      before
        ? {
            what: `p = ${TARGETS.level}: true gain per skill >= the baseline build's`,
            value: `${signed(f.truePerSkill)} vs ${signed(before.all.truePerSkill)}`,
            ok: f.truePerSkill >= before.all.truePerSkill - EPS,
          }
        : {
            what: `p = ${TARGETS.level}: true gain per skill >= the baseline build's`,
            value: 'not checked: needs --baseline-ref',
            ok: undefined,
          },
    );
    costRatio(TARGETS.level, 1.25);
    const mine = noisy.all.laterCallsPerNight;
    const theirs = at(TARGETS.level, original)?.all.laterCallsPerNight;
    if (Number.isFinite(mine) && Number.isFinite(theirs))
      out.push({
        what: `p = ${TARGETS.level}: calls per later night (the same project again) <= 1.25 x the original's`,
        value: `${Math.round(mine)} vs ${Math.round(theirs)} (${fmt(mine / theirs, 2)} x)`,
        ok: mine / theirs <= 1.25 + EPS,
      });
    // What a nightly schedule pays: a project's first night once, then nights like the later ones. A week is
    // the shortest schedule the issue's users weigh (a tool too dear nightly gets cut to weekly).
    if (Number.isFinite(mine) && Number.isFinite(theirs)) {
      const week = (f.callsPerNight + 6 * mine) / 7;
      const weekOriginal = (at(TARGETS.level, original).all.callsPerNight + 6 * theirs) / 7;
      out.push({
        what: `p = ${TARGETS.level}: calls per night over a week of nightly runs (the first night, then 6 like the later ones) <= 1.25 x the original's`,
        value: `${Math.round(week)} vs ${Math.round(weekOriginal)} (${fmt(week / weekOriginal, 2)} x)`,
        ok: week / weekOriginal <= 1.25 + EPS,
      });
    }
    const later = noisy.all.later;
    if (later.skills > 0)
      out.push({
        what: `p = ${TARGETS.level}: later nights, shipped but not better <= ${TARGETS.notBetterPer10} per 10 shipped`,
        value: `${fmt(later.shipped ? (10 * later.notBetter) / later.shipped : NaN, 1)} per 10 (${later.notBetter} of ${later.shipped})`,
        ok: later.shipped > 0 && (10 * later.notBetter) / later.shipped <= TARGETS.notBetterPer10,
      });
  }
  const clean = at(0, current);
  const cleanOriginal = at(0, original);
  if (clean && cleanOriginal) {
    const lost = [...cleanOriginal.all.shippedSet].filter((s) => !clean.all.shippedSet.has(s));
    const added = [...clean.all.shippedSet].filter((s) => !cleanOriginal.all.shippedSet.has(s));
    out.push({
      what: "p = 0: the same skills ship as under the original's rule, with the same true gain",
      value:
        `${clean.all.shipped} vs ${cleanOriginal.all.shipped} shipped; ${lost.length} lost, ${added.length} added; ` +
        `true gain ${signed(clean.all.truePerSkill)} vs ${signed(cleanOriginal.all.truePerSkill)} per skill`,
      ok: lost.length === 0 && clean.all.truePerSkill >= cleanOriginal.all.truePerSkill - 0.005,
    });
    costRatio(0, 1.1);
  }
  const loud = at(0.3, current);
  const loudOriginal = at(0.3, original);
  if (loud && loudOriginal) {
    trust(0.3);
    out.push({
      what: "p = 0.3: total true gain >= the original's real gains (its shipped skills that are truly better)",
      value: `${signed(loud.all.trueTotal)} vs ${signed(loudOriginal.all.realTotal)} (the original's all PRs: ${signed(loudOriginal.all.trueTotal)})`,
      ok: loud.all.trueTotal >= loudOriginal.all.realTotal - EPS,
    });
    costRatio(0.3, 1.25);
  }
  return out;
}

/** Per build and level: the share of the same build's noise-free true gain the level captured. */
function captureLines(groups) {
  const lines = [];
  for (const g of groups) {
    if (g.p === 0) continue;
    const clean = groups.find((c) => c.p === 0 && c.build === g.build);
    if (!clean || !(clean.all.trueTotal > EPS)) continue;
    lines.push(
      `p=${g.p} ${g.build}: ${fmt((100 * g.all.trueTotal) / clean.all.trueTotal, 0)} % of the noise-free night's true gain ` +
        `(${signed(g.all.trueTotal)} of ${signed(clean.all.trueTotal)})`,
    );
  }
  return lines;
}

const LEAVES_OUT = [
  'What this benchmark leaves out:',
  '- It is a simulated world, not real models: the editor draws each edit from three kinds (a real improvement',
  `  ${DEFAULTS.goodEdit * 100} % of the time when one exists, harmful ${DEFAULTS.harmfulEdit * 100} %, else neutral); a render is the list of`,
  '  rule lines its SKILL.md carries plus a trial nonce; the truth is a fixed table of which line makes which',
  '  assertion pass in which scenario.',
  '- The grader\'s noise model is one flip probability p per verdict, a share of it ("sticky") decided by',
  '  (render, assertion) so that re-grading the same render repeats the mistake; real graders also err',
  '  systematically on a text (every render of it), which no re-measurement removes, and that is not modelled.',
  '- Edits never change the structural score (the true composite gain is 0.6 x the true weighted gain); no',
  '  `check` assertions, no holdout scenarios, no calibration, no costs, no latency (calls are answered at once).',
  "- With --nights n, the later nights are scored against the texts they started from (each build's own",
  "  first-night ships), so they compare the builds' schedules, not the same starting texts.",
];

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const loadAtStart = loadLine();
  const head = git(REPO, 'rev-parse', '--short', 'HEAD');
  const current = `this build (${head})`;
  const original = "original's rule";
  // The original's rule is this build with `--keep-rule original --trials 1`: the original call for call.
  const builds = [
    { label: current, root: REPO, extraArgs: [] },
    { label: original, root: REPO, extraArgs: ['--keep-rule', 'original', '--trials', '1'] },
    ...args.also,
  ];
  let baseline;
  if (args.baselineRef) {
    baseline = await prepareBaseline(REPO, args.baselineRef, (m) => console.error(m));
    builds.unshift({ label: `baseline ${baseline.sha.slice(0, 7)}`, root: baseline.root, extraArgs: [] });
  }
  try {
    // Interleaved (each seed and level runs every build), so a load spike hits both builds alike.
    const tasks = [];
    for (let seed = 1; seed <= args.seeds; seed++)
      for (const p of args.levels) for (const build of builds) tasks.push({ build, seed, p });
    const nights = [];
    let nextTask = 0;
    const worker = async () => {
      while (nextTask < tasks.length) {
        const t = tasks[nextTask++];
        nights.push(await oneNight(t.build, t.seed, t.p, args));
        if (!args.verbose && !args.json) process.stderr.write('.');
      }
    };
    await Promise.all(Array.from({ length: Math.min(args.jobs, tasks.length) }, worker));
    if (!args.verbose && !args.json) process.stderr.write('\n');

    const groups = [];
    for (const p of args.levels)
      for (const build of builds) {
        const own = nights
          .filter((n) => n.p === p && n.build === build.label)
          .sort((a, b) => a.seed - b.seed);
        groups.push({ p, build: build.label, all: figures(own), perSeed: own.map((n) => figures([n])) });
      }
    const verdicts = verdictsFor(groups, current, original, baseline ? builds[0].label : undefined);
    const wallSeconds = (performance.now() - started) / 1000;
    const failedRuns = nights.filter((n) => n.code !== 0 && n.code !== 1);
    if (args.json) {
      const plain = (f) => ({ ...f, shippedSet: [...f.shippedSet] });
      console.log(
        JSON.stringify(
          {
            args,
            load: { start: loadAtStart, end: loadLine() },
            wallSeconds,
            groups: groups.map((g) => ({ ...g, all: plain(g.all), perSeed: g.perSeed.map(plain) })),
            verdicts,
          },
          null,
          2,
        ),
      );
    } else {
      console.log(
        `bench:quality — ${args.skills} skills x ${args.seeds} seeds per level, ${args.iterations} iterations per ` +
          `skill, provider ${args.provider}, sticky share ${args.sticky}; ${nights.length} ${args.nights > 1 ? `projects x ${args.nights} nights` : 'nights'} (CLI runs) in ` +
          `${wallSeconds.toFixed(0)} s; load average ${loadAtStart} at the start, ${loadLine()} at the end.`,
      );
      console.log(
        'Each skill: 6 assertions x 6 scenarios, all model-graded. Gains are composite (0.4 structural + 0.6 graded);',
      );
      console.log(
        'claimed and true gain are means over shipped skills; calls / iter. is every call of the night (baseline\n' +
          'and confirmation included) over its iterations; (a–b) is the spread across seeds.\n',
      );
      console.log(
        table(
          [
            'p',
            'build',
            'shipped',
            'real gains',
            'shipped, not better (worse)',
            'false keeps',
            'claimed gain',
            'true gain',
            'true gain / skill',
            'calls / iter.',
            'calls / +0.01 true',
            'calls / night',
          ],
          groupRows(groups),
        ),
      );
      console.log('');
      for (const g of groups) {
        const r = g.all.byRole;
        console.log(
          `p=${g.p} ${g.build}: per night ${Math.round(r.editor)} editor, ${Math.round(r.render)} render, ` +
            `${Math.round(r.grader)} grader calls; ${fmt(g.all.wallSeconds, 0)} s per night` +
            (g.all.untracedKeeps
              ? `; ${g.all.untracedKeeps} keeps not traced to an edit (counted as false)`
              : ''),
        );
      }
      if (args.nights > 1) {
        console.log('');
        for (const g of groups)
          console.log(
            `p=${g.p} ${g.build}: nights 2–${args.nights} on the same projects, ` +
              `${Math.round(g.all.laterCallsPerNight)} calls per night ` +
              `(the first: ${Math.round(g.all.callsPerNight)}); shipped ${g.all.later.shipped} of ` +
              `${g.all.later.skills}, ${g.all.later.notBetter} not better (${g.all.later.worse} worse), ` +
              `true gain in all ${signed(g.all.later.trueTotal)}`,
          );
      }
      console.log('');
      for (const line of captureLines(groups)) console.log(line);
      console.log('\nTargets (this build, issue 28):');
      for (const v of verdicts)
        console.log(`  ${v.ok === undefined ? '----' : v.ok ? 'PASS' : 'MISS'}  ${v.what}: ${v.value}`);
      if (failedRuns.length)
        console.log(
          `\n${failedRuns.length} CLI runs exited with an unexpected code: ${failedRuns.map((n) => n.code).join(', ')}`,
        );
      console.log(`\n${LEAVES_OUT.join('\n')}`);
    }
    if (verdicts.some((v) => v.ok === false)) process.exitCode = 1;
  } finally {
    await baseline?.cleanup();
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`bench:quality: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  console.error(`bench:quality failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
