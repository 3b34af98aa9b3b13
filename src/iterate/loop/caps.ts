/**
 * Step H's caps and the budgets (docs/how-it-works.md § Caps and budgets): between iterations the pure
 * stop rule of core/iterate/hill-climb.ts; inside one, the iteration timeout and what is left of the
 * skill's wall-clock budget.
 */
import { loopStopReason, type LoopStopReason } from '../../core/iterate/hill-climb.js';
import { ZERO_USAGE, addUsage, type Usage } from '../../core/usage.js';
import type { IterationLimits } from '../iteration-timer.js';
import type { LoopContext } from './context.js';

/**
 * The cap that ends the loop now, if any; `countIterations` is false while the baseline is retried. The
 * baseline's draw 0, not yet recorded while its extra draws run beside the first editor call (baseline.ts),
 * counts in the spend.
 */
export function capReached(loop: LoopContext, countIterations: boolean): LoopStopReason | undefined {
  const { input } = loop;
  const { state } = loop.ledger;
  const counted = loop.startPending
    ? { ...state, usage: addUsage(state.usage, loop.pendingStartUsage) }
    : state;
  return loopStopReason(counted, input.options, {
    elapsedMs: input.now().getTime() - loop.loopStart.getTime(),
    runUsageBefore: input.runUsageBefore ?? ZERO_USAGE,
    countIterations,
  });
}

/**
 * The iteration timeout and what is left of the skill's budget: a hung model call ends when the budget
 * does, not when its own request timeout fires (docs/how-it-works.md § The hill-climb loop).
 */
export function iterationLimits(loop: LoopContext, started: Date): IterationLimits {
  const { options } = loop.input;
  const elapsed = started.getTime() - loop.loopStart.getTime();
  return {
    iterationMs: options.iterationTimeoutMs,
    budget: { remainingMs: options.perSkillBudgetMs - elapsed, totalMs: options.perSkillBudgetMs },
  };
}

/** The baseline or an iteration was cut short by the skill's budget: never judged, so no row; the loop ends. */
export function budgetCut(loop: LoopContext, what: string, usage: Usage): LoopStopReason {
  const { input } = loop;
  loop.spendUnjudged(usage);
  input.log.info(
    `${input.skill}: ${what} cut short: the per-skill budget of ${Math.round(input.options.perSkillBudgetMs / 1000)}s was reached`,
  );
  return 'wall-clock budget';
}

/**
 * The cost budget, reached once the baseline's extra draws made beside the first iteration (baseline.ts)
 * are counted. Only their spend arrives late: the wall-clock budget is the iteration timer's, and the
 * other caps do not change with them.
 */
export function costCapReached(loop: LoopContext): LoopStopReason | undefined {
  const { input } = loop;
  const stop = loopStopReason(loop.ledger.state, input.options, {
    elapsedMs: 0,
    runUsageBefore: input.runUsageBefore ?? ZERO_USAGE,
    countIterations: false,
  });
  return stop === 'cost budget' ? stop : undefined;
}

/**
 * The cost budget reached once the baseline's extra draws, made beside the first iteration (baseline.ts),
 * are counted: with them counted first the loop would not have started the iteration, so it ends unjudged,
 * like a budget cut, before its keep decision.
 */
export class CapAtStart extends Error {
  constructor(readonly stop: LoopStopReason) {
    super(`the ${stop} was reached by the baseline's draws`);
    this.name = 'CapAtStart';
  }
}
