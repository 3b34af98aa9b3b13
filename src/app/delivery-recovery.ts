/**
 * Missed deliveries recovered from GitHub (docs/how-it-works.md § The App; docs/app.md § Missed
 * deliveries). GitHub never sends a failed delivery again on its own — while the App was down, or
 * answered 5xx, the event is lost — but it lists the App's deliveries of the last 3 days
 * (`GET /app/hook/deliveries`, with the App's JWT) and redelivers one when asked
 * (`POST /app/hook/deliveries/{id}/attempts`). On start-up and then every few minutes, a bounded pass
 * reads the newest pages, picks the failed deliveries of the events the App handles whose event (`guid`,
 * shared by every redelivery) never succeeded, and asks for each once — once across replicas too, through
 * the OnceGuard. A redelivered event the App did handle after all (GitHub timed out, the App had finished)
 * is ignored as any redelivery is: by its delivery id and the trigger comment's id.
 */
import type { ProbotOctokit } from 'probot';
import { messageOf } from '../core/errors.js';
import { httpStatusOf } from '../github/octokit.js';
import { EnvConfigError } from './config.js';
import type { OnceGuard } from './once-guard.js';

/** The events the App has handlers for (src/app/app.ts); deliveries of others are never redelivered. */
export const HANDLED_EVENTS: ReadonlySet<string> = new Set(['issue_comment', 'pull_request', 'check_run']);

/** GitHub redelivers deliveries of the last 3 days; 15 minutes are kept back so a request never lands just past it. */
export const REDELIVERY_WINDOW_MS = 3 * 24 * 60 * 60_000 - 15 * 60_000;

/** One delivery as `GET /app/hook/deliveries` lists it (the fields read here). */
export interface HookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status: string;
  status_code: number;
  event: string;
  action?: string | null;
}

export interface RecoveryLimits {
  /** Only deliveries newer than this are redelivered. */
  windowMs: number;
  /** An event that failed this many times within the window is left alone (a delivery the App always refuses). */
  maxAttemptsPerEvent: number;
}

export const DEFAULT_RECOVERY_LIMITS: RecoveryLimits = {
  windowMs: REDELIVERY_WINDOW_MS,
  maxAttemptsPerEvent: 3,
};

export interface FailedDeliveries {
  /** The newest failed delivery of each event that never succeeded, newest first. */
  toRedeliver: HookDelivery[];
  /** Events left alone since they failed `maxAttemptsPerEvent` times already. */
  gaveUp: number;
}

function succeeded(delivery: HookDelivery): boolean {
  return delivery.status_code >= 200 && delivery.status_code < 300;
}

/**
 * A failure the App may get past next time: no answer (status 0: no connection, a timeout), a 5xx (down,
 * deploying, Redis away), 408 or 429. A 4xx the App answered on purpose — a bad signature, a payload over
 * the size limit — would be answered the same again.
 */
function mayPassNextTime(delivery: HookDelivery): boolean {
  const code = delivery.status_code;
  return !code || code >= 500 || code === 408 || code === 429;
}

/**
 * Which deliveries to ask GitHub for again (pure): of the handled events within the window, those whose
 * `guid` has no successful attempt among the deliveries read; one per event, its newest attempt.
 */
export function failedDeliveries(
  deliveries: readonly HookDelivery[],
  now: number,
  limits: RecoveryLimits = DEFAULT_RECOVERY_LIMITS,
): FailedDeliveries {
  const byEvent = new Map<string, HookDelivery[]>();
  for (const delivery of deliveries) {
    if (!HANDLED_EVENTS.has(delivery.event)) continue;
    const attempts = byEvent.get(delivery.guid) ?? [];
    attempts.push(delivery);
    byEvent.set(delivery.guid, attempts);
  }
  const toRedeliver: HookDelivery[] = [];
  let gaveUp = 0;
  for (const attempts of byEvent.values()) {
    if (attempts.some(succeeded)) continue;
    const newest = attempts.reduce((a, b) =>
      Date.parse(b.delivered_at) > Date.parse(a.delivered_at) ? b : a,
    );
    if (!mayPassNextTime(newest)) continue;
    if (!(now - Date.parse(newest.delivered_at) < limits.windowMs)) continue;
    if (attempts.length >= limits.maxAttemptsPerEvent) {
      gaveUp += 1;
      continue;
    }
    toRedeliver.push(newest);
  }
  toRedeliver.sort((a, b) => Date.parse(b.delivered_at) - Date.parse(a.delivered_at));
  return { toRedeliver, gaveUp };
}

