/**
 * A real (non-dry) run (docs/how-it-works.md § Overview): the pre-flight and the lock, the queue, then per
 * skill: evals, optional calibration, worktree, hill-climb loop, ship gate and cleanup; the kill-switch is
 * polled between skills only; the morning summary is written on every way out (a stop included), and the
 * lock released.
 */
import path from 'node:path';
import { EvalsFileError, type SkillEvals } from '../core/iterate/evals.js';
import { brief } from '../core/iterate/brief.js';
import { formatSkillLine, skillColumnWidth } from '../core/iterate/progress.js';
import type { NightBudgetStop, RunResult, SkillResult } from '../core/iterate/run-result.js';
import {
  SKILL_FILE,
  branchNameFor,
  isValidSkillName,
  resultsTsvPath,
  skillPathIn,
  skillRepoPath,
  type SkillLocation,
} from '../core/iterate/skill-layout.js';
import type { StructuralSettings } from '../core/iterate/structural.js';
import { ZERO_USAGE, addUsage } from '../core/usage.js';
import type { KeepWorktree, Worktree } from '../ports/git.js';
import type { IteratePorts } from '../ports/iterate.js';
import { loadSkillEvals, loadStructuralEvals } from './evals-files.js';
import { RunInterrupted, throwIfInterrupted } from './interrupt.js';
import { runSkillLoop } from './loop/run-skill-loop.js';
import { shipIfBetter } from './ship-if-better.js';
import { LoopInterrupted, type SkillLoopResult } from './loop/types.js';
import type { IterateOptions } from './options.js';
import { killSwitchUnreadable, runPreflight, type PreflightResult } from './preflight.js';
import { exclusionLines, formatEmptyQueue, resolveQueue, type QueuePlan } from './queue.js';
import { park, calibrate } from './park-skill.js';
import { withPartialRun } from './run-error.js';
import { messageOf } from '../core/errors.js';
import { costReached, emptyResult, fromLoop, totalUsage, type SkillContext } from './skill-context.js';
import { nightBudgetStop, readNotStarted, saveNotStarted } from './night-budget.js';
import { NotRegularFileError, inspectFile } from './regular-file.js';
import { RenderCache } from './score.js';
import { writeMorningSummary } from './summary-file.js';
import { decideSkillFolder, symlinkSkipStatus, symlinkWarning } from './symlinks.js';
import { readBaselineDraws, readUpliftRecord, saveBaselineDraws, saveUpliftRecord } from './night-records.js';

/** Partial-run reasons, worded so the summary writer renders its `(partial -- … at <iso>)` line. */
const KILL_SWITCH_REASON = 'kill-switch hit';
const COST_BUDGET_REASON = 'cost budget reached';
const NIGHT_BUDGET_REASON = 'night budget reached';

/**
 * A real run. Rejects with RunInterrupted after an abort of `ports.signal` — the partial summary is written
 * and the lock released first — and with PreflightHalt for the pre-flight's halts. Whatever goes wrong with
 * one skill (its worktree, its branch name, a file name too long) is that skill's result: the queue goes on.
 */
