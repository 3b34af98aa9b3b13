#!/usr/bin/env node
/**
 * A simulation, not a benchmark (it runs no skillclimb code): how much does the ship gate's confirmation
 * depend on how its noise estimate σ is measured? (issue 28: "a keep rule on the unit the noise lives in").
 * docs/benchmarks.md § "Issue 28: the noise measured scenario by scenario" has the figures.
 *
 * The model, in the shape of `bench:quality`'s world: 6 assertions × 6 scenarios, each check truly passing
 * or not, the grader flipping each verdict with probability p on every draw. The baseline has `--base`
 * draws (3); the loop drew the final text `--loop` times (1, as at p = 0.15, where it keeps on one draw)
 * and would ship. The confirmation draws the final text afresh one draw at a time with the sequential
 * boundaries of src/core/iterate/sequential.ts (margin 1; before `--planned` draws an early stop at
 * margin + 1 or at a gain not above 0; a close call drawn again up to twice `--planned`), σ pooled from
 * the baseline's draws and the fresh ones. Three ways to measure σ:
 * - composite: the spread of each draw's composite (skillclimb before this change);
 * - scenario: the sum over scenarios of each scenario's spread (src/core/iterate/spread.ts);
 * - known: the true σ, √(p(1 − p) / 36), for reference.
 * Finals: good (one assertion passes in 3 more scenarios), good ×2 (two such), neutral, harmful (one
 * assertion fails in 2 more scenarios). Each cell: P(ship) given the loop would ship it, and fresh draws
 * per confirmation.
 *
 * Usage: node scripts/sim-noise-estimate.mjs [--p 0.15] [--base 3] [--planned 3] [--loop 1] [--n 20000] [--seed 7]
 */
import {
  ASSERTIONS as A,
  SCENARIOS as S,
  drawer,
  look as lookAt,
  mean,
  numberArg,
  seededRandom,
  world as worldOf,
} from './lib/sim-checks.mjs';

const args = process.argv.slice(2);
const p = numberArg(args, '--p', 0.15);
const BASE = numberArg(args, '--base', 3);
const PLANNED = numberArg(args, '--planned', 3);
const LOOP = numberArg(args, '--loop', 1);
const N = numberArg(args, '--n', 20000);
const random = seededRandom(numberArg(args, '--seed', 7));
const draw = drawer(p, random);
const world = (kind) => worldOf(kind, random);
const look = (z, n) => lookAt(z, n, PLANNED);
const sumOfSquares = (xs) => {
  const m = mean(xs);
  return xs.reduce((a, v) => a + (v - m) ** 2, 0);
};
const composite = (d) => mean(d.flat());
/** What each scenario adds to a draw's composite. */
const parts = (d) => Array.from({ length: S }, (_, s) => d.reduce((sum, row) => sum + row[s], 0) / (A * S));

/** σ pooled over texts, each text's draws measured as `how` says. */
function sigma(texts, how) {
  let squares = 0;
  let df = 0;
  for (const draws of texts) {
    if (draws.length < 2) continue;
    df += draws.length - 1;
    if (how === 'composite') squares += sumOfSquares(draws.map(composite));
    else {
      const split = draws.map(parts);
      for (let s = 0; s < S; s++) squares += sumOfSquares(split.map((x) => x[s]));
    }
  }
  return df === 0 ? 0 : Math.sqrt(squares / df);
}

function run(kind, how) {
  const known = Math.sqrt(p * (1 - p)) / Math.sqrt(A * S);
  let reached = 0;
  let shipped = 0;
  let fresh = 0;
  for (let i = 0; i < N; i++) {
    const { base, final } = world(kind);
    const before = Array.from({ length: BASE }, () => draw(base));
    const loop = Array.from({ length: LOOP }, () => draw(final));
    if (mean(loop.map(composite)) <= mean(before.map(composite))) continue;
    reached++;
    const after = [];
    let verdict = 'continue';
    while (verdict === 'continue') {
      after.push(draw(final));
      const n = after.length;
      const sd = how === 'known' ? known : sigma([before, after], how);
      const gain = mean(after.map(composite)) - mean(before.map(composite));
      const se = sd * Math.sqrt(1 / n + 1 / BASE);
      verdict = se <= 1e-9 ? (gain > 0 ? 'clear' : 'not-better') : look(gain / se, n);
    }
    fresh += after.length;
    if (verdict === 'clear') shipped++;
  }
  return `${(shipped / reached).toFixed(2)} (${(fresh / reached).toFixed(1)} draws)`;
}

console.log(`p = ${p}, ${BASE} baseline draws, ${LOOP} loop draw(s), ${N} finals per row`);
console.log('| final   | σ from composites | σ scenario by scenario | σ known          |');
console.log('| ------- | ----------------- | ---------------------- | ---------------- |');
for (const kind of ['good', 'good ×2', 'neutral', 'harmful']) {
  const cells = ['composite', 'scenario', 'known'].map((how) => run(kind, how));
  console.log(
    `| ${kind.padEnd(7)} | ${cells[0].padEnd(17)} | ${cells[1].padEnd(22)} | ${cells[2].padEnd(16)} |`,
  );
}
