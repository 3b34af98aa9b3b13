/**
 * The orchestrator: seed phases 0–4 for a real (non-dry) run. Pre-flight and the lock, the queue, then per
 * skill: evals, optional calibration, worktree, hill-climb loop, ship gate and cleanup; the kill-switch is
 * polled between skills only; the morning summary is written on every way out, and the lock released.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EvalsFileError, loadSkillEvals, type SkillEvals } from '../core/evals.js';
import { buildCalibrationParkReport, buildCrashParkReport } from '../core/park.js';
import { formatSkillLine } from '../core/progress.js';
import { countLines, shipGate, shipMessage } from '../core/ship-gate.js';
import { showFileAt } from '../git/commits.js';
import { createWorktree, discardWorktree, type Worktree } from '../git/worktree.js';
import { ZERO_USAGE, addUsage, type Usage } from '../llm/port.js';
import { calibrateSkill } from './calibrate.js';
import { resultsTsvPath } from './freshness.js';
import { runSkillLoop, type LoopStopReason, type SkillLoopResult } from './loop.js';
import type {
  IterateOptions,
  IteratePorts,
  RunResult,
  ShipRequest,
  SkillResult,
  SkillStatus,
} from './ports.js';
import { runPreflight } from './preflight.js';
import { EMPTY_QUEUE_MESSAGE, resolveQueue, type QueuePlan } from './queue.js';
import { RenderCache } from './score.js';
import { writeMorningSummary } from './summary-file.js';

/** Partial-run reasons, worded so the summary writer renders the seed's `(partial -- … at <iso>)` line. */
export const KILL_SWITCH_REASON = 'kill-switch hit';
export const COST_BUDGET_REASON = 'cost budget reached';

