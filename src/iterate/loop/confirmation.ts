/**
 * The ship gate's confirmation (docs/how-it-works.md § Decisions under noise, "The confirmation"): when
 * the loop's own scores would ship, the final text is re-scored with fresh draws and held against the
 * baseline's draws from before the loop, or, where the grader flips often enough for the keep to re-draw,
 * against fresh baseline draws taken beside the final's; the holdout scenarios are drawn fresh for both
 * texts and scored apart. The gate then decides on those. Structure-only scoring and the original's keep
 * rule skip it; a night that measured no spread first checks the final text's gain (final-check.ts) and
 * confirms only when that finds one. How it ended goes to the ledger.
 */
import { messageOf } from '../../core/errors.js';
import {
  acceptedFindingsLost,
  acceptedFindingsWorse,
  feedbackEvidence,
} from '../../core/iterate/feedback-evidence.js';
import type { SkillEvals } from '../../core/iterate/evals.js';
import type { KeptState, LoopStopReason } from '../../core/iterate/hill-climb.js';
import { countNewlines } from '../../core/iterate/lines.js';
import {
  confirmationOf,
  differenceSe,
  formatGain,
  mean,
  mergeTallies,
  poolNoise,
  tallyDraws,
  type Confirmation,
  type NoiseEstimate,
  type ScenarioParts,
} from '../../core/iterate/noise.js';
import { redrawsPayOff, sequentialLook, type Look } from '../../core/iterate/sequential.js';
import { DEFAULT_MIN_GAIN, shipGate } from '../../core/iterate/ship-gate.js';
import { ZERO_USAGE, type Usage } from '../../core/usage.js';
import { drawRange, type Measurement } from '../trials.js';
import { lostTitles, recheckAccepted } from './accepted-floor.js';
import { drawAfterLoop } from './after-loop-draws.js';
import type { LoopContext } from './context.js';
import { checkFinalText } from './final-check.js';
import type { ConfirmationOutcome } from './ledger.js';
import { keepFreshDraws } from './stored-draws.js';

/** Confirms the loop's result when it would ship; the loop ended with `stop`. */
export async function confirm(loop: LoopContext, stop: LoopStopReason): Promise<void> {
  const kept = loop.ledger.state.kept;
  if (!kept || !wouldShip(loop, kept)) return;
  const withoutDraws = confirmationWithoutDraws(loop, stop);
  if (withoutDraws) {
    loop.ledger.confirmationEnded(withoutDraws);
    return;
  }
  if (!loop.worthMeasuring()) {
    // No spread measured: the checks the claimed gain rests on are drawn again first (final-check.ts);
    // the confirmation runs only when one of them differed.
    const check = await checkFinalText(loop, kept);
    if (check.kind === 'ended') {
      loop.ledger.confirmationEnded(check.outcome);
      return;
    }
  }
  await measureConfirmation(loop, kept);
}

/** The loop kept an edit whose scores would pass the ship gate, under a rule that confirms. */
function wouldShip(loop: LoopContext, kept: KeptState): boolean {
  const { baselineScore } = loop.ledger.state;
  if (baselineScore === null || loop.keepRule === 'original' || loop.deterministic) return false;
  if (kept.text === loop.baselineText) return false;
  const would = shipGate({
    baselineScore,
    finalScore: kept.score,
    linesBaseline: countNewlines(loop.baselineText),
    linesFinal: countNewlines(kept.text),
    minGain: loop.input.options.minGain,
  });
  return would !== 'no-improvement';
}

/** Why no draws at all are spent, when none are (the cost budget was reached). */
function confirmationWithoutDraws(loop: LoopContext, stop: LoopStopReason): ConfirmationOutcome | undefined {
  if (stop !== 'cost budget') return undefined;
  if (!loop.worthMeasuring()) {
    // Every draw of the night repeated its text's score exactly, and the budget leaves no draw for the
    // final text's check (final-check.ts), which otherwise runs in place of this.
    return {
      kind: 'skipped',
      reason:
        'every text measured more than once tonight scored exactly the same each time, so fresh draws ' +
        "would decide nothing; the cost budget was reached, so the final text's check was not drawn; the " +
        "loop's scores ship",
    };
  }
  return { kind: 'failed', reason: 'the cost budget was reached before the confirmation' };
}

/**
 * The fresh draws, under their own timeout: a night that used its budget still confirms. An interruption
 * that came while they were drawn ends the loop, unless a measurement had already failed.
 */
