/**
 * One skill's hill-climb in its worktree (docs/how-it-works.md § The hill-climb loop). A baseline, then
 * Steps A–H until a cap fires: brainstorm one edit, apply it, commit it, score it under the per-iteration
 * timeout (with the N=3 saturation handler), classify it against the high-water mark, append the
 * results.tsv row, and only then reset a reverted or crashed commit away. The bookkeeping is the pure step
 * of core/hill-climb.ts; this file is the I/O around it. Nothing in here asks anyone anything.
 */
import { constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { untilAborted } from '../core/abortable.js';
import type { SkillEvals } from '../core/iterate/evals.js';
import type { StructuralSettings } from '../core/iterate/structural.js';
import {
  NO_COMMIT,
  applyEdit,
  initialLoopState,
  loopStopReason,
  stepLoop,
  withUsage,
  type IterationRecord,
  type KeptState,
  type LoopState,
  type LoopStopReason,
} from '../core/iterate/hill-climb.js';
import { countNewlines } from '../core/iterate/lines.js';
import { checkFrontmatter } from '../core/iterate/markdown.js';
import { ModelOutputError, type EditProposal } from '../core/model-answers.js';
import { formatIterationLine } from '../core/iterate/progress.js';
import { withModeMarker } from '../core/iterate/results-tsv.js';
import type { KeptEdit, ResultsRow } from '../core/iterate/run-result.js';
import { SKILL_FILE, skillFileOf } from '../core/iterate/skill-layout.js';
import { classifyIteration, type IterationOutcome } from '../core/iterate/taxonomy.js';
import {
  DEFAULT_KEEP_RULE,
  DEFAULT_MARGIN,
  DEFAULT_TRIALS,
  clearsMargin,
  confirmationOf,
  evalFindings,
  formatGain,
  mean,
  mergeTallies,
  noiseReport,
  poolNoise,
  screenedOut,
  screeningBatch,
  tallyDraws,
  upliftOf,
  worthMeasuring,
  type AssertionTally,
  type Confirmation,
  type KeepRule,
  type NoiseReport,
  type PairVerdict,
  type UpliftReport,
} from '../core/iterate/noise.js';
import type { SkillMeasurement } from '../core/iterate/run-result.js';
import { shipGate } from '../core/iterate/ship-gate.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import type { FileLookup, GitWorkspace } from '../ports/git.js';
import type { Logger } from '../ports/logger.js';
import type { SkillModels } from '../ports/models.js';
import { assertionStatements, buildEditorInput } from './editor-input.js';
import { interruptionOf, type RunInterrupted } from './interrupt.js';
import { SkillBudgetReached, startIterationTimer, type IterationLimits } from './iteration-timer.js';
import type { IterateOptions } from './options.js';
import { appendResultsRow } from './results-file.js';
import { keptStateOf, scoreWithSaturation, type ScoredText } from './saturation.js';
import { RenderCache, scoreSkill, type GradeMemo, type ScoreRequest } from './score.js';
import { NO_SKILL_TEXT, drawRange, measureDraws, splitHoldout, type Measurement } from './trials.js';
import { SkillclimbError, messageOf } from '../core/errors.js';

export type { LoopStopReason };

/**
 * SKILL.md is opened without following a link (ELOOP instead): the run skips linked skills before the
 * loop, and this keeps a link made afterwards from being read or written through. No O_CREAT: it exists.
 */
const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;
const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW;

export type LoopOptions = Pick<
  IterateOptions,
  | 'mode'
  | 'concurrency'
  | 'iterationTimeoutMs'
  | 'perSkillBudgetMs'
  | 'perSkillIterations'
  | 'maxCostUsd'
  | 'trials'
  | 'margin'
  | 'keepRule'
  | 'minGain'
> & {
  /**
   * Measure the skill's uplift once at the baseline (a draw without the skill); default true when the
   * baseline has trials (`trials` ≥ 2): `--trials 1` measures nothing beyond the original's single draw.
   */
  uplift?: boolean | undefined;
};

export interface SkillLoopInput {
  skill: string;
  /** The per-skill worktree (all git runs there, by path). */
  worktreePath: string;
  /** The base commit the worktree was created from; the baseline row names it. */
  baseCommit: string;
  /** The skill's folder relative to the repository root (its real path). */
  skillRelPath: string;
  evals: SkillEvals;
  /** The structural settings (line limit, banned phrases, required sections) the skill is scored with. */
  structural?: StructuralSettings | undefined;
  /** The project's `<skill folder>/evals/results.tsv` (outside the worktree, so it outlives it). */
  resultsFile: string;
  /** The exact secrets in use: each results.tsv row is redacted with them (ports/iterate.ts). */
  secrets?: readonly string[];
  options: LoopOptions;
  models: SkillModels;
  git: Pick<GitWorkspace, 'commitFile' | 'resetToParent' | 'discardChanges'>;
  log: Logger;
  now: () => Date;
  /** What the run spent before this skill, for `maxCostUsd`. */
  runUsageBefore?: Usage;
  cache?: RenderCache;
  /** Where the scoring looks up link and `[[ref]]` targets when the worktree is sparse (default: disk). */
  files?: FileLookup | undefined;
  /**
   * The run's stop signal: aborts the model calls in flight and ends the loop with LoopInterrupted. The
   * unfinished iteration gets no row (it was never judged) and its commit is reset away.
   */
  signal?: AbortSignal;
  /** Told every time the loop's spend grows, so a caller keeps it even if the loop throws. */
  onUsage?: (total: Usage) => void;
  /** The progress lines' skill column width: the longest name in the queue (progress.ts). */
  nameWidth?: number | undefined;
}

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
  /** Noise, uplift, the confirmation (when it ran) and the eval-quality findings. */
  measurement: SkillMeasurement;
}

