import { describe, expect, it } from 'vitest';
import { createModels, defaultModelFor, resolveRoleIds } from '../../src/llm/factory.js';
import { ModelIdError, parseModelId } from '../../src/llm/model-id.js';

describe('parseModelId', () => {
  it.each([
    ['anthropic:claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5'],
    ['openai:gpt-5', 'openai', 'gpt-5'],
    ['openai-compatible:qwen3', 'openai-compatible', 'qwen3'],
    ['openai-compatible:qwen3:8b', 'openai-compatible', 'qwen3:8b'],
    [
      'openai-compatible:meta-llama/Llama-3.3-70B-Instruct',
      'openai-compatible',
      'meta-llama/Llama-3.3-70B-Instruct',
    ],
    ['  openai:gpt-5  ', 'openai', 'gpt-5'],
    ['offline', 'offline', 'offline'],
  ])('%s → %s / %s', (raw, provider, model) => {
    const id = parseModelId(raw);
    expect(id.provider).toBe(provider);
    expect(id.model).toBe(model);
    expect(id.id).toBe(provider === 'offline' ? 'offline' : `${provider}:${model}`);
  });

  it.each([
    ['claude-sonnet-4-5', 'model id "claude-sonnet-4-5": expected provider:model'],
    ['gemini:gemini-2.5-pro', 'model id "gemini:gemini-2.5-pro": unknown provider "gemini"'],
    ['openai:', 'model id "openai:": no model name after "openai:"'],
    ['openai:gpt 5', 'model id "openai:gpt 5": the model name contains whitespace'],
    ['', 'model id "": empty'],
    ['Anthropic:claude', 'unknown provider "Anthropic"'],
  ])('rejects %j naming the id', (raw, message) => {
    expect(() => parseModelId(raw)).toThrow(ModelIdError);
    expect(() => parseModelId(raw)).toThrow(message);
  });
});

describe('role defaults and selection', () => {
  it('defaults by which key is present, Anthropic first, offline without keys', () => {
    expect(defaultModelFor({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' })).toBe(
      'anthropic:claude-sonnet-4-5',
    );
    expect(defaultModelFor({ OPENAI_API_KEY: 'o' })).toBe('openai:gpt-5');
    expect(defaultModelFor({ ANTHROPIC_API_KEY: '  ' })).toBe('offline');
    expect(defaultModelFor({})).toBe('offline');
  });

  it('--model sets all roles; a role flag overrides it', () => {
    expect(resolveRoleIds({ model: 'openai:gpt-5', graderModel: 'anthropic:claude-haiku-4-5' }, {})).toEqual({
      editor: 'openai:gpt-5',
      render: 'openai:gpt-5',
      grader: 'anthropic:claude-haiku-4-5',
    });
    expect(resolveRoleIds({ editorModel: 'openai:gpt-5' }, { ANTHROPIC_API_KEY: 'k' })).toEqual({
      editor: 'openai:gpt-5',
      render: 'anthropic:claude-sonnet-4-5',
      grader: 'anthropic:claude-sonnet-4-5',
    });
  });

  it('builds real models from a key alone and labels every role', () => {
    const models = createModels({}, { ANTHROPIC_API_KEY: 'k' });
    expect(models.structuralOnly).toBe(false);
    expect(models.renderModelId).toBe('anthropic:claude-sonnet-4-5');
    expect(models.label).toBe(
      'editor=anthropic:claude-sonnet-4-5 render=anthropic:claude-sonnet-4-5 grader=anthropic:claude-sonnet-4-5',
    );
  });

  it('allows a real editor with structural-only scoring', () => {
    const models = createModels({ model: 'offline', editorModel: 'openai:gpt-5' }, { OPENAI_API_KEY: 'k' });
    expect(models.structuralOnly).toBe(true);
    expect(models.renderModelId).toBe('offline');
    expect(models.label).toContain('editor=openai:gpt-5');
    expect(models.label).toContain('structural scoring only');
  });

  it('refuses render and grader that disagree on being offline', () => {
    expect(() =>
      createModels({ model: 'offline', graderModel: 'openai:gpt-5' }, { OPENAI_API_KEY: 'k' }),
    ).toThrow('render model offline and grader model openai:gpt-5: both must be offline');
  });

  it('reports a bad id before a missing key, naming the id', () => {
    expect(() => createModels({ renderModel: 'claude' }, {})).toThrow(
      'model id "claude": expected provider:model',
    );
  });

  it('names the role, the model and the variable when a key is missing', () => {
    expect(() => createModels({ model: 'openai:gpt-5' }, {})).toThrow(
      'editor model openai:gpt-5 needs OPENAI_API_KEY',
    );
    expect(() => createModels({ model: 'anthropic:claude-sonnet-4-5' }, { OPENAI_API_KEY: 'k' })).toThrow(
      'editor model anthropic:claude-sonnet-4-5 needs ANTHROPIC_API_KEY',
    );
  });
});
