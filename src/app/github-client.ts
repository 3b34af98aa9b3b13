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
import { messageOf } from '../core/errors.js';
import { redactSecrets, redactValue } from '../core/text/redact.js';
import type { AppIdentity, AppOctokit } from '../github/review/app-octokit.js';
import type { GitHubRetryPolicy } from '../github/octokit.js';
import { httpStatusOf, onLimit } from '../github/octokit.js';
import { lookupFor } from './write-lookups.js';
import type { WritePacer } from './write-pacer.js';
import { createsContent, paceWrite } from './write-pacer.js';

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
  /**
   * Paces each installation's content-creating writes under GitHub's secondary limit (src/app/write-pacer.ts);
   * none: only the throttling plugin's spacing.
   */
  pacer?: WritePacer;
  /** How a paced write waits (tests record the waits instead). */
  sleep?: (ms: number) => Promise<void>;
}

/** A paced write that waited this long is logged (a shorter wait is the normal spacing). */
const LOGGED_PACE_WAIT_MS = 5_000;

type PluginOptions = { auth?: { installationId?: number | string }; log?: Log };

/**
 * The pacing, as an Octokit plugin: every client Probot builds for an installation (a delivery's, a
 * job's) comes from the App's class, and the installation's id is in its auth options. Its hook is the
 * outermost of the class's own, so a write waits for its slot before the throttling plugin queues it.
 */
function pacing(pacer: WritePacer, sleep?: (ms: number) => Promise<void>) {
  let pacerDown = false;
  return (octokit: { hook: AppOctokit['hook'] }, options: PluginOptions) => {
    const installation = options.auth?.installationId;
    if (installation === undefined) return;
    octokit.hook.wrap('request', async (request, params) => {
      const fields = params as unknown as Record<string, unknown>;
      if (createsContent(params.method, String(params.url), fields)) {
        let waited = 0;
        try {
          waited = await paceWrite(pacer, `installation:${installation}`, sleep);
          pacerDown = false;
        } catch (error) {
          // The shared budget is out of reach (Redis down): the write goes on with the throttle's spacing only.
          if (!pacerDown)
            options.log?.warn(`writes are not paced while the pacer cannot be reached: ${messageOf(error)}`);
          pacerDown = true;
        }
        if (waited >= LOGGED_PACE_WAIT_MS)
          options.log?.warn(
            `${params.method} ${String(params.url)} waited ${Math.round(waited / 1000)} s for installation ${installation}'s write budget (GitHub's limit on content creation)`,
          );
      }
      return request(params);
    });
  };
}

type Log = { warn(message: string): void };

/** The Octokit class for `new Probot({ Octokit })` / `run(…, { Octokit })`. */
export function appOctokit(options: AppOctokitOptions = {}): typeof ProbotOctokit {
  const policy = options.policy ?? APP_RETRY_POLICY;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const limited = ProbotOctokit.plugin(unlabelledLimits(policy, sleep));
  const base = options.pacer ? limited.plugin(pacing(options.pacer, sleep)) : limited;
  return base.defaults((given: Record<string, unknown>) => {
    const log = given.log as Log | undefined;
    const warn: Log = { warn: (message) => log?.warn(message) };
    const throttle = (given.throttle ?? {}) as Record<string, unknown>;
    // The throttle queues writes per `id`. `probot.auth(id)` keys it by installation, but the client
    // Probot builds for a webhook delivery (its "event-octokit") copies the App's options and keeps the
    // App's one key, so every installation's deliveries would share ONE write queue, a second apart
    // (docs/how-it-works.md § The App, "Writes per round"): key it by the installation here too.
    const installationId = (given.auth as { installationId?: unknown } | undefined)?.installationId;
    const perInstallation =
      typeof installationId === 'number' || typeof installationId === 'string'
        ? { id: String(installationId) }
        : {};
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
              ...perInstallation,
              retryAfterBaseValue: policy.delayUnitMs,
              onRateLimit: onLimit('rate limit', policy, warn),
              onSecondaryRateLimit: onLimit('secondary rate limit', policy, warn),
              ...options.throttle,
            },
    };
  }) as typeof ProbotOctokit;
}

