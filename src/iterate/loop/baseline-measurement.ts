/**
 * How the baseline is measured (docs/how-it-works.md § Baseline, § Decisions under noise): once draw 0
 * scored, its draw 1 runs beside the first editor call, the others only when those two disagree, and from
 * them comes the state the loop climbs from — the first draw under the original's keep rule, the mean of
 * the trials under the noise-aware one. The draw without the skill
 * (the uplift, uplift.ts) compares with these draws. The retries and rows around it are baseline.ts's.
 */
import { messageOf } from '../../core/errors.js';
import { pairKey } from '../../core/iterate/absolute.js';
import type { KeptState } from '../../core/iterate/hill-climb.js';
import {
  mean,
  noiseReport,
  tallyDraws,
  type AssertionTally,
  type PairVerdict,
  type ScenarioParts,
} from '../../core/iterate/noise.js';
import { probeScenarios } from '../../core/iterate/noise-probe.js';
import type { BaselineDrawsEntry, StoredDraw } from '../../core/iterate/baseline-draws-record.js';
import type { StoredTrials } from '../../core/iterate/run-result.js';
import { ZERO_USAGE, addUsage, type Usage } from '../../core/usage.js';
import { keptStateOf, type ScoredText } from '../saturation.js';
import type { GradeMemo, SkillScore } from '../score.js';
import { drawRange, measureDraws, type Measurement } from '../trials.js';
import type { LoopContext } from './context.js';
import { drawsKeyOf, storedDrawOf } from './stored-draws.js';

/** The baseline's draws beyond draw 0; absent when they were not drawn or could not be scored. */
export interface BaselineExtras {
  extra?: Measurement | undefined;
  /**
   * Draw 1 of the probe's scenarios only (core/iterate/noise.ts `probeScenarios`), while it is not known
   * whether the rest of draw 1 is needed; `grades` holds its grades for the rest of that draw.
   */
  probe?: { measurement: Measurement; grades: GradeMemo } | undefined;
  /**
   * Draw 1 of the probe's scenarios agreed with draw 0 on every check, so draw 1 was not completed: the two
   * composites of the probe's scenarios (equal), a spread of 0 measured.
   */
  probeAgreed?: { scores: number[]; pairs: PairVerdict[]; scenarios: number } | undefined;
  /**
   * Draws 1 … of an earlier night's record (baseline-stored.ts), standing in for drawn ones; `extra` then
   * holds the draws after them that were drawn tonight, if any.
   */
  stored?: { entry: BaselineDrawsEntry; used: StoredDraw[] } | undefined;
  /**
   * Why none of the draws beyond draw 0 scored, when a measurement that was started failed or was cut
   * short (the skill's budget, a model error): the climb's start says so instead of dropping them silently.
   */
  unscored?: string | undefined;
  /**
   * Why the draws after the ones that scored were not scored (a model error, the skill's budget): the
   * baseline is the draws that scored, and the climb's start says so.
   */
  cutShort?: string | undefined;
  usage: Usage;
}

/** The draws after the ones that scored, or why they did not score: never rejects. */
export async function laterDraws(
  measurement: Promise<Measurement>,
): Promise<{ rest?: Measurement; usage: Usage; cutShort?: string }> {
  try {
    const m = await measurement;
    return m.status === 'ok' ? { rest: m, usage: m.usage } : { usage: m.usage, cutShort: unscoredReason(m) };
  } catch (err) {
    return { usage: ZERO_USAGE, cutShort: unscoredReason(err) };
  }
}

/** The reason a measurement has no score: its status, or the error that ended it. */
function unscoredReason(m: unknown): string {
  if (m && typeof m === 'object' && 'status' in m) {
    const measured = m as Measurement;
    return `${measured.status}: ${measured.detail ?? 'no score'}`;
  }
  return messageOf(m);
}

