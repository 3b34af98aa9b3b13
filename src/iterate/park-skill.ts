/**
 * The two ways a skill is parked (docs/how-it-works.md § Defect park, § Calibration): after consecutive
 * crashes, with the crash logs; and up front, when calibration finds the grader misses injected defects.
 */
import { readFile } from 'node:fs/promises';
import type { SkillEvals } from '../core/iterate/evals.js';
import { buildCalibrationParkReport, buildCrashParkReport } from '../core/iterate/park.js';
import type { SkillResult } from '../core/iterate/run-result.js';
import { skillFileOf } from '../core/iterate/skill-layout.js';
import { addUsage } from '../core/usage.js';
import type { Worktree } from '../ports/git.js';
import { CalibrationError, calibrateSkill } from './calibrate.js';
import { throwIfInterrupted } from './interrupt.js';
import type { SkillLoopResult } from './loop/types.js';
import type { RenderCache } from './score.js';
import { messageOf } from '../core/errors.js';
import { emptyResult, fromLoop, type SkillContext } from './skill-context.js';

/** Park with the crash logs; the worktree and branch stay for inspection (docs/how-it-works.md § Defect park). */
export async function park(
  skill: string,
  loop: SkillLoopResult,
  worktree: Worktree,
  run: { epoch: number; resultsFile: string },
  ctx: SkillContext,
): Promise<SkillResult> {
  const { ports } = ctx;
  const { epoch } = run;
  let resultsTsv = '';
  try {
    resultsTsv = await readFile(run.resultsFile, 'utf8');
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

/** Calibration (opt-in): a grader that misses injected defects parks the skill up front (§ Calibration). */
export async function calibrate(
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
    const skillMd = await readFile(skillFileOf(skillDir), 'utf8');
    // Eleven scorings (baseline + ten mutations), each under the per-iteration cap; a stop ends them too.
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(options.iterationTimeoutMs * 11)]);
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
    if (err instanceof CalibrationError) ctx.spent = addUsage(ctx.spent, err.usage);
    throwIfInterrupted(ctx.signal);
    ports.log.warn(`${skill}: calibration failed: ${messageOf(err)}`);
    return emptyResult(skill, `skipped (calibration failed: ${messageOf(err)})`);
  }
  ctx.spent = addUsage(ctx.spent, result.usage);
  if (result.verdict !== 'grader-broken-for-skill') return undefined;
  const report = buildCalibrationParkReport({
    skill,
    catchRate: result.catchRate,
    result,
    epoch,
    structuralOnly: ports.models.structuralOnly || options.mode === 'structural',
  });
  const parked = await ports.forge.park(report);
  ports.log.warn(
    `${skill}: grader-broken-for-skill (catch rate ${Math.round(result.catchRate * 100)}%): ${parked.location}`,
  );
  return emptyResult(skill, 'calibration-park', {
    baselineScore: result.baselineScore,
    link: parked.location,
  });
}
