/**
 * The Action as the runner sees it: secrets masked first (src/action/mask.ts), inputs validated by one schema, the pipeline run,
 * outputs set, and `setFailed` on any error. Also the entry point of `npx @github/local-action run . src/action/runner.ts .env`.
 */
import * as core from '@actions/core';
import { redactSecrets, secretsFromEnv } from '../core/text/redact.js';
import { readActionContext } from './context.js';
import { parseInputs } from './inputs.js';
import { maskSecretInputs, SECRET_INPUTS } from './mask.js';
import type { ActionIo } from './io.js';
import { runPipeline } from './main.js';
import { messageOf } from '../core/errors.js';

export function coreIo(): ActionIo {
  return {
    log: {
      info: (message) => core.info(message),
      warn: (message) => core.warning(message),
      progress: (message) => core.info(message),
    },
    startGroup: (name) => core.startGroup(name),
    endGroup: () => core.endGroup(),
    async writeSummary(markdown) {
      if (!process.env.GITHUB_STEP_SUMMARY) {
        core.info(markdown);
        return;
      }
      await core.summary.addRaw(markdown, true).write();
    },
    now: () => new Date(),
  };
}

/** `masked`: the entry point (run.ts) has already masked the secrets; otherwise (local-action) do it now. */
export async function run(options: { masked?: boolean } = {}): Promise<void> {
  try {
    if (!options.masked) maskSecretInputs();
    const inputs = parseInputs((name) => core.getInput(name));
    const result = await runPipeline(inputs, readActionContext(), coreIo());
    for (const [name, value] of Object.entries(result.outputs)) core.setOutput(name, value);
    if (result.failure) core.setFailed(result.failure);
  } catch (error) {
    // InputError messages name the input; anything else is reported as it was thrown, redacted (an API
    // error may echo a token the runner's masking was never told about).
    const secrets = [...SECRET_INPUTS.map((name) => core.getInput(name)), ...secretsFromEnv(process.env)];
    core.setFailed(redactSecrets(messageOf(error), secrets));
  }
}
