/**
 * Every key and base-URL variable of every provider in src/core/providers.ts is masked by the Action's first
 * output and redacted from what is written. The cases are walked from the table, so a provider added there
 * is checked as well, and one whose key the masks or the redaction leave out fails here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskSecretInputs } from '../../src/action/mask.js';
import { INPUT_NAMES, modelEnv, parseInputs, type ActionInputName } from '../../src/action/inputs.js';
import { secretsOf } from '../../src/action/secrets.js';
import type { ActionContext } from '../../src/action/context.js';
import { MODEL_PROVIDERS, PROVIDER_INPUTS } from '../../src/core/providers.js';
import { redactSecrets, secretsFromEnv } from '../../src/core/text/redact.js';
import { buildRoleModel } from '../../src/llm/factory.js';
import { parseModelId, type ModelId } from '../../src/llm/model-id.js';

/** The variable the runner sets for an input, as @actions/core reads it back. */
const runnerVariable = (input: string) => `INPUT_${input.toUpperCase()}`;

/** A runner that was handed no secret input at all. */
function noInputs(): void {
  for (const input of ['github-token', ...PROVIDER_INPUTS.map((p) => p.input)]) {
    vi.stubEnv(runnerVariable(input), '');
  }
}

function masks(env: NodeJS.ProcessEnv): string[] {
  const lines: string[] = [];
  maskSecretInputs(env, (text) => lines.push(text));
  return lines.map((line) => line.replace(/^::add-mask::/, '').trimEnd());
}

const ctx = (env: NodeJS.ProcessEnv): ActionContext => ({
  workspace: '/home/runner/work/skills/skills',
  repo: { owner: 'acme', repo: 'skills' },
  apiUrl: 'https://api.github.com',
  serverUrl: 'https://github.com',
  runId: '17',
  runUrl: 'https://github.com/acme/skills/actions/runs/17',
  runnerTemp: '/home/runner/work/_temp',
  env,
});

/** The inputs as the runner passes them, with `given` set and the rest of action.yml's defaults. */
const inputsWith = (given: Partial<Record<ActionInputName, string>>) =>
  parseInputs((name) => given[name] ?? (name === 'github-token' ? 'ghs_x' : ''));

describe.each(MODEL_PROVIDERS.map((provider) => [provider.id, provider] as const))(
  'provider %s',
  (id, provider) => {
    // Shaped like no known credential, so only the provider's own variable can get them redacted.
    const key = `k3y-${id}-7Qm2xZ9pL4vRw6`;
    const url = `https://proxy-user:p4ss-${id}-W8n3Tz@llm.example.test/v1`;
    const { variable: keyVariable } = provider.key;
    const { variable: urlVariable } = provider.baseUrl;

    afterEach(() => vi.unstubAllEnvs());

    it(`masks its key and a base URL with credentials handed over as ${keyVariable} and ${urlVariable}`, () => {
      noInputs();
      expect(masks({ [keyVariable]: key })).toEqual([key]);
      expect(masks({ [urlVariable]: url })).toEqual([url]);
    });

    it('redacts its key and base URL, as is and encoded, from text written anywhere', () => {
      const env = { [keyVariable]: key, [urlVariable]: url };
      const text = `HTTP 401 for ${key} (${Buffer.from(key).toString('base64')}) via ${encodeURIComponent(url)}`;
      const out = redactSecrets(text, secretsFromEnv(env));
      expect(out).toBe('HTTP 401 for [redacted] ([redacted]) via [redacted]');
    });

    it("gives a role model its key to redact from the model layer's messages", () => {
      const model = parseModelId(provider.example) as Exclude<ModelId, { provider: 'offline' }>;
      const env = { [keyVariable]: key, [urlVariable]: 'https://llm.example.test/v1' };
      expect(buildRoleModel('editor', model, env).secrets).toEqual([key]);
    });
  },
);

describe.each(PROVIDER_INPUTS.map((entry) => [entry.input, entry] as const))('input %s', (input, entry) => {
  const secret =
    entry.kind === 'key'
      ? `k3y-${input}-7Qm2xZ9pL4vRw6`
      : `https://proxy-user:p4ss-W8n3Tz@llm.example.test/v1`;

  afterEach(() => vi.unstubAllEnvs());

  it('is declared, and masked before anything else runs', () => {
    expect(INPUT_NAMES).toContain(input);
    noInputs();
    vi.stubEnv(runnerVariable(input), secret);
    expect(masks({})).toEqual([secret]);
  });

  it(`sets ${entry.variable} for the providers, and stays out of the Action's outputs`, () => {
    const inputs = inputsWith({ [input]: secret });
    expect(modelEnv(inputs, {})).toMatchObject({ [entry.variable]: secret });
    expect(secretsOf(inputs, ctx({}))).toContain(secret);
  });
});