/** The seconds a `retry-after` header asks for (a number of seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: unknown, now = Date.now()): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The wait a 403 or 429 with `retry-after` asks for when the throttling plugin does not recognise it as a
 * limit (it looks for GitHub's "secondary rate limit" message or `x-ratelimit-remaining: 0`): GitHub's
 * docs say to wait `retry-after` seconds whatever the body says. Undefined for anything else.
 */
function unlabelledWait(error: unknown): number | undefined {
  const status = httpStatusOf(error);
  if (status !== 403 && status !== 429) return undefined;
  const headers = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {};
  if (/\bsecondary rate\b/i.test(messageOf(error)) || String(headers['x-ratelimit-remaining']) === '0')
    return undefined;
  return retryAfterSeconds(headers['retry-after']);
}

/**
 * A 403/429 with `retry-after` that the throttling plugin let through is waited out too, within the same
 * policy (retry count, longest wait), so the round waits instead of failing (a POST gets no 5xx retries, and
 * the retry plugin would ignore the header). Outside the throttling plugin's hook, so it sees what that gave up.
 */
function unlabelledLimits(policy: GitHubRetryPolicy, sleep: (ms: number) => Promise<void>) {
  return (octokit: { hook: AppOctokit['hook'] }, options: PluginOptions) => {
    const decide = onLimit('rate limit (403/429 with retry-after)', policy, {
      warn: (m) => options.log?.warn(m),
    });
    octokit.hook.wrap('request', async (request, params) => {
      for (let retryCount = 0; ; retryCount += 1) {
        try {
          return await request(params);
        } catch (error) {
          const wait = unlabelledWait(error);
          if (
            wait === undefined ||
            !decide(wait, { method: params.method, url: String(params.url) }, octokit, retryCount)
          )
            throw error;
          await sleep(wait * policy.delayUnitMs);
        }
      }
    });
  };
}

/** The routes whose repetition does no harm although they are POSTs: content-addressed or answered 200 when done. */
const REPEATABLE_POSTS = [/\/git\/(blobs|trees|commits)$/, /\/reactions$/, /^\/app\//, /\/access_tokens$/];

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']);

/** Fields holding text for people: redacted wherever they appear in a request (inline comments, output). */
const TEXT_FIELDS = new Set(['title', 'body', 'summary', 'text', 'message']);

/**
 * A hidden block of base64 JSON, as the sticky state, the acquittal receipt (`<!-- skillclimb:<kind> <base64> -->`)
 * and an inline finding's key (`<!-- skillclimb:review-loop-weakness r=1 n=2 k=<base64> -->`) are written.
 */
const HIDDEN_BLOCK = /(<!-- skillclimb:[a-z-]+ (?:[a-z]=\d+ )*(?:k=)?)([A-Za-z0-9+/=]+)( -->)/g;

/**
 * A hidden block with the secrets taken out of its decoded JSON and encoded again, so it still decodes
 * (docs/how-it-works.md § Untrusted text and secrets). A block that does not decode as JSON (not the
 * App's) gets the plain-text pass, which also takes out a secret's base64 form.
 */
function redactBlock(block: string, open: string, data: string, close: string, secrets: string[]): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
  } catch {
    return redactSecrets(block, secrets);
  }
  const clean = JSON.stringify(redactValue(decoded, secrets));
  if (clean === JSON.stringify(decoded)) return block;
  return `${open}${Buffer.from(clean, 'utf8').toString('base64')}${close}`;
}

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

  /**
   * The hidden blocks first, decoded, redacted and encoded again; then the plain-text pass over the text
   * between them only: run over a block, it would replace the base64 form of a secret that sits at a
   * multiple of 3 bytes in the JSON, and the block would no longer decode (issue 27: the sticky state
   * was lost that way).
   */
  redact(text: string): string {
    let out = '';
    let from = 0;
    for (const match of text.matchAll(HIDDEN_BLOCK)) {
      const [block, open, data, close] = match as unknown as [string, string, string, string];
      out += redactSecrets(text.slice(from, match.index), this.#values);
      out += redactBlock(block, open, data, close, this.#values);
      from = match.index + block.length;
    }
    return out + redactSecrets(text.slice(from), this.#values);
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
    // The same for a tree whose files' texts are inline (how a fix lands: src/github/review/fix-commit.ts).
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
