#!/usr/bin/env node
/**
 * `npm run bench:iterate`: what a skill-iterate run costs on top of its models, measured over real HTTP.
 *
 * Each run is a child process running the REAL engine of a build (runIterate with the CLI's local ports:
 * lock, worktree, commits, results.tsv, keep/revert, squash-merge, summary) and the REAL provider layer
 * (createModels: the AI SDK, retries, structured output, prompt caching) against a loopback model server
 * that holds every answer for a fixed latency (scripts/lib/latency-model-server.mjs) and reports prompt
 * caching the way the providers do. The skill has 10 scenarios and 20 assertions (scripts/lib/bench-skill.mjs).
 *
 * Per build, settings (the build's default concurrency, and full parallelism) and profile (targeted, and
 * saturating: every iteration passes everything and is re-graded three times), over three repetitions, it
 * prints min / median / max of:
 *   - model calls per iteration vs the minimum: 1 + scenarios + model-graded scenarios (+ 3 x model-graded
 *     scenarios when the iteration saturates)
 *   - wall / critical path: the critical path is 3 model latencies (editor, then one scenario's render and
 *     grade), 4 when the iteration saturates (the re-grade waits for the first grade); the baseline's is 2,
 *     and its wall is what the iterations wait for: from the night's first call to the first editor call's
 *     start (the uplift's draw, a report, may run beside the first iteration and is left out of its calls,
 *     as are the baseline's own draws beyond draw 0 that run beside the first editor call: calls on the
 *     unmodified SKILL.md in the first iteration; the line says how many calls came before the first
 *     editor call and how many of the baseline's beside it)
 *   - model rounds per iteration: the calls on the longest chain of calls each sent after the one before it
 *     was answered (the critical path's 3 or 4, one or two more when the screening renders the rest of the
 *     scenarios after its batch is graded; docs/how-it-works.md § Decisions under noise)
 *   - engine overhead per iteration: wall minus the model time on that chain (a model round the design
 *     waits for is not engine time), with where it sits; the wall / critical path ratio keeps the nominal
 *     3 or 4 latencies, so an extra round shows there
 *   - the iteration the uplift's draw runs beside (the first) is left out of the per-iteration figures, as its
 *     calls are; how much more engine overhead it had is printed apart
 *   - prompt tokens per role per iteration, characters per editor prompt, the cached-token share
 *   - the child's maximum resident set size
 * and the time of `git worktree add` + `remove` on a 30-file and a 1,500-file repository.
 *
 * --baseline-ref <commit> builds that commit in a temporary git worktree and runs the same bench against it,
 * interleaved with this build, so the before and after figures come from the same machine in the same run.
 *
 * Options: --latency <ms> (200), --iterations <n> (5), --repetitions <n> (3), --baseline-ref <commit>,
 * --provider anthropic|openai|openai-compatible (anthropic), --profile targeted|saturating|all (all),
 * --settings default|full|all (all), --no-worktrees, --json, --verbose, --cpu-prof <dir> (each run's child writes
 * a V8 CPU profile there, for finding where the engine overhead goes), --timeline <file> (each run's calls
 * appended there, a line each: received, answered, role, scenario).
 * Exit code 1 when a target of this build at its default settings is missed, 2 for a bad command line.
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prepareBaseline } from './lib/baseline-build.mjs';
import { flagReader } from './lib/bench-project.mjs';
import {
  PROFILES,
  SKILL,
  createResponder,
  expectedCalls,
  isBaselineTextCall,
  isUpliftCall,
  roleOf,
  scenarioOf,
} from './lib/bench-skill.mjs';
import { startLatencyModelServer } from './lib/latency-model-server.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = path.join(REPO, 'scripts', 'lib', 'bench-iterate-child.mjs');
/** "Full parallelism": the most skillclimb.config.json allows. */
const FULL_CONCURRENCY = 64;
const TARGETS = { ratio: 1.1, baselineRatio: 1.25, overheadMs: 50, editorShare: 0.5, worktreeRatio: 2 };
const ROLES = ['editor', 'render', 'grader'];
const SPLIT = ['beforeScoring', 'renderToGrade', 'betweenRounds', 'afterScoring'];
const WORKTREE_SIZES = [30, 1500];
const WORKTREE_REPS = 5;

