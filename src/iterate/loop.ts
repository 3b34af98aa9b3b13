/**
 * Seed Phase 2: one skill's hill-climb in its worktree. A baseline, then Steps A–H until a cap fires:
 * brainstorm one edit, apply it, commit it, score it under the per-iteration timeout (with the N=3
 * saturation handler), classify it against the high-water mark, append the results.tsv row, and only then
 * reset a reverted or crashed commit away. Nothing in here asks anyone anything (NEVER STOP mid-loop).
 */
import { constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SkillEvals } from '../core/evals.js';
import { formatIterationLine } from '../core/progress.js';
import type { AbsoluteResult, FailedAssertion, StructuralResult } from '../core/score-types.js';
import { checkFrontmatter, countLines } from '../core/ship-gate.js';
import { classifyIteration, type IterationOutcome } from '../core/taxonomy.js';
import { commitFile, discardChanges, resetToParent } from '../git/commits.js';
import { untilAborted } from '../llm/abortable.js';
import { ModelOutputError, type EditProposal } from '../core/model-answers.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import type { EditorInput, SkillModels } from '../ports/models.js';
import { interruptionOf, type RunInterrupted } from './interrupt.js';
import type { IterateOptions } from './ports.js';
import type { KeptEdit, ResultsRow } from '../core/run-result.js';
import type { Logger } from '../ports/logger.js';
import { appendResultsRow } from './results-file.js';
import { RenderCache, scoreSkill, type SkillScore } from './score.js';

/** Seed Step F / Step H: three reverts in a row switch the editor to radical mode; three crashes park. */
export const RADICAL_AFTER_REVERTS = 3;
export const PARK_AFTER_CRASHES = 3;
/** How much of the failing render the editor sees (the prompt builder caps it again). */
export const RENDER_EXCERPT_CHARS = 1500;
/** The commit column of a row whose edit never reached a commit (unusable proposal, commit failure). */
export const NO_COMMIT = '-';

/**
 * SKILL.md is opened without following a link (ELOOP instead): the run skips linked skills before the
 * loop, and this keeps a link made afterwards from being read or written through. No O_CREAT: it exists.
 */
const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;
const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW;

export type LoopOptions = Pick<
  IterateOptions,
  'mode' | 'concurrency' | 'iterationTimeoutMs' | 'perSkillBudgetMs' | 'perSkillIterations' | 'maxCostUsd'
>;

export interface SkillLoopInput {
  skill: string;
  /** The per-skill worktree (all git runs there, by path). */
  worktreePath: string;
  /** The base commit the worktree was created from; the baseline row names it. */
  baseCommit: string;
  /** `.claude/skills/<name>` relative to the repository root. */
  skillRelPath: string;
  evals: SkillEvals;
  /** The project's `.claude/skills/<name>/evals/results.tsv` (outside the worktree, so it outlives it). */
  resultsFile: string;
  options: LoopOptions;
  models: SkillModels;
  log: Logger;
  now: () => Date;
  /** What the run spent before this skill, for `maxCostUsd`. */
  runUsageBefore?: Usage;
  cache?: RenderCache;
  /**
   * The run's stop signal (Ctrl+C): aborts the model calls in flight and ends the loop with LoopInterrupted.
   * The unfinished iteration gets no row (it was never judged) and its commit is reset away.
   */
  signal?: AbortSignal;
  /** Told every time the loop's spend grows, so a caller keeps it even if the loop throws. */
  onUsage?: (total: Usage) => void;
}

export type LoopStopReason =
  | 'iteration cap'
  | 'wall-clock budget'
  | 'consecutive crashes'
  | 'cost budget'
  /** The baseline render answered `AMBIGUOUS:`: the skill cannot be judged, so it is not iterated. */
  | 'baseline ambiguous';

export interface SkillLoopResult {
  /** null when no baseline could be scored. */
  baselineScore: number | null;
  /** The high-water mark: the last kept score, or the baseline. */
  finalScore: number | null;
  /** Iterations run (the baseline is not one). */
  iterations: number;
  rows: ResultsRow[];
  keptEdits: KeptEdit[];
  usage: Usage;
  stopReason: LoopStopReason;
  consecutiveCrashes: number;
  /** SKILL.md as it stands at the branch tip. */
  finalText: string;
  /** The render's reason when stopReason is 'baseline ambiguous'. */
  ambiguousReason?: string;
}

