/** Real git repositories for the GitHub-side tests: a bare `origin` and a clone of it, in temp folders. */
import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readActionContext, type ActionContext } from '../../src/action/context.js';
import type { GitHubRetryPolicy } from '../../src/github/octokit.js';
import type { Logger } from '../../src/ports/logger.js';
import type { ResultsRow } from '../../src/core/iterate/run-result.js';
import type { ShipRequest } from '../../src/ports/shipper.js';
import { closeServer, listenOnLoopback, readBody } from './local-http.js';
import { tempDirs } from './temp-dirs.js';

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
}

const temp = tempDirs('skillclimb-gh-', { resolveLinks: true });

export const tempDir = temp.make;
export const cleanupTempDirs = temp.removeAll;

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
}

export interface Remote {
  /** The bare repository standing in for GitHub. */
  origin: string;
  /** The runner's checkout of `main`: a clone of origin, or what actions/checkout makes. */
  checkout: string;
}

export interface RemoteOptions {
  /** Commits on `main` before the one adding `files`: history a depth-1 checkout does not have. */
  earlierCommits?: number;
  /** `clone` (default): a full `git clone`; `actions`: actions/checkout@v4's default depth-1 checkout. */
  checkout?: 'clone' | 'actions';
  /** With `checkout: 'actions'`: its `fetch-depth`. */
  depth?: number;
}

/** A bare origin whose `main` holds `files` (in its last commit), and a checkout of it. */
export async function makeRemote(
  files: Record<string, string>,
  options: RemoteOptions = {},
): Promise<Remote> {
  const root = await tempDir();
  const origin = path.join(root, 'origin.git');
  const seed = path.join(root, 'seed');
  const checkout = path.join(root, 'checkout');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', seed]);
  for (let i = 1; i <= (options.earlierCommits ?? 0); i++) {
    await writeFiles(seed, { 'HISTORY.md': `change ${i}\n` });
    git(seed, 'add', '-A');
    git(seed, 'commit', '--quiet', '-m', `earlier ${i}`);
  }
  await writeFiles(seed, files);
  git(seed, 'add', '-A');
  git(seed, 'commit', '--quiet', '-m', 'initial');
  git(seed, 'remote', 'add', 'origin', origin);
  git(seed, 'push', '--quiet', 'origin', 'main');
  if (options.checkout === 'actions') actionsCheckout(origin, checkout, { depth: options.depth });
  else execFileSync('git', ['clone', '--quiet', origin, checkout]);
  return { origin, checkout };
}

/** Commits `files` on origin's `main` through a second clone (someone else pushing during the run). */
export async function pushToOrigin(
  origin: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  const other = path.join(await tempDir(), 'other');
  execFileSync('git', ['clone', '--quiet', origin, other]);
  await writeFiles(other, files);
  git(other, 'add', '-A');
  git(other, 'commit', '--quiet', '-m', message);
  git(other, 'push', '--quiet', 'origin', 'HEAD:main');
  return git(other, 'rev-parse', 'HEAD');
}

/** What `actions/checkout` stores as the token header (the real one holds base64 `x-access-token:<token>`). */
export const CHECKOUT_AUTH_HEADER = 'AUTHORIZATION: basic ***';

export interface ActionsCheckoutOptions {
  /** The branch the workflow runs on (`GITHUB_REF_NAME`): the default branch on `schedule`. Default `main`. */
  branch?: string;
  /** `ref: <sha>`: this commit on a detached HEAD instead of a branch. */
  commit?: string;
  /** The `origin` URL; default the bare repository's file:// URL (depth needs a real transport). */
  url?: string;
  /** The `fetch-depth` input; default 1. */
  depth?: number;
}

/**
 * The checkout `actions/checkout@v4` leaves in `$GITHUB_WORKSPACE` with its defaults (fetch-depth: 1,
 * persist-credentials: true), made with the git commands its git-source-provider runs: `git init`,
 * `git remote add origin`, `gc.auto 0`, the auth header in the local config, ONE depth-1 fetch of the
 * workflow's commit into `refs/remotes/origin/<branch>` (no tags, no other branch), then
 * `checkout --force -B <branch>`. So: a shallow repository, one remote-tracking ref, no state branch, no
 * `skill-iterate/*` branch, no history below the checked-out commit.
 */
