import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { formatPullRequestMarker, parsePullRequestMarker } from '../../../src/github/markers.js';
import { createGitHubClient } from '../../../src/github/octokit.js';
import { createGitHubShipper } from '../../../src/github/action/shipper.js';
import { exists } from '../../helpers/files.js';
import {
  cleanupTempDirs,
  git,
  hasObject,
  makeRemote,
  recordingLog,
  type RemoteOptions,
  shipRequest,
  tempDir,
  writeFiles,
  NO_RETRIES,
} from '../../helpers/github-fixtures.js';
import { looseNock } from '../../helpers/nock-frame.js';

const API = 'https://api.github.test';
const SKILL = '.claude/skills/session-wrap';
const SKILL_MD = `${SKILL}/SKILL.md`;
const listQuery = {
  head: 'acme:skill-iterate/session-wrap',
  state: 'all',
  sort: 'created',
  direction: 'desc',
  per_page: '30',
};

async function setup(
  options: RemoteOptions = {},
  retry: { sleep?: (ms: number) => Promise<void>; pushRetryDelaysMs?: number[] } = {},
) {
  const remote = await makeRemote(
    { [SKILL_MD]: '# Session wrap\n\n1. Read.\n', 'README.md': 'readme\n' },
    options,
  );
  const baseCommit = git(remote.checkout, 'rev-parse', 'HEAD');
  const worktree = path.join(await tempDir(), 'worktree_skill-iterate-session-wrap-1');
  const branch = 'skill-iterate/session-wrap-1';
  git(remote.checkout, 'worktree', 'add', '--quiet', '-b', branch, worktree, baseCommit);
  await writeFile(path.join(worktree, SKILL_MD), '# Session wrap\n\n1. Read the notes.\n');
  git(worktree, 'commit', '--quiet', '-am', 'kept edit');
  const log = recordingLog();
  const shipper = createGitHubShipper({
    client: createGitHubClient({ token: 't', apiUrl: API, retry: NO_RETRIES }),
    repo: { owner: 'acme', repo: 'skills' },
    base: 'main',
    labels: ['skill-iterate'],
    draft: false,
    runUrl: 'https://github.test/acme/skills/actions/runs/9',
    runId: '9',
    modelsLabel: 'offline',
    log,
    ...retry,
  });
  const request = shipRequest({
    project: remote.checkout,
    worktreePath: worktree,
    branch,
    baseCommit,
    skillPath: SKILL,
  });
  return { ...remote, baseCommit, worktree, branch, shipper, request, log };
}

const STABLE = 'refs/heads/skill-iterate/session-wrap';

/**
 * Last night's squash on the stable branch, pushed from another clone on `start` (an older base, say): the
 * checkout lacks its objects.
 */
async function previousSquash(
  origin: string,
  start = 'main',
  options: { message?: string; author?: { name: string; email: string } } = {},
): Promise<string> {
  const other = path.join(await tempDir(), 'other');
  execFileSync('git', ['clone', '--quiet', origin, other]);
  git(other, 'checkout', '--quiet', '--detach', start);
  await writeFiles(other, { [SKILL_MD]: `# Session wrap\n\n1. Read it all (${start}).\n` });
  git(other, 'add', '-A');
  const identity = options.author
    ? {
        GIT_AUTHOR_NAME: options.author.name,
        GIT_AUTHOR_EMAIL: options.author.email,
        GIT_COMMITTER_NAME: options.author.name,
        GIT_COMMITTER_EMAIL: options.author.email,
      }
    : {};
  execFileSync('git', ['-C', other, 'commit', '--quiet', '-m', options.message ?? 'last night'], {
    env: { ...process.env, ...identity },
  });
  git(other, 'push', '--quiet', '--force', 'origin', `HEAD:${STABLE}`);
  return git(other, 'rev-parse', 'HEAD');
}

const ACTION_MESSAGE =
  'skill-iterate: session-wrap: baseline 0.70 -> final 0.80 over 3 iterations (lines_delta=+1)';

/** An open PR; with `final`, its body starts with the Action's marker (recording `commit` when given). */
const openPr = (number: number, final?: number, commit?: string) => ({
  number,
  state: 'open',
  html_url: `https://github.test/acme/skills/pull/${number}`,
  merged_at: null,
  body:
    final === undefined
      ? ''
      : `${formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final, ...(commit ? { commit } : {}) })}\n## skill-iterate`,
});

