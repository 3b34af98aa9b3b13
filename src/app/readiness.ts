/**
 * `GET /ready` (docs/app.md § Deploy; § Monitoring): 200 only while GitHub accepts the App's credentials
 * AND every store the App keeps its shared state in answers; 503 with the reason otherwise — a wrong
 * APP_ID, a revoked key, an unreachable GitHub, Redis (REDIS_URL) out of reach. `GET /ping` (Probot's)
 * stays the liveness probe: it answers whenever the process does. The GitHub check (`GET /app` with the
 * App's JWT) runs at start-up and again when `/ready` is asked after RECHECK_MS, so probes never flood
 * GitHub; the named checks (a Redis PING) are cheap and run at every ask, so a load balancer stops sending
 * deliveries to a replica within one probe of its store going away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeApiError, httpStatusOf } from '../github/octokit.js';

export const READY_PATH = '/ready';
const RECHECK_MS = 60_000;
/** A named check that has not answered by then counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

export interface CheckResult {
  ok: boolean;
  /** What was found, in a sentence an operator can act on. */
  detail: string;
}

/** A check beside GitHub's: `store` (Redis or the in-memory note), for example. */
export interface NamedCheck {
  name: string;
  check: () => Promise<CheckResult>;
}

export interface ReadyState {
  ready: boolean;
  /** The App's slug when ready; the first reason why not otherwise. */
  detail: string;
  /** Each named check's result, by name. */
  checks: Record<string, CheckResult>;
}

interface GitHubState {
  ok: boolean;
  detail: string;
}

export class Readiness {
  readonly #github: () => Promise<string>;
  readonly #checks: readonly NamedCheck[];
  readonly #clock: () => Date;
  #last: { state: GitHubState; at: number } | undefined;
  #running: Promise<GitHubState> | undefined;

  /** `github` resolves to the App's slug, or throws what GitHub answered. */
  constructor(
    github: () => Promise<string>,
    options: { checks?: readonly NamedCheck[]; clock?: () => Date } = {},
  ) {
    this.#github = github;
    this.#checks = options.checks ?? [];
    this.#clock = options.clock ?? (() => new Date());
  }

  /** GitHub's last result while it is fresh (else one check, shared by concurrent callers), and every named check now. */
  async state(): Promise<ReadyState> {
    const [github, ...named] = await Promise.all([this.#githubState(), ...this.#checks.map(runCheck)]);
    const checks: Record<string, CheckResult> = {};
    this.#checks.forEach((check, at) => (checks[check.name] = named[at]!));
    const failed = [github, ...named].find((result) => !result.ok);
    return { ready: failed === undefined, detail: (failed ?? github).detail, checks };
  }

  #githubState(): Promise<GitHubState> {
    const now = this.#clock().getTime();
    if (this.#last && now - this.#last.at < RECHECK_MS) return Promise.resolve(this.#last.state);
    this.#running ??= this.#probe().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #probe(): Promise<GitHubState> {
    let state: GitHubState;
    try {
      state = { ok: true, detail: await this.#github() };
    } catch (error) {
      const status = httpStatusOf(error);
      state = {
        ok: false,
        detail:
          status === 401 || status === 403 || status === 404
            ? `GitHub refused the App's credentials (${describeApiError(error)}): APP_ID and PRIVATE_KEY must be the same App's, and the key must not be revoked`
            : `GitHub could not be asked whether the App's credentials work (${describeApiError(error)})`,
      };
    }
    this.#last = { state, at: this.#clock().getTime() };
    return state;
  }

  /** Probot's handler form: answers `GET /ready`, leaves every other request to the next handler. */
  readonly handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== READY_PATH) return false;
    const state = await this.state();
    const checks = Object.fromEntries(Object.entries(state.checks).map(([name, r]) => [name, r.detail]));
    res
      .writeHead(state.ready ? 200 : 503, { 'content-type': 'application/json' })
      .end(
        JSON.stringify(
          state.ready
            ? { ready: true, app: state.detail, ...(this.#checks.length ? { checks } : {}) }
            : { ready: false, reason: state.detail, ...(this.#checks.length ? { checks } : {}) },
        ),
      );
    return true;
  };
}

/** One named check, bounded by CHECK_TIMEOUT_MS; a throw or a timeout is a failed check saying so. */
async function runCheck(named: NamedCheck): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `${named.name}: no answer within ${CHECK_TIMEOUT_MS / 1000} s` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      named.check().catch((error: unknown) => ({
        ok: false,
        detail: `${named.name}: ${error instanceof Error ? error.message : String(error)}`,
      })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
