/**
 * The world the ship-gate simulations share (scripts/sim-assertion-focus.mjs, scripts/sim-noise-estimate.mjs),
 * in the shape of `bench:quality`'s: 6 assertions × 6 scenarios, each check truly passing or not, and a
 * grader that flips each verdict with probability p on every draw. Simulations, not benchmarks: they run
 * no skillclimb code.
 */

export const ASSERTIONS = 6;
export const SCENARIOS = 6;

/** `--name value` from the command line as a number, or the fallback. */
export function numberArg(args, name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** A seeded generator of numbers in [0, 1): every run with the same seed draws the same world. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A draw of a text whose true verdicts are `truth` (assertion × scenario): each verdict flipped with p. */
export const drawer = (p, random) => (truth) =>
  truth.map((row) => row.map((v) => (random() < p ? 1 - v : v)));

/**
 * A baseline and a final text of one kind: good (one assertion passes in 3 more scenarios), good ×2 (two
 * such), mixed (one up 3, another down 3), neutral, harmful (one assertion fails in 2 more scenarios).
 */
export function world(kind, random) {
  const base = Array.from({ length: ASSERTIONS }, () =>
    Array.from({ length: SCENARIOS }, () => (random() < 0.5 ? 1 : 0)),
  );
  const final = base.map((row) => row.slice());
  const move = (a, k, to) => {
    for (let s = 0, n = 0; s < SCENARIOS && n < k; s++) {
      if (final[a][s] === to) continue;
      final[a][s] = to;
      n++;
    }
  };
  if (kind === 'good' || kind === 'good ×2' || kind === 'mixed') move(0, 3, 1);
  if (kind === 'good ×2') move(1, 3, 1);
  if (kind === 'mixed') move(1, 3, 0);
  if (kind === 'harmful') move(1, 2, 0);
  return { base, final };
}

/**
 * One sequential look, as src/core/iterate/sequential.ts takes it with margin 1: before `planned` draws
 * an early stop at z > 2 or at a gain not above 0; at twice `planned` clear above 1; between them a close
 * call (z above 0.5) draws again.
 */
export function look(z, n, planned = 3) {
  if (n < planned) return z > 2 ? 'clear' : z <= 0 ? 'not-better' : 'continue';
  if (n >= 2 * planned) return z > 1 ? 'clear' : 'not-better';
  return z > 1 ? 'clear' : z > 0.5 ? 'continue' : 'not-better';
}