/** Where the climb starts: the kept state, its row's description and the draws its score came from. */
export interface ClimbStart {
  kept: KeptState;
  description: string;
  measured: number[];
  /** Those draws split by scenario, when they are whole draws (a probe's are not). */
  measuredParts?: ScenarioParts[] | undefined;
  /** What the uplift compares the draw without the skill with: the baseline's draws. */
  withSkill: { tallies: AssertionTally[]; rates: number[] };
}

/**
 * The baseline's draw 1, once draw 0 scored, beside the first editor call (baseline.ts; the others, when
 * needed, are `drawBaselineRest`'s).
 * Under the noise-aware rule, with scenarios enough, only the noise probe's scenarios of draw 1 are drawn
 * here (docs/how-it-works.md § Decisions under noise, "The noise"). Never rejects: a failure leaves the
 * noise report out, not the baseline.
 */
export async function drawBaselineExtras(
  loop: LoopContext,
  text: string,
  signal: AbortSignal,
): Promise<BaselineExtras> {
  if (loop.deterministic || loop.trials < 2) return { usage: ZERO_USAGE };
  const ids = loop.keepRule === 'noise-aware' ? probeScenarios(loop.training) : undefined;
  if (ids !== undefined) {
    const inProbe = new Set(ids);
    const evals = { ...loop.training, scenarios: loop.training.scenarios.filter((s) => inProbe.has(s.id)) };
    const grades: GradeMemo = new Map();
    try {
      const probe = await measureDraws({ ...loop.request(text, signal, evals), grades }, [1]);
      return { probe: { measurement: probe, grades }, usage: probe.usage };
    } catch (err) {
      return { usage: ZERO_USAGE, unscored: unscoredReason(err) };
    }
  }
  try {
    const extra = await measureDraws(loop.request(text, signal), [1]);
    return { extra, usage: extra.usage };
  } catch (err) {
    return { usage: ZERO_USAGE, unscored: unscoredReason(err) };
  }
}

/**
 * The baseline's draws 2 … trials − 1, only when draws 0 and 1 disagree on some (scenario, assertion)
 * verdict or on the score (docs/how-it-works.md § Decisions under noise). Two draws that agree exactly
 * measure a spread of 0, and with no spread the loop spends no extra draws on any text: the third draw
 * would cost a whole draw and change no decision. When only the noise probe's part of draw 1 was drawn,
 * it is compared with draw 0's verdicts on the same checks: agreeing, draw 1 stops there (a spread of 0
 * measured on those checks); disagreeing, the rest of draw 1 is drawn (the probe's renders and grades
 * reused, the same draw) beside draws 2 and on. Never rejects: when the further draws fail, the ones that
 * scored stay the baseline's.
 */
export async function drawBaselineRest(
  loop: LoopContext,
  text: string,
  signal: AbortSignal,
  first: SkillScore,
  extras: BaselineExtras,
): Promise<BaselineExtras> {
  if (extras.probe) return completeProbe(loop, text, signal, first, extras, extras.probe);
  const second = extras.extra;
  if (loop.trials < 3 || second?.status !== 'ok' || drawsAgree(first, second.draws[0]!)) return extras;
  const later = await laterDraws(measureDraws(loop.request(text, signal), drawRange(2, loop.trials - 2)));
  const usage = addUsage(extras.usage, later.usage);
  if (!later.rest) return { extra: second, usage, cutShort: later.cutShort };
  return { extra: joined(second, later.rest), usage };
}

