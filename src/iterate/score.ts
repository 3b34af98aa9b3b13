/**
 * Scores one SKILL.md (docs/how-it-works.md § Scoring): the structural axis always; the absolute axis through one render
 * per scenario (cached) and one grader call per (scenario, trial) for the pairs code cannot decide.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import type { SkillEvals } from '../core/iterate/evals.js';
import {
  aggregate,
  ambiguousReason,
  combineScores,
  decidePairs,
  OMITTED_REASON,
  pairKey,
  planScenario,
  repairGraderAnswer,
  type ScenarioPlan,
  type Verdict,
} from '../core/iterate/absolute.js';
import {
  DEFAULT_WEIGHTS,
  type AbsoluteResult,
  type ScoreMode,
  type ScoreStatus,
  type ScoreWeights,
  type StructuralResult,
} from '../core/iterate/score-types.js';
import { scoreStructure, type StructuralSettings } from '../core/iterate/structural.js';
import { ModelOutputError, type GraderAnswer } from '../core/model-answers.js';
import type { PairVerdict } from '../core/iterate/noise.js';
import { ZERO_USAGE, addUsage, type Usage } from '../core/usage.js';
import type { FileLookup } from '../ports/git.js';
import type { ModelReply, SkillModels } from '../ports/models.js';
import { SkillclimbError, messageOf } from '../core/errors.js';

/** Renders keyed by (render model, SKILL.md content, scenario id). Lives for one run. */
export class RenderCache {
  private readonly entries = new Map<string, string>();
  get(key: string): string | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: string): void {
    this.entries.set(key, value);
  }
  get size(): number {
    return this.entries.size;
  }
}

/**
 * `draw` numbers the independent draws of one text (docs/how-it-works.md § Decisions under noise): draw 0 is
 * the one every score used before trials existed; draw k > 0 is a fresh render of the same text.
 */
export function renderCacheKey(renderModelId: string, skillMd: string, scenarioId: string, draw = 0): string {
  const digest = createHash('sha256').update(skillMd, 'utf8').digest('hex');
  const key = `${renderModelId}\u0000${digest}\u0000${scenarioId}`;
  return draw === 0 ? key : `${key}\u0000${draw}`;
}

export interface ScoreRequest {
  skillName: string;
  /** Absolute path of the skill folder (SKILL.md's directory). */
  skillDir: string;
  skillMd: string;
  evals: SkillEvals;
  /**
   * The operator's structural settings, resolved by the caller (`requiredSections` set here wins over the
   * evals' required_sections.json).
   */
  structural?: StructuralSettings | undefined;
  models: SkillModels;
  mode: ScoreMode;
  weights?: ScoreWeights;
  /** 1 normally; 3 for the saturation handler (same renders, graded 3 times, majority vote). */
  trials: number;
  /** Which independent draw of this text (its renders are cached per draw); default 0. */
  draw?: number | undefined;
  /**
   * Trial 0's grades of this text and draw by scenario id, shared between a screening pass and the full
   * scoring after it: a scenario graded in one is not graded again in the other (the same grade of the
   * same render, not a new draw). Filled and read by trial 0 only.
   */
  grades?: GradeMemo | undefined;
  concurrency: number;
  signal: AbortSignal;
  cache: RenderCache;
  /**
   * Link and `[[ref]]` lookups for the structural metrics; default: the disk. A sparse worktree passes the
   * repository's tree at its base commit, so a score does not depend on what is checked out.
   */
  files?: FileLookup | undefined;
  /**
   * The clock, read around each model call to time every scenario (`perScenario`, for skill-creator's
   * benchmark.json); without one no scenario is timed.
   */
  now?: (() => Date) | undefined;
}

/** What one scenario's calls cost: usage, and the seconds from its first call's start to its last's end. */
export interface ScenarioCost {
  usage: Usage;
  seconds: number | undefined;
}

export type GradeMemo = Map<string, Map<number, Verdict>>;

