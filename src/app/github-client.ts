/**
 * The App's GitHub client (docs/how-it-works.md § The App; § Untrusted text and secrets). Two things every
 * request of the App goes through, whichever handler or adapter makes it:
 *
 * - the Octokit class Probot builds each installation's client from (`appOctokit`): Probot's retries and
 *   throttling, with primary AND secondary rate limits waited out for their `retry-after` (Probot's own
 *   default gives up on a secondary limit), bounded by a retry count and a longest wait;
 * - the sink (`guardOctokit`): ONE redaction pass over every text field of every request — bodies,
 *   titles, inline comments, check-run output, commit messages — with the exact values of the App's
 *   secrets (its environment's keys, the webhook secret, the private key line by line, the installation
 *   token it was handed) and the credential shapes; the hidden base64 blocks (the sticky state, receipts)
 *   are decoded, redacted and encoded again, since a secret inside base64 is invisible to a text pass.
 *   A POST that may have been carried out before a 5xx is not retried blindly: it is looked for first
 *   (write-lookups.ts), so a write GitHub performed before answering 502 is never duplicated.
 */
import { ProbotOctokit } from 'probot';
import { redactSecrets, redactValue } from '../core/text/redact.js';
import type { AppIdentity, AppOctokit } from '../github/app-octokit.js';
import type { GitHubRetryPolicy } from '../github/octokit.js';
import { httpStatusOf, onLimit } from '../github/octokit.js';
import { lookupFor } from './write-lookups.js';

/**
 * The App's policy: rate limits are waited out up to 15 minutes each, four times per request — a round's
 * model calls take minutes, so a wait is cheaper than a lost round.
 */
export const APP_RETRY_POLICY: GitHubRetryPolicy = {
  retries: 3,
  rateLimitRetries: 4,
  maxRateLimitWaitSeconds: 15 * 60,
  delayUnitMs: 1000,
};

interface AppOctokitOptions {
  policy?: GitHubRetryPolicy;
  /** Throttle options layered over the App's (tests pass unpaced limiters). */
  throttle?: Record<string, unknown>;
  /** Retry options layered over the App's (tests turn the 5xx retries off). */
  retry?: Record<string, unknown>;
}

type Log = { warn(message: string): void };

/** The Octokit class for `new Probot({ Octokit })` / `run(…, { Octokit })`. */
export function appOctokit(options: AppOctokitOptions = {}): typeof ProbotOctokit {
  const policy = options.policy ?? APP_RETRY_POLICY;
  return ProbotOctokit.defaults((given: Record<string, unknown>) => {
    const log = given.log as Log | undefined;
    const warn: Log = { warn: (message) => log?.warn(message) };
    const throttle = (given.throttle ?? {}) as Record<string, unknown>;
    return {
      ...given,
      retry: {
        ...(given.retry as object | undefined),
        retryAfterBaseValue: policy.delayUnitMs,
        retries: policy.retries,
        ...options.retry,
      },
      throttle:
        throttle.enabled === false
          ? throttle
          : {
              ...throttle,
              retryAfterBaseValue: policy.delayUnitMs,
              onRateLimit: onLimit('rate limit', policy, warn),
              onSecondaryRateLimit: onLimit('secondary rate limit', policy, warn),
              ...options.throttle,
            },
    };
  }) as typeof ProbotOctokit;
}

