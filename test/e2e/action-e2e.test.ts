/**
 * End to end: the BUNDLED Action (dist/index.js) as a child process, the way the runner starts it — INPUT_*
 * and GITHUB_* variables, a real checkout of examples/workspace whose `origin` is a local bare repository,
 * the GitHub API served by a recording HTTP server on 127.0.0.1, and the offline provider (no keys).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/adapters/local/lock.js';
import { formatPullRequestMarker, parsePullRequestMarker } from '../../src/github/markers.js';
import {
  actionsCheckout,
  BUNDLE,
  cleanupTempDirs,
  E2E_TOKEN as TOKEN,
  examplesOnOrigin,
  git,
  RecordingGitHub,
  runAction,
  runnerEnv,
  tempDir,
  type ActionRun,
} from '../helpers/github-fixtures.js';

const CANONICAL =
  /^skill-iterate: ([a-z-]+): baseline \d\.\d\d -> final \d\.\d\d over \d+ iterations \(lines_delta=[+-]\d+\)$/;

/**
 * The checkout the runner would have: examples/workspace committed on a bare origin's `main`, then checked
 * out the way actions/checkout@v4 does by default (depth 1, only `main`).
 */
async function checkoutOfExamples(): Promise<{ origin: string; checkout: string; root: string }> {
  const { root, origin } = await examplesOnOrigin('skillclimb-e2e-');
  // Relative, as a clone of a sibling folder would record it: every git call must resolve it from the checkout.
  const checkout = actionsCheckout(origin, path.join(root, 'checkout'), { url: '../origin.git' });
  return { origin, checkout, root };
}

/** The next night's (or another matrix job's) runner: a new default checkout of origin's `main`. */
async function freshCheckout(origin: string): Promise<string> {
  return actionsCheckout(origin, path.join(await tempDir('skillclimb-e2e-night2-'), 'checkout'));
}

/**
 * A pre-receive hook on the bare origin that rejects the next `times` pushes touching a
 * `refs/heads/skill-iterate/<skill>` branch (a transient remote error), counting down in a file; returns
 * the counter file, to change the count between nights.
 */
