/**
 * Issue 28 item 6: the baseline's draws beyond draw 0 run beside the first editor call, and nothing they
 * decide is decided without them. Models served by nock at the HTTP layer (the real Anthropic provider
 * code runs), real git; the night's draws come from a table (test/helpers/draw-table.ts), so they are the
 * same whatever order the calls go out in.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { parseResultsTsv } from '../../src/core/iterate/results-tsv.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { runIterate } from '../../src/iterate/run.js';
import type { Logger } from '../../src/ports/logger.js';
import { drawTableScript, reword, variantOf, type Table } from '../helpers/draw-table.js';
import { strictNock } from '../helpers/nock-frame.js';
import { anthropicSkillModels, serveSkillModels, type SkillScript } from '../helpers/nock-skill-models.js';
import { cleanupTempDirs, makeProject, oneNightOptions } from '../helpers/engine-fixtures.js';

strictNock();
afterEach(cleanupTempDirs);

/** A neutral edit; the baseline's draws 0, 1, 2 score 0, .5, 0 (mean 1/6), the edit's .5, 0, 0. */
const NOISY_NEUTRAL: Table = {
  base: { s1: [[], [1], [], [], [1], []] },
  reworded: { s1: [[1], [], []] },
  none: { s1: [[]] },
};

/** A render of the baseline text past its first (draw 0's): one of its extra draws. */
function extraDrawCounter(): (call: { role: string; text: string }) => boolean {
  let baseRenders = 0;
  return ({ role, text }) => {
    if (role !== 'render' || variantOf(text) !== 'base') return false;
    baseRenders += 1;
    return baseRenders > 1;
  };
}

/**
 * Holds the answer to each render of the baseline's extra draws until a render of `variant` arrives, or
 * 2 s pass; `answeredAfter` says, per held render, whether that render had arrived by then.
 */
function extraDrawsHeldUntil(variant: string): { hold: SkillScript['hold']; answeredAfter: boolean[] } {
  let seen: () => void = () => undefined;
  const arrival = new Promise<void>((resolve) => (seen = resolve));
  const isExtra = extraDrawCounter();
  const answeredAfter: boolean[] = [];
  const hold: SkillScript['hold'] = (call) => {
    if (call.role === 'render' && variantOf(call.text) === variant) seen();
    if (!isExtra(call)) return undefined;
    let arrived = false;
    return Promise.race([
      arrival.then(() => (arrived = true)),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]).then(() => {
      answeredAfter.push(arrived);
    });
  };
  return { hold, answeredAfter };
}

async function night(
  hold: SkillScript['hold'],
  options: Partial<IterateOptions> = {},
): Promise<{
  rows: ReturnType<typeof parseResultsTsv>;
  info: string[];
  bodies: ReturnType<typeof serveSkillModels>;
  run: Awaited<ReturnType<typeof runIterate>>;
}> {
  const project = await makeProject([{ name: 'demo' }]);
  const info: string[] = [];
  const log: Logger = { info: (m) => info.push(m), warn: (m) => info.push(m), progress: () => undefined };
  const bodies = serveSkillModels({ ...drawTableScript(NOISY_NEUTRAL, reword), hold });
  const full = await oneNightOptions(project, options);
  const run = await runIterate(full, createLocalPorts(full, { models: anthropicSkillModels(), log }));
  const tsv = await readFile(path.join(project, '.claude/skills/demo/evals/results.tsv'), 'utf8');
  return { rows: parseResultsTsv(tsv), info, bodies, run };
}

