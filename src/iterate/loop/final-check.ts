/**
 * The final text's check (docs/how-it-works.md § Decisions under noise, "The confirmation"): on a night
 * whose measurements showed no spread, the confirmation would be skipped and the loop's own scores ship —
 * but a grader that flips rarely can agree with itself on the noise probe's few checks by chance, and the
 * loop then keeps lucky draws as the original does. Before such a night ships, the scenarios the claimed
 * gain rests on (where the final text's scored draw passed a check the baseline's draw 0 failed) are drawn
 * again for the final text, with a draw number no measurement (and so no selection) has seen. Every verdict
 * reproduced: the loop's scores ship. One differed: the rest of that draw is completed (the re-drawn
 * renders and grades reused), its spread goes into the night's noise, and the confirmation runs.
 */
import { messageOf } from '../../core/errors.js';
import type { KeptState } from '../../core/iterate/hill-climb.js';
import { CHECK_SCENARIOS, gainScenarios, verdictsOf } from '../../core/iterate/noise-probe.js';
import { tallyDraws, type AssertionTally, type PairVerdict } from '../../core/iterate/noise.js';
import type { SkillEvals } from '../../core/iterate/evals.js';
import type { GradeMemo } from '../score.js';
import { drawAfterLoop, type AfterLoopDraws } from './after-loop-draws.js';
import type { LoopContext } from './context.js';
import type { ConfirmationOutcome } from './ledger.js';

/** How the check ended: an outcome for the ledger, or a spread found (the confirmation then runs). */
type FinalCheck = { kind: 'ended'; outcome: ConfirmationOutcome } | { kind: 'spread' };

const NO_SPREAD =
  'every text measured more than once tonight scored exactly the same each time, so fresh draws would ' +
  'decide nothing';

/** The check, under the timeout of the draws after the loop (the loop's caps may have used its budget). */
export async function checkFinalText(loop: LoopContext, kept: KeptState): Promise<FinalCheck> {
  return drawAfterLoop(
    loop,
    (draws) => drawCheck(loop, kept, draws),
    (err) => ended('failed', `the final text's check could not be drawn: ${messageOf(err)}`),
  );
}

async function drawCheck(loop: LoopContext, kept: KeptState, draws: AfterLoopDraws): Promise<FinalCheck> {
  const { ledger, input } = loop;
  const before = ledger.baselineFirstDraw;
  const after = kept.absolute;
  const all = before && after ? gainScenarios(loop.training, before, after) : [];
  const ids = all.slice(0, CHECK_SCENARIOS);
  if (!after || ids.length === 0) {
    return ended(
      'skipped',
      `${NO_SPREAD}, and no check passed that the baseline failed; the loop's scores ship`,
    );
  }
  const chosen = new Set(ids);
  const evals = { ...loop.training, scenarios: loop.training.scenarios.filter((s) => chosen.has(s.id)) };
  const draw = ledger.freshDraw(kept.text);
  const grades: GradeMemo = new Map();
  const measure = (only?: SkillEvals) =>
    draws.measure(kept.text, { ...loop.request(kept.text, draws.signal, only), grades }, [draw]);
  const m = await measure(evals);
  if (m.status !== 'ok')
    return ended('failed', `the final text's check: ${m.status}: ${m.detail ?? 'no score'}`);
  const drawn = m.draws[0]!.pairs;
  const scored = verdictsOf(after, drawn);
  const differing = drawn.filter((p, i) => p.pass !== scored[i]!.pass).length;
  const one = ids.length === 1;
  const scenarios = `${ids.length} scenario${one ? '' : 's'}`;
  const which =
    all.length === ids.length
      ? `the ${one ? 'one scenario' : scenarios} where the final text passed a check the baseline failed`
      : `of the ${all.length} scenarios where the final text passed a check the baseline failed, the ` +
        `${one ? 'one' : scenarios} with the fewest such checks`;
  if (differing === 0) {
    // The re-drawn checks agreed with the scored draw: compared twice, none flipped (the flip rate's count).
    ledger.observed(comparedOnly(scored, drawn));
    input.log.info(
      `${input.skill}: the final text's check: ${drawn.length} checks of ${scenarios} drawn again, all reproduced`,
    );
    return ended(
      'skipped',
      `${NO_SPREAD}; ${which} ${one ? 'was' : 'were'} drawn again (${drawn.length} checks) ` +
        `and every verdict reproduced, so the loop's scores ship`,
    );
  }
  // A verdict differed: the rest of the same draw (the re-drawn renders and grades reused), for a
  // composite of the whole text beside the scored one — the night's spread.
  const whole = await measure();
  if (whole.status !== 'ok') {
    return ended('failed', `the final text's check: ${whole.status}: ${whole.detail ?? 'no score'}`);
  }
  const wholePairs = whole.draws[0]!.pairs;
  ledger.observed(comparedOnly(verdictsOf(after, wholePairs), wholePairs));
  ledger.spreadMeasured([kept.score, whole.scores[0]!]);
  input.log.info(
    `${input.skill}: the final text's check: ${differing} of ${drawn.length} re-drawn checks of ${scenarios} ` +
      `differed; the confirmation runs`,
  );
  return { kind: 'spread' };
}

function ended(kind: 'skipped' | 'failed', reason: string): FinalCheck {
  return { kind: 'ended', outcome: { kind, reason } };
}

/**
 * The tallies of a check drawn twice, counted once: the scored draw was already in the night's tallies, so
 * only the new draw's verdicts and the comparisons between the two are added.
 */
function comparedOnly(scored: readonly PairVerdict[], drawn: readonly PairVerdict[]): AssertionTally[] {
  const once = new Map(tallyDraws([scored]).map((t) => [t.assertionId, t]));
  return tallyDraws([scored, drawn]).map((t) => ({
    ...t,
    passes: t.passes - (once.get(t.assertionId)?.passes ?? 0),
    total: t.total - (once.get(t.assertionId)?.total ?? 0),
  }));
}
