/**
 * The baseline's extra draws taken from an earlier night's record (docs/how-it-works.md § Baseline, § Decisions
 * under noise, "The noise"): when the stored draws' key matches tonight's SKILL.md, evals, prompts and
 * models (stored-draws.ts), they stand in for draws 1 … trials − 1 and no noise probe, draw 1 or draw 2 is
 * drawn. Draw 0 is drawn fresh as always. Fewer stored draws than `trials − 1`: the missing ones are drawn
 * the usual way, only when draw 0 and the stored ones disagree. A text whose structural score differs from
 * the stored one (a linked file changed) draws its extras as when there is no record.
 */
import type { BaselineDrawsEntry } from '../../core/iterate/baseline-draws-record.js';
import { ZERO_USAGE } from '../../core/usage.js';
import type { SkillScore } from '../score.js';
import { drawRange, measureDraws } from '../trials.js';
import {
  drawBaselineExtras,
  drawBaselineRest,
  drawsAgree,
  laterDraws,
  type BaselineExtras,
} from './baseline-measurement.js';
import type { LoopContext } from './context.js';

/** The baseline's extras from `entry` (and any missing draws, drawn now), after draw 0 scored `first`. */
export async function useStoredDraws(
  loop: LoopContext,
  text: string,
  signal: AbortSignal,
  first: SkillScore,
  entry: BaselineDrawsEntry,
): Promise<BaselineExtras> {
  const { input } = loop;
  if (entry.structural !== first.structural.score) {
    input.log.info(
      `${input.skill}: the stored baseline draws from ${entry.drawnAt} were scored with another structural ` +
        'score (a linked file changed); drawing them again',
    );
    const extras = await drawBaselineExtras(loop, text, signal);
    return drawBaselineRest(loop, text, signal, first, extras);
  }
  const used = entry.draws.slice(0, loop.trials - 1);
  const stored = { entry, used };
  input.log.info(
    `${input.skill}: the baseline's ${used.length} extra draw${used.length === 1 ? '' : 's'} from ` +
      `${entry.drawnAt} ${used.length === 1 ? 'is' : 'are'} reused (SKILL.md, evals, prompts, models and model endpoints unchanged)`,
  );
  const missing = loop.trials - 1 - used.length;
  if (missing === 0 || used.every((d) => drawsAgree(first, d))) return { stored, usage: ZERO_USAGE };
  const later = await laterDraws(
    measureDraws(loop.request(text, signal), drawRange(1 + used.length, missing)),
  );
  if (!later.rest) return { stored, usage: later.usage, cutShort: later.cutShort };
  return { stored, extra: later.rest, usage: later.usage };
}
