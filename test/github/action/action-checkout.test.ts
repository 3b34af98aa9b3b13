/**
 * The bundled Action under real checkout conditions: the workspace is made exactly as actions/checkout@v4
 * makes it by default (depth 1, one remote-tracking ref, no tags, no other branch), from an origin with a
 * history — several commits on `main`, the state branch of a previous night, and a `skill-iterate/<skill>`
 * branch with an open PR. Nothing the Action needs is in the checkout unless it fetches it.
 */
import { execFileSync } from 'node:child_process';
import { access, cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BOT_IDENTITY } from '../../../src/github/action/git.js';
import { RESULTS_HEADER } from '../../../src/core/iterate/results-tsv.js';
import { formatPullRequestMarker, parsePullRequestMarker } from '../../../src/github/markers.js';
import {
  actionsCheckout,
  cleanupTempDirs,
  EXAMPLES_WORKSPACE,
  git,
  hasObject,
  RecordingGitHub,
  runAction,
  tempDir,
  writeFiles,
  type ActionRun,
} from '../../helpers/github-fixtures.js';

const SEED = ['-c', 'user.name=seed', '-c', 'user.email=seed@example.test'];
const DAY_MS = 24 * 60 * 60 * 1000;
const BOT_ENV = {
  GIT_AUTHOR_NAME: BOT_IDENTITY.name,
  GIT_AUTHOR_EMAIL: BOT_IDENTITY.email,
  GIT_COMMITTER_NAME: BOT_IDENTITY.name,
  GIT_COMMITTER_EMAIL: BOT_IDENTITY.email,
};
const RELEASE_NOTES = '.claude/skills/release-notes/SKILL.md';
/** What the previous night recorded for release-notes (and restores into tonight's checkout). */
const YESTERDAY_ROWS = [
  '1111111\t0.400000\tbaseline\tinitial baseline\t1.000',
  '2222222\t0.450000\tkeep\tyesterday: name the audience\t2.000',
];

interface History {
  origin: string;
  /** `main`'s commits, oldest first. */
  main: string[];
  /** The previous night's `skill-iterate/release-notes` (a squash on an older `main`). */
  oldBranch: string;
  /** The previous night's state branch tip. */
  stateTip: string;
}

function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, ...SEED, 'commit', '--quiet', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

/**
 * The repository after a few weeks: four commits on `main`, last night's squash branch for release-notes on
 * `main~2` (its PR #41 still open), and last night's state branch (release-notes ran 3 days ago, user-debug
 * an hour ago).
 */
async function originWithHistory(): Promise<History> {
  const root = await tempDir('skillclimb-checkout-');
  const origin = path.join(root, 'origin.git');
  const seed = path.join(root, 'seed');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', seed]);
  await writeFiles(seed, { 'README.md': '# skills\n' });
  const main = [commitAll(seed, 'initial')];
  await cp(EXAMPLES_WORKSPACE, seed, { recursive: true });
  main.push(commitAll(seed, 'add the skills'));
  await writeFiles(seed, { 'README.md': '# skills\n\nOur agent skills.\n' });
  main.push(commitAll(seed, 'readme'));
  await writeFiles(seed, { 'docs/CONTRIBUTING.md': 'Be kind.\n' });
  main.push(commitAll(seed, 'contributing'));

  git(seed, 'checkout', '--quiet', '-b', 'skill-iterate/release-notes', main[1]!);
  const skillMd = path.join(seed, RELEASE_NOTES);
  await writeFile(skillMd, `${await readFile(skillMd, 'utf8')}\nLast night's edit.\n`);
  // Made by last night's Action, which commits as github-actions[bot] on a runner with no git identity.
  git(seed, 'add', '-A');
  execFileSync(
    'git',
    [
      '-C',
      seed,
      'commit',
      '--quiet',
      '-m',
      'skill-iterate: release-notes: baseline 0.40 -> final 0.45 over 1 iterations (lines_delta=+2)',
    ],
    { env: { ...process.env, ...BOT_ENV } },
  );
  const oldBranch = git(seed, 'rev-parse', 'HEAD');

  git(seed, 'checkout', '--quiet', '--orphan', 'state');
  git(seed, 'rm', '-r', '--quiet', '-f', '.');
  const lastRun = (skill: string, at: Date) =>
    `${JSON.stringify({ skill, last_run_at: at.toISOString(), final_score: 0.45, baseline_score: 0.4 })}\n`;
  await writeFiles(seed, {
    'state/release-notes/results.tsv': [RESULTS_HEADER, ...YESTERDAY_ROWS, ''].join('\n'),
    'state/release-notes/last-run.json': lastRun('release-notes', new Date(Date.now() - 3 * DAY_MS)),
    'state/user-debug/results.tsv': `${RESULTS_HEADER}\n3333333\t0.700000\tbaseline\tinitial baseline\t1.000\n`,
    'state/user-debug/last-run.json': lastRun('user-debug', new Date(Date.now() - DAY_MS / 24)),
  });
  const stateTip = commitAll(seed, 'skill-iterate state: previous night');

  git(seed, 'push', '--quiet', origin, 'main', 'skill-iterate/release-notes', 'state:skill-iterate-state');
  return { origin, main, oldBranch, stateTip };
}

