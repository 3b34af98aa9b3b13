/**
 * Structured output on OpenAI-compatible servers, at the HTTP layer (nock): json_schema by default, one
 * step down to json_object and then to plain text when a server refuses, the choice remembered per base
 * URL for the run, and forced modes.
 */
import { APICallError } from 'ai';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../src/llm/errors.js';
import { buildRoleModel } from '../../src/llm/factory.js';
import { parseModelId, type ModelId } from '../../src/llm/model-id.js';
import {
  describeStructuredOutput,
  StructuredOutputMemo,
  structuredOutputRefusal,
  type StructuredOutputFallback,
} from '../../src/llm/structured-output.js';
import type { EditorInput, GraderInput } from '../../src/ports/models.js';
import { chatCompletion } from '../helpers/model-replies.js';
import { providerModels, signal, structural } from '../helpers/provider-models.js';
import { messageOf } from '../../src/core/errors.js';

const BASE = 'http://localhost:8080';
const ENV = { OPENAI_BASE_URL: `${BASE}/v1` };

const { models } = providerModels({
  model: 'openai-compatible:qwen3:8b',
  env: ENV,
  random: 0,
  baseDelayMs: 1,
});

const graderInput: GraderInput = {
  skillName: 'session-wrap',
  scenario: { id: 's1', context: 'Wrap up the session.' },
  output: '# Summary',
  assertions: [{ id: 3, statement: 'Has a heading.', category: 'Format' }],
  trial: 1,
};

const editorInput: EditorInput = {
  skillName: 'session-wrap',
  skillMd: '# Session wrap\n',
  mode: 'simplification',
  radical: false,
  topFailure: undefined,
  otherFailures: [],
  passingPairs: [],
  failingRenderExcerpt: undefined,
  revertedDescriptions: [],
  structural,
};

function parseCallable(id: string): Exclude<ModelId, { provider: 'offline' }> {
  const parsed = parseModelId(id);
  if (parsed.provider === 'offline') throw new Error('expected a callable model');
  return parsed;
}

const VERDICTS = '{"verdicts": {"3": {"verdict": true, "reason": "has a heading"}}}';
const EDIT =
  '{"description": "Drop nothing", "old_string": "# Session wrap", "new_string": "# Session wrap"}';

/** llama.cpp's wording when it does not know json_schema (HTTP 400, invalid_request_error). */
const LLAMA_CPP_REFUSAL = {
  error: {
    code: 400,
    message: 'response_format type must be one of "text" or "json_object", but got: json_schema',
    type: 'invalid_request_error',
  },
};
/** A server that knows no response_format at all. */
const NO_FORMAT = {
  error: { message: "Unsupported parameter: 'response_format'", type: 'invalid_request_error', param: null },
};

type Body = { response_format?: { type: string; json_schema?: { name: string; strict: boolean } } };

/** Records each request body's response_format type ('none' when absent). */
function formats(): { seen: string[]; match: (body: Body) => boolean } {
  const seen: string[] = [];
  return {
    seen,
    match: (body) => {
      seen.push(body.response_format?.type ?? 'none');
      return true;
    },
  };
}

