/**
 * The night budget in the run (docs/how-it-works.md § Caps and budgets): the check between skills, and the
 * record of the skills it kept from starting, read before the queue and written on every way out.
 */
import { nightBudgetLine } from '../core/iterate/night-budget.js';
import type { QueuePlan } from '../core/iterate/queue-plan.js';
import type { NightBudgetStop, SkillResult } from '../core/iterate/run-result.js';
import { messageOf } from '../core/errors.js';
import type { IteratePorts, PlanPorts } from '../ports/iterate.js';
import type { IterateOptions } from './options.js';
import { nightBudgetReached, totalUsage } from './skill-context.js';

/**
 * The night budget between skills (docs/how-it-works.md § Caps and budgets): once the night's estimated
 * spend has reached it, the skills left (`rest`) do not start. Undefined while there is room, or when the
 * models report no price (said once in the log).
 */
export function nightBudgetStop(
  rest: string[],
  options: IterateOptions,
  ports: IteratePorts,
  results: readonly SkillResult[],
): NightBudgetStop | undefined {
  const budget = options.nightBudgetUsd;
  if (budget === undefined) return undefined;
  const spent = totalUsage(results);
  if (spent.costUsd === null) {
    if (spent.calls > 0 && results.length === 1)
      ports.log.warn(
        `the night budget of $${budget} cannot be applied: the models report no price, so every queued skill runs`,
      );
    return undefined;
  }
  if (!nightBudgetReached(options, spent)) return undefined;
  const stop = { budgetUsd: budget, spentUsd: spent.costUsd, notStarted: rest };
  ports.log.info(nightBudgetLine(stop));
  return stop;
}

/** Last night's record of the skills its budget kept from starting; one that cannot be read is said and left out. */
export async function readNotStarted(ports: Pick<PlanPorts, 'log' | 'notStarted'>): Promise<string[]> {
  try {
    return (await ports.notStarted?.read()) ?? [];
  } catch (err) {
    ports.log.warn(`${messageOf(err)}; the queue keeps its usual order`);
    return [];
  }
}

/**
 * What the next night runs first: the skills tonight's budget kept from starting, then those recorded before
 * that have not started since (a kill-switch before them). A skill that started leaves the record; so does
 * one a discovered queue no longer holds (skip-listed, gone), while a run given its skills (`--skill`,
 * `--queue`, a matrix job) leaves the others alone. The change is applied to the record as it is when saved,
 * so parallel jobs do not undo each other. Saved only when it changes; a failure is said, the night goes on.
 */
export async function saveNotStarted(
  ports: IteratePorts,
  carried: readonly string[],
  plan: QueuePlan | undefined,
  results: readonly SkillResult[],
  stop: NightBudgetStop | undefined,
  explicit: boolean,
): Promise<void> {
  // A night that never got to its queue (a halt before it) leaves last night's record as it is.
  if (!ports.notStarted || !plan) return;
  const started = new Set(results.map((r) => r.skill));
  const first = stop?.notStarted ?? [];
  const next = (current: readonly string[]): string[] => [
    ...first,
    ...current.filter(
      (skill, i) =>
        !first.includes(skill) &&
        !started.has(skill) &&
        (explicit || plan.queue.includes(skill)) &&
        current.indexOf(skill) === i,
    ),
  ];
  const expected = next(carried);
  if (expected.length === carried.length && expected.every((skill, i) => carried[i] === skill)) return;
  try {
    await ports.notStarted.update(next);
  } catch (err) {
    ports.log.warn(
      `the skills not started (${expected.join(', ') || 'none'}) could not be recorded for the next night: ${messageOf(err)}`,
    );
  }
}
