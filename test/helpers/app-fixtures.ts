/* eslint-disable @typescript-eslint/no-explicit-any -- webhook payloads and recorded request bodies are untyped JSON */
/**
 * The App under Probot's test pattern: a real Probot with retries and throttling off, GitHub intercepted
 * by nock at the HTTP layer, webhook payloads taken from @octokit/webhooks-examples and adjusted.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import nock from 'nock';
import { Probot, ProbotOctokit, type Logger } from 'probot';
import { createReviewLoopApp } from '../../src/app/app.js';
import { createLoopRunner } from '../../src/app/engine.js';
import type { AppEnvSettings } from '../../src/app/config.js';
import type { LoopOutcome, LoopRequest, LoopRunner } from '../../src/app/loop-runner.js';
import type { AppLoopState } from '../../src/github/review/loop-state.js';
import { emptyLoopState } from '../../src/github/review/loop-state.js';
import { composeStickyBody } from '../../src/github/review/sticky-comment.js';

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples') as Array<{
  name: string;
  examples: Array<Record<string, unknown>>;
}>;

export const API = 'https://api.github.com';
export const APP_ID = 4242;
export const OWNER = 'Codertocat';
export const REPO = 'Hello-World';
export const REPO_PATH = `/repos/${OWNER}/${REPO}`;
export const PR = 7;
export const HEAD = 'a'.repeat(40);
export const BASE = 'b'.repeat(40);
export const NOW = new Date('2026-03-01T12:00:00Z');

/** The App's model keys in the tests that run the real engine (its secrets: never posted). */
export const APP_MODEL_KEYS = {
  OPENAI_API_KEY: 'sk-openai-app-test-key',
  ANTHROPIC_API_KEY: 'sk-ant-app-test-key',
};

/** The real review engine as the App runs it, with retries that do not wait and the fixed clock. */
export function engineRunner(): LoopRunner {
  return createLoopRunner(APP_MODEL_KEYS, {
    models: { retryHooks: { sleep: async () => {}, random: () => 0 }, retry: { baseDelayMs: 1 } },
    clock: () => NOW,
  });
}

export const PRIVATE_KEY = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;

export const SETTINGS: AppEnvSettings = {
  reviewerModel: 'openai:gpt-5',
  executorModel: 'anthropic:claude-sonnet-4-5',
  concurrency: 2,
  maxRounds: 10,
  maxTokens: 1_000_000,
  maxCostUsd: 5,
};

function example(name: string, action: string): Record<string, unknown> {
  const found = examples.find((e) => e.name === name)?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no ${name}.${action} example`);
  return structuredClone(found);
}

export interface Person {
  login: string;
  type?: 'User' | 'Bot';
}

const INSTALLATION = { id: 1, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };

export function commentPayload(options: {
  body: string;
  sender?: Person;
  commentId?: number;
  byApp?: boolean;
  onIssue?: boolean;
}) {
  const payload = example('issue_comment', 'created') as Record<string, any>;
  const sender = {
    ...payload.sender,
    login: options.sender?.login ?? 'maintainer',
    type: options.sender?.type ?? 'User',
  };
  payload.installation = INSTALLATION;
  payload.sender = sender;
  payload.issue.number = PR;
  if (!options.onIssue) {
    payload.issue.pull_request = {
      url: `${API}${REPO_PATH}/pulls/${PR}`,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}`,
      diff_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}.diff`,
      patch_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}.patch`,
    };
  }
  payload.comment.id = options.commentId ?? 101;
  payload.comment.body = options.body;
  payload.comment.user = sender;
  payload.comment.performed_via_github_app = options.byApp ? { id: APP_ID, slug: 'review-loop' } : null;
  return payload as any;
}

export function pullRequestPayload(
  action: 'synchronize' | 'closed',
  options: { head?: string; sender?: Person; merged?: boolean } = {},
) {
  const payload = example('pull_request', action) as Record<string, any>;
  payload.installation = INSTALLATION;
  payload.number = PR;
  payload.pull_request.number = PR;
  payload.pull_request.head.sha = options.head ?? HEAD;
  payload.pull_request.merged = options.merged ?? false;
  payload.sender = {
    ...payload.sender,
    login: options.sender?.login ?? 'maintainer',
    type: options.sender?.type ?? 'User',
  };
  return payload as any;
}

export function rerequestPayload(options: {
  head?: string;
  checkRunId?: number;
  sender?: Person;
  appId?: number;
}) {
  const payload = example('check_run', 'rerequested') as Record<string, any>;
  payload.installation = INSTALLATION;
  payload.repository = example('issue_comment', 'created').repository;
  payload.check_run.id = options.checkRunId ?? 555;
  payload.check_run.name = 'review-loop';
  payload.check_run.head_sha = options.head ?? HEAD;
  payload.check_run.external_id = 'run_20260301_0000beef';
  payload.check_run.app = { ...payload.check_run.app, id: options.appId ?? APP_ID };
  payload.check_run.pull_requests = [{ number: PR, id: 1, url: '', head: {}, base: {} }];
  payload.sender = {
    ...payload.sender,
    login: options.sender?.login ?? 'maintainer',
    type: options.sender?.type ?? 'User',
  };
  return payload as any;
}

