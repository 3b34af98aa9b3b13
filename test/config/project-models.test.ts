/** loadProjectModels / loadProjectModelConfig and applyConfigSettings (src/config/): shared by CLI and Action. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APICallError } from 'ai';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE, ConfigError } from '../../src/config/config.js';
import {
  formatRetryWarning,
  loadProjectModelConfig,
  loadProjectModels,
  structuredOutputWarning,
} from '../../src/config/project-models.js';
import { applyConfigSettings, type ConfigurableSettings } from '../../src/config/run-settings.js';
import { createScriptedModels } from '../../src/llm/scripted.js';
import { createModels, type ModelFactoryOptions, type ModelSelection } from '../../src/llm/factory.js';
import { anthropicMessage } from '../helpers/model-replies.js';

let project: string;

beforeEach(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-project-models-'));
});
afterEach(async () => {
  nock.cleanAll();
  await rm(project, { recursive: true, force: true });
});

async function writeConfig(value: unknown): Promise<void> {
  await writeFile(path.join(project, CONFIG_FILE), JSON.stringify(value));
}

describe('structured output in the project model options', () => {
  it('takes --structured-output over the config and logs each fallback as a redacted warning', async () => {
    await writeConfig({ openaiCompatible: { structuredOutput: 'json_object' } });
    const warnings: string[] = [];
    const log = { warn: (message: string) => void warnings.push(message) };
    const key = 'sk-local-0123456789abcdef';
    const fromConfig = await loadProjectModelConfig({
      project,
      flags: {},
      env: { OPENAI_API_KEY: key },
      log,
    });
    const fromFlag = await loadProjectModelConfig({
      project,
      flags: { structuredOutput: 'auto' },
      env: {},
    });
    expect(fromConfig.modelOptions.structuredOutput).toBe('json_object');
    expect(fromFlag.modelOptions.structuredOutput).toBe('auto');
    expect(fromFlag.modelOptions.onStructuredOutputFallback).toBeUndefined();
    fromConfig.modelOptions.onStructuredOutputFallback?.({
      baseUrl: 'http://localhost:11434/v1',
      from: 'json_schema',
      to: 'json_object',
      reason: `HTTP 400: json_schema unsupported (key ${key})`,
    });
    expect(warnings).toEqual([
      'openai-compatible server http://localhost:11434/v1 refused structured output json_schema ' +
        '(HTTP 400: json_schema unsupported (key [redacted])); using json_object for the rest of the run',
    ]);
    expect(
      structuredOutputWarning({
        baseUrl: 'http://h/v1',
        from: 'json_object',
        to: 'text',
        reason: 'HTTP 422: x',
      }),
    ).toBe(
      'openai-compatible server http://h/v1 refused structured output json_object (HTTP 422: x); using text for the rest of the run',
    );
  });
});

describe('loadProjectModels', () => {
  it('builds the models of the config, with flags overriding it, and returns the config', async () => {
    await writeConfig({
      models: { default: 'openai-compatible:qwen3', grader: 'offline', render: 'offline' },
      endpoints: { openaiCompatible: 'http://127.0.0.1:9/v1' },
      concurrency: 2,
    });
    const loaded = await loadProjectModels({
      project,
      flags: {},
      env: { SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: '1' },
    });
    expect(loaded.models.label).toBe(
      'editor=openai-compatible:qwen3 render=offline grader=offline (structural scoring only)',
    );
    expect(loaded.config.concurrency).toBe(2);
    expect(loaded.selection.sources).toEqual({ editor: 'config', render: 'config', grader: 'config' });
    expect(loaded.modelOptions.configEndpoints?.openaiCompatible).toBe('http://127.0.0.1:9/v1');

    const flagged = await loadProjectModels({ project, flags: { model: 'offline' }, env: {} });
    expect(flagged.models.label).toMatch(/^offline \(structural scoring only/);
    expect(flagged.selection.sources.editor).toBe('flag');
  });

  it('hands the selection and the config-derived options to an injected factory', async () => {
    await writeConfig({ models: { render: 'anthropic:claude-haiku-4-5' }, timeoutSeconds: 5 });
    const seen: Array<{ selection: ModelSelection; options: ModelFactoryOptions | undefined }> = [];
    const scripted = createScriptedModels({ render: () => 'x' });
    const loaded = await loadProjectModels({
      project,
      flags: { graderModel: 'openai:gpt-5' },
      env: {},
      create: (selection, _env, options) => {
        seen.push({ selection, options });
        return scripted;
      },
    });
    expect(loaded.models).toBe(scripted);
    expect(seen[0]?.selection).toMatchObject({
      editorModel: 'offline',
      renderModel: 'anthropic:claude-haiku-4-5',
      graderModel: 'openai:gpt-5',
    });
    expect(seen[0]?.options?.timeoutMs).toBe(5000);
  });

  it('throws plain errors: a bad config names the file and field, a missing key names the variable', async () => {
    await writeConfig({ models: { default: 'offline' }, concurrency: 0 });
    const bad = loadProjectModels({ project, flags: {}, env: {} });
    await expect(bad).rejects.toBeInstanceOf(ConfigError);
    await expect(bad).rejects.toThrow(`${path.join(project, CONFIG_FILE)}: concurrency: `);

    await writeConfig({ models: { default: 'anthropic:claude-sonnet-4-5' } });
    await expect(loadProjectModels({ project, flags: {}, env: {} })).rejects.toThrow(
      'editor model anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY',
    );
    // The selection alone checks no key: the Action's model check reports it per role instead.
    const selected = await loadProjectModelConfig({ project, flags: {}, env: {} });
    expect(selected.selection.graderModel).toBe('anthropic:claude-sonnet-4-5');
  });

  it('logs retries through the given logger as warnings', async () => {
    const warnings: string[] = [];
    const { modelOptions } = await loadProjectModelConfig({
      project,
      flags: {},
      env: {},
      log: { warn: (m) => void warnings.push(m) },
    });
    modelOptions.retryHooks?.onRetry?.({ attempt: 1, delayMs: 1500, error: new Error('HTTP 529') });
    expect(warnings).toEqual(['retrying in 1.5 s (attempt 2 of 4): HTTP 529']);
    const quiet = await loadProjectModelConfig({ project, flags: {}, env: {} });
    expect(quiet.modelOptions.retryHooks).toBeUndefined();
  });
});

describe('calls in flight per endpoint (iterate --concurrency)', () => {
  /** Three renders at once through the real provider; the most the endpoint saw in flight together. */
  async function peakInFlight(maxCallsPerEndpoint: number | undefined): Promise<number> {
    let inFlight = 0;
    let peak = 0;
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .times(3)
      .reply((_uri, _body, callback) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          callback(null, [
            200,
            anthropicMessage([{ type: 'text', text: 'done' }], { input_tokens: 5, output_tokens: 1 }),
          ]);
        }, 20);
      });
    const { models } = await loadProjectModels({
      project,
      flags: { model: 'anthropic:claude-haiku-4-5' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      maxCallsPerEndpoint,
    });
    await Promise.all(
      ['s1', 's2', 's3'].map((id) =>
        models.render(
          { skillName: 'demo', skillMd: '# Demo\n', scenario: { id, context: 'c' } },
          new AbortController().signal,
        ),
      ),
    );
    expect(nock.isDone()).toBe(true);
    return peak;
  }

  it('sends one call at a time to an endpoint when given 1, whatever scoring passes run side by side', async () => {
    expect(await peakInFlight(1)).toBe(1);
    expect(await peakInFlight(undefined)).toBe(3);
  });
});

