/** The secrets of a run, kept out of outputs and result files (docs/how-it-works.md § Untrusted text and secrets). */
import { redactSecrets, secretsFromEnv } from '../core/redact.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ActionOutputs } from './outputs.js';

/** The token and keys of the inputs (and of the environment): never written to outputs or result files. */
export function secretsOf(inputs: ActionInputs, ctx: ActionContext): string[] {
  return [inputs.githubToken, inputs.anthropicApiKey, inputs.openaiApiKey, ...secretsFromEnv(ctx.env)].filter(
    (value): value is string => Boolean(value),
  );
}

export function redactOutputs(outputs: ActionOutputs, secrets: readonly string[]): ActionOutputs {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, value]) => [name, redactSecrets(value, secrets)]),
  ) as unknown as ActionOutputs;
}
