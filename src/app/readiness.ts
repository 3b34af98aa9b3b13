/**
 * `GET /ready` (docs/app.md § Deploy; § Monitoring): 200 only while GitHub accepts the App's credentials
 * AND every store the App keeps its shared state in answers; 503 with the reason otherwise — a wrong
 * APP_ID, a revoked key, an unreachable GitHub, Redis (REDIS_URL) out of reach. `GET /ping` (Probot's)
 * stays the liveness probe: it answers whenever the process does. The GitHub check (`GET /app` with the
 * App's JWT) runs at start-up and again when `/ready` is asked after RECHECK_MS, so probes never flood
 * GitHub; the named checks (a Redis PING) are cheap and run at every ask, so a load balancer stops sending
 * deliveries to a replica within one probe of its store going away. The reason names the real cause: a
 * request GitHub never answered (refused, no such host, timed out) is said so, not as the "HTTP 500" the
 * client reports it as. Each failed probe is one line of the server's request log, with the reason and
 * without a stack trace.
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
      const unreached = unreachedWords(error);
      state = {
        ok: false,
        detail:
          unreached !== undefined
            ? `GitHub could not be reached to ask whether the App's credentials work: ${unreached}`
            : status === 401 || status === 403 || status === 404
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
    // The server's request log writes any 5xx with an error; without this one it makes up an error with
    // a stack trace ("failed with status code 503"). Given the reason, its line says why, stack-free.
    if (!state.ready) (res as ServerResponse & { err?: Error }).err = stackless(state.detail);
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

/** An error that is only its message: a log line shows it without a stack. */
function stackless(message: string): Error {
  const error = new Error(message);
  error.stack = undefined;
  return error;
}

/** What a client's network errors mean (Node's and undici's codes), for an operator. */
const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (nothing listens there)',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  ECONNRESET: 'the connection was closed before an answer',
  UND_ERR_SOCKET: 'the connection was closed before an answer',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is not trusted',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host',
};

/**
 * A request that got no answer at all, in words naming the cause and where it went
 * (`http://ghe.internal: the connection was refused (connect ECONNREFUSED 10.0.0.5:443)`); undefined
 * when GitHub answered. The client reports such a failure as status 500 without a response, the
 * system's error code in its cause chain.
 */
function unreachedWords(error: unknown): string | undefined {
  const failed = error as { response?: unknown; request?: { url?: unknown } } | null;
  if (failed === null || typeof failed !== 'object' || failed.response !== undefined) return undefined;
  let code: string | undefined;
  let message: string | undefined;
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; depth++) {
    const found = (at as { code?: unknown }).code;
    if (typeof found === 'string' && code === undefined) {
      code = found;
      message = at.message;
    }
    at = at.cause;
  }
  if (code === undefined && !(error instanceof Error && error.name === 'AbortError')) return undefined;
  const words =
    code === undefined ? 'the request timed out' : (NETWORK_CAUSES[code] ?? `the request failed (${code})`);
  let where = '';
  try {
    where = typeof failed.request?.url === 'string' ? `${new URL(failed.request.url).origin}: ` : '';
  } catch {
    where = '';
  }
  return `${where}${words}${message ? ` (${message})` : ''}`;
}
