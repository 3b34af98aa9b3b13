/**
 * The built-in `offline` provider: no key, no network. Scoring is structural only (the engine never calls
 * render or grade when `structuralOnly` is set), and the editor makes one mechanical edit aimed at the
 * weakest structural metric, so the whole pipeline can run anywhere.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  searchOfflineEdit,
  type OfflineEdit,
  type OfflineEditRequest,
} from '../core/iterate/offline-edits.js';
import { ModelOutputError, type EditProposal } from '../core/model-answers.js';
import { ZERO_USAGE } from '../core/usage.js';
import type { ModelReply, SkillModels } from '../ports/models.js';

export const OFFLINE_LABEL = 'offline (structural scoring only: no model, no network)';

function noModel(role: 'render' | 'grade'): Promise<never> {
  return Promise.reject(
    new Error(
      `offline provider: there is no ${role} model; it scores structure only (configure a model to ${role})`,
    ),
  );
}

/** The event loop gets a turn after this much search, so signals, timers and the budget are seen. */
const SLICE_MS = 25;

/**
 * Runs the offline editor's search in slices, giving the event loop a turn between them and stopping as
 * soon as `signal` aborts (a SIGINT, the iteration timeout, the skill's budget): the search is CPU-bound
 * and a huge SKILL.md would otherwise hold everything up for as long as it takes.
 */
export async function searchUntilAborted(
  request: OfflineEditRequest,
  signal: AbortSignal,
): Promise<OfflineEdit | null> {
  const search = searchOfflineEdit(request);
  let sliceStart = Date.now();
  for (;;) {
    signal.throwIfAborted();
    const step = search.next();
    if (step.done) return step.value;
    if (Date.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      sliceStart = Date.now();
    }
  }
}

export function createOfflineModels(): SkillModels {
  return {
    label: OFFLINE_LABEL,
    structuralOnly: true,
    renderModelId: 'offline',
    async propose(input, signal): Promise<ModelReply<EditProposal>> {
      const edit = await searchUntilAborted(
        {
          skillMd: input.skillMd,
          structural: input.structural,
          revertedDescriptions: input.revertedDescriptions,
        },
        signal,
      );
      if (!edit) throw new ModelOutputError('editor', 'offline editor: no mechanical edit applies');
      return {
        value: { description: edit.description, old_string: edit.old_string, new_string: edit.new_string },
        usage: { ...ZERO_USAGE },
      };
    },
    render: () => noModel('render'),
    grade: () => noModel('grade'),
  };
}
