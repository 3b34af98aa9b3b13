/** IterateOptions.freshnessWindowMs: the Action's shorter cross-night window; the CLI keeps the seed's 24 h. */
import { describe, expect, it } from 'vitest';
import type { Freshness } from '../../src/ports/freshness.js';
import { mergeSkipList } from '../../src/core/iterate/skip-list.js';
import { ITERATE_DEFAULTS } from '../../src/iterate/options.js';
import {
  EMPTY_QUEUE_MESSAGE,
  emptyQueueMessage,
  formatDryRunPlan,
  freshnessWindowOf,
  resolveQueue,
} from '../../src/iterate/queue.js';
import { iterateOptions } from '../helpers/skill-project.js';

const NOW = new Date('2026-05-24T08:00:00Z');
const HOUR = 3_600_000;
const ranAt = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * HOUR);

function fixedFreshness(table: Record<string, Date>): Freshness {
  return { lastRunAt: async (skill) => table[skill.name] ?? null };
}

const freshness = fixedFreshness({ nightly: ranAt(23), 'this-morning': ranAt(5) });
const skills = ['nightly', 'this-morning'];
/** The two skills as an explicit queue (no discovery on disk). */
const input = {
  skipList: mergeSkipList([]),
  explicit: skills.map((name) => ({ name, dir: `.claude/skills/${name}` })),
  found: {
    globs: ['.claude/skills/*'],
    productiveGlobs: [],
    skills: [],
    excluded: [],
    outside: [],
    proposed: [],
  },
};

describe('freshnessWindowMs', () => {
  it('a 20-hour window makes a skill that ran 23 hours ago eligible; one from 5 hours ago stays out', async () => {
    const options = iterateOptions('/nowhere', { freshnessWindowMs: 20 * HOUR });
    const plan = await resolveQueue(options, input, freshness, NOW);
    expect(plan.queue).toEqual(['nightly']);
    expect(plan.excludedByFreshness).toEqual([{ skill: 'this-morning', lastRunAt: ranAt(5) }]);
  });

  it('without it the seed window of 24 hours applies (23 hours ago is still fresh)', async () => {
    const options = iterateOptions('/nowhere');
    expect(freshnessWindowOf(options)).toBe(ITERATE_DEFAULTS.freshnessWindowMs);
    expect(ITERATE_DEFAULTS.freshnessWindowMs).toBe(24 * HOUR);
    const plan = await resolveQueue(options, input, freshness, NOW);
    expect(plan.queue).toEqual([]);
    expect(plan.excludedByFreshness.map((e) => e.skill)).toEqual(['nightly', 'this-morning']);
    // The original's line is true here (both skills ran within the window), so it stays, then each skill.
    expect(formatDryRunPlan(plan, options)).toBe(
      `${EMPTY_QUEUE_MESSAGE}\n  nightly  (fresh until 09:00 UTC: last run 2026-05-23T09:00:00Z; to run it now: \`skillclimb iterate --skill nightly --ignore-freshness\`)\n` +
        '  this-morning  (fresh until 2026-05-25 03:00 UTC: last run 2026-05-24T03:00:00Z; to run it now: `skillclimb iterate --skill this-morning --ignore-freshness`)\n',
    );
  });

  it('a window of 0 turns the filter off', async () => {
    const options = iterateOptions('/nowhere', { freshnessWindowMs: 0 });
    const plan = await resolveQueue(options, input, freshness, NOW);
    expect(plan.queue).toEqual(skills);
  });

  it('the empty-queue message names a non-default window', () => {
    expect(emptyQueueMessage({ freshnessWindowMs: 20 * HOUR })).toContain('within the last 20h.');
    expect(emptyQueueMessage({})).toBe(EMPTY_QUEUE_MESSAGE);
  });

  it('a negative or non-finite window is refused, naming the field', async () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const options = iterateOptions('/nowhere', { freshnessWindowMs: bad });
      await expect(resolveQueue(options, input, freshness, NOW)).rejects.toThrow(
        /^freshnessWindowMs must be a non-negative number of milliseconds/,
      );
    }
  });
});
