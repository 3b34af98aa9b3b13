import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubKillSwitch, isKillSwitchValue } from '../src/github/kill-switch.js';
import { createGitHubClient } from '../src/github/octokit.js';
import { recordingLog } from './helpers/github-fixtures.js';

const API = 'https://api.github.test';
const FILE = '/repos/acme/skills/contents/.skill-iterate-killswitch';
const VARIABLE = '/repos/acme/skills/actions/variables/SKILL_ITERATE_KILLSWITCH';

function killSwitch() {
  const log = recordingLog();
  const ks = createGitHubKillSwitch({
    client: createGitHubClient({ token: 't', apiUrl: API }),
    repo: { owner: 'acme', repo: 'skills' },
    base: 'main',
    log,
  });
  return { ks, log };
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

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

  it('treats API errors as not set and warns once, not on every poll', async () => {
    nock(API)
      .get(FILE)
      .query({ ref: 'main' })
      .times(2)
      .reply(500, { message: 'oops' })
      .get(VARIABLE)
      .times(2)
      .reply(403, { message: 'Resource not accessible by integration' });
    const { ks, log } = killSwitch();
    expect(await ks.check()).toBeNull();
    expect(await ks.check()).toBeNull();
    expect(log.warnings).toHaveLength(2);
    expect(log.warnings[0]).toMatch(/could not read \.skill-iterate-killswitch on main \(HTTP 500/);
    expect(log.warnings[1]).toMatch(
      /SKILL_ITERATE_KILLSWITCH \(the token needs the "Variables: read" permission\)/,
    );
  });

  it('reads the usual truthy spellings', () => {
    expect(['1', 'true', 'TRUE', 'yes', ' on '].every(isKillSwitchValue)).toBe(true);
    expect(['', '0', 'false', 'no', undefined].some(isKillSwitchValue)).toBe(false);
  });
});
