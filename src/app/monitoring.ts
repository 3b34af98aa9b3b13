/**
 * `GET /metrics` (docs/app.md § Monitoring): what an operator of one or many replicas watches, as
 * Prometheus text (src/app/metrics.ts renders it). Per replica:
 *
 * - the queue: loops running, loops waiting for a slot, pull requests claimed (read from the App's queue
 *   at each scrape, through `queueFigures`; with REDIS_URL the shared queue's, so every replica reports the
 *   same figures);
 * - rounds completed: the pull-request reviews the App posted, since each round of a loop posts exactly
 *   one (docs/how-it-works.md § The App) — counted where every request leaves, so neither the loop nor
 *   the queue needs to know; rounds per hour is `rate(…[1h]) * 3600` of the counter;
 * - deliveries received (signature verified) by event, and those the App ignored;
 * - GitHub writes by kind (every request that is not a read), the installation's budget being writes;
 * - the process's basics under the names Prometheus' own clients use (CPU, resident memory, heap, start
 *   time, event-loop delay).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MetricFamily } from './metrics.js';
import { Counter, METRICS_CONTENT_TYPE, renderMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

export interface QueueFigures {
  running: number;
  waiting: number;
  claimed: number;
}

/**
 * The queue's figures, whichever queue the App runs: the Redis-backed one answers `snapshot()` (its
 * figures live in Redis, so reading them is asynchronous); the in-memory one has synchronous `stats`.
 */
export function queueFigures(queue: object): Promise<QueueFigures> {
  const shared = queue as { snapshot?: () => Promise<QueueFigures>; stats?: QueueFigures };
  if (typeof shared.snapshot === 'function') return shared.snapshot();
  if (shared.stats) return Promise.resolve(shared.stats);
  return Promise.reject(new Error('the App queue reports neither snapshot() nor stats'));
}