/** The routes whose repetition does no harm although they are POSTs: content-addressed or answered 200 when done. */
const REPEATABLE_POSTS = [/\/git\/(blobs|trees|commits)$/, /\/reactions$/, /^\/app\//, /\/access_tokens$/];

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']);

/** Fields holding text for people: redacted wherever they appear in a request (inline comments, output). */
const TEXT_FIELDS = new Set(['title', 'body', 'summary', 'text', 'message']);

/** A hidden block of base64 JSON, as the sticky state and the acquittal receipt are written. */
const HIDDEN_BLOCK = /(<!-- skillclimb:[a-z-]+ )([A-Za-z0-9+/=]+)( -->)/g;

/** The App's secrets: fixed ones from the environment, and installation tokens as they are handed out. */
export class SecretSet {
  readonly #values: string[];
  readonly #fixed: number;

  constructor(values: readonly string[]) {
    this.#values = [...new Set(values.filter((value) => value.trim().length >= 8))];
    this.#fixed = this.#values.length;
  }

  /** The live list (the worker's redaction reads it, so a token added later is redacted there too). */
  get values(): string[] {
    return this.#values;
  }

  add(value: string | undefined): void {
    if (!value || value.trim().length < 8 || this.#values.includes(value)) return;
    this.#values.push(value);
    // Installation tokens live an hour: keep the newest few beside the fixed secrets.
    if (this.#values.length > this.#fixed + 50) this.#values.splice(this.#fixed, 1);
  }

  redact(text: string): string {
    return redactSecrets(text, this.#values).replace(
      HIDDEN_BLOCK,
      (block, open: string, data: string, close: string) => {
        let decoded: unknown;
        try {
          decoded = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
        } catch {
          return block;
        }
        const clean = JSON.stringify(redactValue(decoded, this.#values));
        return `${open}${Buffer.from(clean, 'utf8').toString('base64')}${close}`;
      },
    );
  }

  /** File contents keep everything but the exact secret values (a shape may be legitimate code). */
  redactExact(text: string): string {
    let out = text;
    for (const value of this.#values) out = out.split(value).join('[redacted]');
    return out;
  }
}

function redactFields(value: unknown, secrets: SecretSet, key = ''): unknown {
  if (typeof value === 'string') return TEXT_FIELDS.has(key) ? secrets.redact(value) : value;
  if (Array.isArray(value)) return value.map((item) => redactFields(item, secrets, key));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([name, inner]) => [
      name,
      // `output` (check runs) and `comments` (review inline comments) hold text fields of their own.
      redactFields(inner, secrets, name),
    ]);
    return Object.fromEntries(entries);
  }
  return value;
}

const guarded = new WeakSet<object>();

/** Tries of a POST whose earlier try may have landed: each after a lookup that did not find it. */
const WRITE_TRIES = 3;

/** A 5xx or a lost connection (Octokit reports it as 500): the write may have been carried out. */
function mayHaveLanded(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 500;
}

/**
 * Puts the sink on an installation's client (once per client; Probot makes one per delivery). It also
 * learns the installation token the client authenticates with, so that value is redacted exactly, and
 * sends a POST again after a 5xx only when a lookup (write-lookups.ts) did not find it carried out.
 */
export function guardOctokit(
  octokit: AppOctokit,
  secrets: SecretSet,
  app: AppIdentity,
  log?: { info(message: string): void },
): AppOctokit {
  if (guarded.has(octokit)) return octokit;
  guarded.add(octokit);
  let token: Promise<void> | undefined;
  const learnToken = () =>
    (token ??= (async () => {
      try {
        const auth = (await octokit.auth({ type: 'installation' })) as { token?: string };
        secrets.add(auth.token);
      } catch {
        // No installation token (a token-authenticated client): its requests fail on their own terms.
      }
    })());
  octokit.hook.wrap('request', async (request, options) => {
    const url = String(options.url);
    const repeatable = REPEATABLE_POSTS.some((route) => route.test(url));
    if (!repeatable) await learnToken();
    const method = options.method.toUpperCase();
    const settings = (options.request ?? {}) as { retries?: number };
    if (!IDEMPOTENT_METHODS.has(method) && !repeatable) {
      // A POST may have been carried out before the 5xx: it is looked for below before it is sent again.
      options.request = { ...settings, retries: settings.retries ?? 0 };
    }
    const fields = options as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries(fields)) {
      if (name === 'request' || name === 'headers' || name === 'url' || name === 'baseUrl') continue;
      fields[name] = redactFields(value, secrets, name);
    }
    // A blob the executor wrote: the exact secret values never reach the branch.
    if (/\/git\/blobs$/.test(url) && typeof fields.content === 'string') {
      const base64 = fields.encoding === 'base64';
      const text = base64 ? Buffer.from(fields.content, 'base64').toString('utf8') : fields.content;
      const clean = secrets.redactExact(text);
      if (clean !== text) fields.content = base64 ? Buffer.from(clean, 'utf8').toString('base64') : clean;
    }
    // The same for a tree whose files' texts are inline (how a fix lands: src/github/fix-commit.ts).
    if (/\/git\/trees$/.test(url) && Array.isArray(fields.tree)) {
      fields.tree = (fields.tree as Array<Record<string, unknown>>).map((entry) =>
        typeof entry.content === 'string' ? { ...entry, content: secrets.redactExact(entry.content) } : entry,
      );
    }
    const lookup = method === 'POST' && !repeatable ? lookupFor(url) : undefined;
    if (!lookup) return request(options);
    for (let tries = 1; ; tries += 1) {
      try {
        return await request(options);
      } catch (error) {
        if (tries >= WRITE_TRIES || !mayHaveLanded(error)) throw error;
        // When the lookup cannot be made either, sending again could duplicate: the first error stands.
        const found = await lookup.find(octokit, fields, app).catch(() => {
          throw error;
        });
        if (found) {
          log?.info(`POST ${url} answered ${httpStatusOf(error)} but was carried out; not sent again`);
          return { status: 201, url, headers: {}, data: found };
        }
      }
    }
  });
  return octokit;
}
