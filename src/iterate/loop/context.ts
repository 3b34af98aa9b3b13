/**
 * What every step of one skill's loop shares: its input, the settings derived from it once (paths, the
 * holdout split, the keep rule, trials, margin), the SKILL.md it started from, the ledger (the loop's one
 * mutable state), the reset that may be in flight, the baseline's extra draws while they run beside the
 * first editor call, and the report draws that run beside the iterations (the uplift). Nothing else here
 * changes after the loop opens.
 */
import path from 'node:path';
import type { SkillEvals } from '../../core/iterate/evals.js';
import {
  DEFAULT_KEEP_RULE,
  DEFAULT_MARGIN,
  DEFAULT_TRIALS,
  type KeepRule,
  worthMeasuring,
} from '../../core/iterate/noise.js';
import { scenarioSplitter, type DrawnPair } from '../../core/iterate/spread.js';
import { DEFAULT_MIN_GAIN } from '../../core/iterate/ship-gate.js';
import { SKILL_FILE, skillFileOf } from '../../core/iterate/skill-layout.js';
import type { KeptState } from '../../core/iterate/hill-climb.js';
import { ZERO_USAGE, type Usage } from '../../core/usage.js';
import { assertionStatements } from '../editor-input.js';
import { interruptionOf } from '../interrupt.js';
import { scoreWithSaturation, type ScoredText } from '../saturation.js';
import { RenderCache, type ScoreRequest } from '../score.js';
import { splitHoldout } from '../trials.js';
import { BackgroundReset } from './background-reset.js';
import { LoopLedger } from './ledger.js';
import { readSkillFile } from './skill-file.js';
import { LoopInterrupted, type LoopStopReason, type SkillLoopInput, type SkillLoopResult } from './types.js';

export class LoopContext {
  readonly skillMdRel: string;
  readonly skillDir: string;
  readonly cache: RenderCache;
  readonly statements: Record<string, string>;
  /** The scenarios the loop and its editor see; holdouts are scored only by the confirmation. */
  readonly training: SkillEvals;
  readonly holdout: SkillEvals | undefined;
  readonly keepRule: KeepRule;
  readonly trials: number;
  readonly margin: number;
  /** Structure-only scoring is exact: no draw can differ from another, so no trial is spent on it. */
  readonly deterministic: boolean;
  readonly ledger = new LoopLedger();
  readonly resets: BackgroundReset;
  /** Splits a draw of the training scenarios by scenario (`partsOf`); built on first use. */
  private splitter: ((pairs: readonly DrawnPair[]) => Map<string, number>) | undefined;
  /**
   * Draws that only report (the uplift, baseline-measurement.ts): waiting to start, then running; they
   * never reject and are joined before the result.
   */
  private readonly waitingReports: Array<() => Promise<void>> = [];
  private readonly runningReports: Promise<void>[] = [];
  /**
   * The climb's start while the baseline's draws beyond draw 0 are made (baseline.ts `startBeside`): draw
   * 0's state, its spend, and the draws and row still to come; undefined once settled, or when there were
   * no extra draws to make.
   */
  private pendingStart:
    { first: KeptState; usage: Usage; settle: () => Promise<void>; running?: Promise<void> } | undefined;

  /** Reads SKILL.md as the loop starts; the skill's budget counts from before the read. */
  static async open(input: SkillLoopInput): Promise<LoopContext> {
    const loopStart = input.now();
    const skillMdPath = skillFileOf(path.join(input.worktreePath, input.skillRelPath));
    const baselineText = await readSkillFile(skillMdPath);
    return new LoopContext(input, loopStart, skillMdPath, baselineText);
  }