async function rejectPushes(origin: string, times: number): Promise<string> {
  const counter = path.join(origin, 'rejections-left');
  await writeFile(counter, `${times}\n`);
  const hook = path.join(origin, 'hooks', 'pre-receive');
  await writeFile(
    hook,
    [
      '#!/bin/sh',
      'while read old new ref; do',
      '  case "$ref" in refs/heads/skill-iterate/*)',
      `    left=$(cat '${counter}')`,
      '    if [ "$left" -gt 0 ]; then',
      `      echo $((left - 1)) > '${counter}'`,
      '      echo "internal server error, try again" >&2',
      '      exit 1',
      '    fi;;',
      '  esac',
      'done',
      '',
    ].join('\n'),
  );
  await chmod(hook, 0o755);
  return counter;
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

describe('the bundled Action, end to end', () => {
  it('ships one squash PR per improved skill, keeps state for the next night, and writes the summary', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const base = git(origin, 'rev-parse', 'main');

    // The dashboard issue has its own end-to-end test (test/e2e/dashboard-e2e.test.ts).
    const night1 = await runAction(checkout, apiUrl, { dashboard: 'false' });
    expect(night1.code, night1.stdout).toBe(0);

    // Secrets: masked first, never printed.
    expect(night1.stdout.startsWith(`::add-mask::${TOKEN}`)).toBe(true);
    expect(night1.stdout.split(TOKEN)).toHaveLength(2);
    // Right after the masks, before the rest of the bundle loads: the version line.
    const firstLine = night1.stdout.split('\n').find((line) => !line.startsWith('::add-mask::'));
    expect(firstLine).toMatch(/^skillclimb \d+\.\d+\.\d+\S* \(Node v\d+/);
    expect(night1.stderr).not.toContain(TOKEN);
    expect(server.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);

    // The flawed example skill(s) arrived as ONE squash commit on top of main, with the canonical message.
    const branches = git(origin, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/skill-iterate/');
    expect(branches).not.toBe('');
    const skill = branches.split('\n')[0]!.slice('skill-iterate/'.length);
    for (const branch of branches.split('\n')) {
      expect(git(origin, 'rev-list', '--count', `main..${branch}`)).toBe('1');
      expect(git(origin, 'rev-parse', `${branch}^`)).toBe(base);
      const message = git(origin, 'log', '-1', '--format=%B', branch);
      expect(message).toMatch(CANONICAL);
      expect(message.match(CANONICAL)?.[1]).toBe(branch.slice('skill-iterate/'.length));
      expect(git(origin, 'log', '-1', '--format=%an <%ae>', branch)).toBe(
        'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>',
      );
      expect(git(origin, 'diff', '--name-only', 'main', branch)).toBe(
        `.claude/skills/${branch.slice('skill-iterate/'.length)}/SKILL.md`,
      );
    }
    expect(git(origin, 'rev-parse', 'main')).toBe(base);

    // One PR request per shipped branch, with the body the morning reviewer reads.
    const creates = server.requests.filter(
      (r) => r.method === 'POST' && r.url === '/repos/acme/skills/pulls',
    );
    expect(creates).toHaveLength(branches.split('\n').length);
    const created = creates.find((r) => r.body?.head === `skill-iterate/${skill}`);
    expect(created?.body).toMatchObject({
      base: 'main',
      draft: false,
      title: git(origin, 'log', '-1', '--format=%B', `skill-iterate/${skill}`),
    });
    const prBody = String(created?.body?.body);
    expect(parsePullRequestMarker(prBody)).toMatchObject({ skill, run: '4242' });
    expect(prBody).toContain('| Baseline → final |');
    expect(prBody).toContain('### Kept edits');
    expect(prBody).toContain('xychart-beta');
    expect(prBody).toMatch(/\| 0 \| [0-9a-f]{7} \| \d\.\d{6} \| baseline \| initial baseline \|/);
    expect(prBody).toContain('[Workflow run](https://github.test/acme/skills/actions/runs/4242)');
    expect(
      server.requests.some(
        (r) =>
          r.method === 'POST' &&
          /\/issues\/\d+\/labels$/.test(r.url) &&
          JSON.stringify(r.body) === '{"labels":["skill-iterate"]}',
      ),
    ).toBe(true);

    // Outputs.
    const shipped = JSON.parse(night1.outputs.shipped ?? '[]') as Array<{
      skill: string;
      pr: number;
      url: string;
      baseline: number;
      final: number;
    }>;
    expect(shipped.map((s) => s.skill).sort()).toEqual(
      branches
        .split('\n')
        .map((b) => b.slice('skill-iterate/'.length))
        .sort(),
    );
    const first = shipped.find((s) => s.skill === skill);
    expect(first?.url).toBe(`https://github.test/acme/skills/pull/${first?.pr}`);
    expect(first!.final).toBeGreaterThanOrEqual(first!.baseline);
    const queue = JSON.parse(night1.outputs.queue ?? '[]') as string[];
    expect(queue).toEqual(['release-notes', 'session-wrap', 'user-debug']);
    expect(queue).not.toContain('verify'); // embedded skip-list
    expect(JSON.parse(night1.outputs.parked ?? 'null')).toEqual([]);
    expect(night1.outputs['cost-usd']).toBe('0');
    expect(await readFile(night1.outputs['summary-path'] ?? '', 'utf8')).toContain(skill);
    expect(JSON.parse(await readFile(night1.outputs['result-path'] ?? '', 'utf8'))).toMatchObject({
      format: 'skillclimb/action-result',
      mode: 'run',
    });

    // The job summary: the morning summary, the PR links and a chart.
    expect(night1.summary).toContain('## Pull requests');
    expect(night1.summary).toContain(`[#${first?.pr}](${first?.url})`);
    expect(night1.summary).toContain('```mermaid');
    for (const queued of queue) expect(night1.stdout).toContain(`::group::skill-iterate: ${queued}`);

    // Durable state: every queued skill's rows and run time on the state branch.
    const stateFiles = git(origin, 'ls-tree', '-r', '--name-only', 'skill-iterate-state').split('\n');
    for (const skill of queue) {
      expect(stateFiles).toContain(`state/${skill}/results.tsv`);
      expect(stateFiles).toContain(`state/${skill}/last-run.json`);
    }
    const rows = git(origin, 'show', `skill-iterate-state:state/${skill}/results.tsv`).split('\n');
    expect(rows[0]).toBe('commit\tscore\tstatus\tdescription\twall_seconds');
    expect(rows[1]).toMatch(/\tbaseline\tinitial baseline\t/);
    expect(rows.some((r) => r.includes('\tkeep\t'))).toBe(true);
    const lastRun = JSON.parse(
      git(origin, 'show', `skill-iterate-state:state/${skill}/last-run.json`),
    ) as Record<string, unknown>;
    expect(lastRun).toMatchObject({ skill, status: 'shipped', link: first?.url, run_id: '4242' });

    // The next night, on a fresh runner: freshness comes from the state branch, so nothing runs again.
    server.requests.length = 0;
    const night2 = await runAction(await freshCheckout(origin), apiUrl, { dashboard: 'false' });
    expect(night2.code, night2.stdout).toBe(0);
    expect(JSON.parse(night2.outputs.queue ?? 'null')).toEqual([]);
    expect(night2.stdout).toContain('Queue empty -- nothing to iterate.');
    expect(night2.summary).toContain('Cross-night freshness (ran within the last 20h):');
    for (const queued of queue)
      expect(night2.summary).toMatch(new RegExp(`- ${queued} \\(last run \\d{4}-\\d\\d-\\d\\dT`));
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  }, 180_000);

  it('stops between skills when the kill-switch file lands on the base branch, keeping what was done', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    // Read 1: the Action's launch check; read 2: the engine's pre-flight; read 3: before the second skill.
    server.killSwitchAfterReads = 2;

    const run = await runAction(checkout, apiUrl, {});

    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('Kill-switch detected; graceful stop after 1 of 3 skills.');
    expect(run.summary).toMatch(/partial -- kill-switch hit at \d{4}-/);
    const result = JSON.parse(await readFile(run.outputs['result-path'] ?? '', 'utf8')) as {
      run: { results: Array<{ skill: string }> };
    };
    expect(result.run.results.map((r) => r.skill)).toEqual(['release-notes']);
    expect(git(origin, 'ls-tree', '-r', '--name-only', 'skill-iterate-state').split('\n')).toEqual([
      'state/release-notes/last-run.json',
      'state/release-notes/results.tsv',
    ]);
  }, 120_000);

  it('does not start at all when the kill-switch is already set, and does not fail the job', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const before = git(origin, 'for-each-ref');
    server.killSwitchAfterReads = 0;

    const run = await runAction(checkout, apiUrl, {});

    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain(
      '::warning::kill-switch file .skill-iterate-killswitch is present on main: skill-iterate did not start',
    );
    expect(git(origin, 'for-each-ref')).toBe(before);
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(JSON.parse(run.outputs.shipped ?? 'null')).toEqual([]);
  }, 60_000);

  it('does not start when the kill-switch input is set, with no GitHub request at all', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const before = git(origin, 'for-each-ref');

    const run = await runAction(checkout, apiUrl, { 'kill-switch': '1' });

    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('::warning::input kill-switch=1: skill-iterate did not start');
    expect(server.requests).toEqual([]);
    expect(git(origin, 'for-each-ref')).toBe(before);
    expect(run.summary).toContain('input kill-switch=1');
  }, 60_000);

  it('leaves an open PR that already has a better final alone: no push, no PR write', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    server.pulls = [
      {
        number: 41,
        state: 'open',
        merged_at: null,
        html_url: 'https://github.test/acme/skills/pull/41',
        body: formatPullRequestMarker({ skill: 'release-notes', baseline: 0.5, final: 1 }),
      },
    ];

    const run = await runAction(checkout, apiUrl, { skill: 'release-notes' });

    expect(run.code, run.stdout).toBe(0);
    expect(git(origin, 'for-each-ref', '--format=%(refname)', 'refs/heads/skill-iterate/')).toBe('');
    expect(server.requests.filter((r) => r.url.includes('/pulls') && r.method !== 'GET')).toEqual([]);
    const notShipped = JSON.parse(run.outputs['not-shipped'] ?? 'null') as Array<{
      skill: string;
      reason: string;
    }>;
    expect(notShipped).toEqual([
      {
        skill: 'release-notes',
        reason: expect.stringMatching(/^open PR #41 already has final 1\.00 >= 0\.\d\d$/),
      },
    ]);
    expect(JSON.parse(run.outputs.shipped ?? 'null')).toEqual([]);
    // In the summary the reason is inert text: `#41` neither links nor closes anything.
    const inert = notShipped[0]!.reason.replace('#', '#\u200D').replace('>', '&gt;');
    expect(run.summary).toContain(`- \`release-notes\`: ${inert}`);
    // The skip is a workflow annotation, not only a log line.
    expect(run.stdout).toContain(`::warning::release-notes: not shipped: ${notShipped[0]?.reason}\n`);
    expect(run.summary).toContain(`skipped (${inert})`);
  }, 120_000);

  it('retries a push the remote rejects once or twice, and ships', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const counter = await rejectPushes(origin, 2);

    const run = await runAction(checkout, apiUrl, { skill: 'release-notes' });

    expect(run.code, run.stdout).toBe(0);
    expect((await readFile(counter, 'utf8')).trim()).toBe('0');
    expect(git(origin, 'rev-list', '--count', 'main..skill-iterate/release-notes')).toBe('1');
    expect(run.stdout).toContain('push of skill-iterate/release-notes to origin failed (attempt 1 of 4)');
    const shipped = JSON.parse(run.outputs.shipped ?? '[]') as Array<{ skill: string; url: string }>;
    expect(shipped.map((s) => s.skill)).toEqual(['release-notes']);
    expect(JSON.parse(run.outputs['not-shipped'] ?? 'null')).toEqual([]);
    expect(
      server.requests.filter((r) => r.method === 'POST' && r.url === '/repos/acme/skills/pulls'),
    ).toHaveLength(1);
    const lastRun = JSON.parse(
      git(origin, 'show', 'skill-iterate-state:state/release-notes/last-run.json'),
    ) as Record<string, unknown>;
    expect(lastRun).toMatchObject({ status: 'shipped', link: shipped[0]?.url });
  }, 180_000);

  it('keeps the squash commit of a push rejected all night, and the next night ships the skill', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const counter = await rejectPushes(origin, 1000);
    const base = git(origin, 'rev-parse', 'main');

    const night1 = await runAction(checkout, apiUrl, { skill: 'release-notes' });

    expect(night1.code, night1.stdout).toBe(0);
    // Four attempts, then kept: not on the PR branch, but on a pending branch the next night finds.
    expect((await readFile(counter, 'utf8')).trim()).toBe('996');
    expect(git(origin, 'for-each-ref', '--format=%(refname)', 'refs/heads/skill-iterate/')).toBe('');
    const pending = 'skillclimb/pending/release-notes';
    expect(git(origin, 'rev-parse', `${pending}^`)).toBe(base);
    expect(git(origin, 'diff', '--name-only', 'main', pending)).toBe('.claude/skills/release-notes/SKILL.md');
    expect(git(origin, 'log', '-1', '--format=%B', pending)).toMatch(CANONICAL);
    expect(server.requests.filter((r) => r.url.includes('/pulls') && r.method !== 'GET')).toEqual([]);
    const [notShipped] = JSON.parse(night1.outputs['not-shipped'] ?? '[]') as Array<{ reason: string }>;
    expect(notShipped?.reason).toMatch(
      /^push of skill-iterate\/release-notes to origin failed 4 times \(.*internal server error, try again.*\); the squash commit [0-9a-f]{7} is kept on the branch skillclimb\/pending\/release-notes, and the skill is not counted as run: the next night runs it again and ships it$/,
    );
    expect(night1.summary).toContain('is kept on the branch skillclimb/pending/release-notes');
    // Nothing the next runner reads points into this runner's temporary folder.
    const runnerTemp = /RUNNER_TEMP|skillclimb-e2e-runner-|worktree_skill-iterate/;
    expect(night1.summary).not.toMatch(runnerTemp);
    const state = git(origin, 'show', 'skill-iterate-state:state/release-notes/last-run.json');
    expect(state).not.toMatch(runnerTemp);
    expect(JSON.parse(state)).not.toHaveProperty('link');

    // The next night, the remote accepts pushes again: the skill is not fresh, so it runs and ships.
    await writeFile(counter, '0\n');
    server.requests.length = 0;
    const night2 = await runAction(await freshCheckout(origin), apiUrl, { skill: 'release-notes' });

    expect(night2.code, night2.stdout).toBe(0);
    expect(JSON.parse(night2.outputs.queue ?? 'null')).toEqual(['release-notes']);
    const shipped = JSON.parse(night2.outputs.shipped ?? '[]') as Array<{ skill: string; url: string }>;
    expect(shipped.map((s) => s.skill)).toEqual(['release-notes']);
    expect(git(origin, 'rev-parse', 'skill-iterate/release-notes^')).toBe(base);
    expect(night2.summary).toContain(`](${shipped[0]?.url})`);
    // Shipped: the pending branch has served its purpose.
    expect(git(origin, 'for-each-ref', '--format=%(refname)', 'refs/heads/skillclimb/')).toBe('');
    expect(
      JSON.parse(git(origin, 'show', 'skill-iterate-state:state/release-notes/last-run.json')),
    ).toMatchObject({ status: 'shipped', link: shipped[0]?.url });
  }, 240_000);

  it('saves the rows of the skill in progress when the job is cancelled (SIGINT)', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const { env } = await runnerEnv(checkout, apiUrl, {
      skill: 'release-notes',
      'per-skill-iterations': '1000000',
      'per-skill-budget': '3m',
    });
    const child = spawn(process.execPath, [BUNDLE], {
      cwd: checkout,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const results = path.join(checkout, '.claude/skills/release-notes/evals/results.tsv');
    for (let i = 0; i < 300; i++) {
      const rows = await readFile(results, 'utf8').then(
        (t) => t.split('\n').length,
        () => 0,
      );
      if (rows >= 5) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const lockSeen = existsSync(path.join(checkout, LOCK_FILE));
    child.kill('SIGINT');

    const lockFile = path.join(checkout, LOCK_FILE);
    // The run held the lock when the signal came; the Action's front-end released it.
    expect(lockSeen).toBe(true);
    expect(await exited).toBe(130);
    expect(existsSync(lockFile)).toBe(false);
    expect(stdout).toContain('::warning::SIGINT: saving the state recorded so far to skill-iterate-state');
    const saved = git(origin, 'show', 'skill-iterate-state:state/release-notes/results.tsv').split('\n');
    expect(saved.length).toBeGreaterThanOrEqual(4);
    expect(saved[1]).toMatch(/\tbaseline\t/);
  }, 90_000);

  it('dry-run prints the plan and makes no GitHub request and no push', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const before = git(origin, 'for-each-ref');

    const run = await runAction(checkout, apiUrl, { 'dry-run': 'true' });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(server.requests).toEqual([]);
    expect(git(origin, 'for-each-ref')).toBe(before);
    expect(run.stdout).toMatch(/^models: offline \(structural scoring only/m);
    expect(run.stdout).toContain('Resolved queue (3 skills):');
    expect(run.stdout).toContain('verify  (skip-list: embedded)');
    expect(run.summary).toContain('## skill-iterate dry run');
    expect(JSON.parse(run.outputs.queue ?? 'null')).toEqual(['release-notes', 'session-wrap', 'user-debug']);
    expect(git(checkout, 'status', '--porcelain')).toBe('');
  }, 60_000);

  it('dry-run fails like the night on a model without its key, before any request', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const before = git(origin, 'for-each-ref');

    const run = await runAction(checkout, apiUrl, { 'dry-run': 'true', model: 'anthropic:claude-haiku-4-5' });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::model check failed for editor model anthropic:claude-haiku-4-5 (key: needs ANTHROPIC_API_KEY); ',
    );
    expect(run.stdout).not.toContain('Resolved queue');
    expect(server.requests).toEqual([]);
    expect(git(origin, 'for-each-ref')).toBe(before);
  }, 60_000);

  it('plan mode outputs the queue as JSON for a matrix, with no GitHub request but the dashboard issue read', async () => {
    const { checkout } = await checkoutOfExamples();
    const run = await runAction(checkout, apiUrl, { mode: 'plan', 'skip-list': 'user-debug' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // Only the dashboard issue's orders are read (it has none here).
    expect(
      server.requests.every((r) => r.method === 'GET' && r.url.startsWith('/repos/acme/skills/issues')),
    ).toBe(true);
    expect(JSON.parse(run.outputs.queue ?? 'null')).toEqual(['release-notes', 'session-wrap']);
    const planFile = JSON.parse(await readFile(run.outputs['result-path'] ?? '', 'utf8')) as {
      mode: string;
      run: { excludedBySkipList: unknown[] };
    };
    expect(planFile.mode).toBe('plan');
    expect(planFile.run.excludedBySkipList).toContainEqual({
      skill: 'user-debug',
      source: '--skip-list extension',
    });
  }, 60_000);

  it('fans out: plan, one job per skill, then summarize merges the result files', async () => {
    const { origin, checkout } = await checkoutOfExamples();
    const plan = await runAction(checkout, apiUrl, { mode: 'plan' });
    const queue = JSON.parse(plan.outputs.queue ?? 'null') as string[];
    expect(queue).toEqual(['release-notes', 'session-wrap', 'user-debug']);

    const artifacts = await tempDir('skillclimb-e2e-artifacts-');
    await mkdir(path.join(artifacts, 'plan'));
    await cp(plan.outputs['result-path'] ?? '', path.join(artifacts, 'plan', 'plan.json'));
    const jobs: ActionRun[] = [];
    for (const skill of queue.slice(0, 2)) {
      // Each matrix job starts from its own fresh checkout.
      const job = await runAction(await freshCheckout(origin), apiUrl, { skill });
      expect(job.code, job.stdout).toBe(0);
      expect(JSON.parse(job.outputs.queue ?? 'null')).toEqual([skill]);
      await mkdir(path.join(artifacts, `skill-iterate-${skill}`));
      await cp(
        job.outputs['result-path'] ?? '',
        path.join(artifacts, `skill-iterate-${skill}`, 'result.json'),
      );
      jobs.push(job);
    }
    // Both jobs saved their state on the one branch without losing the other's.
    const stateFiles = git(origin, 'ls-tree', '-r', '--name-only', 'skill-iterate-state');
    expect(stateFiles).toContain('state/release-notes/results.tsv');
    expect(stateFiles).toContain('state/session-wrap/results.tsv');

    server.requests.length = 0;
    const summary = await runAction(checkout, apiUrl, {
      mode: 'summarize',
      'results-dir': artifacts,
      dashboard: 'false',
    });
    expect(summary.code, summary.stdout).toBe(0);
    expect(server.requests).toEqual([]);
    expect(JSON.parse(summary.outputs.queue ?? 'null')).toEqual(queue);
    const shipped = jobs.flatMap((j) => JSON.parse(j.outputs.shipped ?? '[]') as unknown[]);
    expect(JSON.parse(summary.outputs.shipped ?? 'null')).toEqual(shipped);
    expect(summary.summary).toMatch(/\| release-notes \|/);
    expect(summary.summary).toMatch(/\| session-wrap \|/);
    expect(summary.summary).toContain('verify (skip-list: embedded)');
    expect(await readFile(summary.outputs['summary-path'] ?? '', 'utf8')).toContain(
      '# skill-iterate morning summary',
    );
  }, 180_000);

  it('summarize annotates skipped and parked skills as workflow warnings', async () => {
    const checkout = await tempDir('skillclimb-e2e-summarize-');
    const artifacts = await tempDir('skillclimb-e2e-artifacts-');
    const at = '2026-05-24T03:00:00.000Z';
    const usage = {
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: null,
    };
    const result = (skill: string, status: string, link?: string) => ({
      skill,
      baselineScore: 0.5,
      finalScore: 0.5,
      iterations: 0,
      wallSecondsTotal: 1,
      status,
      ...(link ? { link } : {}),
      keptEdits: [],
      usage,
      rows: [],
    });
    const results = [
      result('api-docs', 'skipped (invalid evals: evals.json: categories: expected array)'),
      result('release-notes', 'defect-park', 'https://github.test/acme/skills/issues/7'),
      result('session-wrap', 'calibration-park'),
      result('user-debug', 'shipped', 'https://github.test/acme/skills/pull/9'),
    ];
    const runFile = {
      format: 'skillclimb/action-result',
      version: 1,
      mode: 'run',
      run: {
        startedAt: at,
        endedAt: at,
        partial: null,
        queue: results.map((r) => r.skill),
        results,
        excludedBySkipList: [],
        excludedByFreshness: [],
        usage,
        modelsLabel: 'offline',
      },
      shipped: [],
      parked: [],
      notShipped: [],
    };
    await writeFile(path.join(artifacts, 'result.json'), JSON.stringify(runFile));

    const run = await runAction(checkout, apiUrl, {
      mode: 'summarize',
      'results-dir': artifacts,
      dashboard: 'false',
    });

    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))).toEqual([
      '::warning::api-docs: skipped (invalid evals: evals.json: categories: expected array)',
      '::warning::release-notes: defect-park → https://github.test/acme/skills/issues/7',
      '::warning::session-wrap: calibration-park',
    ]);
    expect(server.requests).toEqual([]);
  }, 60_000);

  it('fails with a message naming the input when an input is invalid', async () => {
    const { checkout } = await checkoutOfExamples();
    const run = await runAction(checkout, apiUrl, { 'per-skill-iterations': 'many' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::input per-skill-iterations: expected a positive integer, got "many"',
    );
    expect(server.requests).toEqual([]);
  }, 60_000);
});
