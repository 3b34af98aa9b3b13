/**
 * `GET /ready` (docs/app.md § Deploy): 200 only while GitHub accepts the App's credentials, 503 with the
 * reason otherwise — a wrong APP_ID, a revoked key, an unreachable GitHub. `GET /ping` (Probot's) stays
 * the liveness probe: it answers whenever the process does. The check (`GET /app` with the App's JWT) runs
 * at start-up and again when `/ready` is asked after RECHECK_MS, so probes never flood GitHub.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeApiError, httpStatusOf } from '../github/octokit.js';

export const READY_PATH = '/ready';
const RECHECK_MS = 60_000;

export interface ReadyState {
  ready: boolean;
  /** The App's slug when ready; why not otherwise, in a sentence an operator can act on. */
  detail: string;
}

export class Readiness {
  readonly #check: () => Promise<string>;
  readonly #clock: () => Date;
  #last: { state: ReadyState; at: number } | undefined;
  #running: Promise<ReadyState> | undefined;

  /** `check` resolves to the App's slug, or throws what GitHub answered. */
  constructor(check: () => Promise<string>, clock: () => Date = () => new Date()) {
    this.#check = check;
    this.#clock = clock;
  }

  /** The last result while it is fresh; otherwise one check (concurrent callers share it). */
  async state(): Promise<ReadyState> {
    const now = this.#clock().getTime();
    if (this.#last && now - this.#last.at < RECHECK_MS) return this.#last.state;
    this.#running ??= this.#probe().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #probe(): Promise<ReadyState> {
    let state: ReadyState;
    try {
      state = { ready: true, detail: await this.#check() };
    } catch (error) {
      const status = httpStatusOf(error);
      state = {
        ready: false,
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
    res
      .writeHead(state.ready ? 200 : 503, { 'content-type': 'application/json' })
      .end(
        JSON.stringify(
          state.ready ? { ready: true, app: state.detail } : { ready: false, reason: state.detail },
        ),
      );
    return true;
  };
}