describe('structured output negotiation with an OpenAI-compatible server', () => {
  it('falls back once to json_object, then to plain text, and remembers the mode for the next call', async () => {
    const { seen, match } = formats();
    const events: StructuredOutputFallback[] = [];
    nock(BASE)
      .post('/v1/chat/completions', match)
      .reply(400, LLAMA_CPP_REFUSAL)
      .post('/v1/chat/completions', match)
      .reply(400, NO_FORMAT)
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(`Sure:\n${VERDICTS}`))
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(EDIT));
    const m = models({ onStructuredOutputFallback: (event) => events.push(event) });

    const grade = await m.grade(graderInput, signal());
    expect(grade.value.verdicts['3']).toEqual({ verdict: true, reason: 'has a heading' });
    expect(seen).toEqual(['json_schema', 'json_object', 'none']);

    // Another role on the same server: straight to plain text, no refusal round-trip.
    const edit = await m.propose(editorInput, signal());
    expect(edit.value.old_string).toBe('# Session wrap');
    expect(seen).toEqual(['json_schema', 'json_object', 'none', 'none']);

    expect(events).toEqual([
      {
        baseUrl: `${BASE}/v1`,
        from: 'json_schema',
        to: 'json_object',
        reason: 'HTTP 400: response_format type must be one of "text" or "json_object", but got: json_schema',
      },
      {
        baseUrl: `${BASE}/v1`,
        from: 'json_object',
        to: 'text',
        reason: "HTTP 400: Unsupported parameter: 'response_format'",
      },
    ]);
  });

  it('stays on json_object when the server accepts it, and counts no usage for the refused request', async () => {
    const { seen, match } = formats();
    nock(BASE)
      .post('/v1/chat/completions', match)
      .reply(400, { error: { message: "Invalid value for 'response_format.type': json_schema" } })
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(VERDICTS, { prompt_tokens: 40, completion_tokens: 10 }))
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(VERDICTS));
    const m = models();
    const first = await m.grade(graderInput, signal());
    expect(first.usage).toMatchObject({ calls: 1, inputTokens: 40, outputTokens: 10 });
    await m.grade(graderInput, signal());
    expect(seen).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('shares what it learned between createModels calls given one memo, and not otherwise', async () => {
    const { seen, match } = formats();
    const memo = new StructuredOutputMemo();
    nock(BASE)
      .post('/v1/chat/completions', match)
      .reply(400, LLAMA_CPP_REFUSAL)
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(VERDICTS))
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(VERDICTS))
      .post('/v1/chat/completions', match)
      .reply(200, chatCompletion(VERDICTS));
    await models({ structuredOutputMemo: memo }).grade(graderInput, signal());
    await models({ structuredOutputMemo: memo }).grade(graderInput, signal());
    await models().grade(graderInput, signal());
    expect(seen).toEqual(['json_schema', 'json_object', 'json_object', 'json_schema']);
    expect(describeStructuredOutput(memo.state(`${BASE}/v1`, 'auto'))).toBe(
      'structured output: json_object (fell back: json_schema refused: HTTP 400: response_format type must be one of "text" or "json_object", but got: json_schema)',
    );
  });

  it('does not fall back on a 400 about something else', async () => {
    const { seen, match } = formats();
    nock(BASE)
      .post('/v1/chat/completions', match)
      .reply(400, {
        error: {
          message:
            "This model's maximum context length is 8192 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
        },
      });
    const error = await models()
      .grade(graderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(messageOf(error)).toContain('maximum context length');
    expect(seen).toEqual(['json_schema']);
  });

  it.each([
    ['json_object', ['json_object']],
    ['text', ['none']],
    ['json_schema', ['json_schema']],
  ] as const)('forces %s: one request in that mode', async (setting, expected) => {
    const { seen, match } = formats();
    nock(BASE).post('/v1/chat/completions', match).reply(200, chatCompletion(VERDICTS));
    const reply = await models({ structuredOutput: setting }).grade(graderInput, signal());
    expect(reply.value.verdicts['3']?.verdict).toBe(true);
    expect(seen).toEqual(expected);
  });

  it('reports a refused forced mode as an error naming the setting, with no fallback', async () => {
    const { seen, match } = formats();
    nock(BASE).post('/v1/chat/completions', match).reply(400, LLAMA_CPP_REFUSAL);
    const error = await models({ structuredOutput: 'json_schema' })
      .grade(graderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(400);
    expect(messageOf(error)).toMatch(
      /^grader model openai-compatible:qwen3:8b: HTTP 400: response_format type must be one of .*; the server refused structured output "json_schema" \(forced by --structured-output/,
    );
    expect(seen).toEqual(['json_schema']);
  });

  it('redacts the key from the fallback reason a server echoes', async () => {
    const key = 'sk-local-0123456789abcdef';
    const events: StructuredOutputFallback[] = [];
    nock(BASE)
      .post('/v1/chat/completions')
      .reply(400, { error: { message: `json_schema not supported for key ${key}` } })
      .post('/v1/chat/completions')
      .reply(200, chatCompletion(VERDICTS));
    await models(
      { onStructuredOutputFallback: (e) => events.push(e) },
      { ...ENV, OPENAI_API_KEY: key },
    ).grade(graderInput, signal());
    expect(events).toHaveLength(1);
    expect(events[0]!.reason).not.toContain(key);
    expect(events[0]!.reason).toContain('[redacted]');
  });

  it('negotiates for compatible servers only: native providers always get the schema', () => {
    const env = { ...ENV, OPENAI_API_KEY: 'sk-test-0123456789abcdef' };
    const native = buildRoleModel('grader', parseCallable('openai:gpt-5'), env);
    const compatible = buildRoleModel('grader', parseCallable('openai-compatible:qwen3'), env, {
      structuredOutput: 'json_object',
    });
    expect(native.jsonMode).toBe('schema');
    expect(native.structuredOutput).toBeUndefined();
    expect(compatible.jsonMode).toBe('negotiated');
    expect(compatible.structuredOutput).toMatchObject({ baseUrl: `${BASE}/v1`, setting: 'json_object' });
  });
});

describe('structuredOutputRefusal', () => {
  const refusal = (status: number, body: unknown) =>
    structuredOutputRefusal(
      new APICallError({
        message: (body as { error?: { message?: string } }).error?.message ?? 'Bad Request',
        url: `${BASE}/v1/chat/completions`,
        requestBodyValues: {},
        statusCode: status,
        responseBody: JSON.stringify(body),
      }),
    );

  it('recognises refusals of response_format by status and wording', () => {
    expect(refusal(400, LLAMA_CPP_REFUSAL)).toMatch(/^HTTP 400: response_format type must be/);
    expect(refusal(400, NO_FORMAT)).toBe("HTTP 400: Unsupported parameter: 'response_format'");
    expect(
      refusal(422, { detail: [{ loc: ['body', 'response_format'], msg: 'extra inputs are not permitted' }] }),
    ).toBe('HTTP 422: Bad Request');
    expect(refusal(400, { error: { message: 'unknown field `response_format`' } })).toBeDefined();
  });

  it('leaves other errors alone: other statuses, other parameters, other problems', () => {
    expect(refusal(500, LLAMA_CPP_REFUSAL)).toBeUndefined();
    expect(refusal(401, NO_FORMAT)).toBeUndefined();
    expect(
      refusal(400, {
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model.",
          param: 'max_tokens',
        },
      }),
    ).toBeUndefined();
    expect(refusal(400, { error: { message: 'model "qwen9" not found' } })).toBeUndefined();
    expect(structuredOutputRefusal(new Error('response_format'))).toBeUndefined();
  });
});
