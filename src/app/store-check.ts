/**
 * What `GET /ready` says of the App's shared state (docs/app.md § Scale path): with `REDIS_URL`, whether
 * that Redis answers a PING now — a replica whose Redis is away answers 503 naming it, so a load balancer
 * sends deliveries elsewhere (or GitHub records them as failed, to be redelivered once it is back); without
 * it, that this process alone holds the claims and the queue, so the App must run as one replica.
 * The Redis URL is never shown whole: it may carry a password, so only its host and port are named.
 */
import { Redis } from 'ioredis';
import { EnvConfigError } from './config.js';
import type { NamedCheck } from './readiness.js';

export const STORE_CHECK = 'store';

/** `redis://` or `rediss://` with a host; a bad value stops the start, naming the variable. */
export function redisAddress(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EnvConfigError('REDIS_URL', 'is not a URL; expected redis://host:6379 (or rediss:// for TLS)');
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    throw new EnvConfigError(
      'REDIS_URL',
      `expected redis://host:6379 or rediss://host:6379, not a ${parsed.protocol}// URL`,
    );
  }
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

export interface StoreCheck extends NamedCheck {
  close(): Promise<void>;
}

/** The in-memory default: always ready, and says what it implies. */
export function memoryStoreCheck(): StoreCheck {
  return {
    name: STORE_CHECK,
    check: async () => ({
      ok: true,
      detail:
        'memory: the queue and the claims on pull requests live in this process only, so run ONE replica (set REDIS_URL to share them between replicas)',
    }),
    close: async () => undefined,
  };
}

/**
 * A PING through its own connection to `url`: commands are not queued while the connection is down (so a
 * probe fails at once instead of waiting), and ioredis reconnects in the background meanwhile.
 */
export function redisStoreCheck(url: string): StoreCheck {
  const address = redisAddress(url);
  let lastError = '';
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  // Errors are reported by the check; without a listener ioredis would print each reconnect's.
  client.on('error', (error: Error) => (lastError = error.message));
  client.on('ready', () => (lastError = ''));
  const connecting = client.connect().catch((error: unknown) => {
    lastError = error instanceof Error ? error.message : String(error);
  });
  return {
    name: STORE_CHECK,
    check: async () => {
      await connecting;
      try {
        const answer = await client.ping();
        return { ok: answer === 'PONG', detail: `redis at ${address}: answered ${answer} to PING` };
      } catch (error) {
        const why = lastError || (error instanceof Error ? error.message : String(error));
        return {
          ok: false,
          detail: `Redis (REDIS_URL, ${address}) does not answer (${why}): the replicas' shared queue and claims are out of reach`,
        };
      }
    },
    close: async () => {
      client.disconnect();
    },
  };
}

/** The store check of this environment. */
export function storeCheck(env: NodeJS.ProcessEnv): StoreCheck {
  const url = env.REDIS_URL?.trim();
  return url ? redisStoreCheck(url) : memoryStoreCheck();
}