async function measureConfirmation(loop: LoopContext, kept: KeptState): Promise<void> {
  const { input, ledger } = loop;
  const ended = (reason: string) => ledger.confirmationEnded({ kind: 'failed', reason });
  await drawAfterLoop(
    loop,
    async (draws) => {
      const measure: Measure = (text, evals, numbers) =>
        draws.measure(text, loop.request(text, draws.signal, evals), numbers);
      const holdout = loop.holdout;
      const fixed = drawRange(loop.trials, loop.trials);
      const holdoutRun =
        holdout === undefined
          ? undefined
          : Promise.all([measure(loop.baselineText, holdout, fixed), measure(kept.text, holdout, fixed)]);
      holdoutRun?.catch(() => undefined); // awaited below
      const sides = await confirmationSides(loop, kept, measure);
      const [holdBefore, holdAfter] = (await holdoutRun) ?? [];
      const failed = [sides.failed, holdBefore, holdAfter].find((m) => m !== undefined && m.status !== 'ok');
      if (failed || !sides.before || !sides.after) {
        ended(`${failed?.status ?? 'harness-error'}: ${failed?.detail ?? 'no score'}`);
        return;
      }
      const { before, after } = sides;
      ledger.observed(
        mergeTallies(
          sides.reused ? [] : before.tallies,
          after.tallies,
          holdBefore?.tallies ?? [],
          holdAfter?.tallies ?? [],
        ),
      );
      const c = confirmationOf({
        baselineScores: before.scores,
        finalScores: after.scores,
        baselineTallies: before.tallies,
        finalTallies: after.tallies,
        holdoutBefore: holdBefore?.tallies,
        holdoutAfter: holdAfter?.tallies,
        estimate: sides.estimate,
        margin: loop.margin,
        reusedBaseline: sides.reused,
      });
      const acceptedRecheck = await recheckLostAccepted(loop, kept.text, c, draws.signal, (u) =>
        loop.spendUnjudged(u),
      );
      ledger.confirmationEnded({
        kind: 'confirmed',
        confirmation: acceptedRecheck === undefined ? c : { ...c, acceptedRecheck },
      });
      input.log.info(
        `${input.skill}: confirmation over ${c.trials} fresh trials of the final text` +
          `${sides.reused ? ` and the baseline's ${before.scores.length} trials` : ' and of the baseline'}: ` +
          `baseline ${c.baseline.toFixed(4)} -> final ${c.final.toFixed(4)}, gain ${formatGain(c.gain)} ` +
          `(90 % interval ${formatGain(c.low)} to ${formatGain(c.high)})`,
      );
    },
    (err) => ended(messageOf(err)),
  );
}

/** The two texts' sides of the confirmation (training scenarios), and the noise estimate with them. */
interface Sides {
  before?: Pick<Measurement, 'scores' | 'tallies'> | undefined;
  after?: Measurement | undefined;
  /** A measurement that could not be scored. */
  failed?: Measurement | undefined;
  /** The baseline side is the baseline's own draws, reused. */
  reused: boolean;
  estimate: NoiseEstimate;
}

type Measure = (text: string, evals: SkillEvals, draws: number[]) => Promise<Measurement>;

/**
 * The baseline side and the final side of the confirmation (docs/how-it-works.md § Decisions under noise,
 * "The confirmation"). The final side: fresh draws, numbered past every draw the loop scored of that text
 * (the loop's draws of it are the ones its selection chose), taken one at a time until the sequential
 * decision is clear either way (core/iterate/sequential.ts), at most twice `trials` when the call is close.
 * The baseline side:
 * - the baseline's draws from before the loop, reused, when there are at least two and the grader's
 *   measured flip rate is under the one from which the keep re-draws (`redrawsPayOff`): no selection chose
 *   them, and at that noise fresh ones bought nothing measurable;
 * - otherwise fresh draws, one beside each final draw (at most `trials`, numbered past every draw of the
 *   baseline text), so a baseline whose draws came out low, which made the loop likelier to get here, is
 *   not what the final is held against when the noise is high enough for that luck to decide.
 */