/** The run was interrupted while this loop ran; `partial` is what the loop had recorded by then. */
export class LoopInterrupted extends SkillclimbError {
  readonly kind = 'interrupted';
  override readonly name = 'LoopInterrupted';
  constructor(
    readonly interruption: RunInterrupted,
    readonly partial: SkillLoopResult,
  ) {
    super(interruption.message, { cause: interruption });
  }
}

function secondsBetween(a: Date, b: Date): number {
  return (b.getTime() - a.getTime()) / 1000;
}

function rowOf(
  commit: string,
  score: number | null,
  status: ResultsRow['status'],
  description: string,
  wallSeconds: number,
): ResultsRow {
  return { commit, score, status, description, wallSeconds };
}

/** The loop's I/O context: everything the attempts share. */
class SkillLoop {
  readonly skillMdRel: string;
  readonly skillMdPath: string;
  readonly skillDir: string;
  readonly cache: RenderCache;
  readonly loopStart: Date;
  readonly statements: Record<string, string>;
  /** The scenarios the loop and its editor see; holdouts are scored only by the confirmation. */
  readonly training: SkillEvals;
  readonly holdout: SkillEvals | undefined;
  readonly keepRule: KeepRule;
  readonly trials: number;
  readonly margin: number;
  /** Structure-only scoring is exact: no draw can differ from another, so no trial is spent on it. */
  readonly deterministic: boolean;
  state: LoopState = initialLoopState();
  /** Every draw of the night, per assertion (the eval-quality findings). */
  nightTallies: AssertionTally[] = [];
  noise: NoiseReport | undefined;
  uplift: UpliftReport | undefined;
  confirmation: Confirmation | undefined;
  confirmationFailure: string | undefined;
  confirmationSkipped: string | undefined;

  constructor(readonly input: SkillLoopInput) {
    this.skillMdRel = path.posix.join(input.skillRelPath, SKILL_FILE);
    this.skillMdPath = skillFileOf(path.join(input.worktreePath, input.skillRelPath));
    this.skillDir = path.dirname(this.skillMdPath);
    this.cache = input.cache ?? new RenderCache();
    this.loopStart = input.now();
    this.statements = assertionStatements(input.evals.evals);
    const split = splitHoldout(input.evals);
    this.training = split.training;
    this.holdout = split.holdout;
    this.keepRule = input.options.keepRule ?? DEFAULT_KEEP_RULE;
    this.trials = Math.max(1, Math.floor(input.options.trials ?? DEFAULT_TRIALS));
    this.margin = input.options.margin ?? DEFAULT_MARGIN;
    this.deterministic = input.models.structuralOnly || input.options.mode === 'structural';
  }

  observe(tallies: readonly AssertionTally[]): void {
    this.nightTallies = mergeTallies(this.nightTallies, tallies);
  }

  measurement(): SkillMeasurement {
    return {
      keepRule: this.keepRule,
      noise: this.noise,
      uplift: this.uplift,
      confirmation: this.confirmation,
      confirmationFailure: this.confirmationFailure,
      confirmationSkipped: this.confirmationSkipped,
      findings: evalFindings({ night: this.nightTallies, uplift: this.uplift }),
      statements: this.statements,
    };
  }

  /** A scoring request for `text` (by default on the scenarios the editor sees). */
  request(text: string, signal: AbortSignal, evals = this.training): Omit<ScoreRequest, 'trials'> {
    const { input } = this;
    return {
      skillName: input.skill,
      skillDir: this.skillDir,
      skillMd: text,
      evals,
      structural: input.structural,
      models: input.models,
      mode: input.options.mode,
      concurrency: input.options.concurrency,
      signal,
      cache: this.cache,
      files: input.files,
    };
  }

