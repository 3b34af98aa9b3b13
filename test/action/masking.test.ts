import { afterEach, describe, expect, it, vi } from 'vitest';
import { addMaskCommand, maskSecretInputs } from '../../src/action/mask.js';

function capturedMasks(run: () => void): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return lines
    .join('')
    .split(/\r?\n/)
    .filter((line) => line.startsWith('::add-mask::'))
    .map((line) => line.slice('::add-mask::'.length));
}

describe('maskSecretInputs', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('masks every secret input and the provider keys a workflow passes through env', () => {
    vi.stubEnv('INPUT_GITHUB-TOKEN', 'ghs_input_token');
    vi.stubEnv('INPUT_ANTHROPIC-API-KEY', 'sk-ant-input');
    vi.stubEnv('INPUT_OPENAI-API-KEY', '');
    const masks = capturedMasks(() =>
      maskSecretInputs({
        ANTHROPIC_API_KEY: 'sk-ant-from-env',
        OPENAI_API_KEY: 'sk-openai-from-env',
        HOME: '/x',
      }),
    );
    expect(masks).toEqual(['ghs_input_token', 'sk-ant-input', 'sk-ant-from-env', 'sk-openai-from-env']);
  });

  it('masks nothing that is empty', () => {
    vi.stubEnv('INPUT_GITHUB-TOKEN', '');
    vi.stubEnv('INPUT_ANTHROPIC-API-KEY', '');
    vi.stubEnv('INPUT_OPENAI-API-KEY', '');
    expect(capturedMasks(() => maskSecretInputs({ OPENAI_API_KEY: '  ' }))).toEqual([]);
  });

  it('masks a base-URL input only when it carries userinfo', () => {
    vi.stubEnv('INPUT_GITHUB-TOKEN', '');
    vi.stubEnv('INPUT_ANTHROPIC-API-KEY', '');
    vi.stubEnv('INPUT_OPENAI-API-KEY', '');
    vi.stubEnv('INPUT_OPENAI-BASE-URL', 'https://proxy:s3cretPass@llm.example.test/v1');
    vi.stubEnv('INPUT_ANTHROPIC-BASE-URL', 'https://anthropic-proxy.example.test');
    expect(capturedMasks(() => maskSecretInputs({}))).toEqual([
      'https://proxy:s3cretPass@llm.example.test/v1',
    ]);
  });

  it('writes what @actions/core writes for a secret, escapes included', async () => {
    const core = await import('@actions/core');
    const secret = 'line1\nline2\r%end';
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      core.setSecret(secret);
    } finally {
      spy.mockRestore();
    }
    expect(addMaskCommand(secret)).toBe(lines.join(''));
  });
});