export function pullData(options: { head?: string; fork?: boolean; state?: 'open' | 'closed' } = {}) {
  const base = { full_name: `${OWNER}/${REPO}`, default_branch: 'main' };
  return {
    number: PR,
    html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}`,
    title: 'Add the thing',
    body: 'It works. @someone please look; fixes #3',
    state: options.state ?? 'open',
    merged: false,
    user: { login: 'author' },
    head: {
      sha: options.head ?? HEAD,
      ref: 'feature/thing',
      repo: { full_name: options.fork ? 'forker/Hello-World' : base.full_name },
    },
    base: { sha: BASE, ref: 'main', repo: base },
  };
}

/** The App's sticky comment as the comments API lists it. */
export function stickyComment(
  state: AppLoopState,
  options: { id?: number; byApp?: boolean; login?: string } = {},
) {
  const byApp = options.byApp ?? true;
  return {
    id: options.id ?? 9001,
    html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#issuecomment-${options.id ?? 9001}`,
    body: composeStickyBody('## review-loop', state),
    user: { login: options.login ?? (byApp ? 'review-loop[bot]' : 'mallory'), type: byApp ? 'Bot' : 'User' },
    performed_via_github_app: byApp ? { id: APP_ID } : null,
  };
}

export function loopState(overrides: Partial<AppLoopState> = {}): AppLoopState {
  return {
    ...emptyLoopState(NOW),
    runId: 'run_20260301_0000beef',
    phase: 'running',
    settings: {
      reviewerModel: SETTINGS.reviewerModel,
      executorModel: SETTINGS.executorModel,
      difficulty: 'medium',
      rounds: 4,
      fix: 'auto',
      checkpoint: false,
      preset: 'code',
      reviewEvent: 'comment',
      allowedRoles: ['admin', 'maintain', 'write'],
      fixPaths: [],
      budget: { maxTokens: 1_000_000, maxCostUsd: 5 },
    },
    head: HEAD,
    ...overrides,
  };
}

export function outcome(overrides: Partial<LoopOutcome> = {}): LoopOutcome {
  return {
    status: 'acquitted',
    runId: 'run_20260301_0000beef',
    head: HEAD,
    message: 'The reviewer passed the change.',
    rounds: 1,
    lastScore: 8,
    lastVerdict: 'ready',
    blockers: [],
    ...overrides,
  };
}

/** A runner that records its requests and answers with `script` (held until the script resolves). */
export function scriptedRunner(script: (request: LoopRequest, call: number) => Promise<LoopOutcome>) {
  const requests: LoopRequest[] = [];
  const runner: LoopRunner = {
    run: (request) => {
      requests.push(request);
      return script(request, requests.length);
    },
  };
  return { runner, requests };
}

/** A logger that keeps every line Probot and the App write (every level), to scan them in a test. */
export function recordingLog(lines: string[]) {
  const log: Record<string, unknown> = { level: 'trace', isLevelEnabled: () => true };
  for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) {
    log[level] = (...args: unknown[]) =>
      lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 6 }))).join(' '));
  }
  log.child = () => log;
  return log as unknown as Logger;
}

export async function startTestApp(
  runner: LoopRunner,
  settings: AppEnvSettings = SETTINGS,
  options: {
    secrets?: readonly string[];
    log?: Logger;
    Octokit?: typeof ProbotOctokit;
    webhookSecret?: string;
    /** The shared state and loop queue in this Redis (a replica), and how fast a dead one is taken over. */
    redisUrl?: string;
    claimTtlMs?: number;
    stalledIntervalMs?: number;
    /** Without Redis: the folder of the running-loops record (a restart resumes them). */
    dataDir?: string;
  } = {},
) {
  const probot = new Probot({
    appId: APP_ID,
    privateKey: PRIVATE_KEY,
    ...(options.webhookSecret ? { secret: options.webhookSecret } : {}),
    ...(options.log ? { log: options.log } : {}),
    logFormat: 'json',
    logLevel: (process.env.APP_TEST_LOG as 'fatal' | undefined) ?? 'fatal',
    // A function, not an object: Probot layers its own throttle options (enabled) over object defaults,
    // and plugin-throttling's write limiter (one write a second, shared by every instance) would pace tests.
    Octokit:
      options.Octokit ??
      ProbotOctokit.defaults((options: object) => ({
        ...options,
        retry: { enabled: false },
        throttle: { enabled: false },
      })),
  });
  const made = createReviewLoopApp({
    appId: APP_ID,
    settings,
    runner,
    clock: () => NOW,
    secrets: options.secrets ?? ['sk-test-secret-value-1234'],
    redisUrl: options.redisUrl,
    claimTtlMs: options.claimTtlMs,
    stalledIntervalMs: options.stalledIntervalMs,
    dataDir: options.dataDir,
  });
  await probot.load(made.app);
  return { probot, ...made };
}

/** The installation token Probot asks for once per test (its cache is per Probot instance). */
export function nockToken(scope = nock(API)) {
  return scope
    .post('/app/installations/1/access_tokens')
    .reply(201, { token: 'ghs_test', expires_at: '2099-01-01T00:00:00Z', permissions: {} });
}

/** No `.github/review-loop.yml` in the repository nor in the owner's `.github` repository. */
export function nockNoConfig(scope = nock(API)) {
  return scope
    .get(`${REPO_PATH}/contents/.github%2Freview-loop.yml`)
    .reply(404)
    .get(`/repos/${OWNER}/.github/contents/.github%2Freview-loop.yml`)
    .reply(404);
}

export function nockPermission(login: string, role: string, scope = nock(API)) {
  const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
  return scope
    .get(`${REPO_PATH}/collaborators/${login}/permission`)
    .reply(200, { permission, role_name: role, user: { login } });
}