  /** A revert's `reset --hard` still running; the next git step in the worktree waits for it. */
  private pendingReset: Promise<void> | undefined;

  /**
   * Step H's reset, off the critical path: it runs while the next editor call is out (nothing the editor
   * sees depends on it), and every later git step in this worktree, and the loop's end, wait for it first.
   */
  resetInBackground(): void {
    const reset = this.input.git.resetToParent(this.input.worktreePath);
    reset.catch(() => undefined); // observed by settleGit
    this.pendingReset = reset;
  }

  /** Waits for a background reset; its failure ends the loop as it always did (never a crash row). */
  async settleGit(): Promise<void> {
    const reset = this.pendingReset;
    this.pendingReset = undefined;
    if (reset === undefined) return;
    try {
      await reset;
    } catch (err) {
      throw new WorktreeGitFailure(err);
    }
  }

  /**
   * Step G, then the pure step: the row is on disk before any git side effect of its outcome. The row's
   * description carries the mode marker (results-tsv.ts withModeMarker); `reason` is what the terminal
   * line says about a revert or a crash.
   */
  async record(
    record: IterationRecord,
    iteration: number,
    delta: number | null,
    reason?: string,
  ): Promise<void> {
    // The spend counts even when the row cannot be written (the caller keeps it through onUsage).
    this.input.onUsage?.(addUsage(this.state.usage, record.usage));
    const marked: IterationRecord = {
      ...record,
      row: { ...record.row, description: withModeMarker(record.row.description, this.input.options.mode) },
    };
    await appendResultsRow(this.input.resultsFile, marked.row, this.input.secrets);
    this.state = stepLoop(this.state, marked);
    const { row } = marked;
    this.input.log.progress(
      formatIterationLine({
        skill: this.input.skill,
        iteration,
        outcome: row.status,
        score: row.score,
        delta,
        seconds: row.wallSeconds,
        usage: record.usage,
        ...(reason === undefined ? {} : { reason }),
        ...(this.input.nameWidth === undefined ? {} : { width: this.input.nameWidth }),
      }),
    );
  }

  /** Spend of an attempt that was never judged (interrupted): counted, not recorded. */
  spendUnjudged(usage: Usage): void {
    this.state = withUsage(this.state, usage);
    this.input.onUsage?.(this.state.usage);
  }

  /**
   * The iteration timeout and what is left of the skill's budget: a hung model call ends when the budget
   * does, not when its own request timeout fires (docs/how-it-works.md § The hill-climb loop).
   */
  limits(started: Date): IterationLimits {
    const { options } = this.input;
    const elapsed = started.getTime() - this.loopStart.getTime();
    return {
      iterationMs: options.iterationTimeoutMs,
      budget: { remainingMs: options.perSkillBudgetMs - elapsed, totalMs: options.perSkillBudgetMs },
    };
  }

  /** The iteration was cut short by the skill's budget: never judged, so no row; the loop ends. */
  budgetCut(what: string, usage: Usage): LoopStopReason {
    this.spendUnjudged(usage);
    this.input.log.info(
      `${this.input.skill}: ${what} cut short: the per-skill budget of ${Math.round(this.input.options.perSkillBudgetMs / 1000)}s was reached`,
    );
    return 'wall-clock budget';
  }

  stopReason(countIterations: boolean): LoopStopReason | undefined {
    return loopStopReason(this.state, this.input.options, {
      elapsedMs: this.input.now().getTime() - this.loopStart.getTime(),
      runUsageBefore: this.input.runUsageBefore ?? ZERO_USAGE,
      countIterations,
    });
  }

  result(stopReason: LoopStopReason, baselineText: string, ambiguousReason?: string): SkillLoopResult {
    const { state } = this;
    return {
      baselineScore: state.baselineScore,
      finalScore: state.kept?.score ?? null,
      iterations: state.iterations,
      rows: [...state.rows],
      keptEdits: [...state.keptEdits],
      usage: state.usage,
      stopReason,
      consecutiveCrashes: state.consecutiveCrashes,
      finalText: state.kept?.text ?? baselineText,
      ...(ambiguousReason === undefined ? {} : { ambiguousReason }),
      measurement: this.measurement(),
    };
  }

  interrupted(baselineText: string): LoopInterrupted {
    // The stop reason of a partial result is never read; the interruption says why the loop ended.
    return new LoopInterrupted(
      interruptionOf(this.input.signal!),
      this.result('iteration cap', baselineText),
    );
  }

