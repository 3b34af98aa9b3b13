import { describe, expect, it } from 'vitest';
import { createSkillGroups } from '../../src/action/skill-groups.js';
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
});
