/** The key and the file of the baseline's draws kept between nights (core/iterate/baseline-draws-record.ts). */
import { describe, expect, it } from 'vitest';
import {
  baselineDrawsKeyOf,
  formatBaselineDraws,
  parseBaselineDraws,
  type BaselineDrawsRecord,
} from '../../../src/core/iterate/baseline-draws-record.js';
import { ONE_CHECK_EVALS } from '../../helpers/one-check-evals.js';

const EVALS = ONE_CHECK_EVALS;

const BASE = {
  evals: EVALS,
  skillText: '# Demo\n\n1. Read the notes.\n',
  renderModelId: 'anthropic:claude-sonnet-4-5',
  graderModelId: 'anthropic:claude-sonnet-4-5',
  renderEndpoint: 'https://api.anthropic.com/v1',
  graderEndpoint: 'https://api.anthropic.com/v1',
  mode: 'composite' as const,
  structural: undefined,
};

describe('baselineDrawsKeyOf', () => {
  it('changes with the SKILL.md text, an assertion, a model, a model endpoint, the mode and the structural settings', () => {
    const key = baselineDrawsKeyOf(BASE);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(baselineDrawsKeyOf({ ...BASE })).toBe(key);
    const changed = structuredClone(EVALS);
    changed.evals.categories[0]!.evals[0]!.statement = 'Has a Summary heading.';
    const keys = [
      baselineDrawsKeyOf({ ...BASE, skillText: `${BASE.skillText}\nOne more line.\n` }),
      baselineDrawsKeyOf({ ...BASE, evals: changed }),
      baselineDrawsKeyOf({ ...BASE, graderModelId: 'anthropic:claude-haiku-4-5' }),
      baselineDrawsKeyOf({ ...BASE, renderEndpoint: 'https://proxy.example.com/v1' }),
      baselineDrawsKeyOf({ ...BASE, graderEndpoint: 'https://proxy.example.com/v1' }),
      baselineDrawsKeyOf({ ...BASE, mode: 'absolute' }),
      baselineDrawsKeyOf({ ...BASE, structural: { maxLineLength: 120 } }),
    ];
    expect(new Set([key, ...keys]).size).toBe(keys.length + 1);
  });
});

describe('the baseline-draws.json file', () => {
  const record: BaselineDrawsRecord = {
    entries: [
      {
        key: 'a'.repeat(64),
        drawnAt: '2026-12-06T03:00:00.000Z',
        structural: 0.875,
        draws: [
          { score: 0.5, allPass: false, pairs: [{ scenarioId: 's1', assertionId: 1, pass: true }] },
          { score: 0.25, allPass: false, pairs: [{ scenarioId: 's1', assertionId: 1, pass: false }] },
        ],
      },
    ],
  };

  it('reads back what it writes, verdicts and numbers only', () => {
    const text = formatBaselineDraws(record);
    expect(parseBaselineDraws(text)).toEqual(record);
    expect(JSON.parse(text)).toMatchObject({
      version: 1,
      entries: [{ drawn_at: record.entries[0]!.drawnAt }],
    });
  });

  it('is no record when it is not JSON, another version, or a draw has no verdicts', () => {
    const json = JSON.parse(formatBaselineDraws(record)) as {
      version: number;
      entries: Array<{ draws: Array<{ pairs: unknown[] }> }>;
    };
    expect(parseBaselineDraws('{"version": 1, "entries": [')).toBeUndefined();
    expect(parseBaselineDraws(JSON.stringify({ ...json, version: 2 }))).toBeUndefined();
    json.entries[0]!.draws[0]!.pairs = [];
    expect(parseBaselineDraws(JSON.stringify(json))).toBeUndefined();
  });
});
