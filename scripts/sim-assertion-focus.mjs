#!/usr/bin/env node
/**
 * A simulation, not a benchmark (it runs no skillclimb code): would the ship gate's confirmation find more
 * real gains at realistic grader noise if it decided on the one assertion an edit moved instead of on the
 * composite? (issue 28: "a keep rule on the unit the noise lives in (scenario or assertion)").
 * docs/benchmarks.md § "Issue 28, simulated and not built: a confirmation on one assertion" has the figures.
 *
 * The model, in the shape of `bench:quality`'s world: 6 assertions × 6 scenarios, each check truly passing
 * or not, the grader flipping each verdict with probability p on every draw. The baseline has 3 draws; the
 * loop drew the final text twice and would ship (its mean beat the baseline's, on the same baseline draws
 * the confirmation then reuses, as skillclimb does). The confirmation draws the final text afresh one draw
 * at a time with the sequential boundaries of src/core/iterate/sequential.ts (margin 1, an early stop at
 * margin + 1 before 3 draws, a close call drawn again up to 6). Three statistics are compared:
 * - composite: the mean over all 36 checks (today's rule);
 * - focus: the pass rate of the one assertion whose loop gain was largest (its 6 checks), picked from the
 *   loop's draws against the baseline's;
 * - focus + composite: focus, and the composite gain must also be above 0;
 * - composite, fresh baseline: today's statistic against 3 fresh baseline draws instead of the reused ones
 *   (what reusing draws the loop's decision also read costs in trust, in this model; 36 calls more).
 * Finals: good (one assertion passes in 3 more scenarios), good ×2 (two such), mixed (one up 3, another
 * down 3), neutral, harmful (one assertion fails in 2 more scenarios).
 *
 * Usage: node scripts/sim-assertion-focus.mjs [--p 0.3] [--n 40000] [--seed 7]
 */
import {
  ASSERTIONS as A,
  SCENARIOS as S,
  drawer,
  look,
  mean,
  numberArg,
  seededRandom,
  world as worldOf,
} from './lib/sim-checks.mjs';

const args = process.argv.slice(2);
const p = numberArg(args, '--p', 0.3);
const N = numberArg(args, '--n', 40000);
const random = seededRandom(numberArg(args, '--seed', 7));
const draw = drawer(p, random);
const world = (kind) => worldOf(kind, random);
const composite = (d) => mean(d.flat());
const rate = (d, a) => mean(d[a]);

function run(kind, rule) {
  const sd = Math.sqrt(p * (1 - p));
  let reached = 0;
  let shipped = 0;
  let draws = 0;
  for (let i = 0; i < N; i++) {
    const { base, final } = world(kind);
    const before = [draw(base), draw(base), draw(base)];
    const loop = [draw(final), draw(final)];
    if (mean(loop.map(composite)) <= mean(before.map(composite))) continue;
    reached++;
    let focus = 0;
    let best = -Infinity;
    for (let a = 0; a < A; a++) {
      const g = mean(loop.map((d) => rate(d, a))) - mean(before.map((d) => rate(d, a)));
      if (g > best) {
        best = g;
        focus = a;
      }
    }
    const against = rule === 'composite, fresh baseline' ? [draw(base), draw(base), draw(base)] : before;
    const fresh = [];
    let verdict = 'continue';
    while (verdict === 'continue') {
      fresh.push(draw(final));
      const n = fresh.length;
      const k = Math.sqrt(1 / n + 1 / 3);
      const cg = mean(fresh.map(composite)) - mean(against.map(composite));
      let z = cg / ((sd / Math.sqrt(A * S)) * k);
      if (rule === 'focus' || rule === 'focus + composite') {
        const fg = mean(fresh.map((d) => rate(d, focus))) - mean(before.map((d) => rate(d, focus)));
        z = fg / ((sd / Math.sqrt(S)) * k);
        if (rule === 'focus + composite' && cg <= 0) z = Math.min(z, 0);
      }
      verdict = look(z, n);
    }
    draws += fresh.length;
    if (verdict === 'clear') shipped++;
  }
  return { shipped: shipped / reached, draws: draws / reached };
}

console.log(
  `p = ${p}, ${N} finals per row; P(ship) given the loop would ship it, and fresh draws per confirmation`,
);
console.log(
  '| final     | composite (today) | focus on one assertion | focus + composite > 0 | composite, fresh baseline |',
);
console.log(
  '| --------- | ----------------- | ---------------------- | --------------------- | ------------------------- |',
);
for (const kind of ['good', 'good ×2', 'mixed', 'neutral', 'harmful']) {
  const rules = ['composite', 'focus', 'focus + composite', 'composite, fresh baseline'];
  const cells = rules.map((rule) => {
    const r = run(kind, rule);
    return `${r.shipped.toFixed(2)} (${r.draws.toFixed(1)} draws)`;
  });
  console.log(
    `| ${kind.padEnd(9)} | ${cells[0].padEnd(17)} | ${cells[1].padEnd(22)} | ${cells[2].padEnd(21)} | ${cells[3].padEnd(25)} |`,
  );
}
