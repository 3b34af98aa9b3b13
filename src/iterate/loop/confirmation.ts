/**
 * The ship gate's confirmation (docs/how-it-works.md § Decisions under noise): when the loop's own scores
 * would ship, the baseline text and the final text are re-scored side by side with fresh draws (the
 * holdout scenarios included, scored apart), and the gate then decides on those. Structure-only scoring
 * and the original's keep rule skip it; a night that measured no spread first checks the final text's
 * gain (final-check.ts) and confirms only when that finds one. How it ended goes to the ledger.
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
import { sequentialLook, type Look } from '../../core/iterate/sequential.js';
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
 * The baseline side: the baseline's draws from before the loop when there are at least two (no selection
 * chose them: the text was fixed before they were drawn, and the loop never re-draws it), else `trials`
 * fresh draws. The final side: fresh draws, numbered past every draw the loop scored of that text (the
 * loop's draws of it are the ones its selection chose), taken one at a time until the sequential decision
 * is clear either way (core/iterate/sequential.ts), at most twice `trials` when the call is close.
 */
async function confirmationSides(loop: LoopContext, kept: KeptState, measure: Measure): Promise<Sides> {
  const { ledger } = loop;
  const reusable = ledger.baselineDraws;
  let fresh: Measurement | undefined;
  if (!reusable) {
    fresh = await measure(
      loop.baselineText,
      loop.training,
      drawRange(ledger.freshDraw(loop.baselineText), loop.trials),
    );
    if (fresh.status !== 'ok') return { failed: fresh, reused: false, estimate: ledger.state.noise };
    // Fresh draws of a text fixed before the night: the next night's baseline when nothing ships.
    keepFreshDraws(loop, loop.baselineText, fresh.draws);
  }
  const baseline: Pick<Measurement, 'scores' | 'tallies'> = reusable ?? fresh!;
  // Fresh baseline draws add their spread, scenario by scenario; reused ones are already in the estimate.
  const baseNoise = fresh
    ? poolNoise(
        ledger.state.noise,
        fresh.scores,
        fresh.draws.map((d) => loop.partsOf(d.pairs)),
      )
    : ledger.state.noise;
  const minGain = loop.input.options.minGain ?? DEFAULT_MIN_GAIN;
  const simpler = countNewlines(kept.text) < countNewlines(loop.baselineText);
  const first = ledger.freshDraw(kept.text);
  const scores: number[] = [];
  const parts: ScenarioParts[] = [];
  const draws: Measurement[] = [];
  let estimate = baseNoise;
  let look: Look = 'continue';
  while (look === 'continue') {
    const m = await measure(kept.text, loop.training, [first + scores.length]);
    if (m.status !== 'ok') return { failed: m, reused: !!reusable, estimate };
    draws.push(m);
    scores.push(...m.scores);
    parts.push(...m.draws.map((d) => loop.partsOf(d.pairs)));
    estimate = poolNoise(baseNoise, scores, parts);
    look = sequentialLook({
      gain: mean(scores) - mean(baseline.scores),
      se: differenceSe(estimate, scores.length, baseline.scores.length),
      margin: loop.margin,
      minGain,
      draws: scores.length,
      planned: loop.trials,
      max: 2 * loop.trials,
      simpler,
    });
  }
  const after: Measurement = {
    status: 'ok',
    detail: undefined,
    draws: draws.flatMap((d) => d.draws),
    scores,
    tallies: tallyDraws(draws.flatMap((d) => d.draws.map((x) => x.pairs))),
    usage: ZERO_USAGE,
  };
  // Draws numbered past every draw the loop scored of the final text: no selection chose them, and they
  // are the next night's baseline draws when it ships (stored-draws.ts).
  keepFreshDraws(loop, kept.text, after.draws);
  return { before: baseline, after, reused: !!reusable, estimate };
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
