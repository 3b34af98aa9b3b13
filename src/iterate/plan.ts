/**
 * The plan of a run without running it: the pre-flight without the lock, then the queue
 * (docs/how-it-works.md § Pre-flight, § The queue). The CLI's dry run and the Action's plan and dry-run
 * steps start here; the real run resolves its queue with the same two functions, so both decide alike.
 */
import path from 'node:path';
import type { PlanPorts } from '../ports/iterate.js';
import { findIgnoredEvals, ignoredEvalsHint } from './ignored-evals.js';
import type { IterateOptions } from './options.js';
import { runPreflight } from './preflight.js';
import { resolveQueue, type QueuePlan } from './queue.js';
import { specViolationLines } from './spec-check.js';
import { readNotStarted } from './night-budget.js';

export interface IteratePlan extends QueuePlan {
  /** The explicit queue of --skill / --queue, or undefined when the queue was discovered. */
  explicit: string[] | undefined;
}

/** Rejects with PreflightHalt like a real run would; takes no lock and writes nothing. */
export async function planIterate(options: IterateOptions, ports: PlanPorts): Promise<IteratePlan> {
  const preflight = await runPreflight(options, ports, false);
  const notStarted = await readNotStarted(ports);
  const plan = await resolveQueue(options, preflight, ports.freshness, ports.now(), notStarted);
  // Eval files git ignores work in this checkout only: the plan says so, with the line that un-ignores them.
  const ignoredPaths = ports.git.ignoredPaths;
  const skills = preflight.explicit ?? preflight.found.skills;
  const ignored = ignoredPaths
    ? await findIgnoredEvals(
        (dir, paths) => ignoredPaths(dir, paths),
        preflight.repository,
        path.resolve(options.project),
        skills,
      )
    : undefined;
  const violations = await specViolationLines(path.resolve(options.project), skills);
  return {
    ...plan,
    ...(ignored ? { ignoredEvals: ignoredEvalsHint(ignored) } : {}),
    ...(violations.length > 0 ? { specViolations: violations } : {}),
    explicit: preflight.explicit?.map((s) => s.name),
  };
}
