/**
 * The built-in `offline` provider: no key, no network. Scoring is structural only (the engine never calls
 * render or grade when `structuralOnly` is set), and the editor makes one mechanical edit aimed at the
 * weakest structural metric, so the whole pipeline can run anywhere.
 */
import { proposeOfflineEdit } from '../core/offline-edits.js';
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

export function createOfflineModels(): SkillModels {
  return {
    label: OFFLINE_LABEL,
    structuralOnly: true,
    renderModelId: 'offline',
    async propose(input, signal): Promise<ModelReply<EditProposal>> {
      signal.throwIfAborted();
      const edit = proposeOfflineEdit({
        skillMd: input.skillMd,
        structural: input.structural,
        revertedDescriptions: input.revertedDescriptions,
      });
      signal.throwIfAborted();
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
