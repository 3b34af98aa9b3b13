import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONFIG_FILE,
  ConfigError,
  loadConfig,
  modelOptionsFromConfig,
  parseConfig,
  parseStructuredOutputFlag,
  resolveModelSelection,
  structuredOutputSetting,
} from '../../src/config/config.js';
import { messageOf } from '../../src/core/errors.js';

let project: string;

beforeEach(async () => {
  project = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-config-'));
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
});

async function writeConfig(value: unknown): Promise<void> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  await writeFile(path.join(project, CONFIG_FILE), text);
}

describe('loadConfig', () => {
  it('returns an empty config when the file is absent', async () => {
    expect(await loadConfig(project)).toEqual({});
  });

  it('reads every field of a valid file', async () => {
    await writeConfig({
      models: { default: 'anthropic:claude-sonnet-4-5', grader: 'openai:gpt-5-mini' },
      prices: { 'openai-compatible:qwen3': { input: 0, output: 0 } },
      maxCostUsd: 5,
      concurrency: 2,
      mode: 'absolute',
      timeoutSeconds: 90,
      endpoints: { openaiCompatible: 'http://localhost:11434/v1' },
      openaiCompatible: { structuredOutputs: true },
    });
    const config = await loadConfig(project);
    expect(config.models?.grader).toBe('openai:gpt-5-mini');
    expect(config.maxCostUsd).toBe(5);
    expect(config.mode).toBe('absolute');
  });

  it.each<[string, unknown, string]>([
    [
      'a bad model id',
      { models: { grader: 'gpt-5' } },
      'models.grader: model id "gpt-5": expected provider:model',
    ],
    ['an unknown role', { models: { critic: 'openai:gpt-5' } }, 'models: unknown field "critic"'],
    ['an unknown top-level field', { maxCost: 3 }, 'unknown field "maxCost"'],
    ['a negative price', { prices: { 'gpt-5': { input: -1, output: 1 } } }, 'prices.gpt-5.input:'],
    ['a wrong type', { concurrency: 'four' }, 'concurrency: expected number, received string'],
    ['a bad mode', { mode: 'fast' }, 'mode:'],
    [
      'a non-URL endpoint',
      { endpoints: { openai: 'api.openai.com' } },
      'endpoints.openai: expected an http:// or https:// URL',
    ],
    ['a zero budget', { maxCostUsd: 0 }, 'maxCostUsd:'],
    [
      'an unknown structured-output mode',
      { openaiCompatible: { structuredOutput: 'grammar' } },
      'openaiCompatible.structuredOutput: expected one of auto, json_schema, json_object, text',
    ],
    [
      'both spellings of the structured-output setting',
      { openaiCompatible: { structuredOutput: 'auto', structuredOutputs: true } },
      'openaiCompatible.structuredOutputs: give structuredOutput alone',
    ],
  ])('rejects %s, naming the file and the field', async (_label, value, message) => {
    await writeConfig(value);
    const error = await loadConfig(project).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(messageOf(error)).toContain(path.join(project, CONFIG_FILE));
    expect(messageOf(error)).toContain(message);
  });

  it('rejects invalid JSON naming the file', async () => {
    await writeConfig('{"models": ');
    await expect(loadConfig(project)).rejects.toThrow(`${path.join(project, CONFIG_FILE)}: not valid JSON`);
  });

  it('accepts a BOM', () => {
    expect(parseConfig('\uFEFF{"mode": "structural"}').mode).toBe('structural');
  });
});

describe('resolveModelSelection', () => {
  const config = parseConfig(
    JSON.stringify({ models: { default: 'openai:gpt-5', grader: 'anthropic:claude-haiku-4-5' } }),
  );

  it('flags override config, config overrides environment defaults', () => {
    expect(resolveModelSelection({ flags: {}, config, env: { ANTHROPIC_API_KEY: 'k' } })).toEqual({
      editorModel: 'openai:gpt-5',
      renderModel: 'openai:gpt-5',
      graderModel: 'anthropic:claude-haiku-4-5',
      sources: { editor: 'config', render: 'config', grader: 'config' },
    });
    const flagged = resolveModelSelection({
      flags: { model: 'openai-compatible:qwen3', renderModel: 'offline' },
      config,
      env: {},
    });
    expect(flagged).toMatchObject({
      editorModel: 'openai-compatible:qwen3',
      renderModel: 'offline',
      graderModel: 'openai-compatible:qwen3',
      sources: { editor: 'flag', render: 'flag', grader: 'flag' },
    });
  });

  it('falls back to the key-based default, or offline', () => {
    expect(resolveModelSelection({ flags: {}, config: {}, env: { OPENAI_API_KEY: 'k' } })).toMatchObject({
      editorModel: 'openai:gpt-5',
      sources: { editor: 'default', render: 'default', grader: 'default' },
    });
    expect(resolveModelSelection({ flags: {}, config: {}, env: {} }).graderModel).toBe('offline');
  });
});

