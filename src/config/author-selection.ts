/**
 * The model that writes eval files (`skillclimb evals init`, docs/how-it-works.md § Models and
 * providers): `--author-model`, else `--model`, else `models.author` in skillclimb.config.json, else the
 * editor's model (`--editor-model`, `models.editor`), else `models.default`, else the default of the key
 * that is present. Writing evals is editing work, so a project that chose an editor model gets it here too.
 * There is no offline author: the offline provider cannot write evals, and says how to choose a model.
 */
import { callSettings, defaultModelFor, withStructuredOutputMemo, buildRoleModel } from '../llm/factory.js';
import { createEvalsAuthor } from '../llm/evals-author.js';
import { parseModelId } from '../llm/model-id.js';
import type { EvalsAuthor } from '../ports/evals-author.js';
import type { ModelFactoryOptions } from '../llm/factory.js';
import { CONFIG_FILE, type SkillclimbConfig } from './config.js';
import { SkillclimbError } from '../core/errors.js';
import { DEFAULT_MODEL_PROVIDERS, baseUrlVariablesNote } from '../core/providers.js';
import { inWords } from '../core/text/words.js';

export interface AuthorModelFlags {
  authorModel?: string | undefined;
  model?: string | undefined;
  editorModel?: string | undefined;
}

export type AuthorModelSource = 'flag' | 'config' | 'default';

/** No model can write evals (offline): a configuration error, with how to choose a model. */
export class AuthorModelError extends SkillclimbError {
  readonly kind = 'config';
  override name = 'AuthorModelError';
}

export const NO_AUTHOR_MESSAGE =
  'evals init needs a model to write eval files, and the offline provider cannot write them. Choose one: ' +
  `set ${inWords(DEFAULT_MODEL_PROVIDERS.map((p) => p.key.variable))} (that provider's default model writes them), pass ` +
  `--author-model provider:model (or --model), or set "models": {"author": "provider:model"} in ${CONFIG_FILE}`;

export function resolveAuthorModel(input: {
  flags: AuthorModelFlags;
  config: SkillclimbConfig;
  env: NodeJS.ProcessEnv;
}): { id: string; source: AuthorModelSource } {
  const { flags, config, env } = input;
  const models = config.models ?? {};
  const candidates: Array<[string | undefined, AuthorModelSource]> = [
    [flags.authorModel, 'flag'],
    [flags.model, 'flag'],
    [models.author, 'config'],
    [flags.editorModel, 'flag'],
    [models.editor, 'config'],
    [models.default, 'config'],
    [defaultModelFor(env), 'default'],
  ];
  const [id, source] = candidates.find(([candidate]) => candidate !== undefined) as [
    string,
    AuthorModelSource,
  ];
  return { id, source };
}

/** NO_AUTHOR_MESSAGE, with the base-URL variables `env` sets (a local server's operator forgot `--model`). */
export function noAuthorMessage(env: NodeJS.ProcessEnv): string {
  const note = baseUrlVariablesNote(env);
  return note === undefined ? NO_AUTHOR_MESSAGE : `${NO_AUTHOR_MESSAGE}. ${note}`;
}

/** The author, its key and endpoint checked (no call made); throws AuthorModelError for offline. */
export function createAuthor(
  selection: { id: string },
  env: NodeJS.ProcessEnv,
  options: ModelFactoryOptions,
): EvalsAuthor {
  const parsed = parseModelId(selection.id);
  if (parsed.provider === 'offline') throw new AuthorModelError(noAuthorMessage(env));
  const shared = withStructuredOutputMemo(options);
  return createEvalsAuthor(buildRoleModel('author', parsed, env, shared), callSettings(shared));
}
