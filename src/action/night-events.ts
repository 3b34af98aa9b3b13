/**
 * The nightly step's view of one engine run, built from the engine's events (src/ports/iterate.ts), not from
 * a plan of its own or from the kill-switch's polls: the plan is printed when the engine has made it, each
 * skill gets its log group while it runs, and what a skill recorded goes to the state branch when it is done
 * (docs/how-it-works.md § Morning summary and results.tsv). An engine that reported no plan stopped in its
 * pre-flight: there is no queue to list and nothing of the night to save.
 */
import type { QueuePlan } from '../core/iterate/queue-plan.js';
import type { IterateOptions } from '../iterate/options.js';
import { ACTION_JOB_LIMIT, formatDryRunPlan } from '../iterate/queue.js';
import type { IterateEvent, IterateEvents } from '../ports/iterate.js';
import type { Logger } from '../ports/logger.js';
import type { SkillGroups } from './skill-groups.js';
import type { SaveState } from './state-saver.js';

export interface NightEvents extends IterateEvents {
  /** The engine's plan, once it is ready (undefined: the engine stopped before it, in its pre-flight). */
  readonly plan: QueuePlan | undefined;
  /** Saves through the plan's state saver; before the plan there is nothing of this night to save. */
  save: SaveState;
}

export interface NightEventDeps {
  options: IterateOptions;
  log: Logger;
  groups: SkillGroups;
  /** The state saver of the engine's plan, made when the plan is ready. */
  stateSaver: (plan: QueuePlan) => SaveState;
}

export function createNightEvents(deps: NightEventDeps): NightEvents {
  let plan: QueuePlan | undefined;
  let save: SaveState | undefined;
  const adopt = (next: QueuePlan): void => {
    plan = next;
    save = deps.stateSaver(next);
  };
  const handle = async (event: IterateEvent): Promise<void> => {
    switch (event.type) {
      case 'plan-ready':
        adopt(event.plan);
        // The engine says "Queue empty" itself; a non-empty plan is worth a look before hours of work.
        if (event.plan.queue.length > 0)
          deps.log.info(formatDryRunPlan(event.plan, deps.options, { limit: ACTION_JOB_LIMIT }));
        return;
      case 'skill-started':
        deps.groups.next(`skill-iterate: ${event.skill}`);
        return;
      case 'skill-finished':
        deps.groups.close();
        // The last skill's records go with the end-of-run save, which follows at once.
        if (event.index < (plan?.queue.length ?? 0) - 1) await save?.(event.skill);
        return;
      case 'run-finished':
        // The same run comes back from runIterate, or attached to the error it rejects with.
        return;
    }
  };
  return {
    emit: handle,
    get plan() {
      return plan;
    },
    save: async (label, results) => save?.(label, results),
  };
}
