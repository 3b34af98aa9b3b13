import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../../src/llm/errors.js';
import { createModels } from '../../src/llm/factory.js';
import { addUsage } from '../../src/core/usage.js';
import { ModelOutputError } from '../../src/core/model-answers.js';
import type { EditorInput, GraderInput, RenderInput } from '../../src/ports/models.js';
import { DEFAULT_PRICES } from '../../src/llm/prices.js';
import { anthropicMessage } from '../helpers/model-replies.js';
import { providerModels, signal, structural } from '../helpers/provider-models.js';
import { messageOf } from '../../src/core/errors.js';

const API = 'https://api.anthropic.com';
const KEY = 'sk-ant-test-key';
const MODEL = 'claude-sonnet-4-5';

const editorInput: EditorInput = {
  skillName: 'session-wrap',
  skillMd: '---\nname: session-wrap\ndescription: Wrap a session.\n---\n# Session wrap\n\nWrite a summary.\n',
  mode: 'targeted',
  radical: false,
  topFailure: {
    assertion_id: 1,
    scenario_id: 'scenario_1',
    category_name: 'Output format',
    category_weight: 0.4,
    statement: "The output has a '## Summary' heading.",
    source: 'SKILL.md, lines 42-47',
    defect_type: 'format',
    grader_reason: 'no heading',
  },
  otherFailures: [],
  passingPairs: [{ assertion_id: 2, scenario_id: 'scenario_1' }],
  failingRenderExcerpt: 'A summary without heading.',
  revertedDescriptions: [],
  structural,
};

const renderInput: RenderInput = {
  skillName: 'session-wrap',
  skillMd: editorInput.skillMd,
  scenario: {
    id: 'scenario_1',
    context: 'We spent three hours on the flaky login test.',
    files: { 'notes.md': 'retry 3x' },
  },
};

const graderInput: GraderInput = {
  skillName: 'session-wrap',
  scenario: {
    id: 'scenario_1',
    context: 'We spent three hours on the flaky login test.',
    expected_assertions: [1, 2],
  },
  output: '## Summary\nFixed the flaky test.',
  assertions: [
    { id: 1, statement: "The output has a '## Summary' heading.", category: 'Output format' },
    { id: 2, statement: 'The output names the test.', category: 'Content' },
  ],
  trial: 1,
};

function apiError(type: string, text: string) {
  return { type: 'error', error: { type, message: text } };
}

const { delays, models } = providerModels({
  model: `anthropic:${MODEL}`,
  env: { ANTHROPIC_API_KEY: KEY },
  random: 0,
  baseDelayMs: 100,
});

