/**
 * A model whose provider package is imported on its first call, not when the module is imported: a command
 * that makes no model call (`--help`, `score --mode structural`, the Action's plan step) does not pay for the
 * SDKs, and the Action's bundle keeps each SDK in a chunk of its own (docs/how-it-works.md § Models and
 * providers).
 */
import type { LanguageModel } from 'ai';

/** The model interface the AI SDK calls (the specification every provider package implements). */
type ProviderModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** How each lazy model loads its provider package. */
const loaders = new WeakMap<object, () => Promise<unknown>>();

/**
 * Loads a model's provider package if it is not loaded yet, so that a call's own timeout measures the
 * request, not the import.
 */
export async function loadProvider(model: LanguageModel): Promise<void> {
  if (typeof model === 'object') await loaders.get(model)?.();
}

/**
 * A model that imports its provider package on its first call. `provider` is the name the real model
 * reports, so nothing downstream can tell the two apart.
 */
export function lazyModel(
  provider: string,
  modelId: string,
  load: () => Promise<ProviderModel>,
): ProviderModel {
  let loading: Promise<ProviderModel> | undefined;
  const model = () => (loading ??= load());
  const lazy: ProviderModel = {
    specificationVersion: 'v3',
    provider,
    modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
  loaders.set(lazy, model);
  return lazy;
}
