/** Model ids are `provider:model` (docs/how-it-works.md § Models and providers), or the keyless `offline`. */
import { SkillclimbError } from '../core/errors.js';
import { isProviderName, PROVIDERS, type ProviderName } from '../core/providers.js';
import { inWords } from '../core/text/words.js';

export type ModelId =
  | { provider: 'offline'; model: 'offline'; id: 'offline' }
  | { provider: ProviderName; model: string; id: string };

/** `anthropic:claude-sonnet-4-5, openai:gpt-5, openai-compatible:qwen3 or offline`: one per provider. */
const MODEL_ID_EXAMPLES = inWords(PROVIDERS.map((p) => p.example));
/** `anthropic:, openai:, openai-compatible: or offline`. */
const PREFIXES = inWords(PROVIDERS.map((p) => (p.id === 'offline' ? p.id : `${p.id}:`)));

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
  if (!isProviderName(provider)) {
    throw new ModelIdError(raw, `unknown provider "${provider}" (expected ${PREFIXES})`);
  }
  if (model === '') throw new ModelIdError(raw, `no model name after "${provider}:"`);
  if (/\s/.test(model)) throw new ModelIdError(raw, 'the model name contains whitespace');
  return { provider, model, id: `${provider}:${model}` };
}
