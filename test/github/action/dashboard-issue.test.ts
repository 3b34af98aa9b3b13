/**
 * The dashboard issue on GitHub (src/github/action/dashboard-issue.ts) against the issues API under nock: one
 * issue created, then updated in place; a job that loses the race to create it closes its own; edits
 * since the Action's are attributed by GraphQL and checked against the repository permission.
 */
import { describe, expect, it } from 'vitest';
import {
  editorsSinceAction,
  findDashboardIssues,
  hasWriteAccess,
  writeDashboardIssue,
} from '../../../src/github/action/dashboard-issue.js';
import { createGitHubClient } from '../../../src/github/octokit.js';
import { fakeIssues } from '../../helpers/dashboard-github.js';
import { GITHUB_API as API, NO_RETRIES, recordingLog } from '../../helpers/github-fixtures.js';
import { looseNock } from '../../helpers/nock-frame.js';

const repo = { owner: 'acme', repo: 'skills' };
const client = () => createGitHubClient({ token: 't', apiUrl: API, retry: NO_RETRIES });
const BODY = '<!-- skillclimb:dashboard -->\nnight 1';

looseNock();

describe('writeDashboardIssue', () => {
  it('creates the issue once with its label, then updates the same issue', async () => {
    const fake = fakeIssues(API);
    // Issues that are not the dashboard: a marker below the first line, a pull request, another label.
    fake.add({ body: 'a person\n<!-- skillclimb:dashboard -->' });
    fake.add({ body: BODY, labels: ['other'] });

    const first = await writeDashboardIssue(client(), repo, {
      title: 'skillclimb dashboard',
      body: BODY,
      log: recordingLog(),
    });
    expect(first).toMatchObject({ number: 3, action: 'created', closed: [] });
    expect(fake.issues[2]).toMatchObject({
      labels: ['skill-iterate'],
      title: 'skillclimb dashboard',
      body: BODY,
    });

    const second = await writeDashboardIssue(client(), repo, {
      title: 'skillclimb dashboard',
      body: '<!-- skillclimb:dashboard -->\nnight 2',
      log: recordingLog(),
    });
    expect(second).toMatchObject({ number: 3, action: 'updated', closed: [] });
    expect(
      fake.issues.filter((i) => i.body.startsWith('<!-- skillclimb:dashboard')).map((i) => i.number),
    ).toEqual([2, 3]);
    expect(fake.issues[2]!.body).toBe('<!-- skillclimb:dashboard -->\nnight 2');
    expect(fake.requests.filter((r) => r === 'POST /repos/acme/skills/issues')).toHaveLength(1);
  });

  it('keeps the oldest when another job created one meanwhile, and closes its own newer one', async () => {
    const fake = fakeIssues(API);
    // The other job's create lands between this job's look-up and its own create.
    fake.onCreate = () => {
      fake.onCreate = undefined;
      fake.add({ body: '<!-- skillclimb:dashboard -->\nthe other job' });
    };
    const log = recordingLog();
    const written = await writeDashboardIssue(client(), repo, {
      title: 'skillclimb dashboard',
      body: BODY,
      log,
    });
    expect(written).toEqual({
      number: 1,
      url: 'https://github.test/acme/skills/issues/1',
      action: 'updated',
      closed: [2],
    });
    expect(fake.open().map((i) => [i.number, i.body])).toEqual([[1, BODY]]);
    expect(fake.issues[1]).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
    expect(log.infos).toContain('dashboard: #1 already existed; closed the duplicate #2');
  });

  it('closes duplicates an earlier race left open when it updates the oldest', async () => {
    const fake = fakeIssues(API);
    fake.add({ body: BODY });
    fake.add({ body: BODY });
    const written = await writeDashboardIssue(client(), repo, {
      title: 't',
      body: BODY,
      log: recordingLog(),
    });
    expect(written).toMatchObject({ number: 1, action: 'updated', closed: [2] });
    expect(fake.open().map((i) => i.number)).toEqual([1]);
  });
});

describe('editorsSinceAction and hasWriteAccess', () => {
  it('names the people who edited since the Action last wrote, not before', async () => {
    const fake = fakeIssues(API);
    const issue = fake.add({ body: BODY });
    fake.editAsPerson(issue.number, 'early-bird', (b) => `${b}\nearly`);
    await writeDashboardIssue(client(), repo, { title: 't', body: `${BODY}\nnight 2`, log: recordingLog() });
    expect(await editorsSinceAction(client(), repo, { number: 1, author: 'github-actions[bot]' })).toEqual({
      logins: [],
    });
    fake.editAsPerson(issue.number, 'maintainer', (b) => `${b}\n- [x]`);
    fake.editAsPerson(issue.number, 'reader', (b) => `${b}\n- [x]`);
    expect(await editorsSinceAction(client(), repo, { number: 1, author: 'github-actions[bot]' })).toEqual({
      logins: ['maintainer', 'reader'],
    });
    const [found] = await findDashboardIssues(client(), repo);
    expect(found?.author).toBe('github-actions[bot]');
  });

  it('cannot attribute a deleted account or an unreadable history', async () => {
    const fake = fakeIssues(API);
    fake.add({ body: BODY });
    fake.issues[0]!.edits.push({ login: null, at: '2026-05-21T00:00:00Z' });
    expect(await editorsSinceAction(client(), repo, { number: 1, author: 'github-actions[bot]' })).toEqual({
      unknown: 'an edit was made by an account GitHub no longer names',
    });
    fake.graphqlStatus = 502;
    const answer = await editorsSinceAction(client(), repo, { number: 1, author: 'github-actions[bot]' });
    expect('unknown' in answer && answer.unknown).toMatch(/^the edit history could not be read: HTTP 502/);
  });

  it('counts write, maintain and admin as write access; read and no collaborator as none', async () => {
    const fake = fakeIssues(API);
    fake.permissions = { w: 'write', a: 'admin', r: 'read' };
    expect(await hasWriteAccess(client(), repo, 'w')).toBe(true);
    expect(await hasWriteAccess(client(), repo, 'a')).toBe(true);
    expect(await hasWriteAccess(client(), repo, 'r')).toBe(false);
    expect(await hasWriteAccess(client(), repo, 'stranger')).toBe(false);
  });
});