looseNock(cleanupTempDirs);

/** A pre-receive hook on `origin` that rejects the next `times` pushes (a transient remote error). */
async function rejectNextPushes(origin: string, times: number): Promise<void> {
  const counter = path.join(origin, 'rejections-left');
  await writeFile(counter, `${times}\n`);
  const hook = path.join(origin, 'hooks', 'pre-receive');
  await writeFile(
    hook,
    `#!/bin/sh\nleft=$(cat '${counter}')\nif [ "$left" -gt 0 ]; then echo $((left - 1)) > '${counter}'; echo "try again" >&2; exit 1; fi\n`,
  );
  await chmod(hook, 0o755);
}

describe('GitHub shipper', () => {
  it('pushes one squash commit to skill-iterate/<skill>, opens the PR and removes the run worktree', async () => {
    const { origin, checkout, baseCommit, worktree, branch, shipper, request } = await setup();
    let prBody = '';
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [])
      .post(
        '/repos/acme/skills/pulls',
        (b) => ((prBody = b.body), b.head === 'skill-iterate/session-wrap' && b.title === request.message),
      )
      .reply(201, { number: 3, html_url: 'https://github.test/acme/skills/pull/3' })
      .post('/repos/acme/skills/issues/3/labels', { labels: ['skill-iterate'] })
      .reply(200, []);

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({
      status: 'shipped',
      link: 'https://github.test/acme/skills/pull/3',
      detail: 'pull request #3 created',
    });
    const tip = git(origin, 'rev-parse', 'refs/heads/skill-iterate/session-wrap');
    expect(outcome.status === 'shipped' && outcome.commit).toBe(tip);
    expect(git(origin, 'rev-list', '--count', `${baseCommit}..${tip}`)).toBe('1');
    expect(git(origin, 'rev-parse', `${tip}^`)).toBe(baseCommit);
    expect(git(origin, 'log', '-1', '--format=%B', tip)).toBe(request.message);
    expect(git(origin, 'show', `${tip}:${SKILL_MD}`)).toContain('1. Read the notes.');
    expect(parsePullRequestMarker(prBody)).toMatchObject({
      skill: 'session-wrap',
      final: 0.875,
      commit: tip,
    });
    expect(await exists(worktree)).toBe(false);
    expect(git(checkout, 'branch', '--list', branch)).toBe('');
    expect(shipper.shipments).toEqual([
      {
        skill: 'session-wrap',
        status: 'created',
        pr: 3,
        url: 'https://github.test/acme/skills/pull/3',
        baseline: 0.75,
        final: 0.875,
        commit: tip,
        reason: undefined,
      },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('replaces the branch of the open PR (leased force-push) and updates that PR', async () => {
    const { origin, checkout, baseCommit, shipper, request } = await setup();
    // Last night's squash on the stable branch, which the new one replaces.
    git(checkout, 'push', '--quiet', 'origin', `${baseCommit}:refs/heads/skill-iterate/session-wrap`);
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [openPr(2, 0.8, baseCommit)])
      .patch('/repos/acme/skills/pulls/2')
      .reply(200, { number: 2, html_url: 'https://github.test/acme/skills/pull/2' })
      .post('/repos/acme/skills/issues/2/labels')
      .reply(200, []);

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'shipped', detail: 'pull request #2 updated' });
    const tip = git(origin, 'rev-parse', 'refs/heads/skill-iterate/session-wrap');
    expect(tip).not.toBe(baseCommit);
    expect(git(origin, 'rev-parse', `${tip}^`)).toBe(baseCommit);
    expect(scope.isDone()).toBe(true);
  });

  it('skips without pushing when a PR closed unmerged recorded a result at least as good', async () => {
    const { origin, worktree, shipper, request, log } = await setup();
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [
        {
          number: 1,
          state: 'closed',
          merged_at: null,
          html_url: 'u',
          body: formatPullRequestMarker({ skill: 'session-wrap', baseline: 0.7, final: 0.9 }),
        },
      ]);

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: false });
    expect(outcome.status === 'skipped' && outcome.reason).toMatch(/PR #1 .*not reopened/);
    expect(git(origin, 'branch', '--list', 'skill-iterate/session-wrap')).toBe('');
    expect(await exists(worktree)).toBe(true);
    expect(log.warnings.join('\n')).toMatch(/session-wrap: not shipped: PR #1/);
    expect(shipper.shipments[0]).toMatchObject({ status: 'skipped', pr: 1 });
    expect(scope.isDone()).toBe(true);
  });

  it('leaves an open PR that records a final at least as good alone: no push, no PR write', async () => {
    const { origin, worktree, shipper, request, log } = await setup();
    const previous = await previousSquash(origin);
    // Only the read is mocked: a PATCH or POST would find no interceptor and fail the ship differently.
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [openPr(2, 0.9)]);

    const outcome = await shipper.ship(request);

    expect(outcome).toEqual({
      status: 'skipped',
      reason: 'open PR #2 already has final 0.90 >= 0.88',
      keepWorktree: false,
    });
    expect(git(origin, 'rev-parse', STABLE)).toBe(previous);
    expect(await exists(worktree)).toBe(true); // the engine discards it for a keepWorktree: false skip
    expect(log.warnings).toEqual(['session-wrap: not shipped: open PR #2 already has final 0.90 >= 0.88']);
    expect(shipper.shipments).toEqual([
      {
        skill: 'session-wrap',
        status: 'skipped',
        pr: 2,
        url: 'https://github.test/acme/skills/pull/2',
        baseline: 0.75,
        final: 0.875,
        commit: undefined,
        reason: 'open PR #2 already has final 0.90 >= 0.88',
      },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('decides on the PR before pushing, and writes the PR only after the push', async () => {
    const { origin, shipper, request } = await setup();
    const previous = await previousSquash(origin);
    const seen: Record<string, string> = {};
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(() => ((seen.plan = git(origin, 'rev-parse', STABLE)), [200, [openPr(2, 0.8, previous)]]))
      .patch('/repos/acme/skills/pulls/2')
      .reply(
        () => (
          (seen.write = git(origin, 'rev-parse', STABLE)),
          [200, { number: 2, html_url: 'https://github.test/acme/skills/pull/2' }]
        ),
      )
      .post('/repos/acme/skills/issues/2/labels')
      .reply(200, []);

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'shipped', detail: 'pull request #2 updated' });
    const tip = git(origin, 'rev-parse', STABLE);
    expect(seen).toEqual({ plan: previous, write: tip });
    expect(tip).not.toBe(previous);
    expect(scope.isDone()).toBe(true);
  });

  it('deletes the branch it just pushed when creating the PR fails (403), and says why', async () => {
    const { origin, shipper, request, log, worktree } = await setup();
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [])
      .post('/repos/acme/skills/pulls')
      .reply(() => {
        // The push came first: the branch exists while the API refuses the PR.
        expect(git(origin, 'branch', '--list', 'skill-iterate/session-wrap')).not.toBe('');
        return [403, { message: 'GitHub Actions is not permitted to create or approve pull requests.' }];
      });

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: true });
    expect(outcome.status === 'skipped' && outcome.reason).toMatch(
      /^pull request API failed: HTTP 403: GitHub Actions is not permitted/,
    );
    expect(git(origin, 'branch', '--list', 'skill-iterate/session-wrap')).toBe('');
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(
      /^session-wrap: the pull request could not be created \(HTTP 403: .*\); skill-iterate\/session-wrap was deleted from origin again$/,
    );
    expect(await exists(worktree)).toBe(true);
    expect(shipper.shipments[0]).toMatchObject({ status: 'skipped', commit: undefined });
    expect(scope.isDone()).toBe(true);
  });

  it('restores the previous branch tip when updating the open PR fails after the push', async () => {
    const { origin, shipper, request, log } = await setup();
    const previous = await previousSquash(origin);
    const scope = nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [openPr(2, 0.8, previous)])
      .patch('/repos/acme/skills/pulls/2')
      .reply(502, { message: 'Bad Gateway' });

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: true });
    expect(outcome.status === 'skipped' && outcome.reason).toMatch(/^pull request API failed: HTTP 502/);
    expect(git(origin, 'rev-parse', STABLE)).toBe(previous);
    expect(log.warnings.join('\n')).toMatch(
      new RegExp(
        `PR #2 could not be updated .*; skill-iterate/session-wrap was restored to ${previous.slice(0, 7)}`,
      ),
    );
    expect(scope.isDone()).toBe(true);
  });

  it('on a depth-1 checkout, leases against a PR branch it never fetched and restores it when the update fails', async () => {
    const { origin, checkout, shipper, request, log } = await setup({
      earlierCommits: 2,
      checkout: 'actions',
    });
    const olderBase = git(origin, 'rev-parse', 'main~1');
    const previous = await previousSquash(origin, olderBase);
    let pushedParent = '';
    let hadPrevious: boolean | undefined;
    expect(git(checkout, 'for-each-ref', '--format=%(refname)', 'refs/remotes/')).toBe(
      'refs/remotes/origin/main',
    );
    nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [openPr(2, 0.8, previous)])
      .patch('/repos/acme/skills/pulls/2')
      .reply(() => {
        // The leased force-push replaced last night's squash, which the checkout never had.
        pushedParent = git(origin, 'rev-parse', `${STABLE}^`);
        hadPrevious = hasObject(checkout, previous);
        return [502, { message: 'Bad Gateway' }];
      });

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: true });
    expect(pushedParent).toBe(request.baseCommit);
    expect(hadPrevious).toBe(false);
    expect(git(origin, 'rev-parse', STABLE)).toBe(previous);
    expect(log.warnings.join('\n')).toContain(
      `skill-iterate/session-wrap was restored to ${previous.slice(0, 7)}`,
    );
    expect(git(checkout, 'rev-parse', '--is-shallow-repository')).toBe('true');
  });

  it('does not clobber a push made by someone else while the PR write was failing', async () => {
    const { origin, shipper, request, log } = await setup();
    let theirs = '';
    nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [])
      .post('/repos/acme/skills/pulls')
      .reply(async () => {
        theirs = await previousSquash(origin); // a concurrent push to the same branch
        return [500, { message: 'Server Error' }];
      });

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: true });
    expect(git(origin, 'rev-parse', STABLE)).toBe(theirs);
    expect(log.warnings.join('\n')).toMatch(
      /could not be created \(HTTP 500: Server Error\); restoring skill-iterate\/session-wrap on origin failed too/,
    );
  });

  it('skips and keeps the worktree when the pull request API fails after the push', async () => {
    const { origin, shipper, request, worktree } = await setup();
    nock(API)
      .get('/repos/acme/skills/pulls')
      .query(listQuery)
      .reply(200, [])
      .post('/repos/acme/skills/pulls')
      .reply(422, { message: 'Validation Failed' });

    const outcome = await shipper.ship(request);

    expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: true });
    expect(outcome.status === 'skipped' && outcome.reason).toMatch(/^pull request API failed: HTTP 422/);
    expect(git(origin, 'branch', '--list', 'skill-iterate/session-wrap')).toBe('');
    expect(await exists(worktree)).toBe(true);
    expect(await readFile(path.join(worktree, SKILL_MD), 'utf8')).toContain('Read the notes');
  });

  describe('branch ownership: never overwrites work the Action did not make', () => {
    it('preserves a human commit pushed on top of the squash the open PR records, and leaves the PR alone', async () => {
      const { origin, shipper, request, worktree } = await setup();
      const squash = await previousSquash(origin, 'main', { message: ACTION_MESSAGE });
      const human = await previousSquash(origin, 'origin/skill-iterate/session-wrap', {
        message: 'Fix the wording by hand',
        author: { name: 'Ada', email: 'ada@example.test' },
      });
      // Only the read is mocked: a PATCH would find no interceptor.
      const scope = nock(API)
        .get('/repos/acme/skills/pulls')
        .query(listQuery)
        .reply(200, [openPr(2, 0.8, squash)]);

      const outcome = await shipper.ship(request);

      expect(outcome).toEqual({
        status: 'skipped',
        reason: 'branch skill-iterate/session-wrap has commits skillclimb did not make',
        keepWorktree: true,
      });
      expect(git(origin, 'rev-parse', STABLE)).toBe(human);
      expect(git(origin, 'rev-parse', `${STABLE}^`)).toBe(squash);
      expect(await exists(worktree)).toBe(true);
      expect(scope.isDone()).toBe(true);
    });

    it('retries a rejected push, but never over a commit someone pushed between the attempts', async () => {
      const waits: number[] = [];
      let human = '';
      const { origin, worktree, shipper, request, log } = await setup(
        {},
        {
          pushRetryDelaysMs: [5, 7],
          sleep: async (ms) => {
            waits.push(ms);
            // While the Action waits, a person pushes to the branch (the hook let its one rejection go).
            human = await previousSquash(origin, 'main', { message: 'my own fix' });
          },
        },
      );
      await rejectNextPushes(origin, 1);
      const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, []);

      const outcome = await shipper.ship(request);

      expect(waits).toEqual([5]);
      expect(log.infos.join('\n')).toMatch(
        /push of skill-iterate\/session-wrap to origin failed \(attempt 1 of 3\): .*try again.*; retrying in 0 s/,
      );
      expect(outcome).toEqual({
        status: 'skipped',
        reason: 'branch skill-iterate/session-wrap has commits skillclimb did not make',
        keepWorktree: true,
      });
      expect(git(origin, 'rev-parse', STABLE)).toBe(human);
      expect(git(origin, 'for-each-ref', 'refs/heads/skillclimb/')).toBe('');
      expect(await exists(worktree)).toBe(true);
      expect(scope.isDone()).toBe(true);
    });

    it('with no open PR, preserves a branch whose tip is a human commit', async () => {
      const { origin, shipper, request } = await setup();
      const human = await previousSquash(origin, 'main', { message: 'work in progress' });
      const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, []);

      const outcome = await shipper.ship(request);

      expect(outcome).toMatchObject({
        status: 'skipped',
        reason: 'branch skill-iterate/session-wrap has commits skillclimb did not make',
      });
      expect(git(origin, 'rev-parse', STABLE)).toBe(human);
      expect(shipper.shipments[0]).toMatchObject({ status: 'skipped', commit: undefined });
      expect(scope.isDone()).toBe(true);
    });

    it('with no open PR, preserves a commit with the canonical message made by someone else', async () => {
      const { origin, shipper, request } = await setup();
      const theirs = await previousSquash(origin, 'main', {
        message: ACTION_MESSAGE,
        author: { name: 'Mallory', email: 'mallory@example.test' },
      });
      const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, []);

      const outcome = await shipper.ship(request);

      expect(outcome).toMatchObject({ status: 'skipped' });
      expect(git(origin, 'rev-parse', STABLE)).toBe(theirs);
      expect(scope.isDone()).toBe(true);
    });

    it('with no open PR, replaces a squash the Action made on an earlier night', async () => {
      const { origin, shipper, request, baseCommit } = await setup({ checkout: 'actions' });
      const earlier = await previousSquash(origin, 'main', { message: ACTION_MESSAGE });
      const scope = nock(API)
        .get('/repos/acme/skills/pulls')
        .query(listQuery)
        .reply(200, [])
        .post('/repos/acme/skills/pulls')
        .reply(201, { number: 4, html_url: 'https://github.test/acme/skills/pull/4' })
        .post('/repos/acme/skills/issues/4/labels')
        .reply(200, []);

      const outcome = await shipper.ship(request);

      expect(outcome).toMatchObject({ status: 'shipped', detail: 'pull request #4 created' });
      const tip = git(origin, 'rev-parse', STABLE);
      expect(tip).not.toBe(earlier);
      expect(git(origin, 'rev-parse', `${tip}^`)).toBe(baseCommit);
      expect(scope.isDone()).toBe(true);
    });

    it('does not patch an open PR on the branch that lacks the marker, nor push', async () => {
      const { origin, shipper, request, log } = await setup();
      const squash = await previousSquash(origin, 'main', { message: ACTION_MESSAGE });
      const humanPr = {
        ...openPr(7),
        body: `Fixes #1\n\n<!-- skillclimb:pr {"skill":"session-wrap","baseline":0,"final":0} -->`,
      };
      const scope = nock(API).get('/repos/acme/skills/pulls').query(listQuery).reply(200, [humanPr]);

      const outcome = await shipper.ship(request);

      expect(outcome).toMatchObject({ status: 'skipped', keepWorktree: true });
      expect(outcome.status === 'skipped' && outcome.reason).toBe(
        'open PR #7 on skill-iterate/session-wrap has no skillclimb marker (not opened by the Action); it is not updated',
      );
      expect(git(origin, 'rev-parse', STABLE)).toBe(squash);
      expect(log.infos.join('\n')).toContain('not shipped: open PR #7');
      expect(scope.isDone()).toBe(true);
    });
  });
});
