/** The ports of the Action's plans: the checkout's lock file and git, and run times from the state branch. */
import { createFileLock } from '../adapters/local/lock.js';
import { readStateBranch, stateFreshness } from '../github/action/state-store.js';
import { createGitWorkspace } from '../git/workspace.js';
import type { IterateOptions } from '../iterate/options.js';
import type { Freshness } from '../ports/freshness.js';
import type { PlanPorts } from '../ports/iterate.js';
import type { KillSwitch } from '../ports/kill-switch.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { messageOf } from '../core/errors.js';

/** Never set: the callers read the kill-switch themselves and decide what a set one means for them. */
const NOT_CHECKED: KillSwitch = { check: async () => null };

/** A plan's ports: the kill-switch is the caller's to read; the lock is only inspected. */
export function planPorts(
  options: IterateOptions,
  state: ReadOnlyState,
  io: Pick<ActionIo, 'log' | 'now'>,
): PlanPorts {
  return {
    log: io.log,
    now: io.now,
    killSwitch: NOT_CHECKED,
    freshness: state.freshness,
    // A plan only reads the record of the skills last night's budget held back; it never writes it.
    notStarted: { read: async () => [...state.notStarted], update: async () => undefined },
    lock: createFileLock(options.project, { log: io.log, now: io.now }),
    git: createGitWorkspace(io.log),
  };
}

/** What a plan reads of the state branch: the run times, and the skills last night's budget held back. */
export interface ReadOnlyState {
  freshness: Freshness;
  notStarted: readonly string[];
}

/** Read-only view of the state branch; a checkout without it (or without `origin`) plans with no history. */
export async function readOnlyState(
  options: IterateOptions,
  inputs: ActionInputs,
  io: ActionIo,
): Promise<ReadOnlyState> {
  try {
    const snapshot = await readStateBranch({ project: options.project, branch: inputs.stateBranch });
    return { freshness: stateFreshness(snapshot), notStarted: snapshot.notStarted };
  } catch (error) {
    io.log.warn(
      `state branch ${inputs.stateBranch} could not be read (${messageOf(error)}); planning without recorded run times`,
    );
    return { freshness: { lastRunAt: async () => null }, notStarted: [] };
  }
}
