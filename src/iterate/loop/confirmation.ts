/**
 * The ship gate's confirmation (docs/how-it-works.md § Decisions under noise): when the loop's own scores
 * would ship, the baseline text and the final text are re-scored side by side with fresh draws (the
 * holdout scenarios included, scored apart), and the gate then decides on those. Structure-only scoring
 * and the original's keep rule skip it. How it ended goes to the ledger.
 */
import { messageOf } from '../../core/errors.js';
import type { SkillEvals } from '../../core/iterate/evals.js';
import type { KeptState, LoopStopReason } from '../../core/iterate/hill-climb.js';
import { countNewlines } from '../../core/iterate/lines.js';
import {
  confirmationOf,
  formatGain,
  mergeTallies,
  poolNoise,
  worthMeasuring,
} from '../../core/iterate/noise.js';
import { shipGate } from '../../core/iterate/ship-gate.js';
import { ZERO_USAGE, addUsage } from '../../core/usage.js';
import { startIterationTimer } from '../iteration-timer.js';
import { drawRange, measureDraws } from '../trials.js';
import type { LoopContext } from './context.js';
import type { ConfirmationOutcome } from './ledger.js';

/** Confirms the loop's result when it would ship; the loop ended with `stop`. */
export async function confirm(loop: LoopContext, stop: LoopStopReason): Promise<void> {
  const kept = loop.ledger.state.kept;
  if (!kept || !wouldShip(loop, kept)) return;
  const withoutDraws = confirmationWithoutDraws(loop, stop);
  if (withoutDraws) {
    loop.ledger.confirmationEnded(withoutDraws);
    return;
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

/** Why no confirmation draws are spent, when none are. */
function confirmationWithoutDraws(loop: LoopContext, stop: LoopStopReason): ConfirmationOutcome | undefined {
  if (!worthMeasuring(loop.ledger.state.noise, loop.trials, loop.deterministic)) {
    // Every draw of the night repeated its text's score exactly: fresh draws would repeat them too.
    return {
      kind: 'skipped',
      reason:
        'every text measured more than once tonight scored exactly the same each time, so fresh draws ' +
        "would decide nothing; the loop's scores ship",
    };
  }
  if (stop === 'cost budget') {
    return { kind: 'failed', reason: 'the cost budget was reached before the confirmation' };
  }
  return undefined;
}

/**
 * The fresh draws, under their own timeout: a night that used its budget still confirms. An interruption
 * that came while they were drawn ends the loop, unless a measurement had already failed.
 */
async function measureConfirmation(loop: LoopContext, kept: KeptState): Promise<void> {
  const { input, ledger } = loop;
  const iterationMs = input.options.iterationTimeoutMs;
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
      part(loop.baselineText, loop.training),
      part(kept.text, loop.training),
      part(loop.baselineText, loop.holdout),
      part(kept.text, loop.holdout),
    ]);
    for (const m of [before, after, holdBefore, holdAfter]) usage = addUsage(usage, m?.usage ?? ZERO_USAGE);
    const failed = [before, after, holdBefore, holdAfter].find((m) => m !== undefined && m.status !== 'ok');
    if (failed || !before || !after) {
      const reason = `${failed?.status ?? 'harness-error'}: ${failed?.detail ?? 'no score'}`;
      ledger.confirmationEnded({ kind: 'failed', reason });
      return;
    }
    ledger.observed(
      mergeTallies(before.tallies, after.tallies, holdBefore?.tallies ?? [], holdAfter?.tallies ?? []),
    );
    const estimate = poolNoise(poolNoise(ledger.state.noise, before.scores), after.scores);
    const c = confirmationOf({
      baselineScores: before.scores,
      finalScores: after.scores,
      baselineTallies: before.tallies,
      finalTallies: after.tallies,
      holdoutBefore: holdBefore?.tallies,
      holdoutAfter: holdAfter?.tallies,
      estimate,
      margin: loop.margin,
    });
    ledger.confirmationEnded({ kind: 'confirmed', confirmation: c });
    input.log.info(
      `${input.skill}: confirmation over ${c.trials} fresh trials each: baseline ${c.baseline.toFixed(4)} -> ` +
        `final ${c.final.toFixed(4)}, gain ${formatGain(c.gain)} (90 % interval ${formatGain(c.low)} to ${formatGain(c.high)})`,
    );
  } catch (err) {
    ledger.confirmationEnded({ kind: 'failed', reason: messageOf(err) });
  } finally {
    timer.stop();
    loop.spendUnjudged(usage);
  }
  if (input.signal?.aborted) throw loop.interrupted();
}