describe('modelOptionsFromConfig', () => {
  it('merges config prices over SKILLCLIMB_PRICES and maps endpoints (opted in) and the timeout', () => {
    const config = parseConfig(
      JSON.stringify({
        prices: { qwen3: { input: 1, output: 2 } },
        endpoints: { anthropic: 'https://proxy.example.com' },
        openaiCompatible: { structuredOutputs: true },
        timeoutSeconds: 30,
      }),
    );
    const warnings: string[] = [];
    const options = modelOptionsFromConfig(
      config,
      {
        SKILLCLIMB_PRICES: '{"qwen3": {"input": 9, "output": 9}, "llama3": {"input": 0.1, "output": 0.1}}',
        SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: '1',
      },
      (w) => warnings.push(w),
    );
    expect(options.prices).toEqual({ qwen3: { input: 1, output: 2 }, llama3: { input: 0.1, output: 0.1 } });
    expect(options.configEndpoints?.anthropic).toBe('https://proxy.example.com');
    // config endpoints never pose as explicit options: the environment outranks them
    expect(options.anthropicBaseUrl).toBeUndefined();
    expect(options.structuredOutput).toBe('json_schema');
    expect(options.timeoutMs).toBe(30_000);
    expect(warnings).toEqual([]);
  });

  it('ignores config endpoints without SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1, with one warning naming the fields', () => {
    const config = parseConfig(
      JSON.stringify({
        endpoints: { anthropic: 'https://evil.example.com', openai: 'https://evil.example.com/v1' },
        openaiCompatible: { structuredOutputs: true },
        prices: { qwen3: { input: 1, output: 2 } },
      }),
    );
    for (const trust of [undefined, '0', 'true']) {
      const warnings: string[] = [];
      const env = trust === undefined ? {} : { SKILLCLIMB_TRUST_CONFIG_ENDPOINTS: trust };
      const options = modelOptionsFromConfig(config, env, (w) => warnings.push(w));
      expect(options.configEndpoints).toBeUndefined();
      expect(options.anthropicBaseUrl).toBeUndefined();
      expect(options.structuredOutput).toBe('json_schema');
      expect(options.prices).toEqual({ qwen3: { input: 1, output: 2 } });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('endpoints.anthropic, endpoints.openai ignored');
      expect(warnings[0]).toContain('SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1');
      expect(warnings[0]).not.toContain('evil.example.com');
    }
    const quiet: string[] = [];
    modelOptionsFromConfig({ prices: {} }, {}, (w) => quiet.push(w));
    expect(quiet).toEqual([]);
  });

  it('names the variable when SKILLCLIMB_PRICES is bad', () => {
    expect(() => modelOptionsFromConfig({}, { SKILLCLIMB_PRICES: '{"qwen3": {"input": "free"}}' })).toThrow(
      /^SKILLCLIMB_PRICES: qwen3\.input: /,
    );
    expect(() => modelOptionsFromConfig({}, { SKILLCLIMB_PRICES: 'nope' })).toThrow(
      'SKILLCLIMB_PRICES: not valid JSON',
    );
  });
});

describe('the structured-output setting of OpenAI-compatible servers', () => {
  it('takes the flag over the config, the config over the default (auto, left undefined)', () => {
    const config = parseConfig(JSON.stringify({ openaiCompatible: { structuredOutput: 'json_object' } }));
    expect(structuredOutputSetting({}, config)).toBe('json_object');
    expect(structuredOutputSetting({ structuredOutput: 'text' }, config)).toBe('text');
    expect(structuredOutputSetting({}, {})).toBeUndefined();
    expect(modelOptionsFromConfig(config, {}).structuredOutput).toBe('json_object');
  });

  it('reads the older boolean spelling: true forces json_schema, false plain text', () => {
    const on = parseConfig(JSON.stringify({ openaiCompatible: { structuredOutputs: true } }));
    const off = parseConfig(JSON.stringify({ openaiCompatible: { structuredOutputs: false } }));
    expect(structuredOutputSetting({}, on)).toBe('json_schema');
    expect(structuredOutputSetting({}, off)).toBe('text');
  });

  it('checks --structured-output, naming the flag', () => {
    expect(parseStructuredOutputFlag(' json_schema ')).toBe('json_schema');
    expect(() => parseStructuredOutputFlag('strict')).toThrow(
      '--structured-output: expected one of auto, json_schema, json_object, text, got "strict"',
    );
  });
});

describe('the noise settings (issue 19)', () => {
  it('reads trials, margin and keepRule; a flag given wins, else the config, else the default', async () => {
    const { applyConfigSettings } = await import('../../src/config/run-settings.js');
    await writeConfig({ trials: 5, margin: 2, keepRule: 'original' });
    const config = await loadConfig(project);
    const options = {
      mode: 'composite' as const,
      concurrency: 4,
      maxCostUsd: undefined,
      trials: 3,
      margin: 1,
    };
    expect(
      applyConfigSettings({ ...options, keepRule: 'noise-aware' as const }, config, () => false),
    ).toMatchObject({
      trials: 5,
      margin: 2,
      keepRule: 'original',
    });
    expect(
      applyConfigSettings({ ...options, keepRule: 'noise-aware' as const }, config, (s) => s === 'trials'),
    ).toMatchObject({ trials: 3, margin: 2 });
    await writeConfig({ keepRule: 'lenient' });
    await expect(loadConfig(project)).rejects.toThrow(/keepRule/);
  });
});
