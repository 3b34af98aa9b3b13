import { describe, expect, it } from 'vitest';
import { createNightEvents } from '../../src/action/night-events.js';
import { createSkillGroups } from '../../src/action/skill-groups.js';
import type { QueuePlan } from '../../src/core/iterate/queue-plan.js';
import type { SkillResult } from '../../src/core/iterate/run-result.js';
import { ZERO_USAGE } from '../../src/core/usage.js';
import { recordingLog } from '../helpers/github-fixtures.js';
import { iterateOptions } from '../helpers/skill-project.js';

function plan(queue: string[]): QueuePlan {
  return {
    queue,
    dirs: Object.fromEntries(queue.map((s) => [s, `.claude/skills/${s}`])),
    excludedBySkipList: [],
    excludedByFreshness: [],
    excludedOther: [],
    outsideSetting: undefined,
    skillsGlobs: ['.claude/skills/*'],
    plannedAt: new Date('2026-03-01T04:00:00Z'),
  };
}

function result(skill: string): SkillResult {
  return {
    skill,
    baselineScore: 0.5,
    finalScore: 0.5,
    iterations: 1,
    wallSecondsTotal: 1,
    status: 'no-improvement',
    link: undefined,
    keptEdits: [],
    linesDelta: 0,
    usage: ZERO_USAGE,
    rows: [],
  };
}

describe("the nightly step's view of the engine's events", () => {
  it('turns skill-started and skill-finished into log groups and per-skill state saves', async () => {
    const calls: string[] = [];
    const log = recordingLog();
    const groups = createSkillGroups(log, {
      startGroup: (name) => void calls.push(`start ${name}`),
      endGroup: () => void calls.push('end'),
    });
    const events = createNightEvents({
      options: iterateOptions('/project'),
      log,
      groups,
      stateSaver: (p) => {
        calls.push(`saver for ${p.queue.join(',')}`);
        return async (label) => void calls.push(`save ${label}`);
      },
    });
    // Nothing of the night exists before the engine's plan: nothing is saved.
    await events.save('early signal');
    expect(events.plan).toBeUndefined();

    await events.emit({ type: 'plan-ready', plan: plan(['a', 'b', 'c']) });
    expect(events.plan?.queue).toEqual(['a', 'b', 'c']);
    expect(log.infos.join('\n')).toContain('a');
    for (const [index, skill] of ['a', 'b', 'c'].entries()) {
      await events.emit({ type: 'skill-started', index, skill });
      groups.log.progress(`${skill} iter 1`);
      await events.emit({ type: 'skill-finished', index, skill, result: result(skill) });
    }
    await events.save('end of run');
    expect(calls).toEqual([
      'saver for a,b,c',
      'start skill-iterate: a',
      'end',
      'save a',
      'start skill-iterate: b',
      'end',
      'save b',
      'start skill-iterate: c',
      'end',
      // The last skill's records go with the end-of-run save.
      'save end of run',
    ]);
  });

  it('does not print an empty plan: the engine says "Queue empty" itself', async () => {
    const log = recordingLog();
    const events = createNightEvents({
      options: iterateOptions('/project'),
      log,
      groups: createSkillGroups(log, { startGroup: () => undefined, endGroup: () => undefined }),
      stateSaver: () => async () => undefined,
    });
    await events.emit({ type: 'plan-ready', plan: plan([]) });
    expect(log.infos).toEqual([]);
  });

  it('saves nothing and lists no queue when the engine stopped before reporting its plan', async () => {
    const saved: string[] = [];
    const log = recordingLog();
    const events = createNightEvents({
      options: iterateOptions('/project'),
      log,
      groups: createSkillGroups(log, { startGroup: () => undefined, endGroup: () => undefined }),
      stateSaver: (p) => async (label) => void saved.push(`${label}: ${p.queue.join(',')}`),
    });
    await events.save('end of run', [result('alpha')]);
    expect(events.plan).toBeUndefined();
    expect(saved).toEqual([]);
    // Once the engine reports it, the same save goes through the plan's saver.
    await events.emit({ type: 'plan-ready', plan: plan(['alpha']) });
    await events.save('end of run', [result('alpha')]);
    expect(saved).toEqual(['end of run: alpha']);
  });
});
