#!/usr/bin/env node
/**
 * `npm run bench:iterate`: how much the skill-iterate engine itself costs on top of the models.
 *
 * Runs the real engine (runIterate with the CLI's local ports: lock, worktree, commits, results.tsv,
 * keep/revert, squash-merge, summary) in a temporary git repository, on a generated skill with 10 scenarios
 * and 20 assertions, against a scripted model that answers every call after a fixed delay. It prints:
 *   - model calls per iteration      target: exactly 1 + scenarios + scenarios-with-model-graded-assertions
 *   - wall time / critical path      target: <= 1.2, the critical path being 3 model latencies at N=1
 *                                     (propose, then render and grade of the slowest scenario)
 *   - engine overhead per iteration  target: <= 150 ms (wall minus the model time measured on the critical
 *                                     path: the editor call plus the slowest scenario's render and grade)
 * Iterations are measured from one editor call to the next, so each figure covers a whole cycle: propose,
 * apply, commit, score, results.tsv, keep/revert. Concurrency is set to the scenario count so that every
 * scenario's render and grade can run at once, which is what makes the critical path 3 latencies.
 *
 * Options: --latency <ms> (200), --iterations <n> (6), --json, --verbose, --keep (leave the temporary
 * repository, with its results.tsv and morning summary, and print where). Exit code 1 when a target fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SKILL = 'bench-skill';
const SCENARIOS = 10;
const ASSERTIONS = 20;
/** Assertions 1..5 are decided by code (`check`); 6..20 go to the grader. */
const CHECKED = 5;
/** The last two scenarios expect only checked assertions, so they need a render but no grader call. */
const CHECK_ONLY_SCENARIOS = 2;
/** Never fixed by the editor: keeps one pair failing so the N=3 saturation handler never fires. */
const NEVER_FIXED = ASSERTIONS;
const TARGET_RATIO = 1.2;
const TARGET_OVERHEAD_MS = 150;

/** A bad command line: reported as one line, without a stack trace. */
class UsageError extends Error {}

function parseArgs(argv) {
  const args = { latency: 200, iterations: 6, json: false, verbose: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} expects a positive integer`);
      return n;
    };
    if (flag === '--latency') args.latency = value();
    else if (flag === '--iterations') args.iterations = Math.max(2, value());
    else if (flag === '--json') args.json = true;
    else if (flag === '--verbose') args.verbose = true;
    else if (flag === '--keep') args.keep = true;
    else
      throw new UsageError(
        `unknown option ${flag} (expected --latency <ms>, --iterations <n>, --json, --verbose, --keep)`,
      );
  }
  return args;
}

// ---------------------------------------------------------------------------------------------------------
// The generated skill

function modelGradedIdsFor(k) {
  const span = ASSERTIONS - CHECKED;
  return [0, 5, 10].map((offset) => CHECKED + 1 + ((k + offset) % span));
}

function generateEvals() {
  const checks = [
    { type: 'contains', value: '## Result' },
    { type: 'icontains', value: 'SCENARIO' },
    { type: 'not-contains', value: 'TODO' },
    { type: 'regex', value: '^## Result$', flags: 'm' },
    { type: 'max-lines', value: 400 },
  ];
  const assertion = (id) => ({
    id,
    statement: id <= CHECKED ? `Checked property ${id} holds.` : `The output applies rule ${id}.`,
    source: `SKILL.md, rule ${id}`,
    defect_type: id <= CHECKED ? 'format' : 'content',
    ...(id <= CHECKED ? { check: checks[id - 1] } : {}),
  });
  const ids = Array.from({ length: ASSERTIONS }, (_, i) => i + 1);
  const evals = {
    skill: SKILL,
    version: '2.0',
    categories: [
      { name: 'Output format', weight: 0.4, evals: ids.filter((id) => id <= 8).map(assertion) },
      { name: 'Content', weight: 0.6, evals: ids.filter((id) => id > 8).map(assertion) },
    ],
  };
  const scenarios = Array.from({ length: SCENARIOS }, (_, i) => {
    const k = i + 1;
    const checkOnly = k > SCENARIOS - CHECK_ONLY_SCENARIOS;
    const expected = checkOnly ? [1, 2, 3] : [1, 2, 4, ...modelGradedIdsFor(k)];
    return {
      id: `scenario_${k}`,
      name: `Scenario ${k}`,
      description: `Generated scenario ${k}`,
      context: `Request ${k}: apply the skill to this input.`,
      expected_assertions: [...new Set(expected)].sort((a, b) => a - b),
    };
  });
  if (!scenarios.some((s) => s.expected_assertions.includes(NEVER_FIXED))) {
    throw new Error('bench setup: the never-fixed assertion must be expected somewhere');
  }
  return { evals, scenarios: { skill: SKILL, version: '1.0', scenarios } };
}

const SKILL_MD = `---
name: ${SKILL}
description: A generated skill for the skill-iterate benchmark.
---

# Bench skill

Apply the rules below to every request and report the result.

## Steps

1. Read the request.
2. Apply every rule.
3. Write the result under a Result heading.

## Rules

- Keep the answer short.

## Constraints

- Never leave TODO markers.

## Limitations

- Generated for benchmarking only.
`;

/** Expected model calls: the editor once, a render per scenario, a grader call per scenario needing one. */
function expectedCalls(scenarios, evals) {
  const checked = new Set(evals.categories.flatMap((c) => c.evals.filter((a) => a.check).map((a) => a.id)));
  const graded = scenarios.scenarios.filter((s) =>
    s.expected_assertions.some((id) => !checked.has(id)),
  ).length;
  return {
    scenarios: scenarios.scenarios.length,
    graded,
    iteration: 1 + scenarios.scenarios.length + graded,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The scripted models: fixed latency, deterministic answers, every call timed

const ruleToken = (id) => `[rule-${id}]`;

function scriptedHandlers() {
  return {
    propose(input, index) {
      const anchor = '## Rules\n';
      const target = input.topFailure?.assertion_id;
      // Alternate a targeted fix (a keep) with a neutral note (equal score, more lines: a revert).
      const fix = index % 2 === 0 && target !== undefined && target !== NEVER_FIXED;
      const line = fix ? `- Apply ${ruleToken(target)} to every answer.` : `- Note ${index}: be concise.`;
      return {
        description: fix
          ? `Add rule ${target} for assertion ${target}; keeps passing pairs intact`
          : `Add note ${index}; no passing pair touched`,
        old_string: anchor,
        new_string: `${anchor}\n${line}\n`,
      };
    },
    render(input) {
      const rules = input.skillMd.match(/\[rule-\d+\]/g) ?? [];
      return `## Result\nScenario ${input.scenario.id}\n${rules.join(' ')}\n`;
    },
    grade(input) {
      const verdicts = {};
      for (const a of input.assertions) {
        const verdict = input.output.includes(ruleToken(a.id));
        verdicts[String(a.id)] = { verdict, reason: verdict ? 'rule applied' : 'rule missing from output' };
      }
      return { verdicts };
    },
  };
}

