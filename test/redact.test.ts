import { describe, expect, it } from 'vitest';
import { redactSecrets, secretsFromEnv } from '../src/core/redact.js';

describe('redactSecrets', () => {
  it('removes a known secret in plain, URL-encoded and base64 form', () => {
    const secret = 'my/secret+value=123';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${Buffer.from(secret).toString('base64')} d ${Buffer.from(`x-access-token:${secret}`).toString('base64')}`;
    const out = redactSecrets(text, [secret]);
    expect(out).toBe('a [redacted] b [redacted] c [redacted] d [redacted]');
  });

  it('removes credential-shaped strings even when the secret is not known', () => {
    const out = redactSecrets(
      'HTTP 401: invalid x-api-key: sk-ant-APIKEYSECRET-0123456789; Authorization: Bearer abcdefghijklmnop; token ghs_abcdefghijklmnopqrstuvwxyz123 "x-api-key":"zzzzzzzzzzzz"',
    );
    expect(out).toBe(
      'HTTP 401: invalid x-api-key: [redacted]; Authorization: Bearer [redacted]; token [redacted] "x-api-key":"[redacted]"',
    );
  });

  it('leaves ordinary text and short values alone', () => {
    const text = 'editor model anthropic:claude-sonnet-4-5: HTTP 529: Overloaded (request id req_123)';
    expect(redactSecrets(text, ['short', undefined, ''])).toBe(text);
  });

  it('collects the keys and tokens an environment holds', () => {
    expect(
      secretsFromEnv({
        ANTHROPIC_API_KEY: ' sk-a ',
        OPENAI_API_KEY: '',
        GITHUB_TOKEN: 'ghs_x',
        HOME: '/root',
      }),
    ).toEqual(['sk-a', 'ghs_x']);
  });
});
