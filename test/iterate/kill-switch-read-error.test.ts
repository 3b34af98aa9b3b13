/**
 * A kill-switch that cannot be read (issue 13, item 9) stops the run — at launch (a pre-flight halt) and
 * between skills (a partial run that says why) — unless the run is told to continue, which it then does
 * with a warning.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalPorts } from '../../src/adapters/local/ports.js';
import { PreflightHalt } from '../../src/core/halt.js';
import { renderMorningSummary } from '../../src/core/iterate/summary.js';
import type { IterateOptions } from '../../src/iterate/options.js';
import { runIterate } from '../../src/iterate/run.js';
import { createScriptedModels } from '../../src/llm/scripted.js';
import type { KillSwitch } from '../../src/ports/kill-switch.js';
import { cleanupTempDirs, gradeByMarkers, makeProject, tempDir } from '../helpers/engine-fixtures.js';
import { iterateOptions, recordingLogger } from '../helpers/skill-project.js';

afterEach(cleanupTempDirs);

/** Reads fine `okPolls` times, then fails as an API would (HTTP 502). */
function flakySwitch(okPolls: number): KillSwitch {
  let polls = 0;
  return {
    async check() {
      polls++;
      if (polls > okPolls)
        throw new Error('could not read .skill-iterate-killswitch on main (HTTP 502: Bad Gateway)');
      return null;
    },
  };
}

async function setup(killSwitch: KillSwitch, overrides: Partial<IterateOptions> = {}) {
  const project = await makeProject([{ name: 'one' }, { name: 'two' }]);
  const options = iterateOptions(project, {
    worktreeHome: await tempDir('skillclimb-home-'),
    perSkillIterations: 1,
    mode: 'absolute',
    ...overrides,
  });
  const log = recordingLogger();
  const models = createScriptedModels({
    render: (i) => i.skillMd,
    grade: gradeByMarkers,
    propose: () => ({
      description: 'reword',
      old_string: '1. Read the notes.',
      new_string: '1. Read the notes!',
    }),
  });
  const ports = { ...createLocalPorts(options, { models, log }), killSwitch };
  return { options, ports, log };
}

describe('a kill-switch that cannot be read', () => {
  it('at launch: the run does not start (a pre-flight halt that says why)', async () => {
    const { options, ports } = await setup(flakySwitch(0));
    const run = runIterate(options, ports);
    await expect(run).rejects.toBeInstanceOf(PreflightHalt);
    await expect(run).rejects.toThrow(/kill-switch unreadable: could not read .* \(HTTP 502.*; not starting/);
  });

  it('between skills: the run stops gracefully, and the summary says the switch was unreadable', async () => {
    const { options, ports, log } = await setup(flakySwitch(1));
    const run = await runIterate(options, ports);
    expect(run.results.map((r) => r.skill)).toEqual(['one']);
    expect(run.partial?.reason).toMatch(/^kill-switch unreadable: could not read/);
    expect(log.warnings.join('\n')).toContain('graceful stop after 1 of 2 skills');
    expect(renderMorningSummary(run)).toMatch(/\(partial -- kill-switch unreadable at \S+: could not read/);
  });

  it('with "continue": warned about, and the whole queue runs', async () => {
    const { options, ports, log } = await setup(flakySwitch(0), { killSwitchReadError: 'continue' });
    const run = await runIterate(options, ports);
    expect(run.partial).toBeNull();
    expect(run.results.map((r) => r.skill)).toEqual(['one', 'two']);
    expect(log.warnings.filter((w) => /kill-switch/.test(w))).toHaveLength(2);
  });
});
