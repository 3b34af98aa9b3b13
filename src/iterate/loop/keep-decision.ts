/**
 * Steps E/F (docs/how-it-works.md § One iteration (steps A–H), § Decisions under noise): the scored edit
 * against the kept state — keep, revert or crash — and, under the noise-aware keep rule, the extra trials a
 * first-draw keep must clear the margin with. The one place the keep rule is applied.
 */
import type { KeptState } from '../../core/iterate/hill-climb.js';
import path from 'node:path';
import { editRefusal } from '../../core/iterate/edit-refusal.js';
import { countNewlines } from '../../core/iterate/lines.js';
import {
  clearsMargin,
  formatGain,
  mean,
  poolNoise,
  tallyDraws,
  worthMeasuring,
} from '../../core/iterate/noise.js';
import { classifyIteration, type IterationOutcome } from '../../core/iterate/taxonomy.js';
import type { Usage } from '../../core/usage.js';
import { keptStateOf, type ScoredText } from '../saturation.js';
import { drawRange, measureDraws } from '../trials.js';
import type { LoopContext } from './context.js';

/** What an attempt was judged: its row's status and score, and the new kept state on a keep. */
export interface Verdict {
  outcome: IterationOutcome;
  score: number | null;
  /** What the row and the terminal line say about the outcome. */
  note?: string | undefined;
  kept?: KeptState | undefined;
  /** The edited text's draws when it was re-measured (noise-aware keep rule). */
  measured?: number[] | undefined;
}

/** The edit that never reached a judgement: the harness failed. */
export function crashVerdict(note: string): Verdict {
  return { outcome: 'crash', score: null, note };
}

/**
 * Judges `newText`, scored once (`scored`), against the kept state. `spend` is told the usage of any extra
 * trials; the draws scored go to the night's tallies.
 */
export async function judgeEdit(
  loop: LoopContext,
  kept: KeptState,
  newText: string,
  scored: ScoredText,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<Verdict> {
  const s = scored.score;
  const refusal = editRefusal({
    before: kept.text,
    after: newText,
    baseline: loop.baselineText,
    folder: path.basename(loop.skillDir),
    file: loop.skillMdRel,
  });
  const linesDelta = countNewlines(newText) - countNewlines(kept.text);
  const outcome = classifyIteration({
    status: s.status,
    score: s.score,
    highWater: kept.score,
    linesDelta,
    refused: refusal !== undefined,
  });
  if (
    outcome === 'keep' &&
    loop.keepRule === 'noise-aware' &&
    worthMeasuring(loop.ledger.state.noise, loop.trials, loop.deterministic)
  ) {
    return remeasure(loop, kept, newText, scored, linesDelta, signal, spend);
  }
  if (s.status === 'ok') loop.ledger.observed(tallyDraws([s.pairs]));
  let note: string | undefined;
  if (s.status === 'ambiguous') note = `AMBIGUOUS: ${s.detail ?? ''}`.trim();
  else if (outcome === 'crash') note = `${s.status}: ${s.detail ?? 'no score'}`;
  else if (refusal !== undefined) note = refusal;
  return {
    outcome,
    score: outcome === 'crash' ? null : s.score,
    note,
    kept: outcome === 'keep' && s.score !== null ? keptStateOf(newText, s.score, scored) : undefined,
  };
}

/**
 * The noise-aware keep rule: a candidate that beat the kept state on its first draw gets the other
 * trials, and is kept only when the mean of all its draws clears the margin over the state's mean; the new
 * state carries that mean, not the lucky first draw. A candidate that did not beat the state on its first
 * draw never gets here (the extra trials would decide nothing).
 */
async function remeasure(
  loop: LoopContext,
  kept: KeptState,
  newText: string,
  scored: ScoredText,
  linesDelta: number,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<Verdict> {
  const more = await measureDraws(loop.request(newText, signal), drawRange(1, loop.trials - 1));
  spend(more.usage);
  if (more.status !== 'ok') {
    const ambiguous = more.status === 'ambiguous';
    return {
      outcome: ambiguous ? 'revert' : 'crash',
      score: null,
      note: ambiguous
        ? `AMBIGUOUS on a re-measure: ${more.detail ?? ''}`.trim()
        : `re-measure failed: ${more.status}: ${more.detail ?? 'no score'}`,
    };
  }
  const scores = [scored.score.score!, ...more.scores];
  loop.ledger.observed(tallyDraws([scored.score.pairs, ...more.draws.map((d) => d.pairs)]));
  const candidate = mean(scores);
  const decision = clearsMargin({
    candidate,
    state: kept.score,
    draws: scores.length,
    stateDraws: kept.draws ?? 1,
    estimate: poolNoise(loop.ledger.state.noise, scores),
    margin: loop.margin,
    linesDelta,
  });
  const note =
    `mean of ${scores.length} trials, gain ${formatGain(decision.gain)} ` +
    `${decision.keep ? 'clears' : 'does not clear'} the margin ${decision.needed.toFixed(4)}`;
  return {
    outcome: decision.keep ? 'keep' : 'revert',
    score: candidate,
    note,
    kept: decision.keep ? { ...keptStateOf(newText, candidate, scored), draws: scores.length } : undefined,
    measured: scores,
  };
}
