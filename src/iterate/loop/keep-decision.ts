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
  differenceSe,
  formatGain,
  mean,
  poolNoise,
  tallyDraws,
  type ScenarioParts,
} from '../../core/iterate/noise.js';
import {
  flipRatePercent,
  KEEP_MARGIN_SHARE,
  REDRAW_FLIP_RATE,
  redrawsPayOff,
  sequentialLook,
  type Look,
} from '../../core/iterate/sequential.js';
import { classifyIteration, type IterationOutcome } from '../../core/iterate/taxonomy.js';
import type { Usage } from '../../core/usage.js';
import { keptStateOf, type ScoredText } from '../saturation.js';
import { measureDraws } from '../trials.js';
import { acceptedFloor } from './accepted-floor.js';
import type { LoopContext } from './context.js';
import { silencingProbe } from './silencing-probe.js';

/** What an attempt was judged: its row's status and score, and the new kept state on a keep. */
export interface Verdict {
  outcome: IterationOutcome;
  score: number | null;
  /** What the row and the terminal line say about the outcome. */
  note?: string | undefined;
  kept?: KeptState | undefined;
  /** The edited text's draws when it was re-measured (noise-aware keep rule). */
  measured?: number[] | undefined;
  /** Those draws split by scenario (the noise estimate reads them scenario by scenario). */
  measuredParts?: ScenarioParts[] | undefined;
}

/** The edit that never reached a judgement: the harness failed. */
export function crashVerdict(note: string): Verdict {
  return { outcome: 'crash', score: null, note };
}

/**
 * Judges `newText`, scored once (`scored`), against the kept state. `spend` is told the usage of any extra
 * trials; the draws scored go to the night's tallies. An edit the keep rule keeps is last asked what real
 * defects it silences (silencing-probe.ts; only for a skill whose evals carry feedback records).
 */
export async function judgeEdit(
  loop: LoopContext,
  kept: KeptState,
  newText: string,
  scored: ScoredText,
  signal: AbortSignal,
  spend: (usage: Usage) => void,
): Promise<Verdict> {
  const verdict = await judgeScored(loop, kept, newText, scored, signal, spend);
  if (verdict.outcome !== 'keep') return verdict;
  const silenced = await silencingProbe(loop, kept.text, newText, signal, spend);
  return silenced === undefined
    ? verdict
    : { ...verdict, outcome: 'revert', note: silenced, kept: undefined };
}

async function judgeScored(
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
  const scoredOutcome = classifyIteration({
    status: s.status,
    score: s.score,
    highWater: kept.score,
    linesDelta,
    refused: refusal !== undefined,
  });
  // Only an edit that would be kept is asked whether it loses accepted findings: a revert stays a revert.
  const lost =
    scoredOutcome === 'keep' ? await acceptedFloor(loop, kept, newText, scored, signal, spend) : undefined;
  const outcome = lost === undefined ? scoredOutcome : 'revert';
  let oneDraw: string | undefined;
  if (outcome === 'keep' && loop.keepRule === 'noise-aware' && loop.worthMeasuring()) {
    loop.ledger.drew(newText, 1);
    const rate = loop.ledger.flipRate;
    if (redrawsPayOff(rate)) return remeasure(loop, kept, newText, scored, linesDelta, signal, spend);
    // A grader this reliable: one draw decides the keep; the confirmation decides what ships.
    oneDraw = `one draw, flip rate ${flipRatePercent(rate)} is under ${flipRatePercent(REDRAW_FLIP_RATE)}`;
  }
  loop.ledger.drew(newText, 1);
  if (s.status === 'ok') loop.ledger.observed(tallyDraws([s.pairs]));
  let note: string | undefined;
  if (s.status === 'ambiguous') note = `AMBIGUOUS: ${s.detail ?? ''}`.trim();
  else if (outcome === 'crash') note = `${s.status}: ${s.detail ?? 'no score'}`;
  else if (refusal !== undefined) note = refusal;
  else if (lost !== undefined) note = lost;
  else note = oneDraw;
  return {
    outcome,
    score: outcome === 'crash' ? null : s.score,
    note,
    kept: outcome === 'keep' && s.score !== null ? keptStateOf(newText, s.score, scored) : undefined,
  };
}

/**
 * The noise-aware keep rule, sequential (docs/how-it-works.md § Decisions under noise): a candidate that
 * beat the kept state on its first draw gets more draws one at a time, and after each the decision looks
 * at the mean of all its draws against the state's mean (core/iterate/sequential.ts): it stops as soon as
 * that is clear either way, else it takes up to `trials` draws and is kept only when the mean clears the
 * margin. The new state carries that mean, not the lucky first draw. A candidate that did not beat the
 * state on its first draw never gets here (more draws would decide nothing).
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
  const scores = [scored.score.score!];
  const pairs = [scored.score.pairs];
  // Each draw split by scenario once, as it arrives (the noise estimate reads them scenario by scenario).
  const parts = [loop.partsOf(scored.score.pairs)];
  const stateDraws = kept.draws ?? 1;
  // Half the margin for a keep; the confirmation holds what ships to the whole margin on fresh draws.
  const margin = loop.margin * KEEP_MARGIN_SHARE;
  let look: Look = 'continue';
  let gain = 0;
  let se = 0;
  while (look === 'continue') {
    const more = await measureDraws(loop.request(newText, signal), [scores.length]);
    spend(more.usage);
    loop.ledger.drew(newText, scores.length + 1);
    if (more.status !== 'ok') {
      loop.ledger.observed(tallyDraws(pairs));
      const ambiguous = more.status === 'ambiguous';
      return {
        outcome: ambiguous ? 'revert' : 'crash',
        score: null,
        note: ambiguous
          ? `AMBIGUOUS on a re-measure: ${more.detail ?? ''}`.trim()
          : `re-measure failed: ${more.status}: ${more.detail ?? 'no score'}`,
      };
    }
    scores.push(...more.scores);
    pairs.push(...more.draws.map((d) => d.pairs));
    parts.push(...more.draws.map((d) => loop.partsOf(d.pairs)));
    gain = mean(scores) - kept.score;
    se = differenceSe(poolNoise(loop.ledger.state.noise, scores, parts), scores.length, stateDraws);
    look = sequentialLook({
      gain,
      se,
      margin,
      minGain: 0,
      draws: scores.length,
      planned: loop.trials,
      max: loop.trials,
      simpler: linesDelta < 0,
    });
  }
  loop.ledger.observed(tallyDraws(pairs));
  const candidate = mean(scores);
  const keep = look === 'clear';
  const early = scores.length < loop.trials ? `, decided after ${scores.length} of ${loop.trials}` : '';
  const note =
    `mean of ${scores.length} trials${early}, gain ${formatGain(gain)} ` +
    `${keep ? 'clears' : 'does not clear'} the margin ${(margin * se).toFixed(4)}`;
  return {
    outcome: keep ? 'keep' : 'revert',
    score: candidate,
    note,
    kept: keep ? { ...keptStateOf(newText, candidate, scored), draws: scores.length } : undefined,
    measured: scores,
    measuredParts: parts,
  };
}
