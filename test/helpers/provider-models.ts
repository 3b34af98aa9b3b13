/**
 * The frame of the provider tests (anthropic, openai, openai-compatible): real createModels over nock,
 * retries that record their waits instead of sleeping, and the structural result every editor input needs.
 */
import { METRIC_NAMES, type StructuralResult } from '../../src/core/iterate/score-types.js';
import { createModels, type ModelFactoryOptions } from '../../src/llm/factory.js';
import { strictNock } from './nock-frame.js';

/** A perfect structural score: the editor prompt shows one; no provider test is about it. */
export const structural: StructuralResult = {
  score: 1,
  metrics: Object.fromEntries(METRIC_NAMES.map((m) => [m, { score: 1 }])) as StructuralResult['metrics'],
};

/** A signal nobody aborts. */
export const signal = () => new AbortController().signal;

export interface ProviderModelDefaults {
  model: string;
  env: NodeJS.ProcessEnv;
  /** The retry jitter's fixed draw, so the recorded waits are exact. */
  random: number;
  baseDelayMs: number;
}

export interface ProviderModels {
  /** The retry waits (ms) of the current test, in order; emptied after each test. */
  readonly delays: number[];
  models(
    options?: ModelFactoryOptions,
    env?: NodeJS.ProcessEnv,
    model?: string,
  ): ReturnType<typeof createModels>;
}

/** Registers strict nock for the test file and returns its model factory. */
export function providerModels(defaults: ProviderModelDefaults): ProviderModels {
  const delays: number[] = [];
  strictNock(() => {
    delays.length = 0;
  });
  return {
    delays,
    models: (options = {}, env = defaults.env, model = defaults.model) =>
      createModels({ model }, env, {
        retryHooks: {
          sleep: async (ms) => {
            delays.push(ms);
          },
          random: () => defaults.random,
        },
        retry: { baseDelayMs: defaults.baseDelayMs },
        ...options,
      }),
  };
}
