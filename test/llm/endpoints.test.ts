/** resolveEndpoint: base URL precedence (options > environment > trusted config) and what a URL may be. */
import { describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../../src/llm/endpoints.js';
import { parseModelId, type ModelId } from '../../src/llm/model-id.js';
import { messageOf } from '../../src/core/errors.js';

type RealId = Exclude<ModelId, { provider: 'offline' }>;
const id = (raw: string) => parseModelId(raw) as RealId;
const anthropic = id('anthropic:claude-sonnet-4-5');
const compatible = id('openai-compatible:qwen3');
const KEY = { ANTHROPIC_API_KEY: 'k-0123456789' };

describe('resolveEndpoint base URL precedence', () => {
  it('ranks explicit options over the environment over config endpoints over the default', () => {
    const config = { configEndpoints: { anthropic: 'https://config.example.com' } };
    const env = { ...KEY, ANTHROPIC_BASE_URL: 'https://env.example.com' };
    expect(resolveEndpoint('editor', anthropic, KEY, {}).baseUrl).toBe('https://api.anthropic.com/v1');
    expect(resolveEndpoint('editor', anthropic, KEY, config).baseUrl).toBe('https://config.example.com/v1');
    expect(resolveEndpoint('editor', anthropic, env, config).baseUrl).toBe('https://env.example.com/v1');
    expect(
      resolveEndpoint('editor', anthropic, env, { ...config, anthropicBaseUrl: 'https://flag.example.com' })
        .baseUrl,
    ).toBe('https://flag.example.com/v1');
    expect(
      resolveEndpoint(
        'grader',
        compatible,
        { OPENAI_BASE_URL: 'http://localhost:11434/v1' },
        {
          configEndpoints: { openaiCompatible: 'https://config.example.com/v1' },
        },
      ).baseUrl,
    ).toBe('http://localhost:11434/v1');
  });
});

describe('resolveEndpoint URL rules', () => {
  it('refuses plain http:// to a non-loopback host, from any source, naming it', () => {
    expect(() =>
      resolveEndpoint('render', anthropic, { ...KEY, ANTHROPIC_BASE_URL: 'http://proxy.example.com' }),
    ).toThrow(
      /^ANTHROPIC_BASE_URL: plain http:\/\/ to proxy\.example\.com would send the API key unencrypted/,
    );
    expect(() =>
      resolveEndpoint(
        'render',
        compatible,
        { OPENAI_API_KEY: 'k-0123456789' },
        { compatibleBaseUrl: 'http://10.0.0.5:8000/v1' },
      ),
    ).toThrow(/^openai-compatible base URL: plain http:\/\//);
    expect(() =>
      resolveEndpoint(
        'render',
        id('openai:gpt-5'),
        { OPENAI_API_KEY: 'k-0123456789' },
        {
          configEndpoints: { openai: 'http://evil.example.com/v1' },
        },
      ),
    ).toThrow(/^skillclimb\.config\.json: endpoints\.openai: plain http:\/\//);
  });

  it('allows plain http:// to loopback: localhost, 127.0.0.0/8 and ::1', () => {
    for (const url of [
      'http://localhost:11434/v1',
      'http://127.0.0.1:9/v1',
      'http://127.8.9.10/v1',
      'http://[::1]:8080/v1',
    ]) {
      expect(resolveEndpoint('render', compatible, { OPENAI_BASE_URL: url }).baseUrl).toBe(url);
    }
    expect(() =>
      resolveEndpoint('render', compatible, {
        OPENAI_BASE_URL: 'http://127.0.0.1.evil.example.com/v1',
        OPENAI_API_KEY: 'k-0123456789',
      }),
    ).toThrow(/plain http:\/\//);
  });

  it('rejects credentials in a base URL without printing them', () => {
    let message = '';
    try {
      resolveEndpoint('render', compatible, {
        OPENAI_BASE_URL: 'https://alice:hunter2-secret@gw.example.com/v1',
      });
    } catch (error) {
      message = messageOf(error);
    }
    expect(message).toMatch(/^OPENAI_BASE_URL: credentials in the URL/);
    expect(message).not.toContain('hunter2-secret');
    expect(message).not.toContain('alice');
  });

  it('does not echo a value that is not a URL', () => {
    expect(() => resolveEndpoint('render', compatible, { OPENAI_BASE_URL: 'secret-ish-garbage' })).toThrow(
      'OPENAI_BASE_URL: not a URL (expected e.g. http://localhost:11434/v1)',
    );
  });
});

describe('plain http to another host', () => {
  it('is allowed for a keyless OpenAI-compatible server (nothing secret travels)', () => {
    const endpoint = resolveEndpoint('render', compatible, {
      OPENAI_BASE_URL: 'http://192.168.1.20:11434/v1',
    });
    expect(endpoint.baseUrl).toBe('http://192.168.1.20:11434/v1');
  });

  it('is refused as soon as a key would be sent', () => {
    expect(() =>
      resolveEndpoint('render', compatible, {
        OPENAI_BASE_URL: 'http://192.168.1.20:11434/v1',
        OPENAI_API_KEY: 'sk-local-0123456789abcdef',
      }),
    ).toThrow(/OPENAI_BASE_URL: plain http:\/\/ to 192\.168\.1\.20 would send the API key unencrypted/);
  });
});
