/**
 * The per-iteration hard timeout and the per-skill budget, in ONE place (docs/how-it-works.md § The
 * hill-climb loop): the iteration's signal goes to every model call of that iteration, so each call ends at
 * the earliest of its own request timeout, the iteration timeout and the skill's remaining budget.
 */
import { SkillclimbError } from '../core/errors.js';

/** Fired by the per-iteration timer; its message ends up in the crash row. */
class IterationTimeoutError extends SkillclimbError {
  readonly kind = 'budget';
  constructor(readonly ms: number) {
    super(`iteration timed out after ${formatMs(ms)}`);
    this.name = 'IterationTimeoutError';
  }
}

/** The skill's wall-clock budget ran out in the middle of an iteration: it is cut short, not judged. */
export class SkillBudgetReached extends SkillclimbError {
  readonly kind = 'budget';
  constructor(readonly budgetMs: number) {
    super(`the per-skill budget of ${formatMs(budgetMs)} was reached`);
    this.name = 'SkillBudgetReached';
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)}s` : `${ms}ms`;
}

export interface IterationLimits {
  /** The hard cap of one iteration. */
  iterationMs: number;
  /** What is left of the skill's budget, and the budget itself (for the message). */
  budget?: { remainingMs: number; totalMs: number };
}

/**
 * One AbortController per iteration; its signal goes to every model call of that iteration. It fires on the
 * hard timeout, when the skill's budget runs out (SkillBudgetReached), or with the run's own reason when
 * the run is interrupted.
 */
export function startIterationTimer(
  limits: IterationLimits | number,
  runSignal: AbortSignal | undefined,
): { signal: AbortSignal; stop: () => void } {
  const { iterationMs, budget } =
    typeof limits === 'number' ? { iterationMs: limits, budget: undefined } : limits;
  const controller = new AbortController();
  const byBudget = budget !== undefined && budget.remainingMs < iterationMs;
  const timer = setTimeout(
    () =>
      controller.abort(
        byBudget ? new SkillBudgetReached(budget.totalMs) : new IterationTimeoutError(iterationMs),
      ),
    byBudget ? Math.max(0, budget.remainingMs) : iterationMs,
  );
  const onRunAbort = (): void => controller.abort(runSignal?.reason);
  if (runSignal?.aborted) onRunAbort();
  else runSignal?.addEventListener('abort', onRunAbort, { once: true });
  return {
    signal: controller.signal,
    stop: () => {
      clearTimeout(timer);
      runSignal?.removeEventListener('abort', onRunAbort);
    },
  };
}
