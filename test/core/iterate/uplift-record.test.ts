/** The key and the file of the draw without the skill kept between nights (core/iterate/uplift-record.ts). */
import { describe, expect, it } from 'vitest';
import {
  formatUpliftRecord,
  parseUpliftRecord,
  upliftKeyOf,
  type UpliftWithoutRecord,
} from '../../../src/core/iterate/uplift-record.js';
import { ONE_CHECK_EVALS } from '../../helpers/one-check-evals.js';

const EVALS = ONE_CHECK_EVALS;

const BASE = {
  evals: EVALS,
  placeholder: 'No skill instructions are given.',
  renderModelId: 'anthropic:claude-sonnet-4-5',
  graderModelId: 'anthropic:claude-sonnet-4-5',
  renderEndpoint: 'https://llm.example.com/v1',
  graderEndpoint: 'https://llm.example.com/v1',
};

describe('upliftKeyOf', () => {
  it('changes with the render model, the grader model, an assertion, a scenario and the placeholder', () => {
    const key = upliftKeyOf(BASE);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const changed = structuredClone(EVALS);
    changed.evals.categories[0]!.evals[0]!.statement = 'Has a Summary heading.';
    const context = { ...EVALS, scenarios: [{ ...EVALS.scenarios[0]!, context: 'Another test.' }] };
    const keys = [
      upliftKeyOf({ ...BASE, renderModelId: 'openai:gpt-5' }),
      upliftKeyOf({ ...BASE, graderModelId: 'openai:gpt-5' }),
      upliftKeyOf({ ...BASE, evals: changed }),
      upliftKeyOf({ ...BASE, evals: context }),
      upliftKeyOf({ ...BASE, placeholder: 'No instructions.' }),
    ];
    expect(new Set([key, ...keys]).size).toBe(6);
  });

  it('changes with the server a model is called at, never with credentials in its URL', () => {
    const key = upliftKeyOf(BASE);
    // Another server with the same model id: another key, whichever role calls it.
    const other = 'http://gpu-2.internal:8000/v1';
    expect(upliftKeyOf({ ...BASE, renderEndpoint: other })).not.toBe(key);
    expect(upliftKeyOf({ ...BASE, graderEndpoint: other })).not.toBe(key);
    expect(upliftKeyOf({ ...BASE, renderEndpoint: 'https://llm.example.com/v2' })).not.toBe(key);
    expect(upliftKeyOf({ ...BASE, renderEndpoint: undefined, graderEndpoint: undefined })).not.toBe(key);
    // The same server however its URL is written, and whatever token its query or userinfo carries.
    for (const same of [
      'https://LLM.example.com:443/v1/',
      'https://llm.example.com/v1?api-key=sk-secret-1',
      'https://user:sk-secret-2@llm.example.com/v1#frag',
    ]) {
      expect(upliftKeyOf({ ...BASE, renderEndpoint: same, graderEndpoint: same })).toBe(key);
    }
  });

  it('does not depend on the order a file lists its fields in', () => {
    const s = EVALS.scenarios[0]!;
    const reordered = {
      ...EVALS,
      scenarios: [{ expected_assertions: s.expected_assertions, context: s.context, id: s.id }],
    };
    expect(upliftKeyOf({ ...BASE, evals: reordered })).toBe(upliftKeyOf(BASE));
  });
});

describe('the record file', () => {
  const record: UpliftWithoutRecord = {
    key: 'a'.repeat(64),
    drawnAt: '2026-12-06T03:00:00.000Z',
    pairs: [
      { scenarioId: 's1', assertionId: 1, pass: false },
      { scenarioId: 's1', assertionId: 2, pass: true },
    ],
  };

  it('reads back what it writes', () => {
    expect(parseUpliftRecord(formatUpliftRecord(record))).toEqual(record);
  });

  it('is no record when it is not JSON, has another shape or another version', () => {
    const json = JSON.parse(formatUpliftRecord(record)) as Record<string, unknown>;
    expect(parseUpliftRecord('{"version": 1, "key": "trunc')).toBeUndefined();
    expect(parseUpliftRecord(JSON.stringify({ ...json, version: 2 }))).toBeUndefined();
    expect(parseUpliftRecord(JSON.stringify({ ...json, key: 'not-a-hash' }))).toBeUndefined();
    expect(parseUpliftRecord(JSON.stringify({ ...json, pairs: [] }))).toBeUndefined();
    expect(parseUpliftRecord(JSON.stringify({ ...json, drawn_at: 'yesterday' }))).toBeUndefined();
  });
});
