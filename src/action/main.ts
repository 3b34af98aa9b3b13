/**
 * The Action's pipeline, as a few named steps: refuse an event that could check out untrusted code, run
 * the step of the mode — plan (the queue, for a matrix), dry run (print the plan), summarize (merge a
 * matrix's results), evals-init (eval files in one pull request), score (a pull request's skills, base and head, in one
 * comment) or the nightly run — and hand back
 * outputs with every secret redacted.
 */
import type { ActionContext } from './context.js';
import { allowedEvents, eventRefusal } from './event-guard.js';
import type { ActionInputs } from './inputs.js';
import { ENGINE, type ActionIo, type PipelineEngine, type PipelineResult } from './io.js';
import { redactSecrets } from '../core/text/redact.js';
import { redactOutputs, redactingIo, secretsOf } from './secrets.js';
import { dryRunStep } from './steps/dry-run.js';
import { evalsInitStep } from './steps/evals-init.js';
import { nightlyStep } from './steps/nightly.js';
import { planStep } from './steps/plan.js';
import { scoreStep } from './steps/score.js';
import { summarizeStep } from './steps/summarize.js';

export async function runPipeline(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  engine: PipelineEngine = ENGINE,
): Promise<PipelineResult> {
  refuseUntrustedEvents(inputs, ctx);
  const secrets = secretsOf(inputs, ctx);
  const result = await runStep(inputs, ctx, redactingIo(io, secrets), engine);
  // Outputs land in later steps' logs and expressions, where the job's masking may no longer apply.
  return {
    outputs: redactOutputs(result.outputs, secrets),
    failure: result.failure === undefined ? undefined : redactSecrets(result.failure, secrets),
  };
}

/** Every mode: plan and summarize read the same checkout, and a dry run loads its config. */
function refuseUntrustedEvents(inputs: ActionInputs, ctx: ActionContext): void {
  const refused = eventRefusal(ctx.env, allowedEvents(inputs.mode, inputs.allowEvents));
  if (refused) throw new Error(refused);
}

function runStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  engine: PipelineEngine,
): Promise<PipelineResult> {
  if (inputs.mode === 'summarize') return summarizeStep(inputs, ctx, io);
  if (inputs.mode === 'evals-init') return evalsInitStep(inputs, ctx, io);
  if (inputs.mode === 'plan') return planStep(inputs, ctx, io);
  if (inputs.mode === 'score') return scoreStep(inputs, ctx, io);
  if (inputs.dryRun) return dryRunStep(inputs, ctx, io);
  return nightlyStep(inputs, ctx, io, engine);
}