/** The kinds of GitHub writes, for `skillclimb_app_github_writes_total{kind}`. */
export const WRITE_KINDS = [
  'review',
  'comment',
  'comment edit',
  'check-run create',
  'check-run update',
  'reaction',
  'git data',
  'branch move',
  'issue',
  'graphql mutation',
  'installation token',
  'other',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/**
 * The kind of one request that is not a read, from its route (the template Octokit is given, e.g.
 * `/repos/{owner}/{repo}/pulls/{pull_number}/reviews`, or the path it expanded to); undefined for reads.
 */
export function writeKindOf(method: string, url: string, body?: unknown): WriteKind | undefined {
  const verb = method.toUpperCase();
  const path = url.split('?')[0] ?? '';
  if (path.endsWith('/graphql')) {
    const query = (body as { query?: unknown } | undefined)?.query;
    return typeof query === 'string' && /^\s*mutation\b/.test(query) ? 'graphql mutation' : undefined;
  }
  if (verb === 'GET' || verb === 'HEAD' || verb === 'OPTIONS') return undefined;
  if (path.endsWith('/access_tokens')) return 'installation token';
  if (path.endsWith('/reactions')) return 'reaction';
  if (/\/pulls\/[^/]+\/reviews$/.test(path)) return 'review';
  if (/\/issues\/comments\/[^/]+$/.test(path)) return 'comment edit';
  if (/\/issues\/[^/]+\/comments$/.test(path)) return 'comment';
  if (/\/check-runs$/.test(path)) return 'check-run create';
  if (/\/check-runs\/[^/]+$/.test(path)) return 'check-run update';
  if (/\/git\/refs?\//.test(path)) return 'branch move';
  if (/\/git\/(blobs|trees|commits)$/.test(path)) return 'git data';
  if (/\/issues$/.test(path)) return 'issue';
  return 'other';
}

/** The App's counters, one set per process. */
export class AppMetrics {
  readonly rounds = new Counter(
    'skillclimb_app_rounds_completed_total',
    'Review rounds completed by this replica (one pull-request review is posted per round); rounds per hour: rate(...[1h]) * 3600.',
  );
  readonly deliveries = new Counter(
    'skillclimb_app_deliveries_received_total',
    'Webhook deliveries whose signature verified, by event.',
    'event',
  );
  readonly ignored = new Counter(
    'skillclimb_app_deliveries_ignored_total',
    'Verified deliveries of the events the App handles that started no work (not a command, no installation, a field missing).',
  );
  readonly writes = new Counter(
    'skillclimb_app_github_writes_total',
    'Requests to GitHub that are not reads, by kind (GraphQL queries are reads).',
    'kind',
    WRITE_KINDS,
  );

  /** Counts a write GitHub answered with success (a round's review also counts the round). */
  write(method: string, url: string, body?: unknown): void {
    const kind = writeKindOf(method, url, body);
    if (!kind) return;
    this.writes.inc(kind);
    if (kind === 'review') this.rounds.inc();
  }

  /**
   * An Octokit plugin (`appOctokit().plugin(metrics.octokitPlugin)`): every client Probot builds counts
   * its successful writes here.
   */
  readonly octokitPlugin = (octokit: {
    hook: {
      after(
        name: 'request',
        hook: (response: unknown, options: { method: string; url: string; query?: unknown }) => void,
      ): void;
    };
  }): void => {
    octokit.hook.after('request', (_response, options) => {
      this.write(options.method, String(options.url), options);
    });
  };

  families(): MetricFamily[] {
    return [this.rounds, this.deliveries, this.ignored, this.writes].map((counter) => counter.family());
  }
}

/** The process's basics, under the names of Prometheus' Node client (prom-client). */
export class ProcessFigures {
  readonly #delay = monitorEventLoopDelay({ resolution: 20 });
  readonly #startSeconds = Math.round(Date.now() / 1000 - process.uptime());

  constructor() {
    this.#delay.enable();
  }

  /** Event-loop delay since the previous scrape (the histogram is reset after each). */
  families(): MetricFamily[] {
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const p99 = this.#delay.count > 0 ? this.#delay.percentile(99) / 1e9 : 0;
    this.#delay.reset();
    const gauge = (name: string, help: string, value: number): MetricFamily => ({
      name,
      help,
      type: 'gauge',
      samples: [{ value }],
    });
    return [
      {
        name: 'process_cpu_seconds_total',
        help: 'User and system CPU time spent, in seconds.',
        type: 'counter',
        samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
      },
      gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', memory.rss),
      gauge('nodejs_heap_size_used_bytes', 'V8 heap used, in bytes.', memory.heapUsed),
      gauge(
        'process_start_time_seconds',
        'Start time of the process since the Unix epoch, in seconds.',
        this.#startSeconds,
      ),
      gauge(
        'nodejs_eventloop_lag_p99_seconds',
        "99th percentile of the event loop's delay since the previous scrape, in seconds.",
        p99,
      ),
    ];
  }

  stop(): void {
    this.#delay.disable();
  }
}

/** `GET /metrics`, in Probot's handler form (`addHandler`): every other request goes to the next handler. */
export function metricsHandler(options: {
  metrics: AppMetrics;
  process: ProcessFigures;
  /** Undefined until the App is loaded. */
  queue: () => object | undefined;
  log?: { warn(message: string): void };
}): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) return false;
    const queue = options.queue();
    let figures: QueueFigures | undefined;
    try {
      figures = queue ? await queueFigures(queue) : undefined;
    } catch (error) {
      // A queue in Redis while Redis is away: the scrape still answers, without the queue's gauges.
      options.log?.warn(
        `GET /metrics: the queue's figures could not be read (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const gauge = (name: string, help: string, value: number | undefined): MetricFamily => ({
      name,
      help,
      type: 'gauge',
      samples: value === undefined ? [] : [{ value }],
    });
    const text = renderMetrics([
      gauge(
        'skillclimb_app_loops_running',
        'Review loops running now (with REDIS_URL: on every replica, the same figure on each).',
        figures?.running,
      ),
      gauge(
        'skillclimb_app_loops_waiting',
        'Review loops waiting for a slot: the queue depth (with REDIS_URL: the shared queue, the same figure on each replica).',
        figures?.waiting,
      ),
      gauge(
        'skillclimb_app_pulls_claimed',
        'Pull requests with a claimed loop, running or about to run (with REDIS_URL: across replicas).',
        figures?.claimed,
      ),
      ...options.metrics.families(),
      ...options.process.families(),
    ]);
    res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text);
    return true;
  };
}
