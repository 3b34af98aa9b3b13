/**
 * Saves what the night recorded to the state branch: after each skill, on a stop, and at the end
 * (docs/how-it-works.md § Morning summary and results.tsv). A failed save is a warning: the night goes on.
 */
import type { SkillResult } from '../core/iterate/run-result.js';
import type { StateStore } from '../github/action/state-store.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { collectStateUpdates } from './state-sync.js';
import { messageOf } from '../core/errors.js';

export type SaveState = (label: string, results?: SkillResult[]) => Promise<void>;

export function createStateSaver(
  store: StateStore,
  plan: { queue: readonly string[]; dirs: Readonly<Record<string, string>> },
  inputs: ActionInputs,
  ctx: ActionContext,
  project: string,
  io: ActionIo,
): SaveState {
  const { queue, dirs } = plan;
  const sync = { project, dirs, store, runId: ctx.runId, runUrl: ctx.runUrl };
  return async (label, results) => {
    try {
      const updates = await collectStateUpdates(sync, queue, io.now(), results);
      const saved = await store.save(
        updates,
        `skill-iterate state: ${label}${ctx.runId ? ` (run ${ctx.runId})` : ''}`,
      );
      if (saved.status === 'pushed') {
        io.log.info(
          `state saved to ${inputs.stateBranch} (${saved.commit.slice(0, 7)}): ${updates.map((u) => u.skill).join(', ')}`,
        );
      }
    } catch (error) {
      io.log.warn(`state could not be saved to ${inputs.stateBranch}: ${messageOf(error)}`);
    }
  };
}