  /** Step D under the iteration's signal, with the N=3 saturation handler (draw 0 of the text). */
  score(text: string, signal: AbortSignal): Promise<ScoredText> {
    return scoreWithSaturation(this.request(text, signal));
  }

  /**
   * The baseline's other draws (1 … trials − 1) and, once per skill, a draw without the skill (the uplift),
   * side by side with draw 0. Never rejects: a failure leaves the report out, not the baseline.
   */
  async baselineExtras(text: string, signal: AbortSignal): Promise<BaselineExtras> {
    if (this.deterministic) return { usage: ZERO_USAGE };
    const settle = (p: Promise<Measurement>): Promise<Measurement | undefined> => p.catch(() => undefined);
    const [extra, without] = await Promise.all([
      this.trials > 1
        ? settle(measureDraws(this.request(text, signal), drawRange(1, this.trials - 1)))
        : undefined,
      this.trials < 2 || this.input.options.uplift === false
        ? undefined
        : settle(measureDraws(this.request(NO_SKILL_TEXT, signal), [0])),
    ]);
    return {
      extra,
      without,
      usage: addUsage(extra?.usage ?? ZERO_USAGE, without?.usage ?? ZERO_USAGE),
    };
  }
}

interface BaselineExtras {
  extra?: Measurement | undefined;
  without?: Measurement | undefined;
  usage: Usage;
}

/** The share of a draw's pairs that passed. */
function passShare(pairs: readonly PairVerdict[]): number {
  return pairs.length === 0 ? 0 : pairs.filter((p) => p.pass).length / pairs.length;
}

/** A git step of the loop itself failed (not an edit's commit): the loop stops, the worktree is kept. */
class WorktreeGitFailure extends SkillclimbError {
  readonly kind = 'git';
  constructor(readonly failure: unknown) {
    super(messageOf(failure), { cause: failure });
  }
}

/** What one attempt at an edit produced before it was recorded. */
interface Attempt {
  commit: string;
  description: string;
  proposed: boolean;
  outcome: IterationOutcome;
  score: number | null;
  note: string | undefined;
  usage: Usage;
  kept: KeptState | undefined;
  /** The edited text's draws when it was re-measured (noise-aware keep rule). */
  measured?: number[] | undefined;
}

/**
 * The baseline: no edit. One that cannot be scored is a crash row, retried until it scores or the crash
 * counter parks the skill, because without it no edit can be judged. An AMBIGUOUS baseline is different:
 * the render said the skill cannot do the task, which a retry of the same text will not change.
 * Resolves the stop reason when the loop must end before its first iteration.
 */
async function scoreBaseline(
  loop: SkillLoop,
  baselineText: string,
): Promise<SkillLoopResult | LoopStopReason | undefined> {
  const { input } = loop;
  const commit = input.baseCommit.slice(0, 7);
  while (loop.state.kept === undefined) {
    if (input.signal?.aborted) throw loop.interrupted(baselineText);
    const started = input.now();
    const timer = startIterationTimer(loop.limits(started), input.signal);
    let scored: ScoredText | undefined;
    let failure: string | undefined;
    let extras: BaselineExtras = { usage: ZERO_USAGE };
    const extrasRun = loop.baselineExtras(baselineText, timer.signal);
    try {
      scored = await loop.score(baselineText, timer.signal);
      if (scored.score.status !== 'ok' || scored.score.score === null) {
        failure = `${scored.score.status}: ${scored.score.detail ?? 'no score'}`;
      }
    } catch (err) {
      failure = messageOf(err);
    } finally {
      extras = await extrasRun;
      timer.stop();
    }
    const usage = addUsage(scored?.usage ?? ZERO_USAGE, extras.usage);
    if (input.signal?.aborted) {
      loop.spendUnjudged(usage);
      throw loop.interrupted(baselineText);
    }
    if (failure !== undefined && timer.signal.reason instanceof SkillBudgetReached) {
      return loop.budgetCut('the baseline', usage);
    }
    const seconds = secondsBetween(started, input.now());
    if (scored?.score.status === 'ambiguous') {
      const reason = (scored.score.detail ?? '').trim();
      const description = `initial baseline (AMBIGUOUS: ${reason})`;
      await loop.record(
        { kind: 'baseline', row: rowOf(commit, null, 'baseline', description, seconds), usage },
        0,
        null,
      );
      input.log.warn(
        `${input.skill}: the baseline render answered AMBIGUOUS (${reason}); not iterating this skill`,
      );
      return loop.result('baseline ambiguous', baselineText, reason);
    }
    if (failure === undefined && scored && scored.score.score !== null) {
      const first = scored.score.score;
      const draws = measuredBaseline(loop, scored, extras);
      const noiseAware = loop.keepRule === 'noise-aware' && draws.scores.length > 1;
      // The original's rule climbs from the first draw; the noise-aware one from the mean of the trials.
      const score = noiseAware ? mean(draws.scores) : first;
      const kept: KeptState = {
        ...keptStateOf(baselineText, score, scored),
        draws: noiseAware ? draws.scores.length : 1,
        confirmedAllPass:
          scored.saturation === 'confirmed' || (noiseAware && draws.allPass && draws.scores.length >= 3),
      };
      const description = noiseAware
        ? `initial baseline (mean of ${draws.scores.length} trials, sd ${loop.noise?.sd.toFixed(4) ?? '0'})`
        : 'initial baseline';
      const row = rowOf(commit, score, 'baseline', description, seconds);
      await loop.record({ kind: 'baseline', row, kept, usage, measured: draws.scores }, 0, null);
      return undefined;
    }
    const description = `initial baseline (crash: ${failure ?? 'no score'})`;
    await loop.record(
      { kind: 'baseline', row: rowOf(commit, null, 'crash', description, seconds), usage },
      0,
      null,
      failure ?? 'no score',
    );
    const stop = loop.stopReason(false);
    if (stop) return stop;
  }
  return undefined;
}

