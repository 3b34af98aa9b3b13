/**
 * The review loop's model port over the real providers (docs/how-it-works.md § Models and providers):
 * reviewer and executor calls with structured output validated by the answer schemas, each returning its
 * raw text and a trace record — the request as sent (prompt, schema name, model; never headers or keys),
 * the raw response, and meta. An answer that does not fit its schema is an UnusableAnswerError carrying
 * all three, so the engine can retry it and still keep the evidence.
 */
import type { JSONSchema7 } from 'ai';
import type { z } from 'zod';
import { extractJsonObject } from '../core/json-extract.js';
import { freshMarker } from './markers.js';
import {
  FixProposalSchema,
  RebuttalAnswerSchema,
  ReviewAnswerSchema,
  RulingAnswerSchema,
  UnusableAnswerError,
  firstIssue,
  type CallTrace,
  type ModelCall,
} from '../core/review/answers.js';
import { FindingCheckAnswerSchema } from '../core/review/finding-verification.js';
import { buildFindingCheckPrompt } from '../core/review/check-prompt.js';
import {
  FINDING_CHECK_JSON_SCHEMA,
  FIX_PROPOSAL_JSON_SCHEMA,
  REBUTTAL_ANSWER_JSON_SCHEMA,
  REVIEW_ANSWER_JSON_SCHEMA,
  RULING_ANSWER_JSON_SCHEMA,
} from './review-schemas.js';
import {
  buildFixPrompt,
  buildRebuttalPrompt,
  buildReviewPrompt,
  buildRulingPrompt,
  buildVerifierPrompt,
} from '../core/review/prompts.js';
import { modelFamily } from '../core/families.js';
import { ZERO_USAGE, type Usage } from '../core/usage.js';
import type { ReviewModels } from '../ports/review.js';
import { callJson, type CallSettings, type RoleModel } from './call.js';
import { ProviderOutputError } from './errors.js';
import { redactMessage } from './redact-message.js';
import { callWithTools } from './review-tool-call.js';
import { matchesSchema } from './schema-match.js';

export interface ReviewModelsConfig {
  reviewer: RoleModel;
  executor: RoleModel;
  settings: CallSettings;
  /**
   * The body of the repository's reviewer skill, for every reviewer call that reviews or rules
   * (docs/how-it-works.md § The reviewer learns); undefined: the built-in instructions.
   */
  reviewerInstructions?: string | undefined;
  /** Wall clock for trace meta (tests pin it). */
  now?: () => Date;
}

type ReviewRoleName = 'reviewer' | 'executor';

function roleName(rm: RoleModel): ReviewRoleName {
  return rm.role === 'executor' ? 'executor' : 'reviewer';
}

function traceOf(
  rm: RoleModel,
  purpose: string,
  prompt: { system: string; user: string },
  extra: Record<string, unknown>,
  response: string,
  meta: Record<string, unknown>,
): CallTrace {
  const secrets = rm.secrets ?? [];
  return {
    request: {
      model: rm.id.id,
      role: rm.role,
      purpose,
      max_output_tokens: rm.maxOutputTokens,
      ...extra,
      system: redactMessage(prompt.system, secrets),
      user: redactMessage(prompt.user, secrets),
    },
    response: redactMessage(response, secrets),
    meta: { model: rm.id.id, family: modelFamily(rm.id.id), role: rm.role, purpose, ...meta },
  };
}

/** "reviewer answer unusable: x" → "x": the engine's error adds its own prefix. */
function detailOf(error: ProviderOutputError): string {
  return error.message.replace(/^\w+ answer unusable: /, '');
}

async function structuredCall<T>(
  config: ReviewModelsConfig,
  rm: RoleModel,
  purpose: string,
  prompt: { system: string; user: string },
  json: { schema: JSONSchema7; name: string },
  schema: z.ZodType<T>,
  signal: AbortSignal,
): Promise<ModelCall<T>> {
  const now = config.now ?? (() => new Date());
  const startedAt = now();
  const meta = (outcome: string, usage: Usage, detail?: string) => ({
    started_at: startedAt.toISOString(),
    duration_ms: now().getTime() - startedAt.getTime(),
    outcome,
    ...(detail === undefined ? {} : { detail }),
    usage,
  });
  const extra = { response_schema: json.name };
  let reply;
  try {
    reply = await callJson(rm, { ...prompt, schema: json.schema, name: json.name }, signal, config.settings);
  } catch (error) {
    if (!(error instanceof ProviderOutputError)) throw error;
    const usage = error.usage ?? { ...ZERO_USAGE, calls: 1 };
    const raw = error.raw ?? '';
    const detail = detailOf(error);
    throw new UnusableAnswerError(
      roleName(rm),
      detail,
      raw,
      usage,
      traceOf(rm, purpose, prompt, extra, raw, meta('unusable', usage, detail)),
    );
  }
  const secrets = rm.secrets ?? [];
  const raw = redactMessage(reply.raw, secrets);
  const parsed = schema.safeParse(reply.value);
  if (!parsed.success) {
    const detail = redactMessage(firstIssue(parsed.error), secrets);
    throw new UnusableAnswerError(
      roleName(rm),
      detail,
      raw,
      reply.usage,
      traceOf(rm, purpose, prompt, extra, raw, meta('unusable', reply.usage, detail)),
    );
  }
  return {
    value: parsed.data,
    raw,
    usage: reply.usage,
    trace: traceOf(rm, purpose, prompt, extra, raw, meta('ok', reply.usage)),
  };
}

