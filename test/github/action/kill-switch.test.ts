import nock from 'nock';
import { describe, expect, it } from 'vitest';
import {
  KillSwitchReadError,
  createGitHubKillSwitch,
  isKillSwitchValue,
  killSwitchInputReason,
} from '../../../src/github/action/kill-switch.js';
import { createGitHubClient } from '../../../src/github/octokit.js';
import { recordingLog, NO_RETRIES } from '../../helpers/github-fixtures.js';
import { looseNock } from '../../helpers/nock-frame.js';

const API = 'https://api.github.test';
const FILE = '/repos/acme/skills/contents/.skill-iterate-killswitch';
const VARIABLE = '/repos/acme/skills/actions/variables/SKILL_ITERATE_KILLSWITCH';

function killSwitch(input?: string) {
  const log = recordingLog();
  const ks = createGitHubKillSwitch({
    client: createGitHubClient({ token: 't', apiUrl: API, retry: NO_RETRIES }),
    repo: { owner: 'acme', repo: 'skills' },
    base: 'main',
    log,
    input,
  });
  return { ks, log };
}

looseNock();

describe('GitHub kill-switch', () => {
  it('is set when the file exists on the base branch', async () => {
    const scope = nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .reply(200, { type: 'file', name: '.skill-iterate-killswitch', content: '' });
    const { ks } = killSwitch();
    expect(await ks.check()).toBe('kill-switch file .skill-iterate-killswitch is present on main');
    expect(scope.isDone()).toBe(true);
  });

  it('is not set when the file is absent and the variable does not exist', async () => {
    const scope = nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .reply(404, { message: 'Not Found' })
      .get(VARIABLE)
      .reply(404, { message: 'Not Found' });
    const { ks, log } = killSwitch();
    expect(await ks.check()).toBeNull();
    expect(log.warnings).toEqual([]);
    expect(scope.isDone()).toBe(true);
  });

  it('is set by the repository variable SKILL_ITERATE_KILLSWITCH=1', async () => {
    const scope = nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .reply(404, {})
      .get(VARIABLE)
      .reply(200, { name: 'SKILL_ITERATE_KILLSWITCH', value: '1' });
    const { ks } = killSwitch();
    expect(await ks.check()).toBe('repository variable SKILL_ITERATE_KILLSWITCH=1');
    expect(scope.isDone()).toBe(true);
  });

  it('is not set by a variable holding 0', async () => {
    nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .reply(404, {})
      .get(VARIABLE)
      .reply(200, { name: 'SKILL_ITERATE_KILLSWITCH', value: '0' });
    const { ks } = killSwitch();
    expect(await ks.check()).toBeNull();
  });

  it('a failing file read is not "not set": it throws, so the run can stop (issue 13, item 9)', async () => {
    nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .reply(500, { message: 'oops' })
      .get(FILE)
      .query({ ref: 'main' })
      .reply(404, { message: 'Not Found' })
      .get(VARIABLE)
      .reply(502, { message: 'Bad Gateway' });
    const { ks } = killSwitch();
    await expect(ks.check()).rejects.toThrow(/could not read \.skill-iterate-killswitch on main \(HTTP 500/);
    await expect(ks.check()).rejects.toBeInstanceOf(KillSwitchReadError);
  });

  it('reads a 403 on the variable (GITHUB_TOKEN has no variables permission) as one info line, then stops asking', async () => {
    const scope = nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .times(3)
      .reply(404, { message: 'Not Found' })
      .get(VARIABLE)
      .once()
      .reply(403, { message: 'Resource not accessible by integration' });
    const { ks, log } = killSwitch();

    for (let poll = 0; poll < 3; poll++) expect(await ks.check()).toBeNull();

    expect(log.warnings).toEqual([]);
    expect(log.infos).toHaveLength(1);
    expect(log.infos[0]).toMatch(
      /^kill-switch: this token cannot read repository variables \(HTTP 403\), so SKILL_ITERATE_KILLSWITCH is not polled during the run; pass it as the kill-switch input/,
    );
    // Three file reads, one variable read: a second variable request would have no interceptor and warn.
    expect(scope.isDone()).toBe(true);
  });

  it('reads a 404 on the variable as "not set", with one info line however many polls', async () => {
    const scope = nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .times(2)
      .reply(404, {})
      .get(VARIABLE)
      .times(2)
      .reply(404, { message: 'Not Found' });
    const { ks, log } = killSwitch();
    expect(await ks.check()).toBeNull();
    expect(await ks.check()).toBeNull();
    expect(log.warnings).toEqual([]);
    expect(log.infos).toEqual([
      'kill-switch: repository variable SKILL_ITERATE_KILLSWITCH is not set (or not visible to this token)',
    ]);
    // A variable created mid-run is still seen: the 404 does not stop the polling.
    expect(scope.isDone()).toBe(true);
  });

  it('is set by the kill-switch input without any API request', async () => {
    const { ks } = killSwitch('yes');
    expect(await ks.check()).toBe('input kill-switch=yes');
    expect(await ks.check()).toBe('input kill-switch=yes');
    expect(killSwitchInputReason('0')).toBeNull();
    expect(killSwitchInputReason(undefined)).toBeNull();
  });

  it('with a false input, still reads the file and the variable', async () => {
    const scope = nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .reply(404, {})
      .get(VARIABLE)
      .reply(200, { name: 'SKILL_ITERATE_KILLSWITCH', value: 'true' });
    const { ks } = killSwitch('false');
    expect(await ks.check()).toBe('repository variable SKILL_ITERATE_KILLSWITCH=true');
    expect(scope.isDone()).toBe(true);
  });

  it('reads the usual truthy spellings', () => {
    expect(['1', 'true', 'TRUE', 'yes', ' on '].every(isKillSwitchValue)).toBe(true);
    expect(['', '0', 'false', 'no', undefined].some(isKillSwitchValue)).toBe(false);
  });
});