/** The run was interrupted while this loop ran; `partial` is what the loop had recorded by then. */
export class LoopInterrupted extends Error {
  override readonly name = 'LoopInterrupted';
  constructor(
    readonly interruption: RunInterrupted,
    readonly partial: SkillLoopResult,
  ) {
    super(interruption.message, { cause: interruption });
  }
}

/** The state the branch tip is in: the text every next edit starts from, and what its scoring said. */
interface KeptState {
  text: string;
  score: number;
  structural: StructuralResult;
  absolute: AbsoluteResult | null;
  /** The N=3 saturation handler confirmed all-pass for this text (gates simplification mode). */
  confirmedAllPass: boolean;
  renders: Map<string, string>;
}

export type ApplyResult = { ok: true; text: string } | { ok: false; reason: string };

function occurrences(text: string, needle: string): number {
  let count = 0;
  // Overlapping matches count too: "aa" in "aaa" is ambiguous, not unique.
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) count++;
  return count;
}

/** Seed Step B: replace `old_string`, which must occur exactly once, by `new_string` (no `$` patterns). */
export function applyEdit(text: string, edit: Pick<EditProposal, 'old_string' | 'new_string'>): ApplyResult {
  const count = occurrences(text, edit.old_string);
  if (count !== 1) {
    return { ok: false, reason: `old_string occurs ${count} times in SKILL.md (must be exactly once)` };
  }
  if (edit.old_string === edit.new_string) return { ok: false, reason: 'the edit changes nothing' };
  const at = text.indexOf(edit.old_string);
  return { ok: true, text: text.slice(0, at) + edit.new_string + text.slice(at + edit.old_string.length) };
}

