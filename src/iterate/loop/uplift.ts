/**
 * The uplift (docs/how-it-works.md § Baseline, § Decisions under noise, "Uplift"): once per skill, every
 * scenario without the skill's instructions, against the baseline's draws. The draw without the skill does
 * not depend on SKILL.md, so when the caller hands in a record of an earlier night whose key matches
 * (core/iterate/uplift-record.ts), its verdicts are reused and no render or grade is made; otherwise the
 * draw is made and its record returned in the loop's result for the caller to keep.
 */
import { tallyDraws, upliftOf, type UpliftReport } from '../../core/iterate/noise.js';
import { storedVerdicts, type StoredVerdict } from '../../core/iterate/stored-verdicts.js';
import { upliftKeyOf, type UpliftWithoutRecord } from '../../core/iterate/uplift-record.js';
import { startIterationTimer } from '../iteration-timer.js';
import { NO_SKILL_TEXT, measureDraws } from '../trials.js';
import type { ClimbStart } from './baseline-measurement.js';
import { iterationLimits } from './caps.js';
import type { LoopContext } from './context.js';

/**
 * Once per skill, one draw without the skill, started once the first editor call is out
 * (LoopContext.beside): it runs beside that call, whose latency leaves the engine and the endpoint idle,
 * with the baseline's draws beyond draw 0, instead of adding its calls to the wait before the first
 * iteration (docs/how-it-works.md § Baseline). The draw does not depend on the baseline's draws; its report
 * does, so only the report waits for `withSkill` (undefined when the baseline was never judged: no report).
 * It is bounded like an iteration (the iteration timeout, the skill's budget, the run's signal); its spend
 * counts when it ends. A stored draw with this night's key is reused instead. Never rejects: a failure or
 * an interruption leaves the uplift out.
 */
export async function drawUplift(
  loop: LoopContext,
  withSkill: Promise<ClimbStart['withSkill'] | undefined>,
): Promise<void> {
  const { input } = loop;
  if (loop.deterministic || loop.trials < 2 || input.options.uplift === false) return;
  const key = upliftKeyOf({
    evals: loop.training,
    placeholder: NO_SKILL_TEXT,
    renderModelId: input.models.renderModelId,
    graderModelId: input.models.graderModelId,
    renderEndpoint: input.models.renderEndpoint,
    graderEndpoint: input.models.graderEndpoint,
  });
  const stored = input.upliftWithout;
  if (stored?.key === key) {
    const compared = await withSkill;
    if (!compared) return;
    input.log.info(
      `${input.skill}: the draw without the skill from ${stored.drawnAt} is reused (evals, prompts, models and model endpoints unchanged)`,
    );
    loop.ledger.upliftMeasured(report(loop, compared, stored.pairs, stored.drawnAt), {
      record: stored,
      reused: true,
    });
    return;
  }
  if (stored) {
    input.log.info(
      `${input.skill}: the stored draw without the skill (from ${stored.drawnAt}) does not match tonight's ` +
        'evals, prompts, models or model endpoints; drawing it again',
    );
  }
  const timer = startIterationTimer(iterationLimits(loop, input.now()), input.signal);
  try {
    const without = await measureDraws(loop.request(NO_SKILL_TEXT, timer.signal), [0]);
    loop.spendUnjudged(without.usage);
    if (without.status !== 'ok') return;
    const pairs = storedVerdicts(without.draws[0]!.pairs);
    const record: UpliftWithoutRecord = { key, drawnAt: input.now().toISOString(), pairs };
    const compared = await withSkill;
    if (!compared) return;
    loop.ledger.upliftMeasured(report(loop, compared, pairs, undefined), { record, reused: false });
  } catch {
    // Interrupted or timed out: the summary goes without the uplift, as when its render fails.
  } finally {
    timer.stop();
  }
}

function report(
  loop: LoopContext,
  withSkill: ClimbStart['withSkill'],
  without: readonly StoredVerdict[],
  drawnAt: string | undefined,
): UpliftReport {
  const uplift = upliftOf({
    withSkill: withSkill.tallies,
    withoutSkill: tallyDraws([without]),
    withRates: withSkill.rates,
    margin: loop.margin,
  });
  return drawnAt === undefined ? uplift : { ...uplift, withoutDrawnAt: drawnAt };
}