/** Steps A–F of one iteration, from the kept state; throws only what the caller must treat as a crash. */
async function attemptEdit(
  loop: SkillLoop,
  kept: KeptState,
  signal: AbortSignal,
  attempt: Attempt,
): Promise<void> {
  const { input } = loop;
  // Step A: brainstorm one edit.
  const editorInput = buildEditorInput(
    input.skill,
    kept,
    loop.state.consecutiveReverts,
    loop.state.revertedDescriptions,
    loop.statements,
  );
  let proposal: EditProposal | undefined;
  const proposing = untilAborted(input.models.propose(editorInput, signal), signal);
  proposing.catch(() => undefined); // awaited below, after the previous revert's reset
  await loop.settleGit();
  try {
    const reply = await proposing;
    attempt.usage = addUsage(attempt.usage, reply.usage);
    proposal = reply.value;
    attempt.description = proposal.description;
    attempt.proposed = true;
  } catch (err) {
    if (!(err instanceof ModelOutputError) || signal.aborted) throw err;
    attempt.note = messageOf(err);
  }
  // Step B: apply. An unusable proposal is the loop working as intended: revert, nothing committed.
  const applied = proposal ? applyEdit(kept.text, proposal) : undefined;
  if (!proposal || !applied?.ok) {
    attempt.outcome = 'revert';
    if (applied && !applied.ok) attempt.note = applied.reason;
    return;
  }
  const newText = applied.text;
  await writeFile(loop.skillMdPath, newText, { encoding: 'utf8', flag: WRITE_NO_FOLLOW });
  // Steps C and D side by side: the scoring needs the text, not the commit, so the first renders go out
  // while git commits (docs/how-it-works.md § The hill-climb loop). A failed commit is still a crash: the
  // scoring is stopped and the edit discarded.
  const stopScoring = new AbortController();
  const scoring = screenThenScore(loop, kept, newText, AbortSignal.any([signal, stopScoring.signal]));
  scoring.catch(() => undefined); // awaited below once the commit is in
  try {
    attempt.commit = await input.git.commitFile(input.worktreePath, loop.skillMdRel, attempt.description);
  } catch (err) {
    stopScoring.abort(err);
    await scoring.catch(() => undefined);
    await input.git.discardChanges(input.worktreePath);
    throw err;
  }
  // Step D: score under the same timeout, saturation handler included.
  const screened = await scoring;
  attempt.usage = addUsage(attempt.usage, screened.usage);
  if ('screenedOut' in screened) {
    attempt.outcome = 'revert';
    attempt.score = null;
    attempt.note = screened.screenedOut;
    return;
  }
  const scored = screened;
  // Steps E/F.
  const s = scored.score;
  const before = checkFrontmatter(kept.text);
  const after = checkFrontmatter(newText);
  attempt.outcome = classifyIteration({
    status: s.status,
    score: s.score,
    highWater: kept.score,
    linesDelta: countNewlines(newText) - countNewlines(kept.text),
    breaksFrontmatter: before.valid && !after.valid,
  });
  attempt.score = attempt.outcome === 'crash' ? null : s.score;
  if (s.status === 'ambiguous') attempt.note = `AMBIGUOUS: ${s.detail ?? ''}`.trim();
  else if (attempt.outcome === 'crash') attempt.note = `${s.status}: ${s.detail ?? 'no score'}`;
  else if (before.valid && !after.valid) attempt.note = `breaks frontmatter: ${after.reason}`;
  const linesDelta = countNewlines(newText) - countNewlines(kept.text);
  if (
    attempt.outcome === 'keep' &&
    loop.keepRule === 'noise-aware' &&
    worthMeasuring(loop.state.noise, loop.trials, loop.deterministic)
  ) {
    await remeasure(loop, kept, newText, scored, linesDelta, signal, attempt);
    return;
  }
  if (s.status === 'ok') loop.observe(tallyDraws([s.pairs]));
  if (attempt.outcome === 'keep' && s.score !== null) attempt.kept = keptStateOf(newText, s.score, scored);
}

