/**
 * What an outside check of issue 13 still found blocking after the first fixes: a FIFO (or a folder) in
 * place of the lock file or of skillclimb.config.json, and a kill-switch API that keeps failing while the
 * run is told to continue. Each is refused by name, or bounded, and never blocks.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectLock } from '../../src/adapters/local/lock.js';
import { main } from '../../src/cli/main.js';
import {
  KILL_SWITCH_RETRIES,
  createGitHubKillSwitch,
  killSwitchRetryPolicy,
} from '../../src/github/action/kill-switch.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { killSwitchUnreadable } from '../../src/iterate/preflight.js';
import { cleanupTempDirs, makeProject } from '../helpers/engine-fixtures.js';
import { recordingLog } from '../helpers/github-fixtures.js';
import { captureIo } from '../helpers/skill-project.js';

afterEach(cleanupTempDirs);

async function dryRun(project: string) {
  const io = captureIo(project);
  const code = await main(['iterate', '--project', project, '--dry-run'], io);
  return { code, stderr: io.stderr() };
}

describe('something other than a file in place of the lock or the config', () => {
  for (const kind of ['fifo', 'directory'] as const) {
    const make = async (file: string) =>
      kind === 'fifo' ? execFileSync('mkfifo', [file]) : await mkdir(file);

    it(`a ${kind} as .skill-iterate.lock: an unreadable lock, named, never read and never taken over`, async () => {
      const project = await makeProject();
      const lock = path.join(project, '.skill-iterate.lock');
      await make(lock);
      // Ten years on, it is still not "abandoned": only a file this tool wrote can be taken over.
      const found = await inspectLock(lock, Date.now() + 10 * 365 * 24 * 3600 * 1000);
      expect(found).toMatchObject({ state: 'unreadable', detail: 'not a regular file: remove it by hand' });

      const io = captureIo(project);
      const code = await main(['iterate', '--project', project], io);
      expect(code, io.stderr()).toBe(2);
      expect(io.stderr()).toContain(
        `lock file ${lock} is unreadable (not a regular file: remove it by hand)`,
      );
    });

    it(`a ${kind} as skillclimb.config.json: refused by name with exit 2`, async () => {
      const project = await makeProject();
      await make(path.join(project, 'skillclimb.config.json'));
      const run = await dryRun(project);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `${path.join(project, 'skillclimb.config.json')}: is not a regular file (replace it by the JSON file, or remove it)`,
      );
    });
  }
});

describe('a kill-switch API that keeps failing', () => {
  const API = 'https://api.github.test';
  const FILE = '/repos/acme/skills/contents/.skill-iterate-killswitch';
  afterEach(() => nock.cleanAll());

  it("is asked twice per check (one retry), not the night's four times", async () => {
    let requests = 0;
    const scope = nock(API).get(FILE).query({ ref: 'main' }).times(10).reply(500, { message: 'oops' });
    scope.on('request', () => requests++);
    const night = { retries: 3, rateLimitRetries: 0, maxRateLimitWaitSeconds: 0, delayUnitMs: 1 };
    const client = createGitHubClient({ token: 't', apiUrl: API, retry: killSwitchRetryPolicy(night) });
    const ks = createGitHubKillSwitch({
      client,
      repo: { owner: 'acme', repo: 'skills' },
      base: 'main',
      log: recordingLog(),
    });
    await expect(ks.check()).rejects.toThrow(/HTTP 500/);
    expect(requests).toBe(KILL_SWITCH_RETRIES + 1);
    expect(killSwitchRetryPolicy({ ...night, retries: 0 }).retries).toBe(0);
  });

  it('once told to continue, the warning no longer tells the operator to pass continue', () => {
    expect(killSwitchUnreadable('HTTP 500', true)).toBe('kill-switch unreadable: HTTP 500');
    expect(killSwitchUnreadable('HTTP 500')).toMatch(/pass --kill-switch-read-error continue/);
  });
});