export async function runIterate(options: IterateOptions, ports: IteratePorts): Promise<RunResult> {
  const { log } = ports;
  const project = path.resolve(options.project);
  const startedAt = ports.now();
  const signal = ports.signal ?? new AbortController().signal;
  const preflight: PreflightResult = await runPreflight(options, ports, true);

  let plan: QueuePlan | undefined;
  let current: SkillContext | undefined;
  const results: SkillResult[] = [];
  let partial: RunResult['partial'] = null;
  let summaryWritten = false;
  let nightStop: NightBudgetStop | undefined;
  let carried: string[] = [];
  const snapshot = (): RunResult =>
    snapshotOf({ startedAt, partial, plan, results, nightStop }, options, ports);
  // Every way out records the skills the next night runs first (docs/how-it-works.md § Caps and budgets).
  const explicit = options.skill !== undefined || options.queueFile !== undefined;
  const recordNotStarted = () => saveNotStarted(ports, carried, plan, results, nightStop, explicit);
  const writeSummary = async (run: RunResult): Promise<RunResult> => {
    summaryWritten = true;
    run.summaryPath = await writeMorningSummary(project, run, ports.secrets);
    log.info(`Morning summary: ${run.summaryPath}`);
    return run;
  };
  const finished = async (run: RunResult): Promise<RunResult> => {
    await ports.events?.emit({ type: 'run-finished', run });
    return run;
  };

  try {
    throwIfInterrupted(signal);
    // The same queue a dry run prints: the same pre-flight, the same resolution (docs/how-it-works.md § The queue).
    carried = await readNotStarted(ports);
    plan = await resolveQueue(options, preflight, ports.freshness, startedAt, carried);
    if (plan.runFirst)
      log.info(
        `run first (the night budget kept them from starting last night): ${plan.runFirst.join(', ')}`,
      );
    await ports.events?.emit({ type: 'plan-ready', plan });
    if (plan.queue.length === 0) {
      // A clean exit: nothing ran, so there is no night to summarise; the message says why, skill by skill.
      log.info(formatEmptyQueue(plan, options).trimEnd());
      await recordNotStarted();
      return await finished(snapshot());
    }
    for (const line of exclusionLines(plan, options)) log.info(`not queued: ${line}`);
    // The hint about skills outside the setting, once (docs/cli.md § Printed commands).
    if (plan.outsideSetting !== undefined) log.warn(plan.outsideSetting);
    const total = plan.queue.length;
    const nameWidth = skillColumnWidth(plan.queue);
    for (const [index, name] of plan.queue.entries()) {
      const skill: SkillLocation = { name, dir: plan.dirs[name]! };
      throwIfInterrupted(signal);
      if (index > 0) {
        partial = (await stopBeforeSkill(index, total, options, ports, results)) ?? null;
        if (partial) break;
        nightStop = nightBudgetStop(plan.queue.slice(index), options, ports, results);
        if (nightStop) {
          partial = { reason: NIGHT_BUDGET_REASON, at: ports.now() };
          break;
        }
      }
      const ctx: SkillContext = {
        options,
        ports,
        project,
        repository: preflight.repository,
        usageBefore: totalUsage(results),
        signal,
        spent: ZERO_USAGE,
        nameWidth,
      };
      current = ctx;
      await ports.events?.emit({ type: 'skill-started', index, skill: name });
      const result = await processSkillSafely(skill, ctx);
      current = undefined;
      results.push(result);
      log.progress(formatSkillLine(result, nameWidth));
      await ports.events?.emit({ type: 'skill-finished', index, skill: name, result });
      // The loop stopped on the budget, in the last skill as much as in any other: the run is partial.
      if (ctx.stopReason === 'cost budget') {
        partial = costStop(index + 1, total, options, ports);
        break;
      }
    }
    // A signal during the last skill's ship or cleanup still makes the run an interrupted one.
    throwIfInterrupted(signal);
    await recordNotStarted();
    return await finished(await writeSummary(snapshot()));
  } catch (err) {
    // The exception path: whatever finished still gets its summary, then the error goes on up.
    if (current?.unfinished) {
      results.push(current.unfinished);
      log.progress(formatSkillLine(current.unfinished, current.nameWidth));
    }
    await recordNotStarted();
    let run = snapshot();
    if (!summaryWritten) {
      if (err instanceof RunInterrupted) {
        partial = { reason: err.reason, at: ports.now() };
        log.warn(`${err.reason}: stopped after ${results.length} of ${plan?.queue.length ?? 0} skills`);
      } else partial ??= { reason: `exception: ${messageOf(err)}`, at: ports.now() };
      run = snapshot();
      await writeSummary(run).catch((e: unknown) =>
        log.warn(`morning summary could not be written: ${messageOf(e)}`),
      );
    }
    // The caller (the Action's job summary, outputs and state save) still gets what was done.
    await finished(run);
    throw withPartialRun(err, run);
  } finally {
    await preflight.lock?.release();
  }
}

