// CONTRACT STUB — owned by the provider helper.
import type { SkillModels } from './port.js';
import { createOfflineModels } from './offline.js';

export interface ModelSelection {
  /** `--model`: sets all three roles. */
  model?: string | undefined;
  editorModel?: string | undefined;
  renderModel?: string | undefined;
  graderModel?: string | undefined;
}

/**
 * Builds the engine's models from the selection and the environment. With nothing configured and no API
 * key in `env`, returns the offline provider. Throws a clear Error (before any work) when a key is missing.
 */
export function createModels(selection: ModelSelection, _env: NodeJS.ProcessEnv = process.env): SkillModels {
  const any = selection.model ?? selection.editorModel ?? selection.renderModel ?? selection.graderModel;
  if (any === undefined || any === 'offline') return createOfflineModels();
  throw new Error(`model ${any}: real providers are not available yet`);
}