/**
 * Step D with the screening of the noise-aware rule (docs/how-it-works.md § Decisions under noise): the
 * scenarios the kept text fails plus one it passes are rendered first; a candidate already worse there is
 * reverted without rendering the rest. Otherwise the whole scoring runs, its renders of the batch reused
 * from the cache (the same draw of the same text).
 */
async function screenThenScore(
  loop: SkillLoop,
  kept: KeptState,
  newText: string,
  signal: AbortSignal,
): Promise<ScoredText | { screenedOut: string; usage: Usage }> {
  const ids = loop.training.scenarios.map((s) => s.id);
  const batch =
    loop.keepRule === 'noise-aware' && !loop.deterministic
      ? screeningBatch(ids, kept.absolute?.failed_assertions)
      : undefined;
  if (batch === undefined || kept.absolute === null) return loop.score(newText, signal);
  const inBatch = new Set(batch);
  const evals = { ...loop.training, scenarios: loop.training.scenarios.filter((s) => inBatch.has(s.id)) };
  const grades: GradeMemo = new Map();
  const screen = await untilAborted(
    scoreSkill({ ...loop.request(newText, signal, evals), trials: 1, grades }),
    signal,
  );
  const keptPasses = kept.absolute.passing_pairs.filter((p) => inBatch.has(p.scenario_id)).length;
  if (screen.status === 'ok' && screen.absolute && screenedOut(screen.absolute.passed, keptPasses)) {
    return {
      screenedOut:
        `screened out on ${batch.length} of ${ids.length} scenarios: ${screen.absolute.passed} checks pass ` +
        `there, the kept text's ${keptPasses}`,
      usage: screen.usage,
    };
  }
  // Not worse (or not scorable there): the whole scoring decides, as without screening; the batch's
  // renders come from the cache and its grades from the screen.
  const full = await scoreWithSaturation({ ...loop.request(newText, signal), grades });
  return { ...full, usage: addUsage(screen.usage, full.usage) };
}

/**
 * The noise-aware keep rule (docs/how-it-works.md § Decisions under noise): a candidate that beat the kept
 * state on its first draw gets the other trials, and is kept only when the mean of all its draws clears the
 * margin over the state's mean; the new state carries that mean, not the lucky first draw. A candidate that
 * did not beat the state on its first draw never gets here (the extra trials would decide nothing).
 */
async function remeasure(
  loop: SkillLoop,
  kept: KeptState,
  newText: string,
  scored: ScoredText,
  linesDelta: number,
  signal: AbortSignal,
  attempt: Attempt,
): Promise<void> {
  const more = await measureDraws(loop.request(newText, signal), drawRange(1, loop.trials - 1));
  attempt.usage = addUsage(attempt.usage, more.usage);
  if (more.status !== 'ok') {
    attempt.outcome = more.status === 'ambiguous' ? 'revert' : 'crash';
    attempt.score = null;
    attempt.note =
      more.status === 'ambiguous'
        ? `AMBIGUOUS on a re-measure: ${more.detail ?? ''}`.trim()
        : `re-measure failed: ${more.status}: ${more.detail ?? 'no score'}`;
    return;
  }
  const scores = [scored.score.score!, ...more.scores];
  loop.observe(tallyDraws([scored.score.pairs, ...more.draws.map((d) => d.pairs)]));
  const candidate = mean(scores);
  const decision = clearsMargin({
    candidate,
    state: kept.score,
    draws: scores.length,
    stateDraws: kept.draws ?? 1,
    estimate: poolNoise(loop.state.noise, scores),
    margin: loop.margin,
    linesDelta,
  });
  attempt.score = candidate;
  attempt.measured = scores;
  const how =
    `mean of ${scores.length} trials, gain ${formatGain(decision.gain)} ` +
    `${decision.keep ? 'clears' : 'does not clear'} the margin ${decision.needed.toFixed(4)}`;
  attempt.note = how;
  if (decision.keep) {
    attempt.outcome = 'keep';
    attempt.kept = { ...keptStateOf(newText, candidate, scored), draws: scores.length };
  } else {
    attempt.outcome = 'revert';
    attempt.kept = undefined;
  }
}

