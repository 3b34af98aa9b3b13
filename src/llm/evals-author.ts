/**
 * The evals author over the provider layer (docs/how-it-works.md § Models and providers): one structured
 * call with the answer's JSON schema (structured output on every provider, extraction from text where a
 * server has none), its shape validated with zod. The content is the caller's to check.
 */
import type { JSONSchema7 } from 'ai';
import { AuthoredAnswerSchema, DEFECT_TYPES } from '../core/iterate/evals-authoring.js';
import { buildEvalsAuthorPrompt } from '../core/iterate/evals-author-prompt.js';
import type { EvalsAuthor } from '../ports/evals-author.js';
import { callJson, type CallSettings, type RoleModel } from './call.js';
import { ProviderOutputError } from './errors.js';
import { redactMessage } from './redact-message.js';

const strictObject = (properties: Record<string, JSONSchema7>): JSONSchema7 => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const CATEGORIES: JSONSchema7 = {
  type: 'array',
  items: strictObject({
    name: { type: 'string', description: "a heading of the SKILL.md, or 'Anti-patterns'" },
    weight: { type: 'number', description: 'the weights of all categories sum to 1' },
    evals: {
      type: 'array',
      items: strictObject({
        id: { type: 'integer' },
        statement: { type: 'string', description: 'one true/false claim about the output' },
        source: { type: 'string', description: 'SKILL.md, lines A-B' },
        defect_type: { type: 'string', enum: [...DEFECT_TYPES] },
      }),
    },
  }),
};

const SCENARIO: Record<string, JSONSchema7> = {
  id: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  context: { type: 'string', description: 'what the user brings to the skill' },
  expected_assertions: { type: 'array', items: { type: 'integer' } },
};

export const EVALS_ANSWER_JSON_SCHEMA: JSONSchema7 = strictObject({
  categories: CATEGORIES,
  scenarios: { type: 'array', items: strictObject(SCENARIO) },
});

/** The same answer with each scenario's expected_output, for files in the Agent Skills format. */
const AGENT_SKILLS_ANSWER_JSON_SCHEMA: JSONSchema7 = strictObject({
  categories: CATEGORIES,
  scenarios: {
    type: 'array',
    items: strictObject({
      ...SCENARIO,
      expected_output: { type: 'string', description: 'what a good output for this scenario looks like' },
    }),
  },
});

export function createEvalsAuthor(model: RoleModel, settings: CallSettings): EvalsAuthor {
  // The AI SDK prints provider warnings to the console by default; a CLI run has no use for them.
  if (globalThis.AI_SDK_LOG_WARNINGS === undefined) globalThis.AI_SDK_LOG_WARNINGS = false;
  return {
    modelId: model.id.id,
    async author(input, signal) {
      const prompt = buildEvalsAuthorPrompt(input);
      const reply = await callJson(
        model,
        {
          ...prompt,
          schema:
            input.format === 'agent-skills' ? AGENT_SKILLS_ANSWER_JSON_SCHEMA : EVALS_ANSWER_JSON_SCHEMA,
          name: 'eval_files',
        },
        signal,
        settings,
      );
      const secrets = model.secrets ?? [];
      const parsed = AuthoredAnswerSchema.safeParse(reply.value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.map(String).join('.') ?? '';
        throw new ProviderOutputError(
          'author',
          redactMessage(`${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`, secrets),
          redactMessage(reply.raw, secrets),
          reply.usage,
        );
      }
      return { value: parsed.data, usage: reply.usage, raw: redactMessage(reply.raw, secrets) };
    },
  };
}
