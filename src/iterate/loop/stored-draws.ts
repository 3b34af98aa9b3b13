/**
 * The baseline's extra draws kept from one night to the next (docs/how-it-works.md § Baseline, § Decisions
 * under noise, "The noise"): which stored draws tonight's baseline may use, and which of tonight's draws
 * are kept for the next night. Only draws no selection touched are kept: the baseline's draws beyond draw 0
 * (draw 0's renders feed the editor and the loop, and it is drawn fresh every night) and the
 * confirmation's fresh draws of either text, numbered past every draw the loop scored. Only whole draws of
 * the training scenarios are kept (the holdout is scored apart and never stored; a noise probe that agreed
 * drew part of draw 1 only, so nothing is kept of it). Structure-only scoring and `--trials 1` keep and use
 * nothing.
 */
import {
  baselineDrawsKeyOf,
  type BaselineDrawsEntry,
  type StoredDraw,
} from '../../core/iterate/baseline-draws-record.js';
import { storedVerdicts } from '../../core/iterate/stored-verdicts.js';
import type { SkillScore } from '../score.js';
import type { LoopContext } from './context.js';

/** The key of `text`'s draws tonight. */
export function drawsKeyOf(loop: LoopContext, text: string): string {
  const { input } = loop;
  return baselineDrawsKeyOf({
    evals: loop.training,
    skillText: text,
    renderModelId: input.models.renderModelId,
    graderModelId: input.models.graderModelId,
    renderEndpoint: input.models.renderEndpoint,
    graderEndpoint: input.models.graderEndpoint,
    mode: input.options.mode,
    structural: input.structural,
  });
}

/** The stored draws of the baseline text, when the caller handed in a record with tonight's key. */
export function storedBaselineDraws(loop: LoopContext): BaselineDrawsEntry | undefined {
  const { input } = loop;
  if (loop.deterministic || loop.trials < 2 || !input.baselineDraws) return undefined;
  const key = drawsKeyOf(loop, loop.baselineText);
  const entry = input.baselineDraws.entries.find((e) => e.key === key);
  if (!entry) {
    input.log.info(
      `${input.skill}: the stored baseline draws do not match tonight's SKILL.md, evals, prompts, models or model endpoints; ` +
        'drawing them again',
    );
  }
  return entry;
}

/** A scored draw as the record keeps it: its composite, whether every check passed, its verdicts. */
export function storedDrawOf(draw: SkillScore): StoredDraw {
  return {
    score: draw.score!,
    allPass: draw.absolute !== null && draw.absolute.failed_assertions.length === 0,
    pairs: storedVerdicts(draw.pairs),
  };
}

/**
 * Keeps whole fresh draws of `text` for the next night (the confirmation's, confirmation.ts): the ledger
 * holds one entry per text, the latest replacing an earlier one.
 */
export function keepFreshDraws(loop: LoopContext, text: string, draws: readonly SkillScore[]): void {
  const scored = draws.filter((d) => d.status === 'ok' && d.score !== null);
  if (loop.deterministic || loop.trials < 2 || scored.length === 0 || scored.length < draws.length) return;
  loop.ledger.keepDraws(
    {
      key: drawsKeyOf(loop, text),
      drawnAt: loop.input.now().toISOString(),
      structural: scored[0]!.structural.score,
      draws: scored.map(storedDrawOf),
    },
    true,
  );
}