/** After the noise probe: stop at its agreement, else the rest of draw 1 and draws 2 and on. */
async function completeProbe(
  loop: LoopContext,
  text: string,
  signal: AbortSignal,
  first: SkillScore,
  extras: BaselineExtras,
  probe: NonNullable<BaselineExtras['probe']>,
): Promise<BaselineExtras> {
  const m = probe.measurement;
  if (m.status !== 'ok') return { usage: extras.usage, unscored: unscoredReason(m) };
  const drawn = m.draws[0]!;
  if (probeAgrees(first, drawn)) {
    const scenarios = new Set(drawn.pairs.map((p) => p.scenarioId)).size;
    return {
      probeAgreed: { scores: [m.scores[0]!, m.scores[0]!], pairs: drawn.pairs, scenarios },
      usage: extras.usage,
    };
  }
  let secondFailure: unknown;
  const [second, rest] = await Promise.all([
    measureDraws({ ...loop.request(text, signal), grades: probe.grades }, [1]).catch((err: unknown) => {
      secondFailure = err;
      return undefined;
    }),
    loop.trials < 3
      ? Promise.resolve(undefined)
      : laterDraws(measureDraws(loop.request(text, signal), drawRange(2, loop.trials - 2))),
  ]);
  const usage = addUsage(extras.usage, addUsage(second?.usage ?? ZERO_USAGE, rest?.usage ?? ZERO_USAGE));
  if (second?.status !== 'ok') return { usage, unscored: unscoredReason(second ?? secondFailure) };
  if (!rest) return { extra: second, usage };
  if (!rest.rest) return { extra: second, usage, cutShort: rest.cutShort };
  return { extra: joined(second, rest.rest), usage };
}

/** Two measurements of one text as one, in draw order. */
function joined(a: Measurement, b: Measurement): Measurement {
  const draws = [...a.draws, ...b.draws];
  return {
    ...a,
    draws,
    scores: [...a.scores, ...b.scores],
    tallies: tallyDraws(draws.map((d) => d.pairs)),
    usage: addUsage(a.usage, b.usage),
  };
}

/** A draw as the agreement tests read it: a scored one, or one an earlier night kept (baseline-stored.ts). */
interface DrawVerdicts {
  score: number | null;
  pairs: ReadonlyArray<Pick<PairVerdict, 'scenarioId' | 'assertionId' | 'pass'>>;
}

/** Two draws with the same score and the same verdict on every (scenario, assertion) pair. */
export function drawsAgree(a: DrawVerdicts, b: DrawVerdicts): boolean {
  if (a.score !== b.score || a.pairs.length !== b.pairs.length) return false;
  return probeAgrees(a, b);
}

/** Every pair of `probe` has the verdict `whole` gave the same (scenario, assertion) pair. */
function probeAgrees(whole: DrawVerdicts, probe: DrawVerdicts): boolean {
  const verdicts = new Map(whole.pairs.map((p) => [pairKey(p.scenarioId, p.assertionId), p.pass]));
  return probe.pairs.every((p) => verdicts.get(pairKey(p.scenarioId, p.assertionId)) === p.pass);
}

/**
 * The scored baseline's draws (draw 0 and the extras that scored) become the climb's start. The noise
 * report goes to the ledger (the summary shows it), the draws to the night's tallies; what the uplift
 * compares with is returned for drawUplift (uplift.ts).
 */
