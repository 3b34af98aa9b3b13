/** The JSON schemas sent to the providers for the review roles; the zod schemas in core validate the answers. */
import type { JSONSchema7 } from 'ai';
import { VERDICTS, SEVERITIES, EFFORTS, STANCES, RULINGS } from '../core/review/answers.js';

const nullableString: JSONSchema7 = { type: ['string', 'null'] };

export const REVIEW_ANSWER_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    score: { type: 'number', description: 'score of the work from 1 to 10' },
    verdict: { type: 'string', enum: [...VERDICTS] },
    summary: { type: 'string', description: 'two or three sentences: what holds up and what does not' },
    weaknesses: {
      type: 'array',
      description: 'remaining weaknesses, ranked by severity (most severe first); empty when none remain',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string', description: 'one line naming the weakness' },
          severity: { type: 'string', enum: [...SEVERITIES] },
          detail: { type: 'string', description: 'why it is wrong, with the evidence' },
          minimum_fix: { type: 'string', description: 'the MINIMUM change that resolves it' },
          effort: {
            type: 'string',
            enum: [...EFFORTS],
            description: 'trivial: minutes; small: under an hour; medium: a few hours; large: a day or more',
          },
          file: { ...nullableString, description: 'repository-relative path it concerns, or null' },
          line: { type: ['integer', 'null'], description: 'line number at the head, or null' },
        },
        required: ['title', 'severity', 'detail', 'minimum_fix', 'effort', 'file', 'line'],
        additionalProperties: false,
      },
    },
    memory_update: {
      type: 'string',
      description:
        'Memory update: your suspicions, what is unresolved, patterns you noticed — carried to your next round',
    },
  },
  required: ['score', 'verdict', 'summary', 'weaknesses', 'memory_update'],
  additionalProperties: false,
};

export const REBUTTAL_ANSWER_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    rebuttals: {
      type: 'array',
      description: 'at most three, for the highest-impact weaknesses',
      items: {
        type: 'object',
        properties: {
          weakness: { type: 'integer', description: "the weakness's number in the reviewer's list" },
          stance: { type: 'string', enum: [...STANCES] },
          argument: {
            type: 'string',
            description: 'why the criticism is valid, invalid, already addressed, or out of scope',
          },
          evidence: { type: 'string', description: 'specific code, file, test or prior-round fix' },
        },
        required: ['weakness', 'stance', 'argument', 'evidence'],
        additionalProperties: false,
      },
    },
  },
  required: ['rebuttals'],
  additionalProperties: false,
};

export const RULING_ANSWER_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    rulings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          weakness: { type: 'integer' },
          ruling: { type: 'string', enum: [...RULINGS] },
          reason: { type: 'string' },
          required: {
            ...nullableString,
            description: 'if rejected: the minimum evidence or change required; else null',
          },
        },
        required: ['weakness', 'ruling', 'reason', 'required'],
        additionalProperties: false,
      },
    },
  },
  required: ['rulings'],
  additionalProperties: false,
};

/** One finding checked against the head: the fix proposal's optional checks and the check call share it. */
const FINDING_CHECK_ITEM: JSONSchema7 = {
  type: 'object',
  properties: {
    finding: { type: 'integer', description: "the finding's number in the list" },
    holds: { type: 'boolean', description: 'true only when the code at the head shows the problem' },
    evidence: { type: 'string', description: 'the code that shows it, or why it does not' },
  },
  required: ['finding', 'holds', 'evidence'],
  additionalProperties: false,
};

export const FIX_PROPOSAL_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'what the edits do, for the round log' },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'repository-relative path of a file you may edit' },
          old_string: { type: 'string', description: 'exact text to replace; must occur exactly once' },
          new_string: { type: 'string', description: 'replacement text' },
        },
        required: ['path', 'old_string', 'new_string'],
        additionalProperties: false,
      },
    },
    checks: {
      type: 'array',
      description:
        'only when the prompt asks you to check findings before fixing: one entry per finding it names',
      items: FINDING_CHECK_ITEM,
    },
  },
  required: ['summary', 'edits'],
  additionalProperties: false,
};

export const FINDING_CHECK_JSON_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: {
    checks: {
      type: 'array',
      description: 'one entry per finding, by its number',
      items: FINDING_CHECK_ITEM,
    },
  },
  required: ['checks'],
  additionalProperties: false,
};