/** PR #41, opened by the previous night for release-notes, with a final tonight's run beats. */
const OPEN_PR_41 = {
  number: 41,
  state: 'open' as const,
  merged_at: null,
  html_url: 'https://github.test/acme/skills/pull/41',
  body: formatPullRequestMarker({ skill: 'release-notes', baseline: 0.01, final: 0.02 }),
  head: { ref: 'skill-iterate/release-notes' },
};

/** Commits on origin's `main` made after the runner's checkout (someone merging during the night). */
async function pushAfterCheckout(origin: string, files: Record<string, string>, message: string) {
  const other = path.join(await tempDir('skillclimb-checkout-other-'), 'other');
  execFileSync('git', ['clone', '--quiet', origin, other]);
  await writeFiles(other, files);
  commitAll(other, message);
  git(other, 'push', '--quiet', 'origin', 'HEAD:main');
  return git(other, 'rev-parse', 'HEAD');
}

async function checkoutDir(): Promise<string> {
  return path.join(await tempDir('skillclimb-checkout-runner-'), 'workspace');
}

const pullWrites = (server: RecordingGitHub) =>
  server.requests.filter((r) => r.url.startsWith('/repos/acme/skills/pulls') && r.method !== 'GET');

/** Every `skill-iterate/<skill>` branch on origin holds one commit on `base`, changing only SKILL.md. */
function expectSquashesOn(origin: string, base: string): string[] {
  const branches = git(origin, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/skill-iterate/');
  const skills = branches.split('\n').filter(Boolean);
  for (const branch of skills) {
    expect(git(origin, 'rev-parse', `${branch}^`), branch).toBe(base);
    expect(git(origin, 'diff', '--name-only', base, branch)).toBe(
      `.claude/skills/${branch.slice('skill-iterate/'.length)}/SKILL.md`,
    );
  }
  return skills;
}

function expectCleanWorkspace(checkout: string, run: ActionRun): void {
  // The engine's worktrees and run branches are gone; the checkout is still the shallow one it was.
  expect(git(checkout, 'worktree', 'list').split('\n'), run.stdout).toHaveLength(1);
  expect(git(checkout, 'for-each-ref', '--format=%(refname)', 'refs/heads/skill-iterate/')).toBe('');
  expect(git(checkout, 'rev-parse', '--is-shallow-repository')).toBe('true');
}

const server = new RecordingGitHub();
let apiUrl = '';
beforeAll(async () => {
  apiUrl = await server.start();
});
afterEach(async () => {
  server.reset();
  await cleanupTempDirs();
});
afterAll(() => server.stop());

describe('the bundled Action on the checkout actions/checkout@v4 makes by default', () => {
  it('updates the open PR branch and the state branch that the checkout never fetched, pulling no history', async () => {
    const history = await originWithHistory();
    const checkout = actionsCheckout(history.origin, await checkoutDir());
    const tip = history.main.at(-1)!;
    // What the runner has: the one commit, `main`, `origin/main` — nothing else.
    expect(git(checkout, 'rev-parse', '--is-shallow-repository')).toBe('true');
    expect(git(checkout, 'for-each-ref', '--format=%(refname)')).toBe(
      'refs/heads/main\nrefs/remotes/origin/main',
    );
    server.pulls = [OPEN_PR_41];

    const run = await runAction(checkout, apiUrl, {});

    expect(run.code, run.stdout + run.stderr).toBe(0);
    // Freshness came from the previous night's state branch: user-debug ran an hour ago.
    expect(JSON.parse(run.outputs.queue ?? 'null')).toEqual(['release-notes', 'session-wrap']);

    // The squash sits on the fetched base; the branch the checkout never had was replaced under a lease.
    const shipped = expectSquashesOn(history.origin, tip);
    expect(shipped).toContain('skill-iterate/release-notes');
    expect(git(history.origin, 'rev-parse', 'skill-iterate/release-notes')).not.toBe(history.oldBranch);
    expect(git(history.origin, 'log', '-1', '--format=%s', 'skill-iterate/release-notes')).toMatch(
      /^skill-iterate: release-notes: baseline \d\.\d\d -> final \d\.\d\d over 4 iterations/,
    );

    // PR #41 was updated, not duplicated.
    const writes = pullWrites(server);
    expect(writes.filter((r) => r.method === 'PATCH').map((r) => r.url)).toEqual([
      '/repos/acme/skills/pulls/41',
    ]);
    expect(writes.find((r) => r.method === 'PATCH')?.body).toMatchObject({ base: 'main' });
    expect(writes.some((r) => r.method === 'POST' && r.body?.head === 'skill-iterate/release-notes')).toBe(
      false,
    );
    const outputs = JSON.parse(run.outputs.shipped ?? '[]') as Array<{ skill: string; pr: number }>;
    expect(outputs.find((s) => s.skill === 'release-notes')?.pr).toBe(41);
    expect(run.summary).toContain('[#41](https://github.test/acme/skills/pull/41)');

    // The state branch grew on top of the previous night's: rows kept, tonight's appended.
    const state = 'skill-iterate-state';
    execFileSync('git', ['-C', history.origin, 'merge-base', '--is-ancestor', history.stateTip, state]);
    const rows = git(history.origin, 'show', `${state}:state/release-notes/results.tsv`).split('\n');
    expect(rows.slice(0, 3)).toEqual([RESULTS_HEADER, ...YESTERDAY_ROWS]);
    expect(rows[3]).toMatch(/^[0-9a-f]{7}\t\d\.\d{6}\tbaseline\tinitial baseline\t/);
    expect(rows.some((r, i) => i > 3 && r.includes('\tkeep\t'))).toBe(true);
    const releaseNotes = JSON.parse(
      git(history.origin, 'show', `${state}:state/release-notes/last-run.json`),
    ) as Record<string, unknown>;
    expect(releaseNotes).toMatchObject({ status: 'shipped', link: OPEN_PR_41.html_url, run_id: '4242' });
    expect(git(history.origin, 'show', `${state}:state/user-debug/last-run.json`)).toBe(
      git(history.origin, 'show', `${history.stateTip}:state/user-debug/last-run.json`),
    );
    // The checkout got the restored rows too, and the morning summary and result file were written.
    const local = await readFile(
      path.join(checkout, '.claude/skills/release-notes/evals/results.tsv'),
      'utf8',
    );
    expect(local.startsWith([RESULTS_HEADER, ...YESTERDAY_ROWS].join('\n'))).toBe(true);
    await access(run.outputs['summary-path'] ?? '');
    await access(run.outputs['result-path'] ?? '');

    // Fetching the old PR branch, the base and the state branch pulled only their tips, not the history
    // below the checkout's one commit (on a big repository that is the whole repository).
    expectCleanWorkspace(checkout, run);
    for (const older of history.main.slice(0, -1)) expect(hasObject(checkout, older), older).toBe(false);
  }, 180_000);

  it('puts back the PR branch it never fetched when updating that PR fails after the push', async () => {
    const history = await originWithHistory();
    const checkout = actionsCheckout(history.origin, await checkoutDir());
    server.pulls = [OPEN_PR_41];
    server.pullWriteStatus = 502;

    const run = await runAction(checkout, apiUrl, { skill: 'release-notes' });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(git(history.origin, 'rev-parse', 'skill-iterate/release-notes')).toBe(history.oldBranch);
    expect(run.stdout).toContain(
      `::warning::release-notes: PR #41 could not be updated (HTTP 502: Server Error); ` +
        `skill-iterate/release-notes was restored to ${history.oldBranch.slice(0, 7)}`,
    );
    expect(JSON.parse(run.outputs['not-shipped'] ?? 'null')).toEqual([
      { skill: 'release-notes', reason: 'pull request API failed: HTTP 502: Server Error' },
    ]);
  }, 120_000);

  it('rebuilds the squash on a base that moved by several commits, with only the depth-1 history', async () => {
    const history = await originWithHistory();
    const checkout = actionsCheckout(history.origin, await checkoutDir());
    const between = await pushAfterCheckout(
      history.origin,
      { '.claude/skills/release-notes/NOTES.md': 'Maintainers: the docs team.\n' },
      'notes for release-notes',
    );
    const moved = await pushAfterCheckout(history.origin, { 'docs/CHANGELOG.md': '- notes\n' }, 'changelog');

    const run = await runAction(checkout, apiUrl, { skill: 'release-notes' });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    const branch = 'skill-iterate/release-notes';
    expect(git(history.origin, 'rev-parse', `${branch}^`)).toBe(moved);
    expect(git(history.origin, 'diff', '--name-only', moved, branch)).toBe(RELEASE_NOTES);
    expect(git(history.origin, 'show', `${branch}:.claude/skills/release-notes/NOTES.md`)).toBe(
      'Maintainers: the docs team.',
    );
    const created = pullWrites(server).find((r) => r.method === 'POST' && r.body?.head === branch);
    expect(String(created?.body?.body)).toMatch(
      /> \.claude\/skills\/release-notes differs on main \([0-9a-f]{7}\) from [0-9a-f]{7}, where the run started; the squash was rebuilt on main with a clean 3-way apply\./,
    );
    expectCleanWorkspace(checkout, run);
    // The new base's tip was enough: the commit between it and the checkout was never needed.
    expect(hasObject(checkout, between)).toBe(false);
  }, 120_000);

  it('skips with the reason when the moved base rewrote the skill and the squash no longer applies', async () => {
    const history = await originWithHistory();
    const checkout = actionsCheckout(history.origin, await checkoutDir());
    const rewritten = [
      '---',
      'name: release-notes',
      'description: rewritten by hand during the night',
      '---',
      '# Release notes',
      '',
    ].join('\n');
    await pushAfterCheckout(history.origin, { [RELEASE_NOTES]: rewritten }, 'rewrite release-notes');

    const run = await runAction(checkout, apiUrl, { skill: 'release-notes' });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(git(history.origin, 'rev-parse', 'skill-iterate/release-notes')).toBe(history.oldBranch);
    expect(pullWrites(server)).toEqual([]);
    const notShipped = JSON.parse(run.outputs['not-shipped'] ?? 'null') as Array<{ reason: string }>;
    expect(notShipped).toHaveLength(1);
    expect(notShipped[0]?.reason).toMatch(
      /^base moved: \.claude\/skills\/release-notes differs on main \(now [0-9a-f]{7}\) from [0-9a-f]{7}, where the run started, and the squash does not apply cleanly/,
    );
    expect(run.summary).toContain(notShipped[0]!.reason.slice(0, 60));
    // The rows are saved all the same.
    expect(git(history.origin, 'show', 'skill-iterate-state:state/release-notes/results.tsv')).toContain(
      '\tbaseline\tinitial baseline\t',
    );
  }, 120_000);

  it('on workflow_dispatch from another branch, opens the PR against the default branch with the skill diff only', async () => {
    const history = await originWithHistory();
    const seed = path.join(await tempDir('skillclimb-checkout-feature-'), 'seed');
    execFileSync('git', ['clone', '--quiet', history.origin, seed]);
    await writeFiles(seed, { 'README.md': '# skills\n\nTrying skillclimb on a branch.\n' });
    commitAll(seed, 'try skillclimb');
    git(seed, 'push', '--quiet', 'origin', 'HEAD:refs/heads/try-skillclimb');
    const checkout = actionsCheckout(history.origin, await checkoutDir(), { branch: 'try-skillclimb' });

    const run = await runAction(
      checkout,
      apiUrl,
      { skill: 'release-notes' },
      {
        GITHUB_EVENT_NAME: 'workflow_dispatch',
        GITHUB_REF: 'refs/heads/try-skillclimb',
        GITHUB_REF_NAME: 'try-skillclimb',
      },
    );

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /the checkout is try-skillclimb at [0-9a-f]{7}, not main: skills are iterated as checked out; each pull request carries only the skill's changes onto main/,
    );
    expect(server.requests.some((r) => r.method === 'GET' && r.url === '/repos/acme/skills')).toBe(true);
    const tip = history.main.at(-1)!;
    expect(expectSquashesOn(history.origin, tip)).toEqual(['skill-iterate/release-notes']);
    expect(git(history.origin, 'show', 'skill-iterate/release-notes:README.md')).toBe(
      '# skills\n\nOur agent skills.',
    );
    expect(pullWrites(server).find((r) => r.method === 'POST')?.body).toMatchObject({
      head: 'skill-iterate/release-notes',
      base: 'main',
    });
    expectCleanWorkspace(checkout, run);
  }, 120_000);

  it('runs from a detached HEAD (ref: <sha>) with the base input, without asking for the default branch', async () => {
    const history = await originWithHistory();
    const tip = history.main.at(-1)!;
    const checkout = actionsCheckout(history.origin, await checkoutDir(), { commit: tip });
    expect(git(checkout, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('HEAD');
    server.pulls = [OPEN_PR_41];

    const run = await runAction(checkout, apiUrl, { skill: 'release-notes', base: 'main' });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`the checkout is a detached HEAD at ${tip.slice(0, 7)}, not main`);
    expect(server.requests.some((r) => r.url === '/repos/acme/skills')).toBe(false);
    expect(expectSquashesOn(history.origin, tip)).toEqual(['skill-iterate/release-notes']);
    const update = pullWrites(server).find((r) => r.method === 'PATCH');
    expect(parsePullRequestMarker(String(update?.body?.body))).toMatchObject({ skill: 'release-notes' });
    expectCleanWorkspace(checkout, run);
  }, 120_000);

  it('plan mode reads freshness from the state branch on a fresh shallow checkout, changing nothing', async () => {
    const history = await originWithHistory();
    const checkout = actionsCheckout(history.origin, await checkoutDir());
    const before = git(history.origin, 'for-each-ref');

    const run = await runAction(checkout, apiUrl, { mode: 'plan' });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.outputs.queue ?? 'null')).toEqual(['release-notes', 'session-wrap']);
    // Only the dashboard issue's orders are read.
    expect(
      server.requests.every((r) => r.method === 'GET' && r.url.startsWith('/repos/acme/skills/issues')),
    ).toBe(true);
    expect(git(history.origin, 'for-each-ref')).toBe(before);
    expect(git(checkout, 'status', '--porcelain')).toBe('');
    for (const older of history.main.slice(0, -1)) expect(hasObject(checkout, older)).toBe(false);
  }, 60_000);
});