/** The `cursor` of the next page, from the `Link` header GitHub sends with the list. */
export function nextCursor(link: string | undefined): string | undefined {
  const next = link
    ?.split(',')
    .map((part) => /<([^>]+)>\s*;\s*rel="next"/.exec(part)?.[1])
    .find((url): url is string => url !== undefined);
  if (!next) return undefined;
  return new URL(next, 'https://api.github.invalid').searchParams.get('cursor') ?? undefined;
}

type AppClient = Pick<ProbotOctokit, 'request'>;

type Log = { info(message: string): void; warn(message: string): void; debug?(message: string): void };

export interface DeliveryRecoveryOptions {
  /** The App-level client (JWT): `() => probot.auth()`. */
  octokit: () => Promise<AppClient>;
  guard: OnceGuard;
  log: Log;
  now?: () => number;
  /** Between two passes; 0: only the pass at start-up. */
  intervalMs?: number;
  /** Pages of 100 deliveries read per pass (newest first). */
  maxPages?: number;
  /** Redeliveries asked for per pass; the rest wait for the next pass. */
  maxRedeliveries?: number;
  limits?: RecoveryLimits;
}

export interface RecoveryPass {
  /** Failed deliveries of handled events, within the window, whose event never succeeded. */
  found: number;
  redelivered: number;
  /** Already asked for by this process or another replica (the OnceGuard said so). */
  alreadyAsked: number;
  gaveUp: number;
  /** Over the pass's bound: left for the next pass. */
  deferred: number;
  /** Redeliveries GitHub refused, and the first reason. */
  refused: number;
  /** Not asked for since the OnceGuard could not be reached (Redis down): asking could duplicate. */
  unguarded: number;
  /** Set when the pass could not list the deliveries at all. */
  error?: string;
}

export const RECOVERY_INTERVAL_MS = 10 * 60_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 10;
const MAX_REDELIVERIES = 20;
/** A pass is repeated anyway: an error is not retried inside it (Octokit's retries would hold up a shutdown). */
const NO_RETRIES = { retries: 0 };

/** Why the deliveries could not be listed, in words an operator can act on. */
function listingProblem(error: unknown): string {
  const status = httpStatusOf(error);
  const what = 'GET /app/hook/deliveries';
  if (status === 404)
    return `${what} answered 404: this GitHub does not list an App's webhook deliveries (an older GitHub Enterprise Server?), so missed deliveries are not recovered`;
  if (status === 401 || status === 403)
    return `${what} answered ${status}: GitHub refused the App's own token (JWT) for its webhook deliveries — check APP_ID and the private key; missed deliveries are not recovered meanwhile`;
  return `${what} failed${status ? ` (HTTP ${status})` : ''}: ${messageOf(error)}; missed deliveries are not recovered until it answers`;
}

/**
 * The recovery passes of one process: `start()` runs one at once and then every `intervalMs`; `stop()`
 * ends the timer and waits for a running pass. A failing pass is logged (the same problem once, not at
 * every pass) and never stops the App.
 */
export class DeliveryRecovery {
  readonly #options: DeliveryRecoveryOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<RecoveryPass> | undefined;
  #lastProblem: string | undefined;