function timedModels(inner) {
  const events = [];
  const wrap = (role) => async (input, signal) => {
    const event = { role, scenario: input.scenario?.id, start: performance.now(), end: NaN };
    events.push(event);
    try {
      return await inner[role](input, signal);
    } finally {
      event.end = performance.now();
    }
  };
  const models = {
    label: `scripted (fixed latency)`,
    structuralOnly: false,
    renderModelId: inner.renderModelId,
    propose: wrap('propose'),
    render: wrap('render'),
    grade: wrap('grade'),
  };
  return { models, events };
}

// ---------------------------------------------------------------------------------------------------------
// The project

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

async function createProject(root) {
  const project = path.join(root, 'project');
  const skillDir = path.join(project, '.claude', 'skills', SKILL);
  await mkdir(path.join(skillDir, 'evals'), { recursive: true });
  const { evals, scenarios } = generateEvals();
  await writeFile(path.join(skillDir, 'SKILL.md'), SKILL_MD);
  await writeFile(path.join(skillDir, 'evals', 'evals.json'), `${JSON.stringify(evals, null, 2)}\n`);
  await writeFile(
    path.join(skillDir, 'evals', 'test_scenarios.json'),
    `${JSON.stringify(scenarios, null, 2)}\n`,
  );
  await writeFile(
    path.join(project, '.gitignore'),
    'worktree_*/\n.skill-iterate.lock\n.claude/skills/*/evals/results.tsv\n',
  );
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'bench skill');
  return { project, evals, scenarios };
}

// ---------------------------------------------------------------------------------------------------------
// Measurement

