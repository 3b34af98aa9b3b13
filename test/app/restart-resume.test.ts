/* eslint-disable @typescript-eslint/no-explicit-any -- the record file is untyped JSON */
/**
 * A restart with the in-memory default resumes a running loop (docs/how-it-works.md § The App, "Shared
 * state and takeover"): the loops running or waiting are recorded in DATA_DIR; a shutdown hands its
 * running loop on there (its state stays running, its check in progress), a killed process leaves its
 * record as it was, and the next start continues each one whose sticky state is still running — without
 * a new comment. GitHub is nock at the HTTP layer.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoopOutcome } from '../../src/app/loop-runner.js';
import {
  API,
  HEAD,
  REPO_PATH,
  commentPayload,
  nockNoConfig,
  nockPermission,
  nockToken,
  outcome,
  pullData,
  recordingLog,
  scriptedRunner,
  startTestApp,
  stickyComment,
  loopState,
} from '../helpers/app-fixtures.js';
import { scriptedGitHub } from '../helpers/app-github.js';

let dataDir: string;
const apps: Array<Awaited<ReturnType<typeof startTestApp>>> = [];

beforeEach(async () => {
  nock.disableNetConnect();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'skillclimb-data-'));
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.queue.close(2_000)));
  nock.cleanAll();
  await rm(dataDir, { recursive: true, force: true });
});

function github(sticky?: string) {
  const scope = nock(API).persist();
  nockToken(scope);
  nockNoConfig(scope);
  nockPermission('maintainer', 'write', scope);
  return scriptedGitHub({ reactions: true, pull: pullData(), checks: true, ...(sticky ? { sticky } : {}) });
}

async function process(runner: ReturnType<typeof scriptedRunner>['runner'], lines: string[] = []) {
  const app = await startTestApp(runner, undefined, { dataDir, log: recordingLog(lines) });
  apps.push(app);
  return app;
}

const recorded = async () =>
  JSON.parse(await readFile(path.join(dataDir, 'running-loops.json'), 'utf8')).jobs as any[];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

describe('a restart with the in-memory default', () => {
  it('resumes the loop a shutdown interrupted, without a new comment, the check kept in progress meanwhile', async () => {
    const gh = github();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const before = scriptedRunner(
      (request) =>
        new Promise<LoopOutcome>((resolve) => {
          started();
          request.signal.addEventListener('abort', () =>
            resolve(outcome({ status: 'interrupted', runId: request.runId, message: 'interrupted' })),
          );
        }),
    );
    const first = await process(before.runner);
    await first.probot.receive({
      id: 'd1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await running;
    expect(await first.queue.close(5_000)).toBe(true);
    apps.splice(0);

    const runId = gh.state().runId;
    expect(gh.state()).toMatchObject({ phase: 'running' });
    expect(gh.checkRuns()).toEqual([{ id: 300, head: HEAD, states: ['in_progress'] }]);
    expect((await recorded()).map((job) => [job.runId, job.handoffs, job.trigger.kind])).toEqual([
      [runId, 1, 'continue'],
    ]);

    const after = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const second = await process(after.runner);
    await until('the loop resumed and ended', () => gh.state()?.phase === 'acquitted');
    await second.queue.idle();
    expect(after.requests.map((r) => [r.trigger.kind, r.runId])).toEqual([['continue', runId]]);
    expect(gh.checkRuns()).toEqual([
      { id: 300, head: HEAD, states: ['in_progress', 'in_progress', 'success'] },
    ]);
    expect(await recorded()).toEqual([]);
  });

  it('resumes the loop of a killed process from its record', async () => {
    const gh = github();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const before = scriptedRunner(() => {
      started();
      return new Promise<LoopOutcome>(() => undefined); // killed: never ends
    });
    const first = await process(before.runner);
    await first.probot.receive({
      id: 'd1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await running;
    await first.queue.abandon();
    apps.splice(0);
    expect((await recorded()).map((job) => job.trigger.kind)).toEqual(['start']);

    const after = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const second = await process(after.runner);
    await until('the loop resumed and ended', () => gh.state()?.phase === 'acquitted');
    await second.queue.idle();
    expect(after.requests.map((r) => r.trigger.kind)).toEqual(['continue']);
    expect(gh.checkRuns().at(-1)?.states.at(-1)).toBe('success');
  });

  it('a loop killed after its round’s review was posted resumes with that round in the record and on the check', async () => {
    const gh = github();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const before = scriptedRunner(() => {
      started();
      return new Promise<LoopOutcome>(() => undefined); // killed during round 1's fix: never ends
    });
    const first = await process(before.runner);
    await first.probot.receive({
      id: 'd1',
      name: 'issue_comment',
      payload: commentPayload({ body: '/review-loop' }),
    });
    await running;
    await first.queue.abandon();
    apps.splice(0);
    expect(gh.state().rounds).toEqual([]);
    // Round 1's review is on the PR; its row was to be written with the round's end, which never came.
    const reviews = nock(API)
      .get(`${REPO_PATH}/pulls/7/reviews`)
      .query(true)
      .reply(200, [
        {
          id: 1,
          commit_id: HEAD,
          body: '### Round 1 of 4: changes requested (4/10, not ready)\n\nhalf() divides by three.',
          user: { login: 'review-loop[bot]', type: 'Bot' },
          html_url: 'https://github.com/Codertocat/Hello-World/pull/7#pullrequestreview-1',
        },
      ]);

    const after = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const second = await process(after.runner);
    await until('the loop resumed and ended', () => gh.state()?.phase === 'acquitted');
    await second.queue.idle();
    expect(gh.state().rounds).toEqual([
      expect.objectContaining({
        round: 1,
        head: HEAD,
        score: 4,
        verdict: 'not ready',
        reviewUrl: 'https://github.com/Codertocat/Hello-World/pull/7#pullrequestreview-1',
      }),
    ]);
    // the check said round 1 was running when the loop went on with its fix, never a round 2 not started
    const titles = gh.checkCalls.map((call) => call.body.output?.title as string);
    expect(titles.filter((title) => /^Round \d+ of \d+ running$/.test(title))).toEqual([
      'Round 1 of 4 running',
      'Round 1 of 4 running',
    ]);
    expect(reviews.isDone()).toBe(true);
  });

  it('does not resume a record older than the stale limit, nor a loop whose state ended meanwhile', async () => {
    const gh = github(stickyComment(loopState({ phase: 'stopped' })).body);
    const job = (queuedAt: string, number: number) => ({
      installationId: 1,
      pr: { pr: { owner: 'Codertocat', repo: 'Hello-World', number }, url: 'u', headSha: HEAD },
      settings: loopState().settings,
      runId: 'run_20260301_0000beef',
      trigger: { kind: 'start' },
      token: `t${number}`,
      handoffs: 0,
      queuedAt,
    });
    await writeFile(
      path.join(dataDir, 'running-loops.json'),
      JSON.stringify({
        version: 1,
        jobs: [
          job(new Date(Date.now() - 2 * 24 * 3600_000).toISOString(), 8),
          job(new Date().toISOString(), 7),
        ],
      }),
    );
    const lines: string[] = [];
    const { runner, requests } = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const app = await process(runner, lines);
    await sleep(50);
    await app.queue.idle();
    expect(requests).toEqual([]);
    const said = lines.join('\n');
    expect(said).toContain('resuming the loop on Codertocat/Hello-World#7');
    expect(said).not.toContain('Hello-World#8');
    expect(said).toContain('is not running any more (its state: stopped); not resumed');
    expect(gh.state()).toMatchObject({ phase: 'stopped' });
    expect(await recorded()).toEqual([]);
  });
  it('ends a recorded loop whose pull request was closed meanwhile, its check cancelled, without running it', async () => {
    const state = loopState({
      check: {
        id: 300,
        headSha: HEAD,
        url: 'u',
        runId: 'run_20260301_0000beef',
        completed: false,
        conclusion: null,
      },
    });
    const scope = nock(API).persist();
    nockToken(scope);
    const gh = scriptedGitHub({
      pull: pullData({ state: 'closed' }),
      checks: true,
      sticky: stickyComment(state).body,
    });
    await writeFile(
      path.join(dataDir, 'running-loops.json'),
      JSON.stringify({
        version: 1,
        jobs: [
          {
            installationId: 1,
            pr: { pr: { owner: 'Codertocat', repo: 'Hello-World', number: 7 }, url: 'u', headSha: HEAD },
            settings: state.settings,
            runId: state.runId,
            trigger: { kind: 'start' },
            token: 't7',
            handoffs: 0,
            queuedAt: new Date().toISOString(),
          },
        ],
      }),
    );
    const { runner, requests } = scriptedRunner(async (request) => outcome({ runId: request.runId }));
    const app = await process(runner);
    await until('the loop ended', () => gh.state()?.phase === 'closed');
    await app.queue.idle();
    expect(requests).toEqual([]);
    expect(gh.checkCalls.map((call) => [call.kind, call.id, call.body.conclusion])).toEqual([
      ['update', 300, 'cancelled'],
    ]);
  });
});
