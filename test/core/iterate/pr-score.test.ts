/** The pure side of skill scores on a pull request: touched skills, the verdict under noise, new findings. */
import { describe, expect, it } from 'vitest';
import type { AssertionTally } from '../../../src/core/iterate/noise.js';
import {
  compareSides,
  regressionsOf,
  touchedSkills,
  type SideMeasurement,
  type TouchedSkill,
} from '../../../src/core/iterate/pr-score.js';

const changed: TouchedSkill = { name: 'pdf', repoDir: '.claude/skills/pdf', change: 'changed' };

function composite(scores: number[], tallies: AssertionTally[] = []): SideMeasurement {
  return { status: 'ok', detail: undefined, mode: 'composite', scores, tallies };
}

function tally(assertionId: number, passes: number, total: number, flipped = 0): AssertionTally {
  return { assertionId, passes, total, repeatedPairs: total > 1 ? 1 : 0, flippedPairs: flipped };
}

describe('touchedSkills', () => {
  it('names each skill whose folder holds a changed path, with added and removed skills', () => {
    const atBase = [
      { name: 'pdf', repoDir: '.claude/skills/pdf' },
      { name: 'old', repoDir: '.claude/skills/old' },
      { name: 'calm', repoDir: '.claude/skills/calm' },
    ];
    const atHead = [
      { name: 'pdf', repoDir: '.claude/skills/pdf' },
      { name: 'new', repoDir: '.claude/skills/new' },
      { name: 'calm', repoDir: '.claude/skills/calm' },
    ];
    const paths = [
      '.claude/skills/pdf/SKILL.md',
      '.claude/skills/new/SKILL.md',
      '.claude/skills/old/evals/evals.json',
      '.claude/skills/pdfx/SKILL.md', // a sibling whose name starts the same is not pdf's
      'README.md',
    ];
    expect(touchedSkills(paths, atBase, atHead)).toEqual([
      { name: 'new', repoDir: '.claude/skills/new', change: 'added' },
      { name: 'old', repoDir: '.claude/skills/old', change: 'removed' },
      { name: 'pdf', repoDir: '.claude/skills/pdf', change: 'changed' },
    ]);
  });
});

describe('compareSides', () => {
  it('calls a drop beyond the pooled noise margin a regression, with the evidence k of n', () => {
    const c = compareSides({
      skill: changed,
      base: composite([0.9, 0.92, 0.91], [tally(1, 3, 3), tally(2, 3, 3)]),
      head: composite([0.6, 0.62, 0.61], [tally(1, 3, 3), tally(2, 0, 3)]),
      margin: 1,
    });
    expect(c.verdict).toBe('regression');
    expect(c.confirmation?.gain).toBeCloseTo(-0.3, 6);
    expect(c.confirmation!.high).toBeLessThan(0);
    expect(c.confirmation?.evidence).toEqual([
      { assertionId: 2, before: { passes: 3, total: 3 }, after: { passes: 0, total: 3 } },
    ]);
    expect(regressionsOf([c], 'regression')).toHaveLength(1);
    expect(regressionsOf([c], 'never')).toHaveLength(0);
  });

  it('calls a noise-sized difference within noise, not a regression', () => {
    const c = compareSides({
      skill: changed,
      base: composite([0.8, 0.7, 0.9]),
      head: composite([0.75, 0.85, 0.7]),
      margin: 1,
    });
    expect(c.verdict).toBe('within noise');
    expect(c.confirmation!.needed).toBeGreaterThan(Math.abs(c.confirmation!.gain));
  });

  it('reads the noise scenario by scenario: flips that cancel in the composites are noise, not an exact grader', () => {
    // Each base draw passes one of two scenarios (0.3 each): the composites tie at 0.6, the scenarios flip.
    const parts = (a: number, b: number) =>
      new Map([
        ['s1', a],
        ['s2', b],
      ]);
    const base: SideMeasurement = {
      ...composite([0.6, 0.6, 0.6]),
      parts: [parts(0.3, 0), parts(0, 0.3), parts(0.3, 0)],
    };
    const head: SideMeasurement = {
      ...composite([0.5, 0.5, 0.5]),
      parts: [parts(0.2, 0), parts(0.2, 0), parts(0.2, 0)],
    };
    const c = compareSides({ skill: changed, base, head, margin: 1 });
    // Base sums of squares .06 + .06 over 4 degrees of freedom: sd .1732, a margin of .1414 for 3 against 3.
    expect(c.confirmation?.needed).toBeCloseTo(Math.sqrt(0.12 / 4) * Math.sqrt(2 / 3), 6);
    expect(c.verdict).toBe('within noise');
    // Without the split, three equal composites a side measure no spread, and a 0.1 drop fails the check.
    const unsplit = compareSides({
      skill: changed,
      base: composite(base.scores),
      head: composite(head.scores),
      margin: 1,
    });
    expect(unsplit.verdict).toBe('regression');
  });

  it('never fails a one-draw composite: the noise is not measured', () => {
    const c = compareSides({ skill: changed, base: composite([0.9]), head: composite([0.5]), margin: 1 });
    expect(c.verdict).toBe('within noise');
    expect(c.reason).toContain('one draw per side');
  });

  it('treats any drop of an exact structural score as a regression', () => {
    const structural = (s: number): SideMeasurement => ({
      status: 'ok',
      detail: undefined,
      mode: 'structural',
      scores: [s],
      tallies: [],
    });
    expect(
      compareSides({ skill: changed, base: structural(0.8), head: structural(0.79), margin: 1 }).verdict,
    ).toBe('regression');
    expect(
      compareSides({ skill: changed, base: structural(0.8), head: structural(0.8), margin: 1 }).verdict,
    ).toBe('unchanged');
    expect(
      compareSides({ skill: changed, base: structural(0.7), head: structural(0.8), margin: 1 }).verdict,
    ).toBe('improvement');
  });

  it('lists only the findings the head has and the base had not', () => {
    const c = compareSides({
      skill: changed,
      base: composite([0.5, 0.5], [tally(1, 0, 2), tally(2, 2, 2)]),
      head: composite([0.5, 0.5], [tally(1, 0, 2), tally(2, 1, 2, 1)]),
      margin: 1,
    });
    // #1 never passes on both sides (not new); #2 became flaky at the head.
    expect(c.newFindings.map((f) => [f.assertionId, f.kind])).toEqual([[2, 'flaky']]);
  });

  it('does not compare a side that has no score, a new skill, or different modes', () => {
    const failed: SideMeasurement = { ...composite([]), status: 'harness-error', detail: 'HTTP 500' };
    expect(compareSides({ skill: changed, base: failed, head: composite([0.5]), margin: 1 }).verdict).toBe(
      'not compared',
    );
    expect(
      compareSides({
        skill: { ...changed, change: 'added' },
        base: undefined,
        head: composite([0.5]),
        margin: 1,
      }).reason,
    ).toBe('a new skill: nothing to compare with');
    const structural: SideMeasurement = { ...composite([0.5]), mode: 'structural' };
    expect(
      compareSides({ skill: changed, base: structural, head: composite([0.5]), margin: 1 }).verdict,
    ).toBe('not compared');
  });
});