function summarize(events, runEnd, latency) {
  const proposes = events.filter((e) => e.role === 'propose').sort((a, b) => a.start - b.start);
  const starts = proposes.map((e) => e.start);
  const baselineCalls = events.filter((e) => e.start < (starts[0] ?? Infinity)).length;
  const iterations = starts.map((start, i) => {
    const next = starts[i + 1] ?? Infinity;
    const calls = events.filter((e) => e.start >= start && e.start < next);
    const complete = Number.isFinite(next);
    const duration = (e) => e.end - e.start;
    const scenarioIds = [...new Set(calls.filter((e) => e.scenario !== undefined).map((e) => e.scenario))];
    // Model time along the longest chain: the editor call, then one scenario's render and its grade.
    const chain = (id) =>
      ['render', 'grade']
        .map((role) =>
          Math.max(0, ...calls.filter((e) => e.role === role && e.scenario === id).map(duration)),
        )
        .reduce((a, b) => a + b, 0);
    const modelMs =
      calls.filter((e) => e.role === 'propose').reduce((a, e) => a + duration(e), 0) +
      Math.max(0, ...scenarioIds.map(chain));
    return {
      iteration: i + 1,
      calls: calls.length,
      byRole: Object.fromEntries(
        ['propose', 'render', 'grade'].map((r) => [r, calls.filter((e) => e.role === r).length]),
      ),
      // The last iteration has no next editor call; its tail (ship, summary) is not an iteration cost.
      wallMs: complete ? Math.round(next - start) : undefined,
      criticalModelMs: Math.round(modelMs),
      // Where the overhead sits: apply + commit before scoring; results.tsv, keep/revert and the next
      // prompt after it.
      editToScoreMs: Math.round(
        Math.min(...calls.filter((e) => e.role === 'render').map((e) => e.start)) -
          Math.max(...calls.filter((e) => e.role === 'propose').map((e) => e.end)),
      ),
      scoreToNextEditMs: complete ? Math.round(next - Math.max(...calls.map((e) => e.end))) : undefined,
    };
  });
  const cycles = iterations.filter((it) => it.wallMs !== undefined);
  const critical = 3 * latency;
  const walls = cycles.map((c) => c.wallMs);
  const average = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const mean = average(walls);
  const criticalModelMs = average(cycles.map((c) => c.criticalModelMs));
  return {
    baselineCalls,
    iterations,
    criticalPathMs: critical,
    meanWallMs: mean,
    maxWallMs: Math.max(...walls),
    ratio: mean / critical,
    maxRatio: Math.max(...walls) / critical,
    criticalModelMs,
    // Engine overhead is measured against the model time actually spent on the critical path, so the
    // scripted model's own timer slack is not charged to the engine.
    overheadMs: mean - criticalModelMs,
    editToScoreMs: average(cycles.map((c) => c.editToScoreMs)),
    scoreToNextEditMs: average(cycles.map((c) => c.scoreToNextEditMs)),
    runEndMs: runEnd,
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

// ---------------------------------------------------------------------------------------------------------

async function loadEngine() {
  const build = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'build');
  const load = (p) => import(pathToFileURL(path.join(build, p)).href);
  const [{ runIterate }, { createLocalPorts }, { createScriptedModels }] = await Promise.all([
    load('iterate/run.js'),
    load('adapters/local/ports.js'),
    load('llm/scripted.js'),
  ]);
  return { runIterate, createLocalPorts, createScriptedModels };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  // The engine commits in the benchmark repository; a bare CI machine may have no git identity.
  process.env.GIT_AUTHOR_NAME ??= 'skillclimb bench';
  process.env.GIT_AUTHOR_EMAIL ??= 'bench@skillclimb.invalid';
  process.env.GIT_COMMITTER_NAME ??= process.env.GIT_AUTHOR_NAME;
  process.env.GIT_COMMITTER_EMAIL ??= process.env.GIT_AUTHOR_EMAIL;

  const engine = await loadEngine();
  const root = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-bench-'));
  try {
    const { project, evals, scenarios } = await createProject(root);
    const expected = expectedCalls(scenarios, evals);
    const scripted = engine.createScriptedModels({
      ...scriptedHandlers(),
      delayMs: args.latency,
      usagePerCall: { inputTokens: 1000, outputTokens: 200 },
    });
    const { models, events } = timedModels(scripted);
    const progress = [];
    const warnings = [];
    const log = {
      info: () => {},
      warn: (m) => warnings.push(m),
      progress: (m) => {
        progress.push(m);
        if (args.verbose) console.error(m);
      },
    };
    const options = {
      project,
      skill: SKILL,
      queueFile: undefined,
      perSkillBudgetMs: 3_600_000,
      perSkillIterations: args.iterations,
      skipList: [],
      calibrate: false,
      dryRun: false,
      mode: 'composite',
      concurrency: SCENARIOS,
      iterationTimeoutMs: 600_000,
      worktreeHome: root,
      maxCostUsd: undefined,
    };
    const ports = engine.createLocalPorts(options, { models, log });
    const t0 = performance.now();
    let run;
    try {
      run = await engine.runIterate(options, ports);
    } catch (error) {
      if (/not implemented/.test(error?.message ?? '')) {
        console.error('bench:iterate: the engine (src/iterate/run.ts) is not implemented yet in build/.');
        process.exitCode = 2;
        return;
      }
      throw error;
    }
    const m = summarize(events, performance.now() - t0, args.latency);
    const skill = run.results[0];
    const outcomes = {};
    for (const row of skill?.rows ?? []) outcomes[row.status] = (outcomes[row.status] ?? 0) + 1;

    const callsOk = m.iterations.length > 0 && m.iterations.every((it) => it.calls === expected.iteration);
    const ratioOk = m.ratio <= TARGET_RATIO;
    const overheadOk = m.overheadMs <= TARGET_OVERHEAD_MS;
    const verdict = (ok) => (ok ? 'PASS' : 'FAIL');
    const callCounts = [...new Set(m.iterations.map((it) => it.calls))].join(', ');

    if (args.json) {
      console.log(
        JSON.stringify(
          {
            latencyMs: args.latency,
            concurrency: SCENARIOS,
            scenarios: expected.scenarios,
            assertions: ASSERTIONS,
            expectedCallsPerIteration: expected.iteration,
            baselineCalls: m.baselineCalls,
            iterations: m.iterations,
            criticalPathMs: m.criticalPathMs,
            meanWallMs: m.meanWallMs,
            ratio: m.ratio,
            criticalModelMs: m.criticalModelMs,
            overheadMs: m.overheadMs,
            editToScoreMs: m.editToScoreMs,
            scoreToNextEditMs: m.scoreToNextEditMs,
            outcomes,
            pass: { calls: callsOk, ratio: ratioOk, overhead: overheadOk },
          },
          null,
          2,
        ),
      );
    } else {
      console.log(
        `skill-iterate benchmark: ${expected.scenarios} scenarios, ${ASSERTIONS} assertions ` +
          `(${CHECKED} checked in code, ${ASSERTIONS - CHECKED} model-graded; ${expected.graded} scenarios need ` +
          `the grader), ${args.latency} ms per model call, concurrency ${SCENARIOS}, ${m.iterations.length} iterations\n`,
      );
      console.log(
        table([
          ['figure', 'measured', 'target', 'result'],
          [
            'model calls per iteration',
            callCounts,
            `= ${expected.iteration} (1 + ${expected.scenarios} + ${expected.graded})`,
            verdict(callsOk),
          ],
          [
            `wall / critical path (3 x ${args.latency} ms)`,
            `${m.ratio.toFixed(3)} (max ${m.maxRatio.toFixed(3)})`,
            `<= ${TARGET_RATIO}`,
            verdict(ratioOk),
          ],
          [
            'engine overhead per iteration',
            `${Math.round(m.overheadMs)} ms (wall ${Math.round(m.meanWallMs)} - model ${Math.round(m.criticalModelMs)})`,
            `<= ${TARGET_OVERHEAD_MS} ms`,
            verdict(overheadOk),
          ],
        ]),
      );
      const perIteration = m.iterations
        .map(
          (it) =>
            `#${it.iteration} ${it.calls} calls${it.wallMs === undefined ? '' : ` ${Math.round(it.wallMs)} ms`}`,
        )
        .join(' | ');
      console.log(
        `\nbaseline: ${m.baselineCalls} calls (expected ${expected.iteration - 1}); ` +
          `outcomes: ${
            Object.entries(outcomes)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ') || 'none'
          }; ` +
          `skill status: ${skill?.status ?? 'not processed'}; whole run ${(m.runEndMs / 1000).toFixed(1)} s`,
      );
      console.log(`per iteration: ${perIteration}`);
      console.log(
        `overhead split (mean): ${Math.round(m.editToScoreMs)} ms from the edit to the first render ` +
          `(apply, commit), ${Math.round(m.scoreToNextEditMs)} ms from the last grade to the next edit ` +
          `(results.tsv, keep/revert, next prompt); the rest is scheduling inside scoring`,
      );
      if (warnings.length > 0) console.log(`engine warnings: ${warnings.join(' / ')}`);
    }
    if (!(callsOk && ratioOk && overheadOk)) process.exitCode = 1;
  } finally {
    if (args.keep) console.error(`bench repository kept at ${root}`);
    else await rm(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(
    error instanceof UsageError
      ? `bench:iterate: ${error.message}`
      : `bench:iterate failed: ${error?.stack ?? error}`,
  );
  process.exitCode = 1;
});