export interface SkillScore {
  status: ScoreStatus;
  /** The score for the requested mode; null unless status is 'ok'. */
  score: number | null;
  /** The mode actually used (composite falls back to structural with the offline provider). */
  mode: ScoreMode;
  structural: StructuralResult;
  /** null in structural mode, with the offline provider, or when status is not 'ok'. */
  absolute: AbsoluteResult | null;
  /** AMBIGUOUS reason or the error message when status is not 'ok'. */
  detail: string | undefined;
  usage: Usage;
  /** scenario id → render text (for the editor's failing-render excerpt). */
  renders: Map<string, string>;
  trials: number;
  /** The decided verdict of every pair a render can pass or fail (vacuous pairs left out); [] unless ok. */
  pairs: PairVerdict[];
  /** Scenario id → what its calls cost (a cached render costs nothing); absent in structural scores. */
  perScenario?: ReadonlyMap<string, ScenarioCost>;
  /** With `trials` ≥ 2: how often the grader's trials disagreed on the same render. */
  gradeAgreement?: GradeAgreement | undefined;
}

/** Which waiting call starts first when the limit is reached: a grade finishes a scenario, a render opens one. */
export type CallPriority = 'grade' | 'render';

/**
 * Runs at most `limit` tasks at once; of the waiting ones, grades before renders, each in arrival order,
 * so a scenario whose render is done is graded before another scenario starts (docs/how-it-works.md
 * § Scoring): under a low limit (or after a 429 halved it) finished renders do not wait behind new ones.
 */
export function createLimiter(
  limit: number,
): <T>(task: () => Promise<T>, priority?: CallPriority) => Promise<T> {
  const max = Math.max(1, Math.floor(limit) || 1);
  let active = 0;
  const waiting: Record<CallPriority, Array<() => void>> = { grade: [], render: [] };
  const next = (): void => {
    if (active >= max) return;
    const start = waiting.grade.shift() ?? waiting.render.shift();
    if (start) start();
  };
  return <T>(task: () => Promise<T>, priority: CallPriority = 'render'): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting[priority].push(() => {
        active += 1;
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            active -= 1;
            next();
          });
      });
      next();
    });
}

/** The grader stayed unusable after its one retry. */
class UnparseableGrade extends SkillclimbError {
  readonly kind = 'model';
}

function abortMessage(signal: AbortSignal): string {
  return `scoring aborted: ${messageOf(signal.reason ?? 'aborted')}`;
}

interface AbsoluteOutcome {
  status: ScoreStatus;
  absolute: AbsoluteResult | null;
  detail: string | undefined;
  usage: Usage;
  renders: Map<string, string>;
  pairs: PairVerdict[];
  perScenario: Map<string, ScenarioCost>;
  gradeAgreement?: GradeAgreement | undefined;
}

/**
 * With several grader trials of the same render: of every two trials' verdicts on one pair, how many were
 * compared and how many differed (the grader's flip rate on identical inputs, `score --trials N`).
 */
export interface GradeAgreement {
  comparisons: number;
  disagreements: number;
}

/** Counts the pairs of trials whose verdicts on the same (scenario, assertion) differ. */
function agreementOf(trialVerdicts: ReadonlyArray<Map<string, Verdict>>): GradeAgreement | undefined {
  if (trialVerdicts.length < 2) return undefined;
  const passes = new Map<string, { k: number; n: number }>();
  for (const trial of trialVerdicts)
    for (const [key, v] of trial) {
      const c = passes.get(key) ?? { k: 0, n: 0 };
      c.n += 1;
      if (v.pass) c.k += 1;
      passes.set(key, c);
    }
  let comparisons = 0;
  let disagreements = 0;
  for (const { k, n } of passes.values()) {
    comparisons += (n * (n - 1)) / 2;
    disagreements += k * (n - k);
  }
  return { comparisons, disagreements };
}

/**
 * Renders and grades every scenario under the concurrency limit, each scenario a pipeline of its own: its
 * grades start as soon as its render ends, whatever the other scenarios are doing (and its N trials side by
 * side). The first failure stops the rest.
 */