class UsageError extends Error {}

function parseArgs(argv) {
  const args = {
    latency: 200,
    iterations: 5,
    repetitions: 3,
    baselineRef: undefined,
    provider: 'anthropic',
    profiles: PROFILES,
    settings: ['default', 'full'],
    worktrees: true,
    json: false,
    verbose: false,
    cpuProf: undefined,
    timeline: undefined,
  };
  const flags = flagReader(argv, UsageError);
  for (let flag = flags.next(); flag !== undefined; flag = flags.next()) {
    const { value, int } = flags;
    const oneOf = (choices) => {
      const v = value();
      if (v === 'all') return choices;
      if (!choices.includes(v)) throw new UsageError(`${flag} expects ${choices.join(', ')} or all`);
      return [v];
    };
    if (flag === '--latency') args.latency = int();
    else if (flag === '--iterations') args.iterations = Math.max(2, int());
    else if (flag === '--repetitions') args.repetitions = int();
    else if (flag === '--baseline-ref') args.baselineRef = value();
    else if (flag === '--provider') {
      args.provider = value();
      if (!['anthropic', 'openai', 'openai-compatible'].includes(args.provider))
        throw new UsageError('--provider expects anthropic, openai or openai-compatible');
    } else if (flag === '--profile') args.profiles = oneOf(PROFILES);
    else if (flag === '--settings') args.settings = oneOf(['default', 'full']);
    else if (flag === '--no-worktrees') args.worktrees = false;
    else if (flag === '--cpu-prof') args.cpuProf = path.resolve(value());
    else if (flag === '--timeline') args.timeline = path.resolve(value());
    else if (flag === '--json') args.json = true;
    else if (flag === '--verbose') args.verbose = true;
    else
      throw new UsageError(
        `unknown option ${flag} (expected --latency, --iterations, --repetitions, --baseline-ref, --provider, ` +
          '--profile, --settings, --no-worktrees, --json, --verbose, --cpu-prof, --timeline)',
      );
  }
  return args;
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const mean = (xs) => (xs.length === 0 ? NaN : sum(xs) / xs.length);
function median(xs) {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const spread = (xs) => {
  const finite = xs.filter(Number.isFinite);
  return { min: Math.min(...finite), median: median(finite), max: Math.max(...finite) };
};

// ---------------------------------------------------------------------------------------------------------
// One run

function runChild(config, cpuProf) {
  return new Promise((resolve, reject) => {
    const profile = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : [];
    const child = spawn(process.execPath, [...profile, CHILD], {
      env: { ...process.env, BENCH_CONFIG: JSON.stringify(config) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) return reject(new Error(`bench child exited ${code}: ${err.trim()}`));
      resolve(JSON.parse(line));
    });
  });
}

/**
 * The longest chain of calls in which each was sent after the one before it was answered: the model
 * rounds an iteration waited for, whatever the engine's design (the critical path's editor, render and
 * grade; a second scoring round when the screening renders the rest after its batch). Its model time is
 * the sum of the chain's call durations. A call the engine held back for longer than a whole latency
 * would also form a round here; the rounds are printed, so such a build shows more of them.
 */
function longestChain(calls) {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const best = sorted.map(() => ({ ms: 0, calls: 0 }));
  for (const [i, c] of sorted.entries()) {
    let before = { ms: 0, calls: 0 };
    for (let j = 0; j < i; j++) if (sorted[j].end <= c.start && best[j].ms > before.ms) before = best[j];
    best[i] = { ms: before.ms + (c.end - c.start), calls: before.calls + 1 };
  }
  return best.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, calls: 0 });
}

