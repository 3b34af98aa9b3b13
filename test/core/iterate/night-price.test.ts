/**
 * The price of a point (src/core/iterate/night-price.ts): a night or a skill that made no model call says it
 * spent nothing, and a gain is called confirmed only when fresh draws confirmed it.
 */
import { describe, expect, it } from 'vitest';
import { nightPriceLine, skillPriceLine } from '../../../src/core/iterate/night-price.js';
import type { Confirmation } from '../../../src/core/iterate/noise.js';
import type { SkillResult } from '../../../src/core/iterate/run-result.js';
import { ZERO_USAGE, type Usage } from '../../../src/core/usage.js';

const SPENT: Usage = { ...ZERO_USAGE, calls: 120, inputTokens: 9_000, outputTokens: 1_000, costUsd: 0.6 };

function confirmation(gain: number): Confirmation {
  return {
    trials: 2,
    reusedBaseline: true,
    baselineScores: [0.5, 0.52, 0.48],
    finalScores: [0.5 + gain, 0.5 + gain],
    baseline: 0.5,
    final: 0.5 + gain,
    gain,
    needed: 0.03,
    low: gain - 0.02,
    high: gain + 0.02,
    evidence: [],
  };
}

function shipped(skill: string, baseline: number, final: number, confirmedGain?: number): SkillResult {
  return {
    skill,
    baselineScore: baseline,
    finalScore: final,
    iterations: 4,
    wallSecondsTotal: 10,
    status: 'shipped',
    link: 'https://github.com/acme/skills/pull/7',
    keptEdits: [],
    linesDelta: 0,
    usage: ZERO_USAGE,
    rows: [],
    ...(confirmedGain === undefined
      ? {}
      : {
          measurement: {
            keepRule: 'noise-aware',
            confirmation: confirmation(confirmedGain),
            findings: [],
            statements: {},
          },
        }),
  };
}

describe('nightPriceLine', () => {
  it('says a night without a model call spent nothing (structural scoring), not "0.0 calls per point"', () => {
    const line = nightPriceLine([shipped('release-notes', 0.71, 0.9)], ZERO_USAGE);
    expect(line).toBe('Price: no model call was made, so nothing was spent tonight.');
  });

  it('calls the point confirmed when every shipped gain was confirmed with fresh draws', () => {
    const line = nightPriceLine([shipped('a', 0.5, 0.6, 0.04), shipped('b', 0.4, 0.5, 0.02)], SPENT);
    // 120 calls over 2 skills; over 6 points (+0.06) 20 calls each.
    expect(line).toBe(
      'Price: 60.0 calls, 5,000 tokens, $0.3000 per shipped skill (2 shipped); ' +
        '20.0 calls, 1,667 tokens, $0.1000 per confirmed +0.01 of composite (a total gain of +0.0600).',
    );
  });

  it('does not call a gain confirmed that shipped on the loop’s own scores', () => {
    const line = nightPriceLine([shipped('a', 0.5, 0.58)], SPENT);
    expect(line).toContain('per +0.01 of composite shipped (a gain of +0.0800)');
    expect(line).not.toContain('confirmed');
  });

  it('says how many of the gains were confirmed when only some were', () => {
    const line = nightPriceLine([shipped('a', 0.5, 0.6, 0.04), shipped('b', 0.4, 0.44)], SPENT);
    expect(line).toContain('per +0.01 of composite shipped (1 of 2 gains confirmed with fresh draws)');
  });

  it('prices a night that shipped nothing in all', () => {
    expect(nightPriceLine([], SPENT)).toBe(
      'Price: nothing shipped tonight, for 120 calls, 10,000 tokens, $0.6000 in all.',
    );
  });
});

describe('skillPriceLine', () => {
  it('says a skill scored without a model call spent nothing', () => {
    expect(skillPriceLine(ZERO_USAGE, 0.19, false)).toBe(
      'Price: no model call was made, so nothing was spent for this skill',
    );
  });

  it('names the point confirmed or shipped as it was', () => {
    expect(skillPriceLine(SPENT, 0.04, true)).toMatch(
      /^Price: 30\.0 calls, 2,500 tokens, \$0\.1500 per confirmed \+0\.01 /,
    );
    expect(skillPriceLine(SPENT, 0.04, false)).toMatch(
      /per \+0\.01 shipped \(this skill's gain \+0\.0400, its spend 120 calls/,
    );
  });
});