async function confirmationSides(loop: LoopContext, kept: KeptState, measure: Measure): Promise<Sides> {
  const { ledger } = loop;
  const stored = ledger.baselineDraws;
  const reused = stored && !redrawsPayOff(ledger.flipRate) ? stored : undefined;
  const minGain = loop.input.options.minGain ?? DEFAULT_MIN_GAIN;
  const simpler = countNewlines(kept.text) < countNewlines(loop.baselineText);
  const finalFirst = ledger.freshDraw(kept.text);
  const baselineFirst = ledger.freshDraw(loop.baselineText);
  const final = new DrawnSide(loop);
  const fresh = new DrawnSide(loop);
  let estimate = ledger.state.noise;
  let look: Look = 'continue';
  while (look === 'continue') {
    const pairBaseline = !reused && fresh.scores.length < loop.trials;
    const [m, b] = await Promise.all([
      measure(kept.text, loop.training, [finalFirst + final.scores.length]),
      pairBaseline
        ? measure(loop.baselineText, loop.training, [baselineFirst + fresh.scores.length])
        : undefined,
    ]);
    const failed = [b, m].find((x) => x !== undefined && x.status !== 'ok');
    if (failed) return { failed, reused: !!reused, estimate };
    final.add(m);
    if (b) fresh.add(b);
    // Reused baseline draws are already in the estimate; fresh ones add their spread, scenario by scenario.
    estimate = poolNoise(poolNoise(ledger.state.noise, fresh.scores, fresh.parts), final.scores, final.parts);
    const baseline = reused?.scores ?? fresh.scores;
    look = sequentialLook({
      gain: mean(final.scores) - mean(baseline),
      se: differenceSe(estimate, final.scores.length, baseline.length),
      margin: loop.margin,
      minGain,
      draws: final.scores.length,
      planned: loop.trials,
      max: 2 * loop.trials,
      simpler,
    });
  }
  // Draws no selection chose: the next night's baseline draws of their text (stored-draws.ts).
  const after = final.measurement();
  keepFreshDraws(loop, kept.text, after.draws);
  if (reused) return { before: reused, after, reused: true, estimate };
  const before = fresh.measurement();
  keepFreshDraws(loop, loop.baselineText, before.draws);
  return { before, after, reused: false, estimate };
}

/** One side's fresh draws of a confirmation, as they come one at a time. */
class DrawnSide {
  readonly scores: number[] = [];
  readonly parts: ScenarioParts[] = [];
  private readonly drawn: Measurement[] = [];

  constructor(private readonly loop: LoopContext) {}

  add(m: Measurement): void {
    this.drawn.push(m);
    this.scores.push(...m.scores);
    this.parts.push(...m.draws.map((d) => this.loop.partsOf(d.pairs)));
  }

  measurement(): Measurement {
    const draws = this.drawn.flatMap((d) => d.draws);
    return {
      status: 'ok',
      detail: undefined,
      draws,
      scores: this.scores,
      tallies: tallyDraws(draws.map((d) => d.pairs)),
      usage: ZERO_USAGE,
    };
  }
}

/** The ship gate's re-measure draws its own numbers: past the loop's (accepted-floor.ts) and every score's. */
const SHIP_RECHECK_FIRST_DRAW = 20_000;

/**
 * The accepted-findings floor at the ship gate, on re-measured evidence (docs/how-it-works.md § The nightly
 * engine improves the reviewer): when the confirmation's draws show a reviewer skill's accepted findings
 * passing less often, pooled, the findings whose own rate fell are drawn again for the final text (their
 * scenarios alone, one draw at a time, each decided on its majority), and the ship gate refuses only on
 * the ones missed again. Undefined when the pooled floor held (nothing to draw); a failed re-measure is
 * said as a finding lost, so the night does not ship on it.
 */
async function recheckLostAccepted(
  loop: LoopContext,
  text: string,
  c: Confirmation,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<{ lost: string[] } | undefined> {
  const scenarios = loop.input.evals.scenarios;
  const evidence = feedbackEvidence(scenarios, 'confirmation', c.perAssertion ?? []);
  if (acceptedFindingsLost(evidence) === undefined) return undefined;
  const worse = new Set(acceptedFindingsWorse(evidence).map((f) => f.evalId));
  const lost = scenarios.filter((s) => worse.has(s.id));
  const recheck = await recheckAccepted(loop, text, lost, SHIP_RECHECK_FIRST_DRAW, signal, spend);
  if ('failed' in recheck) return { lost: [`the re-measure failed (${recheck.failed})`] };
  return { lost: lostTitles(recheck.lost) };
}