  constructor(options: DeliveryRecoveryOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The first pass, started now (its promise, for tests and logs); later passes on the timer. */
  start(): Promise<RecoveryPass> {
    const interval = this.#options.intervalMs ?? RECOVERY_INTERVAL_MS;
    if (interval > 0 && !this.#timer) {
      this.#timer = setInterval(() => void this.pass(), interval);
      this.#timer.unref();
    }
    return this.pass();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** One pass; a pass asked for while one runs joins it. */
  pass(): Promise<RecoveryPass> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #pass(): Promise<RecoveryPass> {
    const { log } = this.#options;
    const result: RecoveryPass = {
      found: 0,
      redelivered: 0,
      alreadyAsked: 0,
      gaveUp: 0,
      deferred: 0,
      refused: 0,
      unguarded: 0,
    };
    let octokit: AppClient;
    let deliveries: HookDelivery[];
    try {
      octokit = await this.#options.octokit();
      deliveries = await this.#list(octokit);
    } catch (error) {
      const problem = listingProblem(error);
      if (problem !== this.#lastProblem) log.warn(`Missed deliveries: ${problem}`);
      else log.debug?.(`Missed deliveries: ${problem}`);
      this.#lastProblem = problem;
      return { ...result, error: problem };
    }
    if (this.#lastProblem) log.info('Missed deliveries: GitHub lists the deliveries again');
    this.#lastProblem = undefined;
    const limits = this.#options.limits ?? DEFAULT_RECOVERY_LIMITS;
    const { toRedeliver, gaveUp } = failedDeliveries(deliveries, this.#now(), limits);
    result.found = toRedeliver.length;
    result.gaveUp = gaveUp;
    const budget = this.#options.maxRedeliveries ?? MAX_REDELIVERIES;
    let firstRefusal: string | undefined;
    let guardProblem: string | undefined;
    for (const [index, delivery] of toRedeliver.entries()) {
      if (result.redelivered >= budget) {
        result.deferred += 1;
        continue;
      }
      let first: boolean;
      try {
        // Keyed by the failed delivery's own id: a redelivery that fails again is a new id, asked for once in turn.
        first = await this.#options.guard.first(`redeliver:${delivery.id}`, limits.windowMs);
      } catch (error) {
        // Without the record two replicas could both ask: this pass asks for nothing more.
        result.unguarded = toRedeliver.length - index;
        guardProblem = messageOf(error);
        break;
      }
      if (!first) {
        result.alreadyAsked += 1;
        continue;
      }
      try {
        await octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', {
          delivery_id: delivery.id,
          request: NO_RETRIES,
        });
        result.redelivered += 1;
      } catch (error) {
        result.refused += 1;
        const status = httpStatusOf(error);
        firstRefusal ??= `${delivery.event} delivery ${delivery.id}: ${status ? `HTTP ${status}, ` : ''}${messageOf(error)}`;
      }
    }
    log.info(describePass(result, limits, firstRefusal));
    if (guardProblem)
      log.warn(
        `Missed deliveries: ${result.unguarded} not asked for this pass, since the record of those asked for (Redis) could not be reached: ${guardProblem}`,
      );
    return result;
  }

  /** The newest pages, up to the bound, stopping at the first page that reaches past the window. */
  async #list(octokit: AppClient): Promise<HookDelivery[]> {
    const windowMs = (this.#options.limits ?? DEFAULT_RECOVERY_LIMITS).windowMs;
    const oldest = this.#now() - windowMs;
    const deliveries: HookDelivery[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < (this.#options.maxPages ?? MAX_PAGES); page += 1) {
      const response = await octokit.request('GET /app/hook/deliveries', {
        per_page: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
        request: NO_RETRIES,
      });
      const items = (Array.isArray(response.data) ? response.data : []) as unknown as HookDelivery[];
      deliveries.push(...items);
      cursor = nextCursor(response.headers.link);
      if (!cursor || items.length === 0) break;
      if (items.some((item) => Date.parse(item.delivered_at) < oldest)) break;
    }
    return deliveries;
  }
}

/** One plain line per pass. */
export function describePass(
  pass: RecoveryPass,
  limits: RecoveryLimits = DEFAULT_RECOVERY_LIMITS,
  firstRefusal?: string,
): string {
  const parts = [
    `Missed deliveries: ${pass.found} failed ${pass.found === 1 ? 'delivery' : 'deliveries'} of handled events in the last 3 days, ${pass.redelivered} redelivered`,
  ];
  if (pass.alreadyAsked) parts.push(`${pass.alreadyAsked} already redelivered (by this or another replica)`);
  if (pass.deferred) parts.push(`${pass.deferred} left for the next pass`);
  if (pass.gaveUp) parts.push(`${pass.gaveUp} left alone after failing ${limits.maxAttemptsPerEvent} times`);
  if (pass.refused) parts.push(`${pass.refused} refused by GitHub (${firstRefusal ?? 'no reason given'})`);
  if (pass.unguarded)
    parts.push(`${pass.unguarded} not asked for (the record of those asked for is out of reach)`);
  return parts.join(', ');
}

/** `REVIEW_LOOP_RECOVERY_MINUTES`: minutes between two passes (10); 0 turns the recovery off. */
export function recoveryIntervalFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const name = 'REVIEW_LOOP_RECOVERY_MINUTES';
  const raw = env[name]?.trim();
  if (!raw) return RECOVERY_INTERVAL_MS;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes < 0)
    throw new EnvConfigError(
      name,
      `expected a number of minutes (0 turns the recovery off), got ${JSON.stringify(raw)}`,
    );
  return minutes === 0 ? undefined : minutes * 60_000;
}
