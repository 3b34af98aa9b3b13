/** Model ids are `provider:model` (docs/how-it-works.md § Models and providers), or the keyless `offline`. */
import { SkillclimbError } from '../core/errors.js';

export const PROVIDERS = ['anthropic', 'openai', 'openai-compatible'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export type ModelId =
  | { provider: 'offline'; model: 'offline'; id: 'offline' }
  | { provider: ProviderName; model: string; id: string };

export const MODEL_ID_EXAMPLES =
  'anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline';

export class ModelIdError extends SkillclimbError {
  readonly kind = 'config';
  constructor(
    readonly modelId: string,
    detail: string,
  ) {
    super(`model id "${modelId}": ${detail}`);
    this.name = 'ModelIdError';
  }
}

function isProvider(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * Parses `provider:model`. Only the first `:` separates, so ollama tags survive
 * (`openai-compatible:qwen3:8b` is model `qwen3:8b`).
 */
export function parseModelId(raw: string): ModelId {
  const id = raw.trim();
  if (id === '') throw new ModelIdError(raw, `empty; expected provider:model, e.g. ${MODEL_ID_EXAMPLES}`);
  if (id === 'offline') return { provider: 'offline', model: 'offline', id: 'offline' };
  const colon = id.indexOf(':');
  if (colon === -1) {
    throw new ModelIdError(raw, `expected provider:model, e.g. ${MODEL_ID_EXAMPLES}`);
  }
  const provider = id.slice(0, colon);
  const model = id.slice(colon + 1);
  if (!isProvider(provider)) {
    throw new ModelIdError(
      raw,
      `unknown provider "${provider}" (expected anthropic:, openai:, openai-compatible: or offline)`,
    );
  }
  if (model === '') throw new ModelIdError(raw, `no model name after "${provider}:"`);
  if (/\s/.test(model)) throw new ModelIdError(raw, 'the model name contains whitespace');
  return { provider, model, id: `${provider}:${model}` };
}