/**
 * The baseline's draws: draw 0 and the extras that scored. Records the noise report and the uplift on the
 * loop (the summary shows both) and adds the draws to the night's tallies.
 */
function measuredBaseline(
  loop: SkillLoop,
  scored: ScoredText,
  extras: BaselineExtras,
): { scores: number[]; allPass: boolean } {
  const extra = extras.extra?.status === 'ok' ? extras.extra : undefined;
  if (extras.extra && !extra) {
    loop.input.log.warn(
      `${loop.input.skill}: the baseline's extra trials could not be scored (${extras.extra.status}: ` +
        `${extras.extra.detail ?? 'no score'}); the noise is not measured`,
    );
  }
  const drawsPairs = [scored.score.pairs, ...(extra?.draws.map((d) => d.pairs) ?? [])];
  const scores = [scored.score.score!, ...(extra?.scores ?? [])];
  const tallies = tallyDraws(drawsPairs);
  loop.observe(tallies);
  if (scores.length > 1) loop.noise = noiseReport(scores, tallies);
  const without = extras.without?.status === 'ok' ? extras.without : undefined;
  if (without) {
    loop.uplift = upliftOf({
      withSkill: tallies,
      withoutSkill: without.tallies,
      withRates: drawsPairs.map(passShare),
      margin: loop.margin,
    });
  }
  const allPass = [scored.score, ...(extra?.draws ?? [])].every(
    (d) => d.absolute !== null && d.absolute.failed_assertions.length === 0,
  );
  return { scores, allPass };
}

/**
 * One iteration: attempt, record (Step G), then reset a commit that is not kept (Step H). Resolves the stop
 * reason when the skill's budget ran out in the middle of it.
 */
async function iterate(
  loop: SkillLoop,
  kept: KeptState,
  baselineText: string,
): Promise<LoopStopReason | undefined> {
  const { input } = loop;
  const iteration = loop.state.iterations + 1;
  const started = input.now();
  const timer = startIterationTimer(loop.limits(started), input.signal);
  const attempt: Attempt = {
    commit: NO_COMMIT,
    description: 'no edit',
    proposed: false,
    outcome: 'crash',
    score: null,
    note: undefined,
    usage: ZERO_USAGE,
    kept: undefined,
  };
  try {
    await attemptEdit(loop, kept, timer.signal, attempt);
  } catch (err) {
    if (err instanceof WorktreeGitFailure) throw err.failure;
    attempt.outcome = 'crash';
    attempt.score = null;
    attempt.kept = undefined;
    attempt.note = messageOf(err);
  } finally {
    timer.stop();
  }
  if (input.signal?.aborted) {
    // Never judged, so neither recorded nor kept: the branch goes back to the last kept state.
    loop.spendUnjudged(attempt.usage);
    await loop.settleGit().catch(() => undefined);
    if (attempt.commit !== NO_COMMIT)
      await input.git.resetToParent(input.worktreePath).catch(() => undefined);
    throw loop.interrupted(baselineText);
  }
  if (attempt.outcome === 'crash' && timer.signal.reason instanceof SkillBudgetReached) {
    // Cut short by the budget, not judged: like an interruption, no row, and the commit goes.
    await loop.settleGit().catch((err: unknown) => {
      throw err instanceof WorktreeGitFailure ? err.failure : err;
    });
    if (attempt.commit !== NO_COMMIT) await input.git.resetToParent(input.worktreePath);
    return loop.budgetCut(`iteration ${iteration}`, attempt.usage);
  }
  const { commit, description, outcome, score, note } = attempt;
  const seconds = secondsBetween(started, input.now());
  const rowDescription = note === undefined ? description : `${description} (${outcome}: ${note})`;
  const delta = score === null || outcome === 'crash' ? null : score - kept.score;
  await loop.record(
    {
      kind: 'iteration',
      row: rowOf(commit, score, outcome, rowDescription, seconds),
      outcome,
      proposed: attempt.proposed,
      description,
      ...(attempt.kept ? { kept: attempt.kept } : {}),
      ...(attempt.measured ? { measured: attempt.measured } : {}),
      usage: attempt.usage,
    },
    iteration,
    delta,
    outcome === 'keep' ? undefined : note,
  );
  // A crashed edit was never judged, so it must not stay on the branch either.
  if (outcome !== 'keep' && commit !== NO_COMMIT) loop.resetInBackground();
  return undefined;
}