/** Fired by the per-iteration timer; its message ends up in the crash row. */
export class IterationTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`iteration timed out after ${formatMs(ms)}`);
    this.name = 'IterationTimeoutError';
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)}s` : `${ms}ms`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * One AbortController per iteration; its signal goes to every model call of that iteration. It fires on the
 * hard timeout, or with the run's own reason when the run is interrupted.
 */
function startIterationTimer(
  ms: number,
  runSignal: AbortSignal | undefined,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new IterationTimeoutError(ms)), ms);
  const onRunAbort = (): void => controller.abort(runSignal?.reason);
  if (runSignal?.aborted) onRunAbort();
  else runSignal?.addEventListener('abort', onRunAbort, { once: true });
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      runSignal?.removeEventListener('abort', onRunAbort);
    },
  };
}

/** An iteration's scoring: the N=1 result, or the N=3 median when the saturation handler ran. */
interface ScoredText {
  score: SkillScore;
  saturation: 'none' | 'confirmed' | 'rejected';
  usage: Usage;
}

/** The state the loop climbs from once `text` is kept with `score` (the baseline or a kept edit). */
function keptStateOf(text: string, score: number, scored: ScoredText): KeptState {
  const s = scored.score;
  return {
    text,
    score,
    structural: s.structural,
    absolute: s.absolute,
    confirmedAllPass: scored.saturation === 'confirmed',
    renders: s.renders,
  };
}

function isAllPass(absolute: AbsoluteResult | null): absolute is AbsoluteResult {
  return absolute !== null && absolute.failed_assertions.length === 0;
}

function secondsBetween(a: Date, b: Date): number {
  return (b.getTime() - a.getTime()) / 1000;
}

export async function runSkillLoop(input: SkillLoopInput): Promise<SkillLoopResult> {
  const { skill, options, models, log, now } = input;
  const cache = input.cache ?? new RenderCache();
  const skillMdRel = path.posix.join(input.skillRelPath, 'SKILL.md');
  const skillMdPath = path.join(input.worktreePath, input.skillRelPath, 'SKILL.md');
  const skillDir = path.dirname(skillMdPath);
  const loopStart = now();

  const rows: ResultsRow[] = [];
  const keptEdits: KeptEdit[] = [];
  const revertedDescriptions: string[] = [];
  let usage: Usage = ZERO_USAGE;
  let iterations = 0;
  let consecutiveReverts = 0;
  let consecutiveCrashes = 0;
  let baselineScore: number | null = null;
  let kept: KeptState | undefined;

  const append = async (row: ResultsRow): Promise<void> => {
    await appendResultsRow(input.resultsFile, row);
    rows.push(row);
  };
  const spend = (more: Usage): void => {
    usage = addUsage(usage, more);
    input.onUsage?.(usage);
  };
  const result = (stop: LoopStopReason, extra: Partial<SkillLoopResult> = {}): SkillLoopResult => ({
    baselineScore,
    finalScore: kept?.score ?? null,
    iterations,
    rows: [...rows],
    keptEdits: [...keptEdits],
    usage,
    stopReason: stop,
    consecutiveCrashes,
    finalText: kept?.text ?? baselineText,
    ...extra,
  });
  const interrupted = (): LoopInterrupted =>
    // The stop reason of a partial result is never read; the interruption says why the loop ended.
    new LoopInterrupted(interruptionOf(input.signal!), result('iteration cap'));

  const scoreText = async (text: string, signal: AbortSignal): Promise<ScoredText> => {
    const request = {
      skillName: skill,
      skillDir,
      skillMd: text,
      evals: input.evals,
      models,
      mode: options.mode,
      concurrency: options.concurrency,
      signal,
      cache,
    };
    const first = await untilAborted(scoreSkill({ ...request, trials: 1 }), signal);
    let spent = first.usage;
    if (first.status !== 'ok' || !isAllPass(first.absolute))
      return { score: first, saturation: 'none', usage: spent };
    // Saturation handler: an N=1 all-pass is re-graded 3 times on the same renders (same cache, same
    // timeout). Any failure here discards the whole iteration's result (the caller sees a non-ok status).
    const median = await untilAborted(scoreSkill({ ...request, trials: 3 }), signal);
    spent = addUsage(spent, median.usage);
    if (median.status !== 'ok') {
      const detail = `saturation re-grade failed: ${median.detail ?? median.status}`;
      return {
        score: { ...median, status: 'harness-error', score: null, detail },
        saturation: 'none',
        usage: spent,
      };
    }
    return { score: median, saturation: isAllPass(median.absolute) ? 'confirmed' : 'rejected', usage: spent };
  };

  const stopReason = (countIterations = true): LoopStopReason | undefined => {
    if (consecutiveCrashes >= PARK_AFTER_CRASHES) return 'consecutive crashes';
    if (countIterations && iterations >= options.perSkillIterations) return 'iteration cap';
    if (now().getTime() - loopStart.getTime() >= options.perSkillBudgetMs) return 'wall-clock budget';
    if (options.maxCostUsd !== undefined) {
      const spent = addUsage(input.runUsageBefore ?? ZERO_USAGE, usage).costUsd;
      if (spent !== null && spent >= options.maxCostUsd) return 'cost budget';
    }
    return undefined;
  };

  const progress = (
    iteration: number,
    outcome: ResultsRow['status'],
    score: number | null,
    delta: number | null,
    seconds: number,
    spent: Usage,
  ): void => {
    log.progress(formatIterationLine({ skill, iteration, outcome, score, delta, seconds, usage: spent }));
  };

  // Baseline: no edit. A baseline that cannot be scored is a crash row; it is retried until it scores or
  // the crash counter parks the skill, because without it no edit can be judged. An AMBIGUOUS baseline is
  // different: the render said the skill cannot do the task, which a retry of the same text will not change.
  const baselineText = await readFile(skillMdPath, { encoding: 'utf8', flag: READ_NO_FOLLOW });
  const baselineCommit = input.baseCommit.slice(0, 7);
  let stop: LoopStopReason | undefined;
  while (kept === undefined) {
    if (input.signal?.aborted) throw interrupted();
    const started = now();
    const timer = startIterationTimer(options.iterationTimeoutMs, input.signal);
    let scored: ScoredText | undefined;
    let failure: string | undefined;
    try {
      scored = await scoreText(baselineText, timer.signal);
      spend(scored.usage);
      if (scored.score.status !== 'ok' || scored.score.score === null) {
        failure = `${scored.score.status}: ${scored.score.detail ?? 'no score'}`;
      }
    } catch (err) {
      failure = messageOf(err);
    } finally {
      timer.stop();
    }
    if (input.signal?.aborted) throw interrupted();
    const seconds = secondsBetween(started, now());
    if (scored?.score.status === 'ambiguous') {
      const reason = (scored.score.detail ?? '').trim();
      await append({
        commit: baselineCommit,
        score: null,
        status: 'baseline',
        description: `initial baseline (AMBIGUOUS: ${reason})`,
        wallSeconds: seconds,
      });
      progress(0, 'baseline', null, null, seconds, scored.usage);
      log.warn(`${skill}: the baseline render answered AMBIGUOUS (${reason}); not iterating this skill`);
      return result('baseline ambiguous', { ambiguousReason: reason });
    }
    if (failure === undefined && scored && scored.score.score !== null) {
      const score = scored.score.score;
      baselineScore = score;
      kept = keptStateOf(baselineText, score, scored);
      await append({
        commit: baselineCommit,
        score,
        status: 'baseline',
        description: 'initial baseline',
        wallSeconds: seconds,
      });
      progress(0, 'baseline', score, null, seconds, scored.usage);
      break;
    }
    consecutiveCrashes++;
    await append({
      commit: baselineCommit,
      score: null,
      status: 'crash',
      description: `initial baseline (crash: ${failure ?? 'no score'})`,
      wallSeconds: seconds,
    });
    progress(0, 'crash', null, null, seconds, scored?.usage ?? ZERO_USAGE);
    // Only the crash, budget and cost caps apply here: baseline attempts are not iterations.
    stop = stopReason(false);
    if (stop) break;
  }

  while (kept !== undefined) {
    if (input.signal?.aborted) throw interrupted();
    stop = stopReason();
    if (stop) break;
    iterations++;
    const iteration = iterations;
    const state: KeptState = kept;
    const started = now();
    const timer = startIterationTimer(options.iterationTimeoutMs, input.signal);
    const highWater = state.score;

    let commit = NO_COMMIT;
    let description = 'no edit';
    let proposed = false;
    let outcome: IterationOutcome;
    let score: number | null = null;
    let note: string | undefined;
    let spent: Usage = ZERO_USAGE;
    let scored: ScoredText | undefined;
    let newText: string | undefined;

    try {
      // Step A: brainstorm one edit.
      const editorInput = buildEditorInput(skill, state, consecutiveReverts, revertedDescriptions);
      let proposal: EditProposal | undefined;
      try {
        const reply = await untilAborted(models.propose(editorInput, timer.signal), timer.signal);
        spent = addUsage(spent, reply.usage);
        proposal = reply.value;
        description = proposal.description;
        proposed = true;
      } catch (err) {
        if (!(err instanceof ModelOutputError) || timer.signal.aborted) throw err;
        note = messageOf(err);
      }
      // Step B: apply. An unusable proposal is the loop working as intended: revert, nothing committed.
      const applied = proposal ? applyEdit(state.text, proposal) : undefined;
      if (!proposal || !applied?.ok) {
        outcome = 'revert';
        if (applied && !applied.ok) note = applied.reason;
      } else {
        newText = applied.text;
        await writeFile(skillMdPath, newText, { encoding: 'utf8', flag: WRITE_NO_FOLLOW });
        // Step C: commit in the worktree and capture the short SHA (a failed commit is a crash).
        try {
          commit = await commitFile(input.worktreePath, skillMdRel, description);
        } catch (err) {
          await discardChanges(input.worktreePath);
          throw err;
        }
        // Step D: score under the same timeout, saturation handler included.
        scored = await scoreText(newText, timer.signal);
        spent = addUsage(spent, scored.usage);
        // Steps E/F.
        const s = scored.score;
        score = s.score;
        const before = checkFrontmatter(state.text);
        const after = checkFrontmatter(newText);
        outcome = classifyIteration({
          status: s.status,
          score: s.score,
          highWater,
          linesDelta: countLines(newText) - countLines(state.text),
          breaksFrontmatter: before.valid && !after.valid,
        });
        if (s.status === 'ambiguous') note = `AMBIGUOUS: ${s.detail ?? ''}`.trim();
        else if (outcome === 'crash') note = `${s.status}: ${s.detail ?? 'no score'}`;
        else if (before.valid && !after.valid) note = `breaks frontmatter: ${after.reason}`;
        if (outcome === 'crash') score = null;
      }
    } catch (err) {
      outcome = 'crash';
      score = null;
      note = messageOf(err);
    } finally {
      timer.stop();
    }
    spend(spent);
    if (input.signal?.aborted) {
      // Never judged, so neither recorded nor kept: the branch goes back to the last kept state.
      if (commit !== NO_COMMIT) await resetToParent(input.worktreePath).catch(() => undefined);
      iterations--;
      throw interrupted();
    }
    const seconds = secondsBetween(started, now());
    const rowDescription = note === undefined ? description : `${description} (${outcome}: ${note})`;

    // Step G before any git side effect: the row keeps the SHA even when the reset orphans it.
    await append({ commit, score, status: outcome, description: rowDescription, wallSeconds: seconds });
    const delta = score === null ? null : score - highWater;
    progress(iteration, outcome, score, outcome === 'crash' ? null : delta, seconds, spent);

    if (outcome === 'keep' && scored && newText !== undefined && score !== null) {
      kept = keptStateOf(newText, score, scored);
      keptEdits.push({ iteration, commit, description, score, delta: score - highWater });
      consecutiveReverts = 0;
      consecutiveCrashes = 0;
    } else {
      // A crashed edit was never judged, so it must not stay on the branch either.
      if (commit !== NO_COMMIT) await resetToParent(input.worktreePath);
      if (outcome === 'revert') {
        consecutiveReverts++;
        consecutiveCrashes = 0;
        // Only real proposals: "no edit" tells the editor nothing about what not to try again.
        if (proposed) revertedDescriptions.push(description);
      } else {
        consecutiveCrashes++;
      }
    }
  }

  return result(stop ?? 'iteration cap');
}

/**
 * Step A's inputs, from the state of the text being edited (the branch tip): its failures and passing
 * pairs, the render behind its top failure, and the edits already reverted in this run.
 */
export function buildEditorInput(
  skillName: string,
  state: Pick<KeptState, 'text' | 'structural' | 'absolute' | 'confirmedAllPass' | 'renders'>,
  consecutiveReverts: number,
  revertedDescriptions: readonly string[],
): EditorInput {
  const radical = consecutiveReverts >= RADICAL_AFTER_REVERTS;
  const absolute = state.absolute;
  const base = {
    skillName,
    skillMd: state.text,
    radical,
    revertedDescriptions: [...revertedDescriptions],
    structural: state.structural,
  };
  if (absolute !== null && absolute.failed_assertions.length === 0 && state.confirmedAllPass) {
    return {
      ...base,
      mode: 'simplification',
      topFailure: undefined,
      otherFailures: [],
      passingPairs: absolute.passing_pairs,
      failingRenderExcerpt: undefined,
    };
  }
  // Targeted: on the top failure when there is an absolute result; without one (`--mode structural`, or
  // no render/grader model) there is no failure to anchor on: topFailure stays undefined and the editor
  // aims at the weakest structural metric (the offline editor by itself, a real one through the
  // structural-target prompt of core/prompts.ts).
  const [top, ...others]: Array<FailedAssertion | undefined> = absolute?.failed_assertions ?? [];
  const render = top ? state.renders.get(top.scenario_id) : undefined;
  return {
    ...base,
    mode: 'targeted',
    topFailure: top,
    otherFailures: others.filter((f): f is FailedAssertion => f !== undefined),
    passingPairs: absolute?.passing_pairs ?? [],
    failingRenderExcerpt: render === undefined ? undefined : render.slice(0, RENDER_EXCERPT_CHARS),
  };
}