export function createReviewModels(config: ReviewModelsConfig): ReviewModels {
  // The AI SDK prints provider warnings to the console by default; the round log has no use for them.
  if (globalThis.AI_SDK_LOG_WARNINGS === undefined) globalThis.AI_SDK_LOG_WARNINGS = false;
  const { reviewer, executor } = config;
  const instructions = config.reviewerInstructions;
  const identity = (rm: RoleModel) => ({ id: rm.id.id, family: modelFamily(rm.id.id) });
  return {
    reviewer: identity(reviewer),
    executor: identity(executor),

    review: (input, signal) =>
      structuredCall(
        config,
        reviewer,
        'review',
        buildReviewPrompt({ ...input, instructions, marker: freshMarker() }),
        { schema: REVIEW_ANSWER_JSON_SCHEMA, name: 'review' },
        ReviewAnswerSchema,
        signal,
      ),

    rebut: (input, signal) =>
      structuredCall(
        config,
        executor,
        'rebuttal',
        buildRebuttalPrompt({ ...input, marker: freshMarker() }),
        { schema: REBUTTAL_ANSWER_JSON_SCHEMA, name: 'rebuttal' },
        RebuttalAnswerSchema,
        signal,
      ),

    rule: (input, signal) =>
      structuredCall(
        config,
        reviewer,
        'ruling',
        buildRulingPrompt({ ...input, instructions, marker: freshMarker() }),
        { schema: RULING_ANSWER_JSON_SCHEMA, name: 'ruling' },
        RulingAnswerSchema,
        signal,
      ),

    proposeFix: (input, signal) =>
      structuredCall(
        config,
        executor,
        'fix',
        buildFixPrompt({ ...input, marker: freshMarker() }),
        { schema: FIX_PROPOSAL_JSON_SCHEMA, name: 'fix_proposal' },
        FixProposalSchema,
        signal,
      ),

    checkFindings: (input, signal) =>
      structuredCall(
        config,
        reviewer,
        'finding-check',
        buildFindingCheckPrompt({ ...input, marker: freshMarker() }),
        { schema: FINDING_CHECK_JSON_SCHEMA, name: 'finding_check' },
        FindingCheckAnswerSchema,
        signal,
      ),

    async verify(input, tools, signal) {
      const now = config.now ?? (() => new Date());
      const startedAt = now();
      const prompt = buildVerifierPrompt({ ...input, instructions, marker: freshMarker() });
      const maxSteps = input.limits.maxToolCalls + 1;
      const reply = await callWithTools(reviewer, prompt, tools, maxSteps, signal, config.settings);
      const extra = { tools: ['read_file', 'list_folder', 'search_text'], max_steps: maxSteps };
      const meta = (outcome: string, detail?: string) => ({
        started_at: startedAt.toISOString(),
        duration_ms: now().getTime() - startedAt.getTime(),
        outcome,
        ...(detail === undefined ? {} : { detail }),
        usage: reply.usage,
        steps: reply.steps,
        tool_calls: reply.calls,
      });
      const secrets = reviewer.secrets ?? [];
      const raw = redactMessage(reply.text, secrets);
      const value = extractJsonObject(reply.text, (c) => matchesSchema(c, REVIEW_ANSWER_JSON_SCHEMA));
      const parsed = ReviewAnswerSchema.safeParse(value);
      if (value === undefined || !parsed.success) {
        const detail = value === undefined ? 'no JSON object in the answer' : firstIssue(parsed.error!);
        throw new UnusableAnswerError(
          'reviewer',
          detail,
          raw,
          reply.usage,
          traceOf(reviewer, 'verifier', prompt, extra, raw, meta('unusable', detail)),
        );
      }
      return {
        value: parsed.data,
        raw,
        usage: reply.usage,
        trace: traceOf(reviewer, 'verifier', prompt, extra, raw, meta('ok')),
      };
    },
  };
}