/** What the run has done so far, as it returns it and the summary renders it. */
function snapshotOf(
  night: {
    startedAt: Date;
    partial: RunResult['partial'];
    plan: QueuePlan | undefined;
    results: readonly SkillResult[];
    nightStop: NightBudgetStop | undefined;
  },
  options: IterateOptions,
  ports: IteratePorts,
): RunResult {
  return {
    startedAt: night.startedAt,
    endedAt: ports.now(),
    partial: night.partial,
    queue: night.plan?.queue ?? [],
    results: [...night.results],
    excludedBySkipList: night.plan?.excludedBySkipList ?? [],
    excludedByFreshness: night.plan?.excludedByFreshness ?? [],
    excludedOther: night.plan?.excludedOther ?? [],
    outsideSetting: night.plan?.outsideSetting,
    freshnessWindowMs: options.freshnessWindowMs,
    ...(night.plan?.notRequested ? { notRequested: night.plan.notRequested } : {}),
    // The mode the scores were taken in: offline models score structure only, whatever the setting says.
    mode: ports.models.structuralOnly ? 'structural' : options.mode,
    ...(options.command ? { command: options.command } : {}),
    summaryPath: undefined,
    usage: totalUsage(night.results),
    modelsLabel: ports.models.label,
    ...(night.plan?.runFirst ? { runFirst: [...night.plan.runFirst] } : {}),
    ...(night.nightStop ? { nightBudget: night.nightStop } : {}),
  };
}

type PartialReason = NonNullable<RunResult['partial']>;

/** The cost budget stops the run after `done` of `total` skills: a partial run, said in the log. */
function costStop(done: number, total: number, options: IterateOptions, ports: IteratePorts): PartialReason {
  const partial = { reason: COST_BUDGET_REASON, at: ports.now() };
  ports.log.info(`Cost budget of $${options.maxCostUsd} reached; stopping after ${done} of ${total} skills.`);
  return partial;
}

/**
 * Between two skills (docs/how-it-works.md § Cleanup and the kill-switch poll): the kill-switch polled,
 * then the cost budget checked; why the run stops after `index` of `total` skills, or undefined.
 */
async function stopBeforeSkill(
  index: number,
  total: number,
  options: IterateOptions,
  ports: IteratePorts,
  results: readonly SkillResult[],
): Promise<PartialReason | undefined> {
  const killSwitch = await pollKillSwitch(options, ports);
  if (killSwitch === 'set') {
    const partial = { reason: KILL_SWITCH_REASON, at: ports.now() };
    ports.log.info(`Kill-switch detected; graceful stop after ${index} of ${total} skills.`);
    return partial;
  }
  if (killSwitch !== 'clear') {
    const partial = { reason: killSwitch.unreadable, at: ports.now() };
    ports.log.warn(`${killSwitch.unreadable}; graceful stop after ${index} of ${total} skills.`);
    return partial;
  }
  if (costReached(options, totalUsage(results))) return costStop(index, total, options, ports);
  return undefined;
}

/**
 * The kill-switch between skills. One that cannot be read stops the run (it may be set), unless the options
 * say to continue, which makes it a warning (docs/how-it-works.md § Pre-flight).
 */
async function pollKillSwitch(
  options: IterateOptions,
  ports: IteratePorts,
): Promise<'set' | 'clear' | { unreadable: string }> {
  try {
    return (await ports.killSwitch.check()) !== null ? 'set' : 'clear';
  } catch (err) {
    const why = brief(messageOf(err), 300);
    if (options.killSwitchReadError === 'continue') {
      ports.log.warn(
        `kill-switch check failed (${why}); continuing, as kill-switch read errors are set to "continue"`,
      );
      return 'clear';
    }
    return { unreadable: killSwitchUnreadable(why) };
  }
}

/**
 * One skill; an unexpected error is recorded for that skill and the queue goes on (except interrupts,
 * which end the run with the skill listed as unfinished). Whatever the skill spent is kept.
 */
async function processSkillSafely(skill: SkillLocation, ctx: SkillContext): Promise<SkillResult> {
  const name = skill.name;
  try {
    const result = await processSkill(skill, ctx);
    return { ...result, usage: ctx.spent };
  } catch (err) {
    if (err instanceof RunInterrupted) {
      ctx.unfinished = {
        ...(ctx.unfinished ?? emptyResult(name, `skipped (${err.reason})`)),
        usage: ctx.spent,
      };
      throw err;
    }
    ctx.ports.log.warn(`${name}: ${messageOf(err)}`);
    return emptyResult(name, `skipped (error: ${messageOf(err)})`, { usage: ctx.spent });
  }
}

/** The structural settings a skill is scored with: its own required_sections.json over the config's. */
function structuralSettingsFor(options: IterateOptions, evals: SkillEvals): StructuralSettings {
  return {
    ...options.structural,
    requiredSections: evals.requiredSections ?? options.structural?.requiredSections,
  };
}