export function actionsCheckout(origin: string, dir: string, options: ActionsCheckoutOptions = {}): string {
  execFileSync('git', ['-c', 'init.defaultBranch=master', 'init', '--quiet', dir]);
  git(dir, 'remote', 'add', 'origin', options.url ?? pathToFileURL(origin).href);
  git(dir, 'config', '--local', 'gc.auto', '0');
  git(dir, 'config', '--local', 'http.https://github.com/.extraheader', CHECKOUT_AUTH_HEADER);
  const fetch = ['-c', 'protocol.version=2', 'fetch', '--quiet', '--no-tags', '--prune'];
  fetch.push('--no-recurse-submodules', `--depth=${options.depth ?? 1}`, 'origin');
  if (options.commit) {
    git(dir, ...fetch, options.commit);
    git(dir, 'checkout', '--quiet', '--force', options.commit);
    return dir;
  }
  const branch = options.branch ?? 'main';
  const sha = git(origin, 'rev-parse', `refs/heads/${branch}`);
  git(dir, ...fetch, `+${sha}:refs/remotes/origin/${branch}`);
  git(dir, 'checkout', '--quiet', '--force', '-B', branch, `refs/remotes/origin/${branch}`);
  return dir;
}

/** Whether the commit's object is in `dir`'s repository (a shallow checkout lacks the history below it). */
export function hasObject(dir: string, sha: string): boolean {
  try {
    execFileSync('git', ['-C', dir, 'cat-file', '-e', `${sha}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface RecordingLog extends Logger {
  infos: string[];
  warnings: string[];
}

export function recordingLog(): RecordingLog {
  const infos: string[] = [];
  const warnings: string[] = [];
  return {
    infos,
    warnings,
    info: (m) => void infos.push(m),
    warn: (m) => void warnings.push(m),
    progress: (m) => void infos.push(m),
  };
}

export const ROWS: ResultsRow[] = [
  { commit: 'aaaaaaa', score: 0.75, status: 'baseline', description: 'initial baseline', wallSeconds: 1.5 },
  {
    commit: 'bbbbbbb',
    score: 0.8125,
    status: 'keep',
    description: 'label the fence | as bash',
    wallSeconds: 2,
  },
  { commit: 'ccccccc', score: 0.8, status: 'revert', description: 'drop a paragraph', wallSeconds: 2.25 },
  { commit: 'ddddddd', score: null, status: 'crash', description: 'timeout', wallSeconds: 600 },
  { commit: 'eeeeeee', score: 0.875, status: 'keep', description: 'split the long line', wallSeconds: 1 },
];

export function shipRequest(overrides: Partial<ShipRequest> = {}): ShipRequest {
  return {
    skill: 'session-wrap',
    project: '/unused',
    skillPath: '.claude/skills/session-wrap',
    worktreePath: '/unused/worktree',
    branch: 'skill-iterate/session-wrap-1700000000',
    baseBranch: 'main',
    baseCommit: '0'.repeat(40),
    baselineScore: 0.75,
    finalScore: 0.875,
    iterations: 4,
    linesBaseline: 40,
    linesFinal: 38,
    message: 'skill-iterate: session-wrap: baseline 0.75 -> final 0.88 over 4 iterations (lines_delta=-2)',
    keptEdits: [
      {
        iteration: 1,
        commit: 'bbbbbbb',
        description: 'label the fence as bash',
        score: 0.8125,
        delta: 0.0625,
      },
      { iteration: 4, commit: 'eeeeeee', description: 'split the long line', score: 0.875, delta: 0.0625 },
    ],
    rows: ROWS,
    usage: {
      calls: 12,
      inputTokens: 34567,
      outputTokens: 2345,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.1234,
    },
    ...overrides,
  };
}

/** Where the Action tests' GitHub API answers (nock). */
export const GITHUB_API = 'https://api.github.test';

/**
 * For the adapter tests: every API error reaches the adapter at once, as the answer nock gives. The client's
 * own retries and rate-limit handling are tested in github-octokit.test.ts.
 */
export const NO_RETRIES: GitHubRetryPolicy = {
  retries: 0,
  rateLimitRetries: 0,
  maxRateLimitWaitSeconds: 0,
  delayUnitMs: 1,
};

/** The Action's context for a nightly run on `checkout` (acme/skills, run 77) from the runner's variables; `env` adds to them. */
export async function nightContext(checkout: string, env: NodeJS.ProcessEnv = {}): Promise<ActionContext> {
  const runnerEnv: NodeJS.ProcessEnv = {
    GITHUB_WORKSPACE: checkout,
    GITHUB_REPOSITORY: 'acme/skills',
    GITHUB_API_URL: GITHUB_API,
    GITHUB_SERVER_URL: 'https://github.test',
    GITHUB_RUN_ID: '77',
    GITHUB_EVENT_NAME: 'schedule',
    RUNNER_TEMP: await tempDir('skillclimb-pipeline-runner-'),
    ...env,
  };
  // What @actions/github's `context` reads from the same variables on a runner.
  const run = {
    repo: { owner: 'acme', repo: 'skills' },
    runId: Number(runnerEnv.GITHUB_RUN_ID),
    apiUrl: runnerEnv.GITHUB_API_URL ?? '',
    serverUrl: runnerEnv.GITHUB_SERVER_URL ?? '',
  };
  return readActionContext(runnerEnv, checkout, run);
}

// ---- The bundled Action as the runner starts it (the end-to-end tests) ----

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The bundle the e2e tests run: `npm run bundle` makes it from src/action/run.ts. SKILLCLIMB_E2E_BUNDLE
 * points them at a bundle built elsewhere (a branch checking its change before dist/ is rebuilt).
 */
export const BUNDLE = process.env.SKILLCLIMB_E2E_BUNDLE || path.join(ROOT, 'dist', 'index.js');
/** The example skills every e2e checkout starts from. */
export const EXAMPLES_WORKSPACE = path.join(ROOT, 'examples', 'workspace');
/**
 * examples/workspace committed on a bare origin's `main`: the start of every bundled-Action e2e run.
 * `seed` is the working clone that pushed it (still on `main`), for tests that go on to make a branch.
 */
export async function examplesOnOrigin(
  prefix: string,
): Promise<{ root: string; origin: string; seed: string }> {
  const root = await tempDir(prefix);
  const origin = path.join(root, 'origin.git');
  const seed = path.join(root, 'seed');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  await cp(EXAMPLES_WORKSPACE, seed, { recursive: true });
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', seed]);
  git(seed, 'add', '-A');
  git(
    seed,
    '-c',
    'user.name=seed',
    '-c',
    'user.email=seed@example.test',
    'commit',
    '--quiet',
    '-m',
    'skills',
  );
  git(seed, 'push', '--quiet', origin, 'main');
  return { root, origin, seed };
}
/** The `github-token` input of the e2e runs: it must never appear in their output. */
export const E2E_TOKEN = 'ghs_e2eTokenThatMustNeverBePrinted';

export interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

/** A pull request as `GET /pulls` lists it; `head.ref` (when set) is what the `head` query filters on. */
export interface ListedPull {
  number: number;
  state: 'open' | 'closed';
  merged_at: string | null;
  html_url: string;
  body: string;
  head?: { ref: string };
}

/** An issue the stand-in keeps when its issue store is on (`RecordingGitHub.issues`). */
export interface StoredIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  /** Oldest first: who wrote the body (GraphQL `userContentEdits`); the Action is `github-actions[bot]`. */
  edits: Array<{ login: string; at: string }>;
}

/** A tiny stand-in for api.github.com: answers what the Action asks and records every request. */
export class RecordingGitHub {
  /**
   * Off (undefined, the default): issues are listed as none and every create answers #7. An array: a store
   * of issues that lists, creates and updates them, with their edit history over GraphQL and the
   * collaborators' `permissions` (the dashboard issue's tests).
   */
  issues: StoredIssue[] | undefined;
  permissions: Record<string, string> = {};
  readonly requests: Recorded[] = [];
  /** The kill-switch file appears on the base branch after this many reads of it (Infinity: never). */
  killSwitchAfterReads = Infinity;
  killSwitchReads = 0;
  /** What `GET /pulls` answers: the PRs already using the queried branch (all of them when no `head.ref`). */
  pulls: ListedPull[] = [];
  /** When set, creating or updating a PR answers with this status (an API outage, a missing permission). */
  pullWriteStatus: number | undefined;
  private nextNumber = 100;
  private server = http.createServer((req, res) => {
    void readBody(req).then((text) => {
      const record: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      };
      this.requests.push(record);
      const [status, payload] = this.answer(record);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });

  private answer({ method, url, body }: Recorded): [number, unknown] {
    const route = `${method} ${url.split('?')[0]}`;
    if (this.issues) {
      const answered = this.answerIssues(this.issues, route, url, body);
      if (answered) return answered;
    }
    if (route === 'GET /repos/acme/skills')
      return [200, { default_branch: 'main', full_name: 'acme/skills' }];
    if (route === 'GET /repos/acme/skills/pulls') {
      const head = new URL(url, 'http://api.test').searchParams.get('head')?.replace(/^acme:/, '');
      return [200, this.pulls.filter((pr) => !pr.head || pr.head.ref === head)];
    }
    if (this.pullWriteStatus && /^(POST|PATCH) \/repos\/acme\/skills\/pulls/.test(route))
      return [this.pullWriteStatus, { message: 'Server Error' }];
    const update = /^PATCH \/repos\/acme\/skills\/pulls\/(\d+)$/.exec(route);
    if (update?.[1]) {
      const number = Number(update[1]);
      return [200, { number, html_url: `https://github.test/acme/skills/pull/${number}`, state: 'open' }];
    }
    if (route === 'GET /repos/acme/skills/contents/.skill-iterate-killswitch') {
      this.killSwitchReads += 1;
      if (this.killSwitchReads > this.killSwitchAfterReads)
        return [200, { type: 'file', name: '.skill-iterate-killswitch' }];
    }
    if (route === 'POST /repos/acme/skills/pulls') {
      const number = this.nextNumber++;
      return [201, { number, html_url: `https://github.test/acme/skills/pull/${number}`, state: 'open' }];
    }
    if (/^POST \/repos\/acme\/skills\/issues\/\d+\/labels$/.test(route)) return [200, []];
    if (route === 'GET /repos/acme/skills/issues') return [200, []];
    if (route === 'POST /repos/acme/skills/issues')
      return [201, { number: 7, html_url: 'https://github.test/acme/skills/issues/7' }];
    return [404, { message: 'Not Found' }];
  }

  private answerIssues(
    issues: StoredIssue[],
    route: string,
    url: string,
    body: Record<string, unknown> | undefined,
  ): [number, unknown] | undefined {
    const view = (i: StoredIssue) => ({
      ...i,
      html_url: `https://github.test/acme/skills/issues/${i.number}`,
      user: { login: 'github-actions[bot]' },
      labels: i.labels.map((name) => ({ name })),
    });
    const now = () => new Date(Date.now() + issues.reduce((n, i) => n + i.edits.length, 0)).toISOString();
    if (route === 'GET /repos/acme/skills/issues') {
      const query = new URL(url, 'http://api.test').searchParams;
      const state = query.get('state') ?? 'open';
      const label = query.get('labels');
      return [
        200,
        issues
          .filter((i) => (state === 'all' || i.state === state) && (!label || i.labels.includes(label)))
          .map(view),
      ];
    }
    if (route === 'POST /repos/acme/skills/issues') {
      const issue: StoredIssue = {
        number: 7 + issues.length,
        title: String(body?.title),
        body: String(body?.body),
        state: 'open',
        state_reason: null,
        labels: (body?.labels as string[] | undefined) ?? [],
        edits: [{ login: 'github-actions[bot]', at: now() }],
      };
      issues.push(issue);
      return [201, view(issue)];
    }
    const update = /^PATCH \/repos\/acme\/skills\/issues\/(\d+)$/.exec(route);
    const issue = update && issues.find((i) => i.number === Number(update[1]));
    if (issue) {
      if (typeof body?.body === 'string' && body.body !== issue.body) {
        issue.body = body.body;
        issue.edits.push({ login: 'github-actions[bot]', at: now() });
      }
      if (body?.state === 'open' || body?.state === 'closed') issue.state = body.state;
      return [200, view(issue)];
    }
    if (route === 'POST /graphql') {
      const number = (body?.variables as { number?: number } | undefined)?.number;
      const found = issues.find((i) => i.number === number);
      const nodes = (found?.edits ?? []).map((e) => ({
        editedAt: e.at,
        editor: { login: e.login.replace(/\[bot\]$/, '') },
      }));
      return [200, { data: { repository: { issue: found ? { userContentEdits: { nodes } } : null } } }];
    }
    const permission = /^GET \/repos\/acme\/skills\/collaborators\/([^/]+)\/permission$/.exec(route);
    if (permission?.[1]) {
      const level = this.permissions[decodeURIComponent(permission[1])];
      return level ? [200, { permission: level }] : [404, { message: 'Not Found' }];
    }
    return undefined;
  }

  /** Forgets the requests and answers as configured by default again. */
  reset(): void {
    this.requests.length = 0;
    this.issues = undefined;
    this.permissions = {};
    this.killSwitchAfterReads = Infinity;
    this.killSwitchReads = 0;
    this.pulls = [];
    this.pullWriteStatus = undefined;
  }

  async start(): Promise<string> {
    return listenOnLoopback(this.server);
  }

  async stop(): Promise<void> {
    await closeServer(this.server);
  }
}

/** `name<<delimiter\nvalue\ndelimiter` blocks, as @actions/core writes them. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m?.[1] || !m[2]) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] ?? '');
    out[m[1]] = value.join('\n');
  }
  return out;
}

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface RunnerFiles {
  env: NodeJS.ProcessEnv;
  outputFile: string;
  summaryFile: string;
}

/**
 * The variables a runner gives a step on a `schedule` run of `main`; `runner` adds to or replaces them
 * (a `workflow_dispatch` from another branch sets GITHUB_EVENT_NAME, GITHUB_REF and GITHUB_REF_NAME).
 */
export async function runnerEnv(
  checkout: string,
  apiUrl: string,
  inputs: Record<string, string>,
  runner: NodeJS.ProcessEnv = {},
): Promise<RunnerFiles> {
  const runnerDir = await tempDir('skillclimb-e2e-runner-');
  const outputFile = path.join(runnerDir, 'output.txt');
  const summaryFile = path.join(runnerDir, 'summary.md');
  const home = path.join(runnerDir, 'home');
  await mkdir(home);
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  // Only what a runner provides: no model keys, no git identity (HOME has no .gitconfig).
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: checkout,
    GITHUB_REPOSITORY: 'acme/skills',
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.test',
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_EVENT_NAME: 'schedule',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_REF_NAME: 'main',
    RUNNER_TEMP: path.join(runnerDir, 'temp'),
    'INPUT_GITHUB-TOKEN': E2E_TOKEN,
    INPUT_PROJECT: '.',
    INPUT_LABELS: 'skill-iterate',
    'INPUT_STATE-BRANCH': 'skill-iterate-state',
    'INPUT_PER-SKILL-ITERATIONS': '4',
    'INPUT_PER-SKILL-BUDGET': '5m',
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...runner,
  };
  return { env, outputFile, summaryFile };
}

export async function runAction(
  checkout: string,
  apiUrl: string,
  inputs: Record<string, string>,
  runner: NodeJS.ProcessEnv = {},
): Promise<ActionRun> {
  const { env, outputFile, summaryFile } = await runnerEnv(checkout, apiUrl, inputs, runner);
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve) => {
      execFile(
        process.execPath,
        [BUNDLE],
        { cwd: checkout, env, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
      );
    },
  );
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(await readFile(outputFile, 'utf8')),
    summary: await readFile(summaryFile, 'utf8'),
  };
}
