import { readFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { ParkReport } from '../../src/core/iterate/park.js';
import { createLocalForge } from '../../src/adapters/local/forge.js';
import { createGitHubForge } from '../../src/github/forge.js';
import { parkMarker } from '../../src/github/markers.js';
import { createGitHubClient } from '../../src/github/octokit.js';
import { cleanupTempDirs, recordingLog, tempDir, NO_RETRIES } from '../helpers/github-fixtures.js';
import { looseNock } from '../helpers/nock-frame.js';

const API = 'https://api.github.test';
const repo = { owner: 'acme', repo: 'skills' };
const RUN_URL = 'https://github.test/acme/skills/actions/runs/42';

const report: ParkReport = {
  skill: 'session-wrap',
  kind: 'crashes',
  title: 'skill-iterate: session-wrap parked after 3 consecutive crashes',
  body: '## skill-iterate: session-wrap parked (3 consecutive crashes)\n\n**Crash count:** 3',
  epoch: 1700000000,
};

const listQuery = {
  state: 'all',
  labels: 'defect-park',
  sort: 'created',
  direction: 'desc',
  per_page: '100',
};

const issue = (number: number, extra: Record<string, unknown> = {}) => ({
  number,
  html_url: `https://github.test/acme/skills/issues/${number}`,
  state: 'open',
  state_reason: null,
  closed_at: null,
  body: `${parkMarker('session-wrap')}\n## old report`,
  ...extra,
});

async function forge() {
  const log = recordingLog();
  const project = await tempDir();
  const f = createGitHubForge({
    client: createGitHubClient({ token: 't', apiUrl: API, retry: NO_RETRIES }),
    repo,
    log,
    runUrl: RUN_URL,
    fallback: createLocalForge(project),
  });
  return { f, log, project };
}

looseNock(cleanupTempDirs);

describe('GitHub forge', () => {
  it('creates an issue with the seed title, the marker and the defect-park label', async () => {
    let created: { title?: string; body?: string; labels?: string[] } = {};
    const scope = nock(API)
      .get('/repos/acme/skills/issues')
      .query(listQuery)
      .reply(200, [
        // A PR and another skill's issue must not be taken for this skill's issue.
        { number: 1, html_url: 'u1', body: parkMarker('session-wrap'), pull_request: { url: 'x' } },
        { number: 2, html_url: 'u2', body: parkMarker('session-wrap-2') },
        // A marker that is not on the first line (quoted in someone's text) does not make an issue ours.
        issue(3, { body: `see below\n${parkMarker('session-wrap')}` }),
      ])
      .post('/repos/acme/skills/issues', (b) => ((created = b), true))
      .reply(201, { number: 31, html_url: 'https://github.test/acme/skills/issues/31' });
    const { f } = await forge();

    const outcome = await f.park(report);

    expect(outcome).toEqual({ location: 'https://github.test/acme/skills/issues/31', via: 'issue' });
    expect(created.title).toBe(report.title);
    expect(created.labels).toEqual(['defect-park']);
    expect(created.body).toContain(report.body);
    expect(created.body).toContain(`[Workflow run](${RUN_URL})`);
    expect(created.body?.split('\n')[0]).toBe(parkMarker('session-wrap'));
    expect(created.body?.split(parkMarker('session-wrap'))).toHaveLength(2);
    expect(f.parks).toEqual([
      { skill: 'session-wrap', kind: 'crashes', location: outcome.location, via: 'issue', action: 'created' },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('comments on the open issue found by its marker instead of opening another', async () => {
    let comment = '';
    const scope = nock(API)
      .get('/repos/acme/skills/issues')
      .query(listQuery)
      .reply(200, [issue(17)])
      .post('/repos/acme/skills/issues/17/comments', (b) => ((comment = b.body), true))
      .reply(201, { id: 5, html_url: 'https://github.test/acme/skills/issues/17#issuecomment-5' });
    const { f } = await forge();

    const outcome = await f.park(report);

    expect(outcome).toEqual({
      location: 'https://github.test/acme/skills/issues/17#issuecomment-5',
      via: 'issue',
    });
    expect(comment).toContain(`### Parked again: ${report.title}`);
    expect(comment).toContain('**Crash count:** 3');
    expect(f.parks[0]?.action).toBe('commented');
    expect(scope.isDone()).toBe(true);
  });

  it('comments on the open issue even when an older one was closed as not planned', async () => {
    const scope = nock(API)
      .get('/repos/acme/skills/issues')
      .query(listQuery)
      .reply(200, [
        issue(20),
        issue(12, { state: 'closed', state_reason: 'not_planned', closed_at: '2026-01-02T00:00:00Z' }),
      ])
      .post('/repos/acme/skills/issues/20/comments')
      .reply(201, { id: 6, html_url: 'https://github.test/acme/skills/issues/20#issuecomment-6' });
    const { f } = await forge();

    expect((await f.park(report)).location).toBe('https://github.test/acme/skills/issues/20#issuecomment-6');
    expect(scope.isDone()).toBe(true);
  });

  it('neither reopens nor re-creates an issue a human closed as not planned, and says so', async () => {
    // Only the list is mocked: a POST (create, comment) or PATCH (reopen) would find no interceptor.
    const scope = nock(API)
      .get('/repos/acme/skills/issues')
      .query(listQuery)
      .reply(200, [
        issue(9, { state: 'closed', state_reason: 'completed', closed_at: '2026-01-01T00:00:00Z' }),
        issue(14, { state: 'closed', state_reason: 'not_planned', closed_at: '2026-02-01T00:00:00Z' }),
      ]);
    const { f, log } = await forge();

    const outcome = await f.park(report);

    expect(outcome).toEqual({ location: 'https://github.test/acme/skills/issues/14', via: 'issue' });
    expect(f.parks[0]).toMatchObject({ action: 'not-reopened', location: outcome.location });
    expect(log.infos).toContain('session-wrap: parked (issue #14 was closed as not planned; not reopened)');
    expect(log.warnings).toEqual([]);
    expect(scope.isDone()).toBe(true);
  });

  it('opens a new issue when the last one was closed as completed', async () => {
    const scope = nock(API)
      .get('/repos/acme/skills/issues')
      .query(listQuery)
      .reply(200, [
        issue(14, { state: 'closed', state_reason: 'completed', closed_at: '2026-02-01T00:00:00Z' }),
        issue(9, { state: 'closed', state_reason: 'not_planned', closed_at: '2026-01-01T00:00:00Z' }),
      ])
      .post('/repos/acme/skills/issues')
      .reply(201, { number: 40, html_url: 'https://github.test/acme/skills/issues/40' });
    const { f } = await forge();

    expect(await f.park(report)).toEqual({
      location: 'https://github.test/acme/skills/issues/40',
      via: 'issue',
    });
    expect(f.parks[0]?.action).toBe('created');
    expect(scope.isDone()).toBe(true);
  });

  it('falls back to the local park file on a 5xx from issues.create, warns, and goes on', async () => {
    const scope = nock(API)
      .get('/repos/acme/skills/issues')
      .query(listQuery)
      .reply(200, [])
      .post('/repos/acme/skills/issues')
      .reply(502, { message: 'Bad Gateway' });
    const { f, log, project } = await forge();

    const outcome = await f.park(report);

    expect(outcome.via).toBe('file');
    expect(outcome.location).toBe(
      path.join(project, 'docs', 'skill-iterate-runs', 'parked-session-wrap-1700000000.md'),
    );
    const written = await readFile(outcome.location, 'utf8');
    expect(written).toContain(report.title);
    expect(written).toContain('**Crash count:** 3');
    expect(log.warnings.join('\n')).toMatch(
      /issues API failed \(HTTP 502.*parked locally at .*parked-session-wrap-1700000000\.md/,
    );
    expect(f.parks[0]).toMatchObject({ via: 'file', action: 'file' });
    expect(scope.isDone()).toBe(true);
  });

  it('falls back as well when the issue search itself fails', async () => {
    const scope = nock(API).get('/repos/acme/skills/issues').query(listQuery).reply(500, { message: 'boom' });
    const { f } = await forge();
    const outcome = await f.park({
      ...report,
      kind: 'calibration',
      title: 'skill-iterate: session-wrap grader-broken-for-skill',
    });
    expect(outcome.via).toBe('file');
    expect(path.basename(outcome.location)).toBe('calibration-broken-session-wrap-1700000000.md');
    expect(scope.isDone()).toBe(true);
  });
});