/** Worktree creation failing is a whole-run halt in the seed (autonomy contract clause 2). */
export class WorktreeHalt extends Error {
  constructor(skill: string, cause: unknown) {
    super(
      `worktree creation failed for ${skill}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'WorktreeHalt';
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function skillRelPath(skill: string): string {
  return path.posix.join('.claude', 'skills', skill);
}

function totalUsage(results: readonly SkillResult[]): Usage {
  return results.reduce((sum, r) => addUsage(sum, r.usage), ZERO_USAGE);
}

function costReached(options: IterateOptions, usage: Usage): boolean {
  return options.maxCostUsd !== undefined && usage.costUsd !== null && usage.costUsd >= options.maxCostUsd;
}

function emptyResult(skill: string, status: SkillStatus, extra: Partial<SkillResult> = {}): SkillResult {
  return {
    skill,
    baselineScore: null,
    finalScore: null,
    iterations: 0,
    wallSecondsTotal: 0,
    status,
    link: undefined,
    keptEdits: [],
    linesDelta: undefined,
    usage: ZERO_USAGE,
    rows: [],
    ...extra,
  };
}

function fromLoop(
  skill: string,
  loop: SkillLoopResult,
  status: SkillStatus,
  extra: Partial<SkillResult> = {},
): SkillResult {
  return {
    skill,
    baselineScore: loop.baselineScore,
    finalScore: loop.finalScore,
    iterations: loop.iterations,
    // This run's rows only: the file also holds earlier nights.
    wallSecondsTotal: loop.rows.reduce((sum, r) => sum + r.wallSeconds, 0),
    status,
    link: undefined,
    keptEdits: loop.keptEdits,
    linesDelta: undefined,
    usage: loop.usage,
    rows: loop.rows,
    ...extra,
  };
}

interface SkillContext {
  options: IterateOptions;
  ports: IteratePorts;
  project: string;
  /** Usage of the skills already processed (the cost budget is per run). */
  usageBefore: Usage;
  /** Set by processSkill when the skill's loop ran: why it ended. */
  stopReason?: LoopStopReason;
}

export async function runIterate(options: IterateOptions, ports: IteratePorts): Promise<RunResult> {
  const { log } = ports;
  const project = path.resolve(options.project);
  const startedAt = ports.now();
  const preflight = await runPreflight(options, { log, now: ports.now, killSwitch: ports.killSwitch }, true);

  let plan: QueuePlan | undefined;
  const results: SkillResult[] = [];
  let partial: RunResult['partial'] = null;
  let summaryWritten = false;
  const snapshot = (): RunResult => ({
    startedAt,
    endedAt: ports.now(),
    partial,
    queue: plan?.queue ?? [],
    results: [...results],
    excludedBySkipList: plan?.excludedBySkipList ?? [],
    excludedByFreshness: plan?.excludedByFreshness ?? [],
    summaryPath: undefined,
    usage: totalUsage(results),
    modelsLabel: ports.models.label,
  });
  const writeSummary = async (run: RunResult): Promise<RunResult> => {
    summaryWritten = true;
    run.summaryPath = await writeMorningSummary(project, run);
    log.info(`Morning summary: ${run.summaryPath}`);
    return run;
  };

  try {
    plan = await resolveQueue(options, preflight.skipList, preflight.explicit, ports.freshness, startedAt);
    if (plan.queue.length === 0) {
      // The seed's clean exit at Phase 1: nothing ran, so there is no night to summarise.
      log.info(EMPTY_QUEUE_MESSAGE);
      return snapshot();
    }
    const total = plan.queue.length;
    for (const [index, skill] of plan.queue.entries()) {
      if (index > 0) {
        if (await killSwitchSet(ports)) {
          partial = { reason: KILL_SWITCH_REASON, at: ports.now() };
          log.info(`Kill-switch detected; graceful stop after ${index} of ${total} skills.`);
          break;
        }
        if (costReached(options, totalUsage(results))) {
          partial = { reason: COST_BUDGET_REASON, at: ports.now() };
          log.info(
            `Cost budget of $${options.maxCostUsd} reached; stopping after ${index} of ${total} skills.`,
          );
          break;
        }
      }
      const result = await processSkillSafely(skill, {
        options,
        ports,
        project,
        usageBefore: totalUsage(results),
      });
      results.push(result);
      log.progress(formatSkillLine(result));
    }
    return await writeSummary(snapshot());
  } catch (err) {
    // Phase 4's exception path: whatever finished still gets its summary, then the error goes on up.
    if (!summaryWritten) {
      partial ??= { reason: `exception: ${messageOf(err)}`, at: ports.now() };
      await writeSummary(snapshot()).catch((e: unknown) =>
        log.warn(`morning summary could not be written: ${messageOf(e)}`),
      );
    }
    throw err;
  } finally {
    await preflight.lock?.release();
  }
}

/** A kill-switch that cannot be read is a warning, not a stop: a flaky check must not end the night. */
async function killSwitchSet(ports: IteratePorts): Promise<boolean> {
  try {
    return (await ports.killSwitch.check()) !== null;
  } catch (err) {
    ports.log.warn(`kill-switch check failed (${messageOf(err)}); continuing`);
    return false;
  }
}

/** One skill; an unexpected error is recorded for that skill and the queue goes on (except halts). */
async function processSkillSafely(skill: string, ctx: SkillContext): Promise<SkillResult> {
  try {
    return await processSkill(skill, ctx);
  } catch (err) {
    if (err instanceof WorktreeHalt) throw err;
    ctx.ports.log.warn(`${skill}: ${messageOf(err)}`);
    return emptyResult(skill, `skipped (error: ${messageOf(err)})`);
  }
}

async function processSkill(skill: string, ctx: SkillContext): Promise<SkillResult> {
  const { options, ports, project } = ctx;
  const rel = skillRelPath(skill);
  const projectSkillDir = path.join(project, rel);
  const epoch = Math.floor(ports.now().getTime() / 1000);
  const cache = new RenderCache();

  // Eval files are read from the project checkout (the queue was discovered there).
  let evals: SkillEvals;
  try {
    evals = await loadSkillEvals(projectSkillDir);
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    ports.log.warn(`${skill}: skipped, invalid evals: ${err.message}`);
    return emptyResult(skill, `skipped (invalid evals: ${err.message})`);
  }

  if (options.calibrate) {
    const parked = await calibrate(skill, evals, projectSkillDir, epoch, cache, ctx);
    if (parked) return parked;
  }

  let worktree: Worktree;
  try {
    worktree = await createWorktree({ project, home: options.worktreeHome, skill, epoch });
  } catch (err) {
    throw new WorktreeHalt(skill, err);
  }
  const cleanup = () => discardWorktree(project, worktree, { warn: (m) => ports.log.warn(m) });
  const skillMdRel = path.posix.join(rel, 'SKILL.md');
  let baselineText: string;
  try {
    baselineText = await showFileAt(worktree.path, worktree.baseCommit, skillMdRel);
  } catch {
    await cleanup();
    return emptyResult(skill, `skipped (${skillMdRel} is not committed on ${worktree.baseBranch})`);
  }

  let loop: SkillLoopResult;
  try {
    loop = await runSkillLoop({
      skill,
      worktreePath: worktree.path,
      baseCommit: worktree.baseCommit,
      skillRelPath: rel,
      evals,
      resultsFile: resultsTsvPath(project, skill),
      options,
      models: ports.models,
      log: ports.log,
      now: ports.now,
      runUsageBefore: ctx.usageBefore,
      cache,
    });
  } catch (err) {
    // The worktree is in an unknown state: keep it for the operator.
    throw new Error(`${messageOf(err)} (worktree kept at ${worktree.path})`, { cause: err });
  }

  ctx.stopReason = loop.stopReason;
  ports.log.info(`${skill}: loop ended on the ${loop.stopReason} after ${loop.iterations} iterations`);
  if (loop.stopReason === 'consecutive crashes') return park(skill, loop, worktree, epoch, ctx);
  if (loop.baselineScore === null || loop.finalScore === null) {
    await cleanup();
    return fromLoop(skill, loop, `skipped (no baseline score before the ${loop.stopReason})`);
  }

  // Phase 3: line counts as the seed measures them (`wc -l` at the baseline commit and at the final tip).
  const linesBaseline = countLines(baselineText);
  const linesFinal = countLines(loop.finalText);
  const linesDelta = linesFinal - linesBaseline;
  const decision = shipGate({
    baselineScore: loop.baselineScore,
    finalScore: loop.finalScore,
    linesBaseline,
    linesFinal,
  });
  if (decision === 'no-improvement') {
    await cleanup();
    return fromLoop(skill, loop, 'no-improvement', { linesDelta });
  }
  const request: ShipRequest = {
    skill,
    project,
    skillPath: rel,
    worktreePath: worktree.path,
    branch: worktree.branch,
    baseBranch: worktree.baseBranch,
    baseCommit: worktree.baseCommit,
    baselineScore: loop.baselineScore,
    finalScore: loop.finalScore,
    iterations: loop.iterations,
    linesBaseline,
    linesFinal,
    message: shipMessage({
      skill,
      baselineScore: loop.baselineScore,
      finalScore: loop.finalScore,
      iterations: loop.iterations,
      linesDelta,
    }),
    keptEdits: loop.keptEdits,
    rows: loop.rows,
    usage: loop.usage,
  };
  const outcome = await ports.shipper.ship(request);
  if (outcome.status === 'shipped') {
    return fromLoop(skill, loop, 'shipped', { linesDelta, link: outcome.link ?? outcome.commit });
  }
  if (outcome.keepWorktree)
    ports.log.warn(`${skill}: not shipped (${outcome.reason}); worktree kept at ${worktree.path}`);
  else await cleanup();
  return fromLoop(skill, loop, `skipped (${outcome.reason})`, { linesDelta });
}

/** Autonomy contract clause 3: park with the crash logs, keep worktree and branch for inspection. */
async function park(
  skill: string,
  loop: SkillLoopResult,
  worktree: Worktree,
  epoch: number,
  ctx: SkillContext,
): Promise<SkillResult> {
  const { ports, project } = ctx;
  let resultsTsv = '';
  try {
    resultsTsv = await readFile(resultsTsvPath(project, skill), 'utf8');
  } catch (err) {
    resultsTsv = `(results.tsv could not be read: ${messageOf(err)})`;
  }
  const report = buildCrashParkReport({
    skill,
    crashCount: loop.consecutiveCrashes,
    lastDescriptions: loop.rows.slice(-3).map((r) => r.description),
    worktreePath: worktree.path,
    resultsTsv,
    epoch,
  });
  let link: string | undefined;
  try {
    link = (await ports.forge.park(report)).location;
    ports.log.warn(`${skill}: parked after ${loop.consecutiveCrashes} consecutive crashes: ${link}`);
  } catch (err) {
    ports.log.warn(
      `${skill}: park report could not be filed (${messageOf(err)}); worktree kept at ${worktree.path}`,
    );
  }
  return fromLoop(skill, loop, 'defect-park', { link });
}

/** Seed Phase 0 calibration (opt-in): a grader that misses injected defects parks the skill up front. */
async function calibrate(
  skill: string,
  evals: SkillEvals,
  skillDir: string,
  epoch: number,
  cache: RenderCache,
  ctx: SkillContext,
): Promise<SkillResult | undefined> {
  const { options, ports } = ctx;
  let result;
  try {
    const skillMd = await readFile(path.join(skillDir, 'SKILL.md'), 'utf8');
    // Eleven scorings (baseline + ten mutations), each under the per-iteration cap.
    const signal = AbortSignal.timeout(options.iterationTimeoutMs * 11);
    result = await calibrateSkill({
      skillName: skill,
      skillDir,
      skillMd,
      evals,
      models: ports.models,
      mode: options.mode,
      concurrency: options.concurrency,
      signal,
      cache,
    });
  } catch (err) {
    ports.log.warn(`${skill}: calibration failed: ${messageOf(err)}`);
    return emptyResult(skill, `skipped (calibration failed: ${messageOf(err)})`);
  }
  if (result.verdict !== 'grader-broken-for-skill') return undefined;
  const report = buildCalibrationParkReport({ skill, catchRate: result.catchRate, result, epoch });
  const parked = await ports.forge.park(report);
  ports.log.warn(
    `${skill}: grader-broken-for-skill (catch rate ${Math.round(result.catchRate * 100)}%): ${parked.location}`,
  );
  return emptyResult(skill, 'calibration-park', {
    baselineScore: result.baselineScore,
    link: parked.location,
  });
}
