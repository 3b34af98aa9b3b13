/**
 * Step D with the screening of the noise-aware rule (docs/how-it-works.md § Decisions under noise): a batch
 * of scenarios is rendered first (core/iterate/screening.ts: those the kept text fails plus one it passes,
 * or, once a spread is measured or when that would be every scenario, the third where it fails the most
 * checks); a candidate already worse there (at a flip rate where promising edits are re-drawn, no better)
 * is reverted without rendering the rest. Otherwise the whole scoring runs, its renders of the batch reused
 * from the cache (the same draw of the same text).
 */
import { untilAborted } from '../../core/abortable.js';
import type { KeptState } from '../../core/iterate/hill-climb.js';
import { noiseSd } from '../../core/iterate/noise.js';
import { screenedOut, screeningBatch } from '../../core/iterate/screening.js';
import { flipRatePercent, REDRAW_FLIP_RATE } from '../../core/iterate/sequential.js';
import { addUsage, type Usage } from '../../core/usage.js';
import { scoreWithSaturation, type ScoredText } from '../saturation.js';
import { scoreSkill, type GradeMemo } from '../score.js';
import type { LoopContext } from './context.js';

/** A candidate the screening reverted: why, and what the screen spent. */
export interface ScreenedOut {
  screenedOut: string;
  usage: Usage;
}

export async function screenThenScore(
  loop: LoopContext,
  kept: KeptState,
  newText: string,
  signal: AbortSignal,
): Promise<ScoredText | ScreenedOut> {
  const ids = loop.training.scenarios.map((s) => s.id);
  // A spread measured for this skill tonight (the baseline's draws, or later ones) picks the noisy batch.
  const noisy = noiseSd(loop.ledger.state.noise) > 0;
  const batch =
    loop.keepRule === 'noise-aware' && !loop.deterministic
      ? screeningBatch(ids, kept.absolute?.failed_assertions, noisy)
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
  // At a measured flip rate where a promising edit is re-drawn (32 % or more), a tie on the batch is
  // screened out too (screenedOut). No rate measured (NaN) is no tie-out: the comparison is false.
  const rate = loop.ledger.flipRate;
  const tiesOut = noisy && rate >= REDRAW_FLIP_RATE;
  if (screen.status === 'ok' && screen.absolute && screenedOut(screen.absolute.passed, keptPasses, tiesOut)) {
    const passed = screen.absolute.passed;
    const tie =
      passed === keptPasses ? `; at a flip rate of ${flipRatePercent(rate)} an edit must pass more` : '';
    return {
      screenedOut:
        `screened out on ${batch.length} of ${ids.length} scenarios: ${passed} checks pass ` +
        `there, the kept text's ${keptPasses}${tie}`,
      usage: screen.usage,
    };
  }
  // Not worse (or not scorable there): the whole scoring decides, as without screening; the batch's
  // renders come from the cache and its grades from the screen.
  const full = await scoreWithSaturation({ ...loop.request(newText, signal), grades });
  return { ...full, usage: addUsage(screen.usage, full.usage) };
}
