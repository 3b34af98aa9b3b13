/**
 * The plan of a run without running it: the pre-flight without the lock, then the queue
 * (docs/how-it-works.md § Pre-flight, § The queue). The CLI's dry run and the Action's plan and dry-run
 * steps start here (the nightly step too, only when the engine stopped before reporting its own plan);
 * the real run resolves its queue with the same two functions, so both decide alike.
 */
import type { PlanPorts } from '../ports/iterate.js';
import type { IterateOptions } from './options.js';
import { runPreflight } from './preflight.js';
import { resolveQueue, type QueuePlan } from './queue.js';

export interface IteratePlan extends QueuePlan {
  /** The explicit queue of --skill / --queue, or undefined when the queue was discovered. */
  explicit: string[] | undefined;
}

/** Rejects with PreflightHalt like a real run would; takes no lock and writes nothing. */
export async function planIterate(options: IterateOptions, ports: PlanPorts): Promise<IteratePlan> {
  const preflight = await runPreflight(options, ports, false);
  const plan = await resolveQueue(options, preflight, ports.freshness, ports.now());
  return { ...plan, explicit: preflight.explicit?.map((s) => s.name) };
}