export function climbStart(loop: LoopContext, scored: ScoredText, extras: BaselineExtras): ClimbStart {
  const { input } = loop;
  const extra = extras.extra?.status === 'ok' ? extras.extra : undefined;
  const unscored = extras.extra && !extra ? unscoredReason(extras.extra) : extras.unscored;
  if (unscored !== undefined) {
    input.log.warn(
      `${input.skill}: the baseline's extra trials could not be scored (${unscored}); the noise is not measured`,
    );
  }
  const used = extras.stored?.used ?? [];
  const drawsPairs = [
    scored.score.pairs,
    ...used.map((d) => d.pairs),
    ...(extra?.draws.map((d) => d.pairs) ?? []),
  ];
  const scores = [scored.score.score!, ...used.map((d) => d.score), ...(extra?.scores ?? [])];
  const tallies = tallyDraws(drawsPairs);
  if (extras.cutShort !== undefined) {
    input.log.warn(
      `${input.skill}: the baseline's trials after the first ${scores.length} could not be scored ` +
        `(${extras.cutShort}); its noise is measured on ${scores.length} trial${scores.length === 1 ? '' : 's'}`,
    );
  }
  keepExtras(loop, scored, extras.stored, extra);
  const probe = extras.probeAgreed;
  // The probe's agreeing checks count as drawn twice (the flip rate's comparisons) and its two equal
  // composites as a spread of 0 measured (docs/how-it-works.md § Decisions under noise, "The noise").
  loop.ledger.observed(probe ? tallyDraws([...drawsPairs, probe.pairs]) : tallies);
  const parts = drawsPairs.map((pairs) => loop.partsOf(pairs));
  const noise =
    scores.length > 1
      ? noiseReport(scores, tallies, parts)
      : probe
        ? {
            ...noiseReport(probe.scores, tallyDraws([scored.score.pairs, probe.pairs])),
            probe: { scenarios: probe.scenarios, of: loop.training.scenarios.length },
          }
        : undefined;
  const stored = storedOf(extras.stored);
  loop.ledger.baselineMeasured(
    { noise, stored },
    scores.length > 1 ? { scores: [...scores], tallies } : undefined,
  );
  loop.ledger.drew(loop.baselineText, Math.max(scores.length, loop.trials));
  const allPass = [scored.score, ...(extra?.draws ?? [])]
    .map(storedDrawOf)
    .concat(used)
    .every((d) => d.allPass);
  const noiseAware = loop.keepRule === 'noise-aware' && scores.length > 1;
  // The original's rule climbs from the first draw; the noise-aware one from the mean of the trials.
  const score = noiseAware ? mean(scores) : scored.score.score!;
  const kept: KeptState = {
    ...keptStateOf(loop.baselineText, score, scored),
    draws: noiseAware ? scores.length : 1,
    confirmedAllPass: scored.saturation === 'confirmed' || (noiseAware && allPass && scores.length >= 3),
  };
  const description = noiseAware
    ? `initial baseline (mean of ${scores.length} trials${storedNote(stored)}, sd ${noise?.sd.toFixed(4) ?? '0'})`
    : probe
      ? `initial baseline (a second trial of ${probe.scenarios} scenario${probe.scenarios === 1 ? '' : 's'} agreed on every check, sd 0)`
      : 'initial baseline';
  return {
    kept,
    description,
    measured: probe ? probe.scores : scores,
    ...(probe ? {} : { measuredParts: parts }),
    withSkill: { tallies, rates: drawsPairs.map(passShare) },
  };
}

/** The baseline's trials an earlier night drew (the summary and the PR body say which, and when). */
function storedOf(stored: BaselineExtras['stored']): StoredTrials | undefined {
  if (!stored || stored.used.length === 0) return undefined;
  return { draws: stored.used.length, drawnAt: stored.entry.drawnAt };
}

/** `, 2 of them drawn on 2026-12-06` when stored draws stood in for some (baseline-stored.ts). */
function storedNote(stored: StoredTrials | undefined): string {
  return stored ? `, ${stored.draws} of them drawn on ${stored.drawnAt.slice(0, 10)}` : '';
}

/**
 * The baseline's whole extra draws are kept for the next night (stored-draws.ts): the stored ones used and
 * those drawn tonight after them, under the stored date; only the stored ones, unchanged, when none was
 * drawn. Draw 0 is never kept, nor a noise probe's partial draw 1.
 */
function keepExtras(
  loop: LoopContext,
  scored: ScoredText,
  stored: BaselineExtras['stored'],
  extra: Measurement | undefined,
): void {
  if (loop.deterministic || loop.trials < 2) return;
  if (!extra) {
    if (stored) loop.ledger.keepDraws(stored.entry, false);
    return;
  }
  loop.ledger.keepDraws(
    {
      key: drawsKeyOf(loop, loop.baselineText),
      drawnAt: stored?.entry.drawnAt ?? loop.input.now().toISOString(),
      structural: scored.score.structural.score,
      draws: [...(stored?.used ?? []), ...extra.draws.map(storedDrawOf)],
    },
    true,
  );
}

/** The share of a draw's pairs that passed. */
function passShare(pairs: readonly PairVerdict[]): number {
  return pairs.length === 0 ? 0 : pairs.filter((p) => p.pass).length / pairs.length;
}
