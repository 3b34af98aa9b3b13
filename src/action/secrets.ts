/** The secrets of a run, kept out of outputs and result files (docs/how-it-works.md § Untrusted text and secrets). */
import { boundBody } from '../core/text/body-limit.js';
import { redactSecrets, secretsFromEnv } from '../core/text/redact.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import type { ActionOutputs } from './outputs.js';

/**
 * GitHub shows at most 1 MiB of a step's summary (and refuses a bigger upload); in characters, a third of
 * that keeps even three-byte UTF-8 text under it.
 */
export const JOB_SUMMARY_LIMIT = 340_000;

/**
 * The token and the provider secrets of the inputs and of the environment (keys, and base URLs with
 * credentials): never written to outputs or result files.
 */
export function secretsOf(inputs: ActionInputs, ctx: ActionContext): string[] {
  return [inputs.githubToken, ...secretsFromEnv(inputs.providerVariables), ...secretsFromEnv(ctx.env)].filter(
    (value): value is string => Boolean(value),
  );
}

export function redactOutputs(outputs: ActionOutputs, secrets: readonly string[]): ActionOutputs {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, value]) => [name, redactSecrets(value, secrets)]),
  ) as unknown as ActionOutputs;
}

/**
 * The runner's I/O with ONE redaction pass over everything that leaves the process through it: log lines
 * (the runner masks registered secrets, not an installation token or key shape it was never told about) and
 * the job summary, which is also bounded to what GitHub accepts.
 */
export function redactingIo(io: ActionIo, secrets: readonly string[]): ActionIo {
  const clean = (text: string) => redactSecrets(text, secrets);
  return {
    ...io,
    log: {
      info: (message) => io.log.info(clean(message)),
      warn: (message) => io.log.warn(clean(message)),
      progress: (message) => io.log.progress(clean(message)),
    },
    startGroup: (name) => io.startGroup(clean(name)),
    writeSummary: (markdown) =>
      io.writeSummary(
        boundBody(clean(markdown), {
          limit: JOB_SUMMARY_LIMIT,
          fullTextAt: "this job's result file (the result-path output)",
        }).body,
      ),
  };
}
