/**
 * The price of a point (docs/how-it-works.md § Decisions under noise): what a night's shipped skills and
 * its confirmed gain cost in calls, tokens and money, and the night's noise floor in one line. The morning
 * summary, the PR body and the dashboard say the same. Pure.
 */
import type { NoiseFloor, SkillResult } from './run-result.js';
import { totalTokens, type Usage } from '../usage.js';
import { inertInline } from '../text/untrusted-text.js';

/** What one shipped skill, and one confirmed +0.01 of composite, cost on average. */
export interface PointPrice {
  calls: number;
  tokens: number;
  /** null when the provider reported no price. */
  costUsd: number | null;
}

/** The gain a shipped skill is credited with: the confirmed gain when it was confirmed, else final − baseline. */
export function shippedGain(result: SkillResult): number {
  const c = result.measurement?.confirmation;
  if (c) return c.gain;
  if (result.finalScore === null || result.baselineScore === null) return 0;
  return result.finalScore - result.baselineScore;
}

function per(usage: Usage, units: number): PointPrice {
  return {
    calls: usage.calls / units,
    tokens: totalTokens(usage) / units,
    costUsd: usage.costUsd === null ? null : usage.costUsd / units,
  };
}

function priceText(p: PointPrice): string {
  const calls = p.calls.toFixed(p.calls >= 100 ? 0 : 1);
  const tokens = Math.round(p.tokens).toLocaleString('en-US');
  const cost = p.costUsd === null ? 'cost not reported by the provider' : `$${p.costUsd.toFixed(4)}`;
  return `${calls} calls, ${tokens} tokens, ${cost}`;
}

/** A night or a skill that made no model call (structural scoring) spent nothing: no price to divide. */
const NOTHING_SPENT = 'no model call was made, so nothing was spent';

/** Whether `result`'s shipped gain was confirmed with fresh draws (not the loop's own scores). */
function confirmed(result: SkillResult): boolean {
  return result.measurement?.confirmation !== undefined;
}

/**
 * The unit a point is priced in: "confirmed +0.01" only when every gain counted was confirmed with fresh
 * draws; a gain shipped on the loop's own scores (structural scoring, `--keep-rule original`, a final
 * text's check that reproduced, a cost budget reached) is not called confirmed.
 */
function pointUnit(confirmedCount: number, shippedCount: number): string {
  if (confirmedCount === shippedCount) return 'confirmed +0.01 of composite';
  if (confirmedCount === 0) return '+0.01 of composite shipped';
  return `+0.01 of composite shipped (${confirmedCount} of ${shippedCount} gains confirmed with fresh draws)`;
}

/**
 * "The night spent N calls …: per shipped skill …; per confirmed +0.01 …". The whole night's spend is
 * divided, skills that shipped nothing included: that is what a shipped point cost.
 */
export function nightPriceLine(results: readonly SkillResult[], usage: Usage): string {
  if (usage.calls === 0) return `Price: ${NOTHING_SPENT} tonight.`;
  const shipped = results.filter((r) => r.status === 'shipped');
  if (shipped.length === 0) return `Price: nothing shipped tonight, for ${priceText(per(usage, 1))} in all.`;
  const gain = shipped.reduce((s, r) => s + shippedGain(r), 0);
  const points = gain / 0.01;
  const unit = pointUnit(shipped.filter(confirmed).length, shipped.length);
  return (
    `Price: ${priceText(per(usage, shipped.length))} per shipped skill (${shipped.length} shipped); ` +
    (points > 0
      ? `${priceText(per(usage, points))} per ${unit} (${shipped.length === 1 ? 'a' : 'a total'} gain of +${gain.toFixed(4)}).`
      : 'no gain to price a point by.')
  );
}

/** One skill's own spend per +0.01 of its gain (the PR body); `isConfirmed`: the gain came from fresh draws. */
export function skillPriceLine(usage: Usage, gain: number, isConfirmed: boolean): string {
  if (usage.calls === 0) return `Price: ${NOTHING_SPENT} for this skill`;
  const points = gain / 0.01;
  const unit = isConfirmed ? 'confirmed +0.01' : '+0.01 shipped';
  return points > 0
    ? `Price: ${priceText(per(usage, points))} per ${unit} (this skill's gain +${gain.toFixed(4)}, its spend ${priceText(per(usage, 1))})`
    : `Price: ${priceText(per(usage, 1))} for this skill`;
}

/**
 * The night's noise floor over its skills: the flip rate pooled over every pair of draws compared, and the
 * range of the skills' smallest confirmable gains. Undefined when no skill measured one.
 */
export function nightNoiseLine(results: readonly SkillResult[]): string | undefined {
  const floors = results
    .map((r) => r.measurement?.noiseFloor)
    .filter((f): f is NoiseFloor => f !== undefined);
  if (floors.length === 0) return undefined;
  const compared = floors.reduce((s, f) => s + f.comparisons, 0);
  const flips = floors.reduce((s, f) => s + f.flipRate * f.comparisons, 0);
  const gains = floors.map((f) => f.minimumDetectableGain);
  const lo = Math.min(...gains);
  const hi = Math.max(...gains);
  const range = lo === hi ? `+${lo.toFixed(4)}` : `+${lo.toFixed(4)} to +${hi.toFixed(4)} (by skill)`;
  return (
    `Noise: the grader's verdicts flipped on ${((100 * flips) / Math.max(1, compared)).toFixed(0)} % of ` +
    `${compared} pairs of draws of identical texts; improvements under ${range} cannot be told from that ` +
    'noise: raise `trials` or fix the flaky assertions listed per skill.' +
    storedDrawsNote(results)
  );
}

/**
 * ` Some of those draws were drawn on an earlier night and reused: 2 of demo's 3 baseline trials (2026-12-06).`
 * when a skill's baseline took draws from the record kept between nights (docs/how-it-works.md § Baseline).
 */
function storedDrawsNote(results: readonly SkillResult[]): string {
  const reused = results.flatMap((r) => {
    const stored = r.measurement?.noiseFloor ? r.measurement.baselineStored : undefined;
    if (!stored) return [];
    const noise = r.measurement?.noise;
    const of = noise ? `${noise.trials} ` : '';
    return [
      `${stored.draws} of ${inertInline(r.skill, 100)}'s ${of}baseline trials (${stored.drawnAt.slice(0, 10)})`,
    ];
  });
  if (reused.length === 0) return '';
  return ` Some of those draws were drawn on an earlier night and reused: ${reused.join(', ')}.`;
}