/** Per-iteration and per-role figures of one run, from what the server recorded. */
function analyse(calls, latency, expected) {
  const timed = calls
    .filter((c) => Number.isFinite(c.answeredAt))
    .map((c) => {
      const role = roleOf(c);
      return {
        role,
        scenario: scenarioOf(c, role),
        start: c.receivedAt,
        end: c.answeredAt,
        chars: c.promptChars,
        usage: c.usage ?? { total: 0, cacheRead: 0 },
        uplift: isUpliftCall(c),
        baselineText: role !== 'editor' && isBaselineTextCall(c),
      };
    })
    .sort((a, b) => a.start - b.start);
  const duration = (c) => c.end - c.start;
  const editorStarts = timed.filter((c) => c.role === 'editor').map((c) => c.start);
  const baseline = timed.filter((c) => c.start < (editorStarts[0] ?? Infinity));
  // The baseline's draws beyond draw 0 may run beside the first editor call (issue 28 item 6): calls on
  // the unmodified SKILL.md in the first iteration are the baseline's, not the iteration's.
  const baselineBeside = timed.filter(
    (c) =>
      c.baselineText && c.start >= (editorStarts[0] ?? Infinity) && c.start < (editorStarts[1] ?? Infinity),
  );
  const iterations = editorStarts.map((start, i) => {
    const next = editorStarts[i + 1] ?? Infinity;
    // The uplift's draw may run beside the first iteration: a report, not one of the iteration's calls.
    const own = timed.filter(
      (c) => c.start >= start && c.start < next && !c.uplift && !(i === 0 && c.baselineText),
    );
    // Its engine work (sending, reading, grading the report's calls) still takes this iteration's time.
    const besideUplift = timed.some((c) => c.uplift && c.start < next && c.end > start);
    const graders = own.filter((c) => c.role === 'grader');
    const saturated = graders.length > expected.graded;
    const scenarios = [...new Set(own.map((c) => c.scenario).filter(Boolean))];
    // The chain: the editor, then one scenario's render and its first grade, then (saturating) a re-grade.
    const scenarioChain = (id) => {
      const render = own.find((c) => c.role === 'render' && c.scenario === id);
      const grade = own.find((c) => c.role === 'grader' && c.scenario === id);
      return (render ? duration(render) : 0) + (grade ? duration(grade) : 0);
    };
    const firstGrades = new Set(scenarios.map((id) => graders.find((c) => c.scenario === id)));
    const regrades = graders.filter((c) => !firstGrades.has(c));
    const modelMs =
      sum(own.filter((c) => c.role === 'editor').map(duration)) +
      Math.max(0, ...scenarios.map(scenarioChain)) +
      (saturated ? Math.max(0, ...regrades.map(duration)) : 0);
    const chain = longestChain(own);
    const wallMs = Number.isFinite(next) ? next - start : undefined;
    const nominal = latency * (saturated ? 4 : 3);
    // Where the engine's time goes: before the first render (apply, commit), between a scenario's render
    // and its grade (the slowest such gap), between the screening's batch and the rest of the scenarios
    // (the batch's last answer to the first render sent after a grade was answered), after the last answer
    // (results.tsv, keep/revert, next prompt).
    const editor = own.find((c) => c.role === 'editor');
    const renders = own.filter((c) => c.role === 'render');
    const gaps = scenarios.map((id) => {
      const render = renders.find((c) => c.scenario === id);
      const grade = graders.find((c) => c.scenario === id);
      return render && grade ? grade.start - render.end : 0;
    });
    const firstGradeEnd = Math.min(...graders.map((c) => c.end));
    const restStart = Math.min(...renders.filter((c) => c.start >= firstGradeEnd).map((c) => c.start));
    const split = {
      beforeScoring: editor && renders.length ? Math.min(...renders.map((c) => c.start)) - editor.end : NaN,
      renderToGrade: Math.max(0, ...gaps),
      betweenRounds: Number.isFinite(restStart)
        ? restStart - Math.max(...own.filter((c) => c.end <= restStart).map((c) => c.end))
        : 0,
      afterScoring: Number.isFinite(next) ? next - Math.max(...own.map((c) => c.end)) : NaN,
    };
    return {
      calls: own.length,
      minimum: saturated ? expected.saturated : expected.iteration,
      saturated,
      wallMs,
      ratio: wallMs === undefined ? undefined : wallMs / nominal,
      besideUplift,
      rounds: chain.calls,
      extraRoundMs: Math.max(0, chain.ms - modelMs),
      // The model time on the chain the calls actually formed; modelMs (the nominal chain) is at most that.
      overheadMs: wallMs === undefined ? undefined : wallMs - Math.max(chain.ms, modelMs),
      split,
      tokens: Object.fromEntries(
        ROLES.map((r) => [r, sum(own.filter((c) => c.role === r).map((c) => c.usage.total ?? 0))]),
      ),
    };
  });
  const finished = iterations.filter((it) => it.wallMs !== undefined);
  // The per-iteration figures leave out an iteration the uplift's draw ran beside (the first), as its
  // calls are left out: that report's engine time is shown apart, as upliftMs.
  const alone = finished.filter((it) => !it.besideUplift);
  const complete = alone.length > 0 ? alone : finished;
  const beside = finished.filter((it) => it.besideUplift);
  // The wall the iterations wait for: from the night's first call to the first editor call's start.
  const baselineWall = baseline.length
    ? (editorStarts[0] ?? Math.max(...baseline.map((c) => c.end))) - Math.min(...baseline.map((c) => c.start))
    : NaN;
  const share = (list) => {
    const total = sum(list.map((c) => c.usage.total ?? 0));
    return total === 0 ? 0 : sum(list.map((c) => c.usage.cacheRead ?? 0)) / total;
  };
  const editors = timed.filter((c) => c.role === 'editor');
  return {
    baselineCalls: baseline.length,
    baselineBesideCalls: baselineBeside.length,
    callCounts: [...new Set(iterations.map((it) => `${it.calls}/${it.minimum}`))],
    callsOk: iterations.length > 0 && iterations.every((it) => it.calls === it.minimum),
    saturatedIterations: iterations.filter((it) => it.saturated).length,
    iterations: iterations.length,
    ratio: mean(complete.map((it) => it.ratio)),
    maxRatio: Math.max(...complete.map((it) => it.ratio)),
    overheadMs: mean(complete.map((it) => it.overheadMs)),
    upliftOnly: beside.length > 0 && alone.length === 0,
    upliftMs:
      beside.length > 0 && alone.length > 0
        ? mean(beside.map((it) => it.overheadMs)) - mean(alone.map((it) => it.overheadMs))
        : NaN,
    rounds: mean(complete.map((it) => it.rounds)),
    extraRoundMs: mean(complete.map((it) => it.extraRoundMs)),
    split: Object.fromEntries(SPLIT.map((k) => [k, mean(complete.map((it) => it.split[k]))])),
    baselineRatio: baselineWall / (2 * latency),
    tokens: Object.fromEntries(ROLES.map((r) => [r, mean(complete.map((it) => it.tokens[r]))])),
    editorChars: mean(editors.map((c) => c.chars)),
    cachedShare: share(timed),
    cachedShareByRole: Object.fromEntries(ROLES.map((r) => [r, share(timed.filter((c) => c.role === r))])),
  };
}

