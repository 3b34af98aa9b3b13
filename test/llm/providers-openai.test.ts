import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../src/llm/errors.js';
import { createModels } from '../../src/llm/factory.js';
import { addUsage } from '../../src/core/usage.js';
import { ModelOutputError } from '../../src/core/model-answers.js';
import type { EditorInput, GraderInput, RenderInput } from '../../src/ports/models.js';
import { DEFAULT_PRICES } from '../../src/llm/prices.js';
import { openaiError } from '../helpers/model-replies.js';
import { providerModels, signal, structural } from '../helpers/provider-models.js';
import { messageOf } from '../../src/core/errors.js';

const API = 'https://api.openai.com';
const KEY = 'sk-openai-test';

const editorInput: EditorInput = {
  skillName: 'session-wrap',
  skillMd: '---\nname: session-wrap\ndescription: Wrap a session.\n---\n# Session wrap\n\nWrite a summary.\n',
  mode: 'simplification',
  radical: false,
  topFailure: undefined,
  otherFailures: [],
  passingPairs: [{ assertion_id: 1, scenario_id: 'scenario_1' }],
  failingRenderExcerpt: undefined,
  revertedDescriptions: ['Drop the intro paragraph'],
  structural,
};

const renderInput: RenderInput = {
  skillName: 'session-wrap',
  skillMd: editorInput.skillMd,
  scenario: { id: 'scenario_1', context: 'We fixed the login test.' },
};

const graderInput: GraderInput = {
  skillName: 'session-wrap',
  scenario: { id: 'scenario_1', context: 'We fixed the login test.' },
  output: '## Summary\nFixed.',
  assertions: [{ id: 7, statement: 'The output has a summary.', category: 'Content' }],
  trial: 1,
};

interface OpenAIUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