// eslint-disable-next-line max-lines-per-function -- render, grade, repair and vote of one scoring share the limiter, the grade memo and the usage tally; not yet split (issue 30 item 3)
async function gradeAbsolute(request: ScoreRequest, trials: number): Promise<AbsoluteOutcome> {
  const { models, evals } = request;
  const stop = new AbortController();
  const signal = AbortSignal.any([request.signal, stop.signal]);
  // Every call in flight listens on this signal, some twice (its timeout, a wait for an endpoint slot or a
  // retry backoff): at the default concurrency that is more than Node's warning threshold of 10, and the
  // warning ("possible memory leak") would be a false alarm in every night's log.
  setMaxListeners(2 * request.concurrency + 10, signal);
  const limit = createLimiter(request.concurrency);
  const renders = new Map<string, string>();
  const trialVerdicts: Array<Map<string, Verdict>> = Array.from({ length: trials }, () => new Map());
  let usage: Usage = ZERO_USAGE;
  let failure: { status: ScoreStatus; detail: string } | undefined;

  const fail = (status: ScoreStatus, detail: string): void => {
    if (failure) return;
    failure = { status, detail };
    stop.abort(new Error(detail));
  };

  const perScenario = new Map<string, ScenarioCost & { start?: number; end?: number }>();
  const spend = (scenarioId: string, spent: Usage, start: number | undefined): void => {
    const cost = perScenario.get(scenarioId) ?? { usage: ZERO_USAGE, seconds: undefined };
    cost.usage = addUsage(cost.usage, spent);
    const end = request.now?.().getTime();
    if (start !== undefined && end !== undefined) {
      cost.start = Math.min(cost.start ?? start, start);
      cost.end = Math.max(cost.end ?? end, end);
      cost.seconds = (cost.end - cost.start) / 1000;
    }
    perScenario.set(scenarioId, cost);
  };

  const call = <T>(
    fn: (s: AbortSignal) => Promise<ModelReply<T>>,
    priority: CallPriority,
    scenarioId: string,
  ): Promise<T> =>
    limit(async () => {
      // Queued calls must not start once the score is decided or the caller gave up.
      if (signal.aborted) throw signal.reason;
      const start = request.now?.().getTime();
      let reply: ModelReply<T>;
      try {
        reply = await fn(signal);
      } catch (err) {
        // An unusable answer was still paid for.
        if (err instanceof ModelOutputError && err.usage) {
          usage = addUsage(usage, err.usage);
          spend(scenarioId, err.usage, start);
        }
        throw err;
      }
      usage = addUsage(usage, reply.usage);
      spend(scenarioId, reply.usage, start);
      return reply.value;
    }, priority);

  const gradeTrial = async (plan: ScenarioPlan, output: string, trial: number): Promise<void> => {
    const input = {
      skillName: request.skillName,
      scenario: plan.scenario,
      output,
      assertions: plan.modelGraded.map((p) => ({
        id: p.assertion.id,
        statement: p.assertion.statement,
        category: p.category.name,
      })),
      trial: trial + 1,
    };
    const memo = trial === 0 ? request.grades?.get(plan.scenario.id) : undefined;
    if (memo && input.assertions.every((a) => memo.has(a.id))) {
      for (const a of input.assertions)
        trialVerdicts[0]?.set(pairKey(plan.scenario.id, a.id), memo.get(a.id)!);
      return;
    }
    const ask = (): Promise<GraderAnswer> => call((s) => models.grade(input, s), 'grade', plan.scenario.id);
    let answer: GraderAnswer;
    try {
      answer = await ask();
    } catch (err) {
      if (!(err instanceof ModelOutputError) || signal.aborted) throw err;
      try {
        answer = await ask();
      } catch (again) {
        if (again instanceof ModelOutputError && !signal.aborted) {
          throw new UnparseableGrade(`scenario ${plan.scenario.id}, trial ${trial + 1}: ${again.message}`);
        }
        throw again;
      }
    }
    const repaired = repairGraderAnswer(
      answer.verdicts,
      input.assertions.map((a) => a.id),
    );
    for (const [id, verdict] of repaired) {
      trialVerdicts[trial]?.set(pairKey(plan.scenario.id, id), verdict);
    }
    if (trial === 0) request.grades?.set(plan.scenario.id, repaired);
  };

  const scoreScenario = async (plan: ScenarioPlan): Promise<void> => {
    const key = renderCacheKey(models.renderModelId, request.skillMd, plan.scenario.id, request.draw ?? 0);
    let output = request.cache.get(key);
    if (output === undefined) {
      output = await call(
        (s) =>
          models.render(
            { skillName: request.skillName, skillMd: request.skillMd, scenario: plan.scenario },
            s,
          ),
        'render',
        plan.scenario.id,
      );
      request.cache.set(key, output);
    }
    renders.set(plan.scenario.id, output);
    const ambiguous = ambiguousReason(output);
    if (ambiguous !== undefined) return fail('ambiguous', ambiguous);
    if (plan.modelGraded.length === 0) return;
    const rendered = output;
    await Promise.all(Array.from({ length: trials }, (_, t) => gradeTrial(plan, rendered, t)));
  };

  const plans = evals.scenarios.map((s) => planScenario(evals.evals, s, evals.format));
  const work = Promise.all(
    plans.map((plan) =>
      scoreScenario(plan).catch((err: unknown) => {
        if (failure) return; // fallout of the stop we already triggered
        if (request.signal.aborted) return fail('harness-error', abortMessage(request.signal));
        if (err instanceof UnparseableGrade) return fail('unparseable', err.message);
        fail('harness-error', messageOf(err));
      }),
    ),
  );
  // Return as soon as the caller aborts, even if a model implementation ignores its signal.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    if (request.signal.aborted) return resolve();
    onAbort = resolve;
    request.signal.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([work, aborted]);
  if (onAbort) request.signal.removeEventListener('abort', onAbort);
  if (request.signal.aborted) fail('harness-error', abortMessage(request.signal));

  const costs = new Map(
    [...perScenario].map(([id, cost]) => [id, { usage: cost.usage, seconds: cost.seconds }]),
  );
  if (failure) {
    return {
      status: failure.status,
      absolute: null,
      detail: failure.detail,
      usage,
      renders,
      pairs: [],
      perScenario: costs,
    };
  }
  const decided = decidePairs(plans, renders, trialVerdicts);
  const pairs: PairVerdict[] = plans.flatMap((plan) =>
    plan.pairs
      .filter((p) => p.route !== 'vacuous')
      .map((p) => {
        const verdict = decided.get(pairKey(plan.scenario.id, p.assertion.id));
        return {
          assertionId: p.assertion.id,
          scenarioId: plan.scenario.id,
          pass: verdict?.pass ?? false,
          reason: verdict?.reason ?? OMITTED_REASON,
        };
      }),
  );
  return {
    status: 'ok',
    absolute: aggregate(evals.evals, plans, decided),
    detail: undefined,
    usage,
    renders,
    pairs,
    perScenario: costs,
    gradeAgreement: agreementOf(trialVerdicts),
  };
}

