/**
 * Phase 3's ship gate (seed "Ship-gate rule (composite)"), the canonical squash message, the line count the
 * gate uses, and the frontmatter check that keeps an edit from ever landing a SKILL.md without a name or
 * description. Pure: no I/O.
 */

/**
 * Scores are means of ratios; two computations of the same text can differ in the last bit. Differences at
 * or below this are ties, so float noise never counts as an improvement (or a regression).
 */
export const SCORE_EPSILON = 1e-9;

/** -1, 0 or 1: how `a` compares with `b` once differences within SCORE_EPSILON are treated as ties. */
export function compareScores(a: number, b: number): -1 | 0 | 1 {
  const d = a - b;
  if (d > SCORE_EPSILON) return 1;
  if (d < -SCORE_EPSILON) return -1;
  return 0;
}

export type ShipDecision = 'ship' | 'no-improvement';

export interface ShipGateInput {
  baselineScore: number;
  finalScore: number;
  linesBaseline: number;
  linesFinal: number;
}

/** SHIP when final > baseline OR (final >= baseline AND linesFinal < linesBaseline). */
export function shipGate(input: ShipGateInput): ShipDecision {
  const cmp = compareScores(input.finalScore, input.baselineScore);
  if (cmp > 0) return 'ship';
  if (cmp === 0 && input.linesFinal < input.linesBaseline) return 'ship';
  return 'no-improvement';
}

/** Counts lines the way `wc -l` does: the number of newline characters (a last line without one is not counted). */
export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** `+3`, `-2`, `+0`: the sign is always shown. */
export function formatSigned(n: number): string {
  return n < 0 ? String(n) : `+${n}`;
}

export interface ShipMessageInput {
  skill: string;
  baselineScore: number;
  finalScore: number;
  iterations: number;
  linesDelta: number;
}

/** `skill-iterate: <skill>: baseline N.NN -> final N.NN over K iterations (lines_delta=<+/-N>)`. */
export function shipMessage(input: ShipMessageInput): string {
  return (
    `skill-iterate: ${input.skill}: baseline ${input.baselineScore.toFixed(2)} -> ` +
    `final ${input.finalScore.toFixed(2)} over ${input.iterations} iterations ` +
    `(lines_delta=${formatSigned(input.linesDelta)})`
  );
}

export type FrontmatterCheck = { valid: true } | { valid: false; reason: string };

const BLOCK_SCALAR = /^[|>][+-]?\d*$/;

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
    return v.slice(1, -1).trim();
  }
  return v;
}

/**
 * The SKILL.md frontmatter is a `---` block at the very top with non-empty top-level `name` and
 * `description` keys. Block scalars (`description: >` followed by indented lines) count as non-empty when
 * the next line is indented text.
 */
export function checkFrontmatter(text: string): FrontmatterCheck {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return { valid: false, reason: 'no frontmatter: first line is not ---' };
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (end === -1) return { valid: false, reason: 'frontmatter is not closed by ---' };
  const block = lines.slice(1, end);
  for (const key of ['name', 'description'] as const) {
    const at = block.findIndex((line) => new RegExp(`^${key}\\s*:`).test(line));
    if (at === -1) return { valid: false, reason: `frontmatter has no ${key}` };
    const value = unquote(block[at]!.replace(new RegExp(`^${key}\\s*:`), ''));
    if (BLOCK_SCALAR.test(value)) {
      const next = block[at + 1];
      if (next === undefined || !/^\s+\S/.test(next))
        return { valid: false, reason: `frontmatter ${key} is empty` };
    } else if (value === '') {
      return { valid: false, reason: `frontmatter ${key} is empty` };
    }
  }
  return { valid: true };
}