/** The checks before a worktree: links, eval files, a usable branch name, calibration and the budget. */
async function prepareSkill(
  location: SkillLocation,
  epoch: number,
  cache: RenderCache,
  ctx: SkillContext,
): Promise<SkillEvals | SkillResult> {
  const { options, ports, project } = ctx;
  const skill = location.name;
  const projectSkillDir = skillPathIn(project, location);

  // Before anything of the skill is read, the plan's link decision again (the files may have changed
  // since): a linked file would be sent to the model or overwritten.
  const decision = await decideSkillFolder({ project, repository: ctx.repository }, location.dir);
  if (!decision.ok) {
    ports.log.warn(symlinkWarning(skill, decision.link, 'the project checkout'));
    return emptyResult(skill, symlinkSkipStatus(decision.link));
  }

  // A directory, FIFO or socket named SKILL.md is this skill's problem, said by name (never EISDIR).
  const skillFile = await inspectFile(path.join(projectSkillDir, SKILL_FILE));
  if (skillFile instanceof NotRegularFileError) {
    const where = `${location.dir}/${SKILL_FILE}`;
    ports.log.warn(`${skill}: skipped: ${where} ${skillFile.detail}`);
    return emptyResult(skill, `skipped (${where} ${skillFile.detail})`);
  }

  // Eval files are read from the project checkout (the queue was found there); structural scoring reads
  // only the required sections.
  let evals: SkillEvals;
  try {
    evals = await (options.mode === 'structural' ? loadStructuralEvals : loadSkillEvals)(projectSkillDir);
  } catch (err) {
    if (!(err instanceof EvalsFileError)) throw err;
    ports.log.warn(`${skill}: skipped, invalid evals: ${err.message}`);
    return emptyResult(skill, `skipped (invalid evals: ${err.message})`);
  }

  // The name becomes a branch and a folder. A name git refuses is this skill's problem, not a git failure
  // (which would halt the night): skip it. Discovery already leaves such folders out.
  const branch = branchNameFor(skill, epoch);
  if (!isValidSkillName(skill) || !(await ports.git.isValidBranchName(project, branch))) {
    ports.log.warn(`${skill}: skipped: "${skill}" cannot be used in the branch name ${branch}`);
    return emptyResult(skill, `skipped (invalid skill name: not usable in the branch name ${branch})`);
  }

  if (options.calibrate) {
    const parked = await calibrate(skill, evals, projectSkillDir, epoch, cache, ctx);
    if (parked) return parked;
  }
  // Calibration spends too: a budget it used up leaves no room for the loop.
  if (costReached(options, addUsage(ctx.usageBefore, ctx.spent))) {
    ctx.stopReason = 'cost budget';
    ports.log.info(`${skill}: the cost budget was reached before its loop`);
    return emptyResult(skill, 'skipped (cost budget reached before the loop)');
  }
  return evals;
}

async function processSkill(location: SkillLocation, ctx: SkillContext): Promise<SkillResult> {
  const { options, ports, project } = ctx;
  const skill = location.name;
  const epoch = Math.floor(ports.now().getTime() / 1000);
  const cache = new RenderCache();
  const prepared = await prepareSkill(location, epoch, cache, ctx);
  if ('skill' in prepared) return prepared;
  throwIfInterrupted(ctx.signal);

  let entered = false;
  try {
    return await ports.git.withWorktree(
      // Only the skill's folder is checked out; the scoring reads the rest from git (worktree.files).
      { project, home: options.worktreeHome, skill, epoch, sparse: [location.dir] },
      (worktree, keep) => {
        entered = true;
        return climbInWorktree(location, prepared, worktree, keep, { epoch, cache }, ctx);
      },
    );
  } catch (err) {
    if (entered) throw err;
    // This skill's problem (a name too long for the file system, a branch git refuses, a leftover in the
    // way): recorded for it, and the queue goes on (docs/how-it-works.md § The hill-climb loop).
    const why = brief(messageOf(err), 600);
    ctx.ports.log.warn(`${skill}: skipped: the worktree could not be created: ${why}`);
    return emptyResult(skill, `skipped (worktree creation failed: ${why})`);
  }
}

/**
 * The skill's loop in its worktree, then the ship gate. The worktree goes when this returns or throws,
 * except where `keep()` leaves it: for the shipper, a park, a stop, or an unknown state (for the operator).
 */