/** A Responses API object (POST /v1/responses) for a reasoning model: a reasoning item, then the message. */
function response(text: string, usage: OpenAIUsage) {
  return {
    id: 'resp_67ccd2bed1ec8190b14f964abc054267',
    object: 'response',
    created_at: 1741476542,
    status: 'completed',
    model: 'gpt-5-2025-08-07',
    output: [
      { type: 'reasoning', id: 'rs_67ccd3', summary: [] },
      {
        type: 'message',
        id: 'msg_67ccd2bf17f0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}

const { delays, models } = providerModels({
  model: 'openai:gpt-5',
  env: { OPENAI_API_KEY: KEY },
  random: 0.5,
  baseDelayMs: 100,
});

describe('openai provider over the Responses API', () => {
  it('proposes a simplification with strict JSON-schema output', async () => {
    let body: Record<string, unknown> = {};
    nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } })
      .post('/v1/responses', (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(
        200,
        response(
          JSON.stringify({
            description:
              'Fold the two summary rules; this is a simplification-mode edit; no failing assertion to target.',
            old_string: 'Write a summary.\n',
            new_string: '',
          }),
          { input_tokens: 900, output_tokens: 300, reasoning_tokens: 200 },
        ),
      );
    const reply = await models().propose(editorInput, signal());
    expect(reply.value.new_string).toBe('');
    expect(body.model).toBe('gpt-5');
    const format = (body.text as { format: { type: string; strict: boolean; name: string } }).format;
    expect(format).toMatchObject({ type: 'json_schema', strict: true, name: 'edit_proposal' });
    const prompt = JSON.stringify(body.input);
    expect(prompt).toContain('Your job is to SIMPLIFY');
    expect(prompt).toContain('Drop the intro paragraph');
    const p = DEFAULT_PRICES['gpt-5']!;
    // reasoning tokens are output tokens and are billed as such
    expect(reply.usage.costUsd).toBeCloseTo((900 * p.input + 300 * p.output) / 1e6, 12);
  });

  it('renders with the SKILL.md as the system (developer) message and counts cached input', async () => {
    let body: Record<string, unknown> = {};
    nock(API)
      .post('/v1/responses', (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(
        200,
        response('## Summary\nFixed.', { input_tokens: 2500, cached_tokens: 2048, output_tokens: 20 }),
      );
    const reply = await models().render(renderInput, signal());
    expect(reply.value).toBe('## Summary\nFixed.');
    const input = body.input as Array<{ role: string; content: unknown }>;
    expect(input[0]).toEqual({ role: 'developer', content: renderInput.skillMd });
    expect(body.text).toBeUndefined();
    expect(reply.usage).toMatchObject({
      inputTokens: 452,
      cacheReadTokens: 2048,
      cacheWriteTokens: 0,
      outputTokens: 20,
    });
    const p = DEFAULT_PRICES['gpt-5']!;
    expect(reply.usage.costUsd).toBeCloseTo((452 * p.input + 2048 * p.cacheRead + 20 * p.output) / 1e6, 12);
  });

  it('grades and sums usage across calls', async () => {
    nock(API)
      .post('/v1/responses')
      .twice()
      .reply(
        200,
        response('{"verdicts":{"7":{"verdict":true,"reason":"has one"}}}', {
          input_tokens: 100,
          output_tokens: 10,
        }),
      );
    const m = models();
    const a = await m.grade(graderInput, signal());
    const b = await m.grade(graderInput, signal());
    expect(a.value.verdicts['7']?.verdict).toBe(true);
    const total = addUsage(a.usage, b.usage);
    expect(total).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 20 });
    const p = DEFAULT_PRICES['gpt-5']!;
    expect(total.costUsd).toBeCloseTo((200 * p.input + 20 * p.output) / 1e6, 12);
  });

  it('honours retry-after-ms on a 429', async () => {
    nock(API)
      .post('/v1/responses')
      .reply(429, openaiError('Rate limit reached for gpt-5', 'tokens', 'rate_limit_exceeded'), {
        'retry-after-ms': '250',
      })
      .post('/v1/responses')
      .reply(200, response('ok', { input_tokens: 1, output_tokens: 1 }));
    expect((await models().render(renderInput, signal())).value).toBe('ok');
    expect(delays).toEqual([250]);
  });

  it('retries a 503 with jittered backoff', async () => {
    nock(API)
      .post('/v1/responses')
      .reply(503, openaiError('The server is overloaded', 'server_error', null))
      .post('/v1/responses')
      .reply(200, response('ok', { input_tokens: 1, output_tokens: 1 }));
    expect((await models().render(renderInput, signal())).value).toBe('ok');
    // base 100 → 50 fixed + 0.5 × 50 jitter
    expect(delays).toEqual([75]);
  });

  it('refuses to wait when the server asks for longer than the cap', async () => {
    nock(API)
      .post('/v1/responses')
      .reply(
        429,
        openaiError('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota'),
        {
          'retry-after': '3600',
        },
      );
    const error = await models()
      .render(renderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(messageOf(error)).toContain('HTTP 429');
    expect(messageOf(error)).toContain('the server asks to wait 3600 s');
    expect(delays).toEqual([]);
  });

  it('does not retry a 401', async () => {
    nock(API)
      .post('/v1/responses')
      .reply(
        401,
        openaiError('Incorrect API key provided: sk-opena*test.', 'invalid_request_error', 'invalid_api_key'),
        {
          'x-request-id': 'req_abc',
        },
      );
    const error = await models()
      .grade(graderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(messageOf(error)).toBe(
      'grader model openai:gpt-5: HTTP 401: Incorrect API key provided: sk-opena*test. (not retried; check OPENAI_API_KEY, request id req_abc)',
    );
    expect(delays).toEqual([]);
  });

  it('does not retry a 400 and points at the model name', async () => {
    nock(API)
      .post('/v1/responses')
      .reply(
        400,
        openaiError(
          "The requested model 'gpt-9' does not exist.",
          'invalid_request_error',
          'model_not_found',
        ),
      );
    const m = createModels({ model: 'openai:gpt-9' }, { OPENAI_API_KEY: KEY });
    const error = await m.render(renderInput, signal()).catch((e: unknown) => e);
    expect(messageOf(error)).toMatch(/render model openai:gpt-9: HTTP 400: .*check the model name/);
    expect((error as ModelCallError).status).toBe(400);
  });

  it('cuts a hung response at the timeout', async () => {
    nock(API)
      .post('/v1/responses')
      .delay(10_000)
      .reply(200, response('late', { input_tokens: 1, output_tokens: 1 }));
    const error = await models({ timeoutMs: 100 })
      .propose(editorInput, signal())
      .catch((e: unknown) => e);
    expect((error as ModelCallError).failure).toBe('timeout');
  });

  it('aborts mid-call with the engine reason', async () => {
    const scope = nock(API)
      .post('/v1/responses')
      .delay(10_000)
      .reply(200, response('late', { input_tokens: 1, output_tokens: 1 }));
    const controller = new AbortController();
    const reason = new Error('stop now');
    // Mid-call: once the request is out (the provider package loads on the first call, which takes a while).
    scope.on('request', () => setTimeout(() => controller.abort(reason), 10));
    await expect(models().render(renderInput, controller.signal)).rejects.toBe(reason);
  });

  it('treats a malformed body as an unusable answer', async () => {
    nock(API)
      .post('/v1/responses')
      .reply(200, 'upstream proxy error <html>', { 'content-type': 'application/json' });
    await expect(models().grade(graderInput, signal())).rejects.toBeInstanceOf(ModelOutputError);
  });

  it('uses OPENAI_BASE_URL for gateways that speak the Responses API', async () => {
    nock('https://litellm.internal.example')
      .post('/v1/responses')
      .reply(200, response('via gateway', { input_tokens: 1, output_tokens: 1 }));
    const m = models({}, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://litellm.internal.example/v1' });
    expect((await m.render(renderInput, signal())).value).toBe('via gateway');
  });
});