export async function runSkillLoop(input: SkillLoopInput): Promise<SkillLoopResult> {
  const loop = new SkillLoop(input);
  const baselineText = await readFile(loop.skillMdPath, { encoding: 'utf8', flag: READ_NO_FOLLOW });
  const early = await scoreBaseline(loop, baselineText);
  if (typeof early === 'object') return early;
  if (early !== undefined) return loop.result(early, baselineText);
  for (;;) {
    if (input.signal?.aborted) {
      await loop.settleGit().catch(() => undefined);
      throw loop.interrupted(baselineText);
    }
    const stop = loop.stopReason(true) ?? (await iterate(loop, loop.state.kept!, baselineText));
    if (stop) {
      // The branch tip is what ships: the last revert's reset must be done.
      await loop.settleGit().catch((err: unknown) => {
        throw err instanceof WorktreeGitFailure ? err.failure : err;
      });
      if (stop !== 'consecutive crashes') await confirm(loop, baselineText, stop);
      return loop.result(stop, baselineText);
    }
  }
}

/**
 * The ship gate's confirmation (docs/how-it-works.md § Decisions under noise): when the loop's own scores
 * would ship, the baseline text and the final text are re-scored side by side with fresh draws (the
 * holdout scenarios included, scored apart), and the gate then decides on those. Structure-only scoring
 * and the original's keep rule skip it.
 */
async function confirm(loop: SkillLoop, baselineText: string, stop: LoopStopReason): Promise<void> {
  const { input, state } = loop;
  const kept = state.kept;
  if (!kept || state.baselineScore === null || loop.keepRule === 'original' || loop.deterministic) return;
  if (kept.text === baselineText) return;
  const would = shipGate({
    baselineScore: state.baselineScore,
    finalScore: kept.score,
    linesBaseline: countNewlines(baselineText),
    linesFinal: countNewlines(kept.text),
    minGain: input.options.minGain,
  });
  if (would === 'no-improvement') return;
  if (!worthMeasuring(state.noise, loop.trials, loop.deterministic)) {
    // Every draw of the night repeated its text's score exactly: fresh draws would repeat them too.
    loop.confirmationSkipped =
      'every text measured more than once tonight scored exactly the same each time, so fresh draws ' +
      "would decide nothing; the loop's scores ship";
    return;
  }
  if (stop === 'cost budget') {
    loop.confirmationFailure = 'the cost budget was reached before the confirmation';
    return;
  }
  const iterationMs = input.options.iterationTimeoutMs;
  // Its own timeout, not what is left of the skill's budget: a night that used its budget still confirms.
  const timer = startIterationTimer(
    { iterationMs, budget: { remainingMs: iterationMs, totalMs: iterationMs } },
    input.signal,
  );
  const draws = drawRange(loop.trials, loop.trials);
  let usage = ZERO_USAGE;
  try {
    const part = (text: string, evals: SkillEvals | undefined) =>
      evals === undefined ? undefined : measureDraws(loop.request(text, timer.signal, evals), draws);
    const [before, after, holdBefore, holdAfter] = await Promise.all([
      part(baselineText, loop.training),
      part(kept.text, loop.training),
      part(baselineText, loop.holdout),
      part(kept.text, loop.holdout),
    ]);
    for (const m of [before, after, holdBefore, holdAfter]) usage = addUsage(usage, m?.usage ?? ZERO_USAGE);
    const failed = [before, after, holdBefore, holdAfter].find((m) => m !== undefined && m.status !== 'ok');
    if (failed || !before || !after) {
      loop.confirmationFailure = `${failed?.status ?? 'harness-error'}: ${failed?.detail ?? 'no score'}`;
      return;
    }
    loop.observe(
      mergeTallies(before.tallies, after.tallies, holdBefore?.tallies ?? [], holdAfter?.tallies ?? []),
    );
    const estimate = poolNoise(poolNoise(state.noise, before.scores), after.scores);
    loop.confirmation = confirmationOf({
      baselineScores: before.scores,
      finalScores: after.scores,
      baselineTallies: before.tallies,
      finalTallies: after.tallies,
      holdoutBefore: holdBefore?.tallies,
      holdoutAfter: holdAfter?.tallies,
      estimate,
      margin: loop.margin,
    });
    const c = loop.confirmation;
    input.log.info(
      `${input.skill}: confirmation over ${c.trials} fresh trials each: baseline ${c.baseline.toFixed(4)} -> ` +
        `final ${c.final.toFixed(4)}, gain ${formatGain(c.gain)} (90 % interval ${formatGain(c.low)} to ${formatGain(c.high)})`,
    );
  } catch (err) {
    loop.confirmationFailure = messageOf(err);
  } finally {
    timer.stop();
    loop.spendUnjudged(usage);
  }
  if (input.signal?.aborted) throw loop.interrupted(baselineText);
}
