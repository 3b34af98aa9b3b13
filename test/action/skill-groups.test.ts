import { describe, expect, it } from 'vitest';
import { createSkillGroups, withSkillBoundaries } from '../../src/action/skill-groups.js';
import { recordingLog } from '../helpers/github-fixtures.js';

function sink() {
  const events: string[] = [];
  return {
    events,
    startGroup: (n: string) => void events.push(`start ${n}`),
    endGroup: () => void events.push('end'),
  };
}

describe('per-skill log groups around one engine run', () => {
  it('opens each group lazily at its first line and never leaves an empty one', () => {
    const s = sink();
    const log = recordingLog();
    const groups = createSkillGroups(log, s);
    groups.log.info('preflight');
    groups.next('skill-iterate: a');
    groups.log.progress('a iter 1');
    groups.log.warn('a warning');
    groups.next('skill-iterate: b'); // b never logs (kill-switch)
    groups.close();
    expect(s.events).toEqual(['start skill-iterate: a', 'end']);
    expect(log.infos).toEqual(['preflight', 'a iter 1']);
    expect(log.warnings).toEqual(['a warning']);
  });

  it('turns kill-switch polls into skill boundaries: the first poll is the launch check', async () => {
    const calls: string[] = [];
    let set = false;
    const ks = withSkillBoundaries(
      { check: async () => (set ? 'stop' : null) },
      {
        afterSkill: async (i) => void calls.push(`after ${i}`),
        beforeSkill: (i) => void calls.push(`before ${i}`),
      },
    );
    expect(await ks.check()).toBeNull();
    expect(await ks.check()).toBeNull();
    set = true;
    expect(await ks.check()).toBe('stop');
    expect(calls).toEqual(['before 0', 'after 0', 'before 1', 'after 1']);
  });
});