  private constructor(
    readonly input: SkillLoopInput,
    readonly loopStart: Date,
    readonly skillMdPath: string,
    /** SKILL.md as the loop found it: the baseline's text, and the final text when nothing was kept. */
    readonly baselineText: string,
  ) {
    this.skillMdRel = path.posix.join(input.skillRelPath, SKILL_FILE);
    this.skillDir = path.dirname(skillMdPath);
    this.cache = input.cache ?? new RenderCache();
    this.statements = assertionStatements(input.evals.evals);
    const split = splitHoldout(input.evals);
    this.training = split.training;
    this.holdout = split.holdout;
    this.keepRule = input.options.keepRule ?? DEFAULT_KEEP_RULE;
    this.trials = Math.max(1, Math.floor(input.options.trials ?? DEFAULT_TRIALS));
    this.margin = input.options.margin ?? DEFAULT_MARGIN;
    this.deterministic = input.models.structuralOnly || input.options.mode === 'structural';
    this.resets = new BackgroundReset(input.git, input.worktreePath);
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

  /**
   * One draw of a training-scenario text split by scenario (core/iterate/spread.ts), as scoreSkill
   * weighs it (the loop scores with the default weights): the noise estimate reads the spread scenario by
   * scenario.
   */
  partsOf(pairs: readonly DrawnPair[]): Map<string, number> {
    this.splitter ??= scenarioSplitter(this.training, this.input.options.mode);
    return this.splitter(pairs);
  }

  /**
   * Whether more draws can change a decision tonight (core/iterate/noise.ts `worthMeasuring`): the scores
   * spread, or a verdict flipped between the baseline's draws though their composites tied.
   */
  worthMeasuring(): boolean {
    const flipped = this.ledger.baselineDraws?.tallies.some((t) => t.flippedPairs > 0) ?? false;
    return worthMeasuring(this.ledger.state.noise, this.trials, this.deterministic, flipped);
  }

  /** Step D under the iteration's signal, with the N=3 saturation handler (draw 0 of the text). */
  score(text: string, signal: AbortSignal): Promise<ScoredText> {
    return scoreWithSaturation(this.request(text, signal));
  }

  /**
   * A report's draw to run beside the iterations, added before the first editor call (baseline.ts): it
   * starts once that call is out (`launchReports`), whose latency leaves the engine and the endpoint idle;
   * `settleReports` waits for it.
   */
  beside(report: () => Promise<void>): void {
    this.waitingReports.push(report);
  }

  /**
   * Draw 0 of the baseline scored: its extra draws and the row (`settle`) run beside the first editor call
   * (docs/how-it-works.md § Baseline). Until `startSettled`, the editor starts from draw 0's state `first`
   * and the caps count draw 0's spend `usage`.
   */
  startBeside(first: KeptState, usage: Usage, settle: () => Promise<void>): void {
    this.pendingStart = { first, usage, settle };
  }

  /** Whether the climb's start still waits for the baseline's extra draws. */
  get startPending(): boolean {
    return this.pendingStart !== undefined;
  }

  /** Spend of the baseline not yet recorded (its draw 0, while its extra draws run): the caps count it. */
  get pendingStartUsage(): Usage {
    return this.pendingStart?.usage ?? ZERO_USAGE;
  }

  /**
   * The state the next edit starts from: the kept state, or draw 0's while the baseline's extra draws run.
   * The editor's prompt is the same from either: it reads the text, draw 0's verdicts and renders, and an
   * all-pass confirmed by draw 0's saturation handler, none of which the extra draws change.
   */
  editFrom(): KeptState {
    return this.ledger.state.kept ?? this.pendingStart!.first;
  }

  /**
   * Waits for the baseline's extra draws (starting them if no editor call did) and its row; resolves the
   * kept state, undefined when the run was interrupted before the baseline was judged. Rejects, every
   * time, when the baseline row could not be written.
   */
  async startSettled(): Promise<KeptState | undefined> {
    if (this.pendingStart) {
      await this.launchStart();
      this.pendingStart = undefined;
    }
    return this.ledger.state.kept;
  }

  private launchStart(): Promise<void> {
    const start = this.pendingStart;
    if (!start) return Promise.resolve();
    if (!start.running) {
      start.running = start.settle();
      start.running.catch(() => undefined); // awaited by startSettled
    }
    return start.running;
  }

  /**
   * Step A calls it once its editor call is out: the baseline's extra draws, then the report draws
   * waiting, start beside it.
   */
  launchReports(): void {
    // A turn later: the editor's request (its provider loaded on the first call) leaves before the
    // draws' requests are built.
    if (this.pendingStart) setImmediate(() => void this.launchStart());
    for (const start of this.waitingReports.splice(0)) this.runningReports.push(nextTurn().then(start));
  }

  /**
   * Settles the climb's start, starts any report draw still waiting and waits for all, so the skill's
   * result holds them and their spend.
   */
  async settleReports(): Promise<void> {
    await this.startSettled();
    this.launchReports();
    await Promise.all(this.runningReports);
  }

  /** Spend of an attempt that was never judged (interrupted, cut by the budget): counted, not recorded. */
  spendUnjudged(usage: Usage): void {
    const total = this.ledger.spentUnjudged(usage);
    this.input.onUsage?.(total);
  }

  result(stopReason: LoopStopReason, ambiguousReason?: string): SkillLoopResult {
    const { state } = this.ledger;
    return {
      baselineScore: state.baselineScore,
      finalScore: state.kept?.score ?? null,
      iterations: state.iterations,
      rows: [...state.rows],
      keptEdits: [...state.keptEdits],
      usage: state.usage,
      stopReason,
      consecutiveCrashes: state.consecutiveCrashes,
      finalText: state.kept?.text ?? this.baselineText,
      ...(ambiguousReason === undefined ? {} : { ambiguousReason }),
      ...(this.ledger.upliftWithout ? { upliftWithout: this.ledger.upliftWithout } : {}),
      ...(this.ledger.keptDraws ? { baselineDraws: this.ledger.keptDraws } : {}),
      measurement: this.ledger.measurement(
        this.keepRule,
        this.statements,
        this.deterministic
          ? undefined
          : {
              trials: this.trials,
              margin: this.margin,
              minGain: this.input.options.minGain ?? DEFAULT_MIN_GAIN,
            },
        this.input.evals.scenarios,
      ),
    };
  }

  interrupted(): LoopInterrupted {
    // The stop reason of a partial result is never read; the interruption says why the loop ended.
    return new LoopInterrupted(interruptionOf(this.input.signal!), this.result('iteration cap'));
  }
}

/** Resolves a turn later (setImmediate): what is started after it leaves after what was sent this turn. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