describe('anthropic provider over the Messages API', () => {
  it('proposes an edit through native JSON-schema output and prices the call', async () => {
    let body: Record<string, unknown> = {};
    nock(API, { reqheaders: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' } })
      .post('/v1/messages', (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(
        200,
        anthropicMessage(
          [
            {
              type: 'text',
              text: JSON.stringify({
                description: 'Add a Summary heading (keeps pair 2: content untouched)',
                old_string: 'Write a summary.',
                new_string: 'Write a summary under a `## Summary` heading.',
              }),
            },
          ],
          { input_tokens: 1200, output_tokens: 80 },
        ),
      );
    const reply = await models().propose(editorInput, signal());
    expect(reply.value.old_string).toBe('Write a summary.');
    expect(reply.value.new_string).toContain('## Summary');
    expect(body.model).toBe(MODEL);
    const format = (body.output_config as { format: { type: string; schema: { required: string[] } } })
      .format;
    expect(format.type).toBe('json_schema');
    expect(format.schema.required).toEqual(['description', 'old_string', 'new_string']);
    const userText = JSON.stringify(body.messages);
    expect(userText).toContain('assertion_id:     1');
    const price = DEFAULT_PRICES[MODEL]!;
    expect(reply.usage).toMatchObject({ calls: 1, inputTokens: 1200, outputTokens: 80 });
    expect(reply.usage.costUsd).toBeCloseTo((1200 * price.input + 80 * price.output) / 1e6, 12);
  });

  it('renders with the SKILL.md as a cached system prompt and reports cache writes and reads', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    nock(API)
      .post('/v1/messages', (b: Record<string, unknown>) => {
        bodies.push(b);
        return true;
      })
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: '## Summary\nFixed it.' }], {
          input_tokens: 40,
          output_tokens: 10,
          cache_creation_input_tokens: 2000,
        }),
      )
      .post('/v1/messages', (b: Record<string, unknown>) => {
        bodies.push(b);
        return true;
      })
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: '## Summary\nAgain.' }], {
          input_tokens: 40,
          output_tokens: 12,
          cache_read_input_tokens: 2000,
        }),
      );
    const m = models();
    const first = await m.render(renderInput, signal());
    const second = await m.render(renderInput, signal());
    expect(first.value).toBe('## Summary\nFixed it.');
    expect(second.value).toBe('## Summary\nAgain.');
    expect(bodies[0]!.system).toEqual([
      { type: 'text', text: renderInput.skillMd, cache_control: { type: 'ephemeral' } },
    ]);
    const user = JSON.stringify(bodies[0]!.messages);
    expect(user).toContain('flaky login test');
    expect(user).toContain('notes.md');
    expect(user).toContain('AMBIGUOUS: <reason>');
    expect(first.usage).toMatchObject({ inputTokens: 40, cacheWriteTokens: 2000, cacheReadTokens: 0 });
    expect(second.usage).toMatchObject({ inputTokens: 40, cacheWriteTokens: 0, cacheReadTokens: 2000 });
    const total = addUsage(first.usage, second.usage);
    const p = DEFAULT_PRICES[MODEL]!;
    const expected = (80 * p.input + 22 * p.output + 2000 * p.cacheWrite + 2000 * p.cacheRead) / 1e6;
    expect(total.calls).toBe(2);
    expect(total.costUsd).toBeCloseTo(expected, 12);
  });

  it('grades with a closed schema of the ids and caches the fixed grader instructions', async () => {
    let body: Record<string, unknown> = {};
    nock(API)
      .post('/v1/messages', (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(
        200,
        anthropicMessage(
          [
            {
              type: 'text',
              text: '{"verdicts":{"1":{"verdict":true,"reason":"heading present"},"2":{"verdict":false,"reason":"no test name"}}}',
            },
          ],
          { input_tokens: 300, output_tokens: 40, cache_read_input_tokens: 1100 },
        ),
      );
    const reply = await models().grade(graderInput, signal());
    expect(reply.value.verdicts['1']).toEqual({ verdict: true, reason: 'heading present' });
    expect(reply.value.verdicts['2']?.verdict).toBe(false);
    const system = body.system as Array<{ text: string; cache_control?: unknown }>;
    expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(system[0]!.text).toContain('UNTRUSTED');
    const schema = (
      body.output_config as { format: { schema: { properties: { verdicts: { required: string[] } } } } }
    ).format.schema;
    expect(schema.properties.verdicts.required).toEqual(['1', '2']);
    expect(reply.usage.cacheReadTokens).toBe(1100);
  });

  it('takes the json tool path on models without native structured output', async () => {
    let body: Record<string, unknown> = {};
    nock(API)
      .post('/v1/messages', (b: Record<string, unknown>) => {
        body = b;
        return true;
      })
      .reply(
        200,
        anthropicMessage(
          [
            {
              type: 'tool_use',
              id: 'toolu_01A09q90qw90lq917835lq9',
              name: 'json',
              input: {
                verdicts: { '1': { verdict: true, reason: 'ok' }, '2': { verdict: true, reason: 'ok' } },
              },
            },
          ],
          { input_tokens: 300, output_tokens: 40 },
          'tool_use',
        ),
      );
    const m = createModels({ model: 'anthropic:claude-3-5-haiku-latest' }, { ANTHROPIC_API_KEY: KEY });
    const reply = await m.grade(graderInput, signal());
    expect(reply.value.verdicts['2']).toEqual({ verdict: true, reason: 'ok' });
    expect((body.tools as Array<{ name: string }>)[0]!.name).toBe('json');
    expect(body.tool_choice).toMatchObject({ type: 'any' });
    // claude-3-5-haiku: 0.8 in / 4 out per million
    expect(reply.usage.costUsd).toBeCloseTo((300 * 0.8 + 40 * 4) / 1e6, 12);
  });

  it('retries a 429 after the retry-after the server asked for', async () => {
    nock(API)
      .post('/v1/messages')
      .reply(
        429,
        apiError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
        {
          'retry-after': '2',
        },
      )
      .post('/v1/messages')
      .reply(200, anthropicMessage([{ type: 'text', text: 'done' }], { input_tokens: 5, output_tokens: 1 }));
    const reply = await models().render(renderInput, signal());
    expect(reply.value).toBe('done');
    expect(delays).toEqual([2000]);
  });

  it('retries a 529 overloaded_error with exponential backoff', async () => {
    nock(API)
      .post('/v1/messages')
      .reply(529, apiError('overloaded_error', 'Overloaded'))
      .post('/v1/messages')
      .reply(529, apiError('overloaded_error', 'Overloaded'))
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: 'finally' }], { input_tokens: 5, output_tokens: 1 }),
      );
    const reply = await models().render(renderInput, signal());
    expect(reply.value).toBe('finally');
    // base 100 ms, random 0 → half of 100, then half of 200
    expect(delays).toEqual([50, 100]);
  });

  it('gives up after the attempt cap and says so', async () => {
    nock(API).post('/v1/messages').times(4).reply(500, apiError('api_error', 'Internal server error'));
    const error = await models()
      .render(renderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(messageOf(error)).toMatch(
      /render model anthropic:claude-sonnet-4-5: HTTP 500.*gave up after 4 attempts/,
    );
    expect(delays).toHaveLength(3);
  });

  it('does not retry a 401 and names the model, the status and the variable', async () => {
    let calls = 0;
    nock(API)
      .post('/v1/messages')
      .times(2)
      .reply(() => {
        calls++;
        return [401, apiError('authentication_error', 'invalid x-api-key'), { 'request-id': 'req_011' }];
      });
    const error = await models()
      .propose(editorInput, signal())
      .catch((e: unknown) => e);
    expect(calls).toBe(1);
    nock.cleanAll();
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(401);
    expect(messageOf(error)).toBe(
      'editor model anthropic:claude-sonnet-4-5: HTTP 401: invalid x-api-key (not retried; check ANTHROPIC_API_KEY, request id req_011)',
    );
    expect(delays).toEqual([]);
  });

  it('cuts a hung response at the per-call timeout', async () => {
    nock(API)
      .post('/v1/messages')
      .delay(10_000)
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: 'too late' }], { input_tokens: 1, output_tokens: 1 }),
      );
    const started = Date.now();
    const error = await models({ timeoutMs: 150 })
      .render(renderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).failure).toBe('timeout');
    expect(messageOf(error)).toContain('render model anthropic:claude-sonnet-4-5: no answer within');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('rejects with the engine signal reason when aborted mid-call', async () => {
    const scope = nock(API)
      .post('/v1/messages')
      .delay(10_000)
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: 'too late' }], { input_tokens: 1, output_tokens: 1 }),
      );
    const controller = new AbortController();
    const reason = new Error('iteration timeout');
    // Mid-call: once the request is out (the provider package loads on the first call, which takes a while).
    scope.on('request', () => setTimeout(() => controller.abort(reason), 10));
    const started = Date.now();
    await expect(models().grade(graderInput, controller.signal)).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('turns a malformed response body into ModelOutputError', async () => {
    nock(API)
      .post('/v1/messages')
      .reply(200, '{"id": "msg_1", "content": [', { 'content-type': 'application/json' });
    const error = await models()
      .grade(graderInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(messageOf(error)).toMatch(/^grader answer unusable: the server answered with a malformed body/);
  });

  it('turns a prose answer without JSON into ModelOutputError carrying the raw text and usage', async () => {
    nock(API)
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: 'I would rather not edit this file.' }], {
          input_tokens: 10,
          output_tokens: 9,
        }),
      );
    const error = await models()
      .propose(editorInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect((error as ModelOutputError).raw).toBe('I would rather not edit this file.');
    expect((error as { usage?: { outputTokens: number } }).usage?.outputTokens).toBe(9);
  });

  it('rejects a proposal that misses a required field', async () => {
    nock(API)
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: '{"description":"x","old_string":"","new_string":"y"}' }], {
          input_tokens: 1,
          output_tokens: 1,
        }),
      );
    const error = await models()
      .propose(editorInput, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(messageOf(error)).toContain('old_string');
  });

  it('sends requests to ANTHROPIC_BASE_URL, with or without /v1, and explicit options win', async () => {
    nock('https://proxy.example.com', { reqheaders: { 'x-api-key': 'from-env' } })
      .post('/anthropic/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: 'via proxy' }], { input_tokens: 1, output_tokens: 1 }),
      );
    nock('https://explicit.example.com', { reqheaders: { 'x-api-key': 'explicit' } })
      .post('/v1/messages')
      .reply(
        200,
        anthropicMessage([{ type: 'text', text: 'explicit' }], { input_tokens: 1, output_tokens: 1 }),
      );
    const env = { ANTHROPIC_API_KEY: 'from-env', ANTHROPIC_BASE_URL: 'https://proxy.example.com/anthropic/' };
    expect((await models({}, env).render(renderInput, signal())).value).toBe('via proxy');
    const explicit = models(
      { anthropicBaseUrl: 'https://explicit.example.com/v1', anthropicApiKey: 'explicit' },
      env,
    );
    expect((await explicit.render(renderInput, signal())).value).toBe('explicit');
  });

  it('fails before any request when the key is missing', () => {
    const selection = { model: 'openai:gpt-5', graderModel: 'anthropic:claude-sonnet-4-5' };
    expect(() => createModels(selection, { OPENAI_API_KEY: 'sk-test' })).toThrow(
      'grader model anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY',
    );
  });
});