async function climbInWorktree(
  location: SkillLocation,
  evals: SkillEvals,
  worktree: Worktree,
  keep: KeepWorktree,
  run: { epoch: number; cache: RenderCache },
  ctx: SkillContext,
): Promise<SkillResult> {
  const { options, ports, project } = ctx;
  const skill = location.name;
  // The worktree's root is the repository root; the project may be a folder inside it (a monorepo). The
  // skill's folder is its real path, so the commits go there even when the skills root is a link.
  const repoRel = skillRepoPath(location, worktree.prefix);
  const skillMdRel = path.posix.join(repoRel, SKILL_FILE);
  // The worktree holds the committed files, which may be links where the checkout has none.
  const committed = await decideSkillFolder(
    { project: worktree.path, repository: worktree.path, followLinks: false },
    repoRel,
  );
  if (!committed.ok) {
    ports.log.warn(symlinkWarning(skill, committed.link, `the worktree ${worktree.path}`));
    return emptyResult(skill, symlinkSkipStatus(committed.link));
  }
  const resultsFile = resultsTsvPath(project, location);
  let baselineText: string;
  try {
    baselineText = await ports.git.showFileAt(worktree.path, worktree.baseCommit, skillMdRel);
  } catch {
    return emptyResult(skill, `skipped (${skillMdRel} is not committed on ${worktree.baseBranch})`);
  }

  let loop: SkillLoopResult;
  const spentBefore = ctx.spent;
  const upliftWithout = await readUpliftRecord(ports, location);
  const baselineDraws = await readBaselineDraws(ports, location);
  try {
    loop = await runSkillLoop({
      skill,
      worktreePath: worktree.path,
      baseCommit: worktree.baseCommit,
      skillRelPath: repoRel,
      evals,
      structural: structuralSettingsFor(options, evals),
      resultsFile,
      ...(ports.secrets ? { secrets: ports.secrets } : {}),
      options,
      models: ports.models,
      git: ports.git,
      log: ports.log,
      now: ports.now,
      runUsageBefore: addUsage(ctx.usageBefore, spentBefore),
      cache: run.cache,
      files: worktree.files,
      signal: ctx.signal,
      onUsage: (total) => (ctx.spent = addUsage(spentBefore, total)),
      nameWidth: ctx.nameWidth,
      upliftWithout,
      baselineDraws,
    });
  } catch (err) {
    // The worktree holds the last kept edit (a stop) or is in an unknown state: keep it for the operator.
    keep();
    if (err instanceof LoopInterrupted) {
      await saveUpliftRecord(ports, location, err.partial.upliftWithout);
      await saveBaselineDraws(ports, location, err.partial.baselineDraws);
      ports.log.warn(`${skill}: ${err.interruption.reason}; worktree kept at ${worktree.path}`);
      ctx.unfinished = fromLoop(skill, err.partial, `skipped (${err.interruption.reason})`, {
        link: worktree.path,
      });
      throw err.interruption;
    }
    throw new Error(`${messageOf(err)} (worktree kept at ${worktree.path})`, { cause: err });
  }
  ctx.spent = addUsage(spentBefore, loop.usage);
  await saveUpliftRecord(ports, location, loop.upliftWithout);
  await saveBaselineDraws(ports, location, loop.baselineDraws);

  ctx.stopReason = loop.stopReason;
  ports.log.info(`${skill}: loop ended on the ${loop.stopReason} after ${loop.iterations} iterations`);
  if (loop.stopReason === 'consecutive crashes') {
    keep();
    return park(skill, loop, worktree, { epoch: run.epoch, resultsFile }, ctx);
  }
  if (loop.stopReason === 'baseline ambiguous') {
    // Not a crash: the render said the skill cannot do its scenarios. Nothing to iterate, nothing to park.
    return fromLoop(
      skill,
      loop,
      `skipped (baseline ambiguous: ${loop.ambiguousReason ?? 'no reason given'})`,
    );
  }
  if (loop.baselineScore === null || loop.finalScore === null) {
    return fromLoop(skill, loop, `skipped (no baseline score before the ${loop.stopReason})`);
  }
  return shipIfBetter(
    location,
    loop,
    { baselineScore: loop.baselineScore, finalScore: loop.finalScore },
    baselineText,
    worktree,
    keep,
    ctx,
  );
}
