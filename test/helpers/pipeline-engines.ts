/**
 * What a fake engine injected into the Action's night does first, as the real one does (src/iterate/run.ts):
 * plan the queue and report it with the plan-ready event, so the night prints it, saves state through it
 * and lists its queue in the records.
 */
import { createGitWorkspace } from '../../src/git/workspace.js';
import { planIterate, type IteratePlan } from '../../src/iterate/plan.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import type { IteratePorts } from '../../src/ports/iterate.js';
import type { Logger } from '../../src/ports/logger.js';

const SILENT: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };

/** Plans like the engine (its pre-flight without the lock; the kill-switch is the fake's own to poll). */
export async function reportPlan(options: IterateOptions, ports: IteratePorts): Promise<IteratePlan> {
  const plan = await planIterate(options, {
    ...ports,
    log: SILENT,
    git: createGitWorkspace(SILENT),
    killSwitch: { check: async () => null },
  });
  await ports.events?.emit({ type: 'plan-ready', plan });
  return plan;
}
