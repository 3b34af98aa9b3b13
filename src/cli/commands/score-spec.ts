/**
 * `skillclimb score`'s report of the Agent Skills specification's rules (docs/how-it-works.md § The
 * specification's rules) and of the substance the structural score was scaled by: each violation named
 * with its file and field.
 */
import { formatViolation, type SpecViolation } from '../../core/iterate/skill-spec.js';
import type { StructuralResult } from '../../core/iterate/score-types.js';

/** The substance line under the metrics, when it scaled the structural score; else undefined. */
export function substanceLine(structural: StructuralResult): string | undefined {
  const substance = structural.substance;
  if (substance === undefined || substance.factor >= 1) return undefined;
  return (
    `  substance: ${substance.words} words of instructions outside code, fewer than ${substance.needed}: ` +
    `the structural score is the metrics' mean x ${substance.factor.toFixed(4)}`
  );
}

/** The `specification:` block after the scores. */
export function specReport(file: string, violations: readonly SpecViolation[]): string {
  if (violations.length === 0) return '\nspecification: SKILL.md follows the Agent Skills rules\n';
  const lines = violations.map((violation) => `  ${formatViolation(file, violation)}`);
  const rules = `${violations.length} rule${violations.length === 1 ? '' : 's'}`;
  return `\nspecification: ${rules} of the Agent Skills specification broken\n${lines.join('\n')}\n`;
}

/** `score --json`'s `specification` array. */
export function specJson(file: string, violations: readonly SpecViolation[]): Array<Record<string, string>> {
  return violations.map((v) => ({ file, field: v.field, rule: v.rule, detail: v.detail }));
}
