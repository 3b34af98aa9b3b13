/**
 * skill-iterate's model port (SkillModels) over real providers, one role model per role: editor →
 * structured EditProposal, render → text, grader → structured GraderAnswer, each validated with the port's
 * zod schemas (unusable → ModelOutputError). The review loop's port is src/llm/review-models.ts.
 */
import type { JSONSchema7 } from 'ai';
import type { z } from 'zod';
import { buildEditorPrompt } from '../core/iterate/editor-prompt.js';
import { buildGraderPrompt } from '../core/iterate/grader-prompt.js';
import { buildRenderPrompt } from '../core/iterate/render-prompt.js';
import {
  SilencingProbeAnswerSchema,
  buildSilencingProbePrompt,
  type SilencingProbeAnswer,
} from '../core/iterate/silencing-probe-prompt.js';
import { freshMarker } from './markers.js';
import { callJson, callText, type CallSettings, type RoleModel } from './call.js';
import { ProviderOutputError, type Role } from './errors.js';
import { redactMessage } from './redact-message.js';
import {
  EditProposalSchema,
  GraderAnswerSchema,
  type EditProposal,
  type GraderAnswer,
} from '../core/model-answers.js';
import type { ModelReply, SilencingProbeInput, SkillModels } from '../ports/models.js';

export const EDIT_PROPOSAL_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    description: { type: 'string', description: 'one-line summary of the edit, in present tense' },
    old_string: { type: 'string', description: 'exact text to be replaced in SKILL.md (unique in the file)' },
    new_string: { type: 'string', description: 'replacement text' },
  },
  required: ['description', 'old_string', 'new_string'],
  additionalProperties: false,
};

/** The silencing probe's answer (core/iterate/silencing-probe-prompt.ts). */
const SILENCING_PROBES_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    probes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string', description: "the defect's title in one line" },
          file: { type: 'string', description: 'the path of the file the hunk changes' },
          hunk: { type: 'string', description: 'the unified diff hunk holding the defect' },
        },
        required: ['title', 'file', 'hunk'],
        additionalProperties: false,
      },
    },
  },
  required: ['probes'],
  additionalProperties: false,
};

/**
 * A closed schema naming exactly the ids to grade: strict-schema providers (OpenAI, Anthropic's native
 * structured output) accept it, and the model cannot skip or invent ids.
 */
export function graderJsonSchema(ids: readonly number[]): JSONSchema7 {
  const verdict: JSONSchema7 = {
    type: 'object',
    properties: { verdict: { type: 'boolean' }, reason: { type: 'string' } },
    required: ['verdict', 'reason'],
    additionalProperties: false,
  };
  const keys = ids.map(String);
  return {
    type: 'object',
    properties: {
      verdicts: {
        type: 'object',
        properties: Object.fromEntries(keys.map((k) => [k, verdict])),
        required: keys,
        additionalProperties: false,
      },
    },
    required: ['verdicts'],
    additionalProperties: false,
  };
}

function invalid(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** A JSON answer checked with the port's schema; an off-schema answer is the role's ProviderOutputError. */
async function callValidated<T>(
  rm: RoleModel,
  role: Role,
  prompt: Parameters<typeof callJson>[1],
  schema: z.ZodType<T>,
  signal: AbortSignal,
  settings: CallSettings,
): Promise<ModelReply<T>> {
  const reply = await callJson(rm, prompt, signal, settings);
  const parsed = schema.safeParse(reply.value);
  if (!parsed.success) {
    const secrets = rm.secrets ?? [];
    throw new ProviderOutputError(
      role,
      redactMessage(invalid(parsed.error.issues), secrets),
      redactMessage(reply.raw, secrets),
      reply.usage,
    );
  }
  return { value: parsed.data, usage: reply.usage };
}

export type RoleSlot = RoleModel | SkillModels;

export interface SkillModelsConfig {
  editor: RoleSlot;
  render: RoleSlot;
  grader: RoleSlot;
  settings: CallSettings;
}

function isRoleModel(slot: RoleSlot): slot is RoleModel {
  return 'jsonMode' in slot;
}

function slotLabel(slot: RoleSlot): string {
  return isRoleModel(slot) ? slot.id.id : 'offline';
}

/**
 * Builds SkillModels from one slot per role. A slot is a real RoleModel or another SkillModels (the
 * offline provider) that serves that role — so `--editor-model offline` with real scoring works, and
 * so does a real editor with structural-only scoring (render and grader offline).
 */
export function createSkillModels(config: SkillModelsConfig): SkillModels {
  const { editor, render, grader, settings } = config;
  const structuralOnly = !isRoleModel(render) && !isRoleModel(grader);
  const label = structuralOnly
    ? `editor=${slotLabel(editor)} render=offline grader=offline (structural scoring only)`
    : `editor=${slotLabel(editor)} render=${slotLabel(render)} grader=${slotLabel(grader)}`;

  // The silencing probe runs on the editor's model; an offline editor writes none.
  const probe = isRoleModel(editor)
    ? {
        async probeSilenced(
          input: SilencingProbeInput,
          signal: AbortSignal,
        ): Promise<ModelReply<SilencingProbeAnswer>> {
          return callValidated(
            editor,
            'editor',
            {
              ...buildSilencingProbePrompt(input),
              schema: SILENCING_PROBES_JSON_SCHEMA,
              name: 'silencing_probes',
            },
            SilencingProbeAnswerSchema,
            signal,
            settings,
          );
        },
      }
    : {};

  return {
    label,
    structuralOnly,
    renderModelId: slotLabel(render),
    graderModelId: slotLabel(grader),
    renderEndpoint: isRoleModel(render) ? render.endpoint : undefined,
    graderEndpoint: isRoleModel(grader) ? grader.endpoint : undefined,
    ...probe,

    async propose(input, signal): Promise<ModelReply<EditProposal>> {
      if (!isRoleModel(editor)) return editor.propose(input, signal);
      return callValidated(
        editor,
        'editor',
        { ...buildEditorPrompt(input), schema: EDIT_PROPOSAL_JSON_SCHEMA, name: 'edit_proposal' },
        EditProposalSchema,
        signal,
        settings,
      );
    },

    async render(input, signal): Promise<ModelReply<string>> {
      if (!isRoleModel(render)) return render.render(input, signal);
      const prompt = buildRenderPrompt(input.skillMd, input.scenario);
      const reply = await callText(render, prompt, signal, settings);
      return { value: reply.text, usage: reply.usage };
    },

    async grade(input, signal): Promise<ModelReply<GraderAnswer>> {
      if (!isRoleModel(grader)) return grader.grade(input, signal);
      const prompt = buildGraderPrompt(input, freshMarker());
      return callValidated(
        grader,
        'grader',
        { ...prompt, schema: graderJsonSchema(input.assertions.map((a) => a.id)), name: 'verdicts' },
        GraderAnswerSchema,
        signal,
        settings,
      );
    },
  };
}