describe("issue 28 item 6: the baseline's extra draws beside the first editor call", () => {
  it("the first editor call and the edit's renders go out before draw 1 is answered; the first keep decision and the row still use the 3 draws' mean", async () => {
    // Each render of the baseline text past draw 0's is answered only once the edit's first render has
    // arrived (so the editor's call, too). Before this, the editor waited for the whole baseline: that
    // answer came after 2 s, too late.
    const { hold, answeredAfter } = extraDrawsHeldUntil('reworded');
    const n = await night(hold);
    // Draw 1, then draw 2 (the first two disagree): both answered after the edit's render came in.
    expect(answeredAfter).toEqual([true, true]);
    // The baseline row is first, and says what it is: the mean of its three draws, not draw 0's 0.
    expect(n.rows.map((r) => r.status)).toEqual(['baseline', 'revert']);
    expect(n.rows[0]?.description).toBe('[absolute] initial baseline (mean of 3 trials, sd 0.2887)');
    expect(n.rows[0]?.score).toBeCloseTo(1 / 6, 6);
    // The edit's mean of 3 (1/6) is compared with the baseline's mean (1/6), not with draw 0's 0 (which
    // it would have beaten by +0.1667).
    expect(n.rows[1]?.description).toMatch(/mean of 3 trials, gain \+0\.0000 does not clear the margin/);
    expect(n.run.results[0]?.baselineScore).toBeCloseTo(1 / 6, 9);
    expect(n.run.results[0]?.measurement?.noise?.trials).toBe(3);
  });

  it("the uplift's draw goes out with the baseline's extra draws, beside the first editor call; its report still compares with all three draws", async () => {
    // Each render of the baseline text past draw 0's is answered only once the first render without the
    // skill has arrived. Before this, the uplift's draw waited for the baseline's draws: that answer came
    // after 2 s, too late.
    const { hold, answeredAfter } = extraDrawsHeldUntil('none');
    const n = await night(hold);
    expect(answeredAfter).toEqual([true, true]);
    // The report is made from the baseline's three draws (2 checks a draw, 1 pass in all) against the
    // draw without the skill (2 checks, none passed).
    const uplift = n.run.results[0]?.measurement?.uplift;
    expect([uplift?.with, uplift?.without]).toEqual([
      { passes: 1, total: 6 },
      { passes: 0, total: 2 },
    ]);
  });

  it("the first editor prompt is draw 0's alone: the same under the noise-aware rule as under `--keep-rule original --trials 1`", async () => {
    const noiseAware = await night(undefined);
    nock.cleanAll(); // each night serves its own calls
    const original = await night(undefined, { keepRule: 'original', trials: 1 });
    expect(noiseAware.bodies.editor).toHaveLength(1);
    expect(noiseAware.bodies.editor[0]).toBe(original.bodies.editor[0]);
    expect(original.rows[0]?.description).toBe('[absolute] initial baseline');
  });

  it('a third draw that fails leaves the first two as the baseline, and says so', async () => {
    // Draws 0 and 1 score (0 and .5: they disagree, so draw 2 is made); every later render of the
    // baseline text fails at the HTTP layer (retries included).
    const isExtra = extraDrawCounter();
    let extra = 0;
    const hold: SkillScript['hold'] = (call) =>
      isExtra(call) && ++extra > 1 ? Promise.reject(new Error('connection reset')) : undefined;
    const n = await night(hold);
    const warning = n.info.filter((m) => /the baseline's trials after the first 2/.test(m));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatch(
      /^demo: the baseline's trials after the first 2 could not be scored \(harness-error: .*\); its noise is measured on 2 trials$/,
    );
    expect(n.rows[0]?.description).toBe('[absolute] initial baseline (mean of 2 trials, sd 0.3536)');
  });

  it('extra draws that fail leave the noise unmeasured with a warning; the iteration still runs on draw 0', async () => {
    // Every render of the baseline text past draw 0's fails at the HTTP layer (retries included).
    const isExtra = extraDrawCounter();
    const hold: SkillScript['hold'] = (call) =>
      isExtra(call) ? Promise.reject(new Error('connection reset')) : undefined;
    const n = await night(hold);
    expect(
      n.info.some((m) =>
        /the baseline's extra trials could not be scored .*the noise is not measured/.test(m),
      ),
    ).toBe(true);
    expect(n.rows.map((r) => r.status)).toEqual(['baseline', expect.stringMatching(/^(keep|revert)$/)]);
    expect(n.rows[0]?.description).toBe('[absolute] initial baseline');
    expect(n.rows[0]?.score).toBe(0);
    expect(n.bodies.editor).toHaveLength(1);
  });
});
