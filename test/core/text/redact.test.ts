import { describe, expect, it } from 'vitest';
import { redactSecrets, redactValue, secretsFromEnv } from '../../../src/core/text/redact.js';

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

describe('redactSecrets: tokens of every shape', () => {
  it.each([
    ['a GitHub personal token', 'ghp_0123456789abcdefghijABCDEFGHIJ0123'],
    ['a GitHub OAuth token', 'gho_0123456789abcdefghijABCDEFGHIJ0123'],
    ['a GitHub user-to-server token', 'ghu_0123456789abcdefghijABCDEFGHIJ0123'],
    ['a GitHub installation token', 'ghs_0123456789abcdefghijABCDEFGHIJ0123'],
    ['a GitHub refresh token', 'ghr_0123456789abcdefghijABCDEFGHIJ0123'],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
    ['an older installation token', `v1.${'0123456789abcdef'.repeat(2)}01234567`],
    ['an Anthropic key', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abc'],
    ['an OpenAI key', 'sk-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['an OpenAI project key', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789'],
    ['a JWT', 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjM0NSJ9.c2lnbmF0dXJlLWJ5dGVz'],
    ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE'],
  ])('%s', (_label, token) => {
    const text = `HTTP 401 for token ${token}: bad credentials`;
    expect(redactSecrets(text)).toBe('HTTP 401 for token [redacted]: bad credentials');
  });

  it('keeps the header name and scheme of Authorization headers of any scheme', () => {
    expect(redactSecrets('Authorization: token 0123456789abcdef0123456789abcdef01234567')).toBe(
      'Authorization: token [redacted]',
    );
    expect(redactSecrets('{"authorization":"Bearer abc.def.ghi-jkl"}')).toBe(
      '{"authorization":"Bearer [redacted]"}',
    );
    expect(redactSecrets('proxy-authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe(
      'proxy-authorization: Basic [redacted]',
    );
    expect(redactSecrets('sent Bearer abcdefghijklmnop to the server')).toBe(
      'sent Bearer [redacted] to the server',
    );
  });

  it('removes URL credentials and secret query parameters, keeping the host', () => {
    expect(
      redactSecrets('fatal: unable to access https://x-access-token:s3cr3tvalue@github.com/acme/skills.git/'),
    ).toBe('fatal: unable to access https://[redacted]@github.com/acme/skills.git/');
    expect(redactSecrets('GET https://api.example.com/v1/models?key=AbC123&limit=5#top')).toBe(
      'GET https://api.example.com/v1/models?key=[redacted]&limit=5#top',
    );
    expect(redactSecrets('see https://github.com/@octocat and https://example.com/a?page=2')).toBe(
      'see https://github.com/@octocat and https://example.com/a?page=2',
    );
  });

  it('removes a private key, whole or cut off inside a JSON string', () => {
    const pem =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n-----END RSA PRIVATE KEY-----';
    expect(redactSecrets(`key: ${pem} (loaded)`)).toBe('key: [redacted] (loaded)');
    expect(redactSecrets('{"pem": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg')).toBe(
      '{"pem": "[redacted]',
    );
  });

  it('still removes the exact secrets in use, whatever their shape', () => {
    expect(redactSecrets('key plainoldsecret99 leaked', ['plainoldsecret99'])).toBe('key [redacted] leaked');
  });
});

describe('redactValue', () => {
  it('redacts every string of a state file, keys included, and leaves other values alone', () => {
    const token = 'ghs_0123456789abcdefghijABCDEFGHIJ0123';
    const state = {
      skill: 'verify',
      score: 0.75,
      shipped: false,
      pr: null,
      notShipped: [{ reason: `HTTP 502: {"message": "bad gateway", "token": "${token}"}` }],
      [`echo ${token}`]: ['known-secret-value'],
    };
    expect(redactValue(state, ['known-secret-value'])).toEqual({
      skill: 'verify',
      score: 0.75,
      shipped: false,
      pr: null,
      notShipped: [{ reason: 'HTTP 502: {"message": "bad gateway", "token": "[redacted]"}' }],
      'echo [redacted]': ['[redacted]'],
    });
  });
});