/** For the [[ref]] lookup in the memory folders under .claude/projects: a missing folder has no entries. */
function listDirOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export async function scoreSkill(request: ScoreRequest): Promise<SkillScore> {
  const trials = Math.max(1, Math.floor(request.trials) || 1);
  const files = request.files;
  const structural = scoreStructure(request.skillMd, {
    ...request.structural,
    skillDir: request.skillDir,
    requiredSections: request.structural?.requiredSections ?? request.evals.requiredSections,
    exists: files ? (p) => files.exists(p) : (p) => existsSync(p),
    listDir: files ? (p) => files.listDir(p) : listDirOrEmpty,
  });
  if (request.models.structuralOnly || request.mode === 'structural') {
    return {
      status: 'ok',
      score: structural.score,
      mode: 'structural',
      structural,
      absolute: null,
      detail: undefined,
      usage: ZERO_USAGE,
      renders: new Map(),
      trials,
      pairs: [],
    };
  }
  const outcome = await gradeAbsolute(request, trials);
  const score =
    outcome.status === 'ok' && outcome.absolute
      ? combineScores(
          request.mode,
          structural.score,
          outcome.absolute.weighted_score,
          request.weights ?? DEFAULT_WEIGHTS,
        )
      : null;
  return {
    status: outcome.status,
    score,
    mode: request.mode,
    structural,
    absolute: outcome.absolute,
    detail: outcome.detail,
    usage: outcome.usage,
    renders: outcome.renders,
    trials,
    pairs: outcome.pairs,
    perScenario: outcome.perScenario,
    ...(outcome.gradeAgreement ? { gradeAgreement: outcome.gradeAgreement } : {}),
  };
}