/**
 * --timeline: every call of one run, a line each — when the server received it and answered it (ms from
 * the run's first call), its role and scenario, and whether it was the uplift's — for seeing which calls
 * waited for which.
 */
async function appendTimeline(file, title, calls) {
  const t0 = Math.min(...calls.map((c) => c.receivedAt));
  const lines = [...calls]
    .sort((a, b) => a.receivedAt - b.receivedAt)
    .map((c) => {
      const role = roleOf(c);
      const at = (t) => (Number.isFinite(t) ? (t - t0).toFixed(0) : '-').padStart(7);
      return `${at(c.receivedAt)} ${at(c.answeredAt)}  ${role} ${scenarioOf(c, role) ?? ''}${isUpliftCall(c) ? ' (uplift)' : ''}`;
    });
  await appendFile(file, `# ${title}: received, answered (ms), role, scenario\n${lines.join('\n')}\n\n`);
}

async function oneRun(build, setting, profile, args, expected) {
  const server = await startLatencyModelServer({
    latencyMs: args.latency,
    respond: createResponder(profile),
  });
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-bench-'));
  try {
    const child = await runChild(
      {
        build: build.build,
        serverUrl: server.url,
        provider: args.provider,
        profile,
        concurrency: setting === 'full' ? FULL_CONCURRENCY : null,
        iterations: args.iterations,
        root,
      },
      args.cpuProf,
    );
    const figures = analyse(server.calls, args.latency, expected);
    if (args.timeline)
      await appendTimeline(args.timeline, `${build.label}, ${setting}, ${profile}`, server.calls);
    if (args.verbose)
      console.error(
        `${build.label} ${setting} ${profile}: ${figures.callCounts.join(', ')} calls, ratio ` +
          `${figures.ratio.toFixed(3)}, ${figures.rounds.toFixed(1)} model rounds, overhead ` +
          `${Math.round(figures.overheadMs)} ms, ${child.status}`,
      );
    return { ...figures, concurrency: child.concurrency, maxRssMb: child.maxRssKb / 1024, child };
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Worktree creation and removal on a small and a large repository

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function repositoryWithFiles(root, files) {
  const project = path.join(root, `repo-${files}`);
  const skillDir = path.join(project, '.claude', 'skills', SKILL);
  await mkdir(path.join(skillDir, 'evals'), { recursive: true });
  await writeFile(path.join(skillDir, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: d\n---\n# x\n`);
  for (let i = 0; i < files; i++) {
    const dir = path.join(project, 'src', `module-${i % 40}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `file-${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'files');
  return project;
}

async function worktreeTimes(builds) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-bench-worktree-'));
  try {
    const repos = {};
    for (const size of WORKTREE_SIZES) repos[size] = await repositoryWithFiles(root, size);
    const workspaces = await Promise.all(
      builds.map(async (b) => {
        const { createGitWorkspace } = await import(
          pathToFileURL(path.join(b.build, 'git', 'workspace.js')).href
        );
        return createGitWorkspace({ warn: (m) => console.error(`warning: ${m}`) });
      }),
    );
    const times = builds.map(() => Object.fromEntries(WORKTREE_SIZES.map((s) => [s, []])));
    let epoch = 1_000_000_000;
    // Interleaved, so that a load spike on the machine hits both builds alike.
    for (let rep = 0; rep < WORKTREE_REPS; rep++) {
      for (const [i, workspace] of workspaces.entries()) {
        for (const size of WORKTREE_SIZES) {
          const t0 = performance.now();
          await workspace.withWorktree(
            // As the engine asks for it (a build that predates sparse worktrees ignores `sparse`).
            {
              project: repos[size],
              home: path.join(root, 'home'),
              skill: SKILL,
              epoch: epoch++,
              sparse: [`.claude/skills/${SKILL}`],
            },
            async () => undefined,
          );
          times[i][size].push(performance.now() - t0);
        }
      }
    }
    return builds.map((b, i) => {
      const medians = Object.fromEntries(WORKTREE_SIZES.map((s) => [s, median(times[i][s])]));
      return { label: b.label, medians, ratio: medians[1500] / medians[30] };
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Output

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

const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const trio = (s, digits = 0, unit = '') =>
  `${fmt(s.min, digits)} / ${fmt(s.median, digits)} / ${fmt(s.max, digits)}${unit}`;
const pct = (x) => `${fmt(100 * x, 0)} %`;
const loadLine = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function summarise(runs) {
  const pick = (f) => spread(runs.map(f));
  return {
    concurrency: runs[0].concurrency,
    callCounts: [...new Set(runs.flatMap((r) => r.callCounts))],
    callsOk: runs.every((r) => r.callsOk),
    saturatedIterations: runs.map((r) => `${r.saturatedIterations}/${r.iterations}`),
    ratio: pick((r) => r.ratio),
    maxRatio: Math.max(...runs.map((r) => r.maxRatio)),
    overheadMs: pick((r) => r.overheadMs),
    upliftMs: median(runs.map((r) => r.upliftMs)),
    upliftOnly: runs.some((r) => r.upliftOnly),
    rounds: pick((r) => r.rounds),
    extraRoundMs: median(runs.map((r) => r.extraRoundMs)),
    split: Object.fromEntries(SPLIT.map((k) => [k, median(runs.map((r) => r.split[k]))])),
    baselineRatio: pick((r) => r.baselineRatio),
    baselineCalls: median(runs.map((r) => r.baselineCalls)),
    baselineBesideCalls: median(runs.map((r) => r.baselineBesideCalls)),
    tokens: Object.fromEntries(ROLES.map((role) => [role, median(runs.map((r) => r.tokens[role]))])),
    editorChars: pick((r) => r.editorChars),
    cachedShare: pick((r) => r.cachedShare),
    cachedShareByRole: Object.fromEntries(
      ROLES.map((role) => [role, median(runs.map((r) => r.cachedShareByRole[role]))]),
    ),
    maxRssMb: pick((r) => r.maxRssMb),
    statuses: [...new Set(runs.map((r) => r.child.status))],
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const loadAtStart = loadLine();
  const expected = expectedCalls();
  const head = git(REPO, 'rev-parse', '--short', 'HEAD');
  const builds = [];
  let baseline;
  if (args.baselineRef) {
    baseline = await prepareBaseline(REPO, args.baselineRef, (m) => console.error(m));
    builds.push({ label: `baseline ${baseline.sha.slice(0, 7)}`, build: baseline.build, current: false });
  }
  builds.push({ label: `this build (${head})`, build: path.join(REPO, 'build'), current: true });
  try {
    const runs = new Map();
    const key = (b, s, p) => `${b.label}|${s}|${p}`;
    // Interleaved: each repetition runs every build, setting and profile once.
    for (let rep = 1; rep <= args.repetitions; rep++) {
      for (const build of builds)
        for (const setting of args.settings)
          for (const profile of args.profiles) {
            const run = await oneRun(build, setting, profile, args, expected);
            const k = key(build, setting, profile);
            runs.set(k, [...(runs.get(k) ?? []), run]);
          }
    }
    const worktrees = args.worktrees ? await worktreeTimes(builds) : [];
    const loadAtEnd = loadLine();

    const groups = [];
    for (const build of builds)
      for (const setting of args.settings)
        for (const profile of args.profiles)
          groups.push({
            build: build.label,
            current: build.current,
            setting,
            profile,
            ...summarise(runs.get(key(build, setting, profile))),
          });
    const baselineGroup = (g) =>
      groups.find((b) => !b.current && b.setting === g.setting && b.profile === g.profile);

    const verdicts = [];
    for (const g of groups.filter((x) => x.current && x.setting === 'default')) {
      verdicts.push({ what: `${g.profile}: model calls = minimum`, ok: g.callsOk });
      verdicts.push({
        what: `${g.profile}: wall / critical path (median) <= ${TARGETS.ratio}`,
        ok: g.ratio.median <= TARGETS.ratio,
      });
      verdicts.push({
        what: `${g.profile}: baseline / critical path (median) <= ${TARGETS.baselineRatio}`,
        ok: g.baselineRatio.median <= TARGETS.baselineRatio,
      });
      verdicts.push({
        what: `${g.profile}: engine overhead per iteration (median) <= ${TARGETS.overheadMs} ms`,
        ok: g.overheadMs.median <= TARGETS.overheadMs,
      });
      const before = baselineGroup(g);
      if (before)
        verdicts.push({
          what: `${g.profile}: editor prompt <= ${TARGETS.editorShare * 100} % of the baseline's characters`,
          ok: g.editorChars.median <= TARGETS.editorShare * before.editorChars.median,
        });
    }
    const currentWorktree = worktrees.find((w) => w.label.startsWith('this build'));
    if (currentWorktree)
      verdicts.push({
        what: `worktree add + remove: 1,500 files <= ${TARGETS.worktreeRatio} x 30 files`,
        ok: currentWorktree.ratio <= TARGETS.worktreeRatio,
      });

    const report = {
      latencyMs: args.latency,
      iterations: args.iterations,
      repetitions: args.repetitions,
      provider: args.provider,
      expected,
      loadAverage: { start: loadAtStart, end: loadAtEnd, cores: os.cpus().length },
      groups,
      worktrees,
      verdicts,
    };
    if (args.json) console.log(JSON.stringify(report, null, 2));
    else printReport(report, args);
    if (verdicts.some((v) => !v.ok)) process.exitCode = 1;
  } finally {
    await baseline?.cleanup();
  }
}

function printReport(report, args) {
  const { expected } = report;
  console.log(
    `bench:iterate — real provider layer (${args.provider}) over HTTP to a loopback model server, ` +
      `${args.latency} ms per model call, ${expected.scenarios} scenarios (${expected.graded} need the grader), ` +
      `${args.iterations} iterations, ${args.repetitions} repetitions (min / median / max)`,
  );
  console.log(
    `load average ${report.loadAverage.start} at the start, ${report.loadAverage.end} at the end ` +
      `(${report.loadAverage.cores} cores)\n`,
  );
  for (const g of report.groups) {
    const minimum =
      g.profile === 'saturating'
        ? `${expected.saturated} = 1 + ${expected.scenarios} + ${expected.graded} + 3 x ${expected.graded}`
        : `${expected.iteration} = 1 + ${expected.scenarios} + ${expected.graded}`;
    console.log(`${g.build}, ${g.setting} settings (concurrency ${g.concurrency}), ${g.profile}:`);
    console.log(
      table([
        ['  model calls per iteration', `${g.callCounts.join(', ')} (calls/minimum; minimum ${minimum})`],
        [
          `  wall / critical path`,
          `${trio(g.ratio, 3)} (${g.profile === 'saturating' ? 4 : 3} x ${args.latency} ms; worst iteration ${fmt(g.maxRatio, 3)})`,
        ],
        [
          '  model rounds per iteration',
          `${trio(g.rounds, 1)} (critical path ${g.profile === 'saturating' ? 4 : 3}; ` +
            `median ${fmt(g.extraRoundMs)} ms of model time in rounds beyond it)`,
        ],
        [
          '  engine overhead per iteration',
          `${trio(g.overheadMs, 0, ' ms')} (median split: ${fmt(g.split.beforeScoring)} ms edit to first ` +
            `render, ${fmt(g.split.renderToGrade)} ms render to grade, ${fmt(g.split.betweenRounds)} ms ` +
            `batch to rest, ${fmt(g.split.afterScoring)} ms last answer to next edit)`,
        ],
        [
          '  beside the uplift',
          g.upliftOnly
            ? "in some run every measured iteration ran beside the uplift's draw, so it is counted above " +
              '(more --iterations leave it out)'
            : Number.isFinite(g.upliftMs)
              ? `the iteration the uplift's draw ran beside is left out above; its overhead was ` +
                `${fmt(g.upliftMs)} ms more (median)`
              : "no iteration ran beside the uplift's draw",
        ],
        [
          '  baseline / critical path',
          `${trio(g.baselineRatio, 3)} (2 x ${args.latency} ms; median ${fmt(g.baselineCalls)} calls before ` +
            `the first editor call, ${fmt(g.baselineBesideCalls)} of the baseline's beside it)`,
        ],
        [
          '  prompt tokens per iteration',
          ROLES.map((r) => `${r} ${fmt(g.tokens[r])}`).join(', ') +
            ` (characters per editor prompt ${trio(g.editorChars)})`,
        ],
        [
          '  cached-token share',
          `${trio({ min: 100 * g.cachedShare.min, median: 100 * g.cachedShare.median, max: 100 * g.cachedShare.max })} % ` +
            `(${ROLES.map((r) => `${r} ${pct(g.cachedShareByRole[r])}`).join(', ')})`,
        ],
        ['  max RSS', trio(g.maxRssMb, 0, ' MB')],
        ['  outcome', `${g.statuses.join(', ')}; saturated iterations ${g.saturatedIterations.join(' ')}`],
      ]),
    );
    console.log('');
  }
  if (report.worktrees.length > 0) {
    console.log(`git worktree add + remove (median of ${WORKTREE_REPS}):`);
    console.log(
      table([
        ['  build', ...WORKTREE_SIZES.map((s) => `${s} files`), '1,500 / 30'],
        ...report.worktrees.map((w) => [
          `  ${w.label}`,
          ...WORKTREE_SIZES.map((s) => `${fmt(w.medians[s])} ms`),
          fmt(w.ratio, 2),
        ]),
      ]),
    );
    console.log('');
  }
  console.log('targets (this build, default settings):');
  for (const v of report.verdicts) console.log(`  ${v.ok ? 'PASS' : 'FAIL'}  ${v.what}`);
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`bench:iterate: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  console.error(`bench:iterate failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