describe('retry warnings', () => {
  const apiError = (statusCode: number | undefined, message: string) =>
    new APICallError({
      message,
      url: 'https://api.anthropic.com/v1/messages',
      requestBodyValues: {},
      statusCode,
    });

  it('round the wait, name the attempt about to start, and leave out error class names', () => {
    expect(
      formatRetryWarning({ attempt: 1, delayMs: 845.6428106811302, error: apiError(529, 'Overloaded') }, 4),
    ).toBe('retrying in 0.8 s (attempt 2 of 4): HTTP 529: Overloaded');
    expect(formatRetryWarning({ attempt: 3, delayMs: 30_000, error: apiError(429, 'Rate limited') }, 4)).toBe(
      'retrying in 30.0 s (attempt 4 of 4): HTTP 429: Rate limited',
    );
    expect(formatRetryWarning({ attempt: 1, delayMs: 45.2, error: apiError(500, '') }, 2)).toBe(
      'retrying in 45 ms (attempt 2 of 2): HTTP 500',
    );
    expect(
      formatRetryWarning(
        { attempt: 2, delayMs: 1999.5, error: apiError(undefined, 'Cannot connect to API:\n  ECONNRESET') },
        4,
      ),
    ).toBe('retrying in 2.0 s (attempt 3 of 4): Cannot connect to API: ECONNRESET');
    expect(formatRetryWarning({ attempt: 1, delayMs: 0, error: 'socket hang up' }, 4)).toBe(
      'retrying in 0 ms (attempt 2 of 4): socket hang up',
    );
  });

  it('are what a real model call logs on a 529 (loadProjectModels over nock)', async () => {
    nock('https://api.anthropic.com')
      .post('/v1/messages')
      .reply(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
      .post('/v1/messages')
      .reply(200, anthropicMessage([{ type: 'text', text: 'done' }], { input_tokens: 5, output_tokens: 1 }));
    const warnings: string[] = [];
    const waits: number[] = [];
    const { models } = await loadProjectModels({
      project,
      flags: { model: 'anthropic:claude-haiku-4-5' },
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      log: { warn: (m) => void warnings.push(m) },
      // The real factory, with the wait recorded instead of slept and the jitter fixed (500 + 0.4 × 500 ms).
      create: (selection, env, options) =>
        createModels(selection, env, {
          ...options,
          retryHooks: {
            ...options?.retryHooks,
            sleep: async (ms) => void waits.push(ms),
            random: () => 0.4,
          },
        }),
    });
    const reply = await models.render(
      { skillName: 'demo', skillMd: '# Demo\n', scenario: { id: 's1', context: 'c' } },
      new AbortController().signal,
    );
    expect(reply.value).toBe('done');
    expect(waits).toEqual([700]);
    expect(warnings).toEqual([
      // One call was in flight when the endpoint said it was overloaded: one at a time from now on.
      'https://api.anthropic.com/v1 is rate-limiting or overloaded: at most 1 model call at once to it now ' +
        '(was 64), raised again as calls succeed',
      'retrying in 0.7 s (attempt 2 of 4): HTTP 529: Overloaded',
    ]);
    expect(nock.isDone()).toBe(true);
  });
});

describe('config endpoints (repository content) and where the key goes', () => {
  const render = (models: Awaited<ReturnType<typeof loadProjectModels>>['models']) =>
    models.render(
      { skillName: 'demo', skillMd: '# Demo\n', scenario: { id: 's1', context: 'c' } },
      new AbortController().signal,
    );
  const reply = (text: string) =>
    anthropicMessage([{ type: 'text', text }], { input_tokens: 1, output_tokens: 1 });
  const KEY = 'sk-ant-workflow-secret';

  it('ignores endpoints from the config without the opt-in: the key goes to the default endpoint', async () => {
    await writeConfig({ endpoints: { anthropic: 'https://attacker.example.com' } });
    const attacker = nock('https://attacker.example.com').post(/.*/).reply(200, reply('stolen'));
    nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': KEY } })
      .post('/v1/messages')
      .reply(200, reply('official'));
    const warnings: string[] = [];
    const { models } = await loadProjectModels({
      project,
      flags: { model: 'anthropic:claude-haiku-4-5' },
      env: { ANTHROPIC_API_KEY: KEY },
      log: { warn: (m) => void warnings.push(m) },
    });
    expect((await render(models)).value).toBe('official');
    expect(attacker.isDone()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/endpoints\.anthropic ignored/);
  });

  it('ignores them in favour of ANTHROPIC_BASE_URL too, and uses them with SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1', async () => {
    await writeConfig({ endpoints: { anthropic: 'https://proxy.example.com' } });
    nock('https://gateway.example.com', { reqheaders: { 'x-api-key': KEY } })
      .post('/v1/messages')
      .reply(200, reply('env'));
    nock('https://proxy.example.com', { reqheaders: { 'x-api-key': KEY } })
      .post('/v1/messages')
      .reply(200, reply('config'));
    const flags = { model: 'anthropic:claude-haiku-4-5' };
    // opted in, but the environment still outranks the file
    const envWins = await loadProjectModels({
      project,
      flags,
      env: {
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: 'https://gateway.example.com',
        SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: '1',
      },
    });
    expect((await render(envWins.models)).value).toBe('env');
    const trusted = await loadProjectModels({
      project,
      flags,
      env: { ANTHROPIC_API_KEY: KEY, SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: '1' },
    });
    expect((await render(trusted.models)).value).toBe('config');
    expect(nock.isDone()).toBe(true);
  });

  it('refuses a trusted config endpoint over plain http to a non-loopback host', async () => {
    await writeConfig({ endpoints: { anthropic: 'http://proxy.example.com' } });
    await expect(
      loadProjectModels({
        project,
        flags: { model: 'anthropic:claude-haiku-4-5' },
        env: { ANTHROPIC_API_KEY: KEY, SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: '1' },
      }),
    ).rejects.toThrow(/endpoints\.anthropic: plain http:\/\/ to proxy\.example\.com/);
  });
});

describe('redaction of provider errors that echo the key', () => {
  // Not shaped like a known key: only the role's own key tells the redactor what to remove.
  const KEY = 'plain-workflow-secret-0123456789';

  it('keeps the key out of the retry warnings and the final ModelCallError', async () => {
    const echo = {
      type: 'error',
      error: {
        type: 'api_error',
        message: `internal error for key ${KEY} at https://u:p@x.example/v1?k=${KEY}`,
      },
    };
    nock('https://api.anthropic.com').post('/v1/messages').times(2).reply(500, echo);
    const warnings: string[] = [];
    const { models } = await loadProjectModels({
      project,
      flags: { model: 'anthropic:claude-haiku-4-5' },
      env: { ANTHROPIC_API_KEY: KEY },
      log: { warn: (m) => void warnings.push(m) },
      create: (selection, env, options) =>
        createModels(selection, env, {
          ...options,
          retry: { maxAttempts: 2 },
          retryHooks: { ...options?.retryHooks, sleep: async () => {} },
        }),
    });
    const failure = await models
      .render(
        { skillName: 'demo', skillMd: '# Demo\n', scenario: { id: 's1', context: 'c' } },
        new AbortController().signal,
      )
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    expect(failure?.name).toBe('ModelCallError');
    expect(failure?.message).toContain('HTTP 500');
    expect(failure?.message).toContain('[redacted]');
    expect(failure?.message).not.toContain(KEY);
    expect(failure?.message).not.toContain('u:p@');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('[redacted]');
    expect(warnings[0]).not.toContain(KEY);
    expect(warnings[0]).not.toContain('?k=');
  });

  it('redacts credential shapes in a retry warning even without the known key', () => {
    const error = new APICallError({
      message: 'bad key sk-ant-api03-abcdefghijklmnop',
      url: 'https://api.anthropic.com/v1/messages',
      requestBodyValues: {},
      statusCode: 500,
    });
    expect(formatRetryWarning({ attempt: 1, delayMs: 1000, error }, 4)).toBe(
      'retrying in 1.0 s (attempt 2 of 4): HTTP 500: bad key [redacted]',
    );
  });
});

describe('applyConfigSettings', () => {
  const defaults: ConfigurableSettings & { project: string } = {
    project: '/p',
    mode: 'composite',
    concurrency: 4,
    maxCostUsd: undefined,
  };

  it('takes the config where nothing was given, keeps what was given, and other fields untouched', () => {
    const config = { mode: 'structural' as const, concurrency: 2, maxCostUsd: 3 };
    expect(applyConfigSettings(defaults, config, () => false)).toEqual({
      project: '/p',
      mode: 'structural',
      concurrency: 2,
      maxCostUsd: 3,
    });
    const given = { ...defaults, mode: 'absolute' as const, concurrency: 8, maxCostUsd: 10 };
    expect(applyConfigSettings(given, config, () => true)).toEqual(given);
    expect(applyConfigSettings(given, config, (s) => s === 'maxCostUsd')).toEqual({
      ...given,
      mode: 'structural',
      concurrency: 2,
    });
  });

  it('keeps the built-in defaults when the config is silent', () => {
    expect(applyConfigSettings(defaults, {}, () => false)).toEqual(defaults);
  });
});
