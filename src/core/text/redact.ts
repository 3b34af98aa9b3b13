/**
 * One redaction pass for everything that leaves the process (docs/how-it-works.md § Untrusted text and
 * secrets). Secrets must never reach anything that outlives the runner log (results.tsv, issues, PR bodies, the
 * state branch, result files): providers sometimes echo the key they were sent in an error message.
 * `core.setSecret` only masks the live log, so text is redacted where it is produced and where it is written.
 */

import { BASE_URL_VARIABLES, KEY_VARIABLES } from '../providers.js';
import { neutraliseInline } from './neutralise.js';

const REDACTED = '[redacted]';

/** Shapes of credentials that are never legitimate content of a report. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{12,}/g, // Anthropic (sk-ant-…) and OpenAI (sk-…, sk-proj-…) keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens: personal, OAuth, user-to-server, installation, refresh
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bv1\.[0-9a-f]{40}\b/g, // GitHub App installation tokens, older format
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs (a GitHub App's, OIDC)
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face tokens
  // A private key (a GitHub App's), whole or cut off before its END line (e.g. inside a JSON string).
  /-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----|[A-Za-z0-9+/=\s\\]*)/g,
];
/** Keep the scheme or header name, so the message still says what was redacted. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi;
const AUTH_HEADER =
  /\b(x-api-key|api-key|x-goog-api-key|private-token|proxy-authorization|authorization)(["']?\s*[:=]\s*["']?)((?:bearer|basic|token|bot)\s+)?[^\s"',;}]{8,}/gi;
/** `scheme://user:password@host`: the userinfo goes, the host stays. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/** `?access_token=…`, `&key=…` and the like in URLs. */
const URL_SECRET_PARAM =
  /([?&](?:access_token|refresh_token|id_token|token|api[_-]?key|key|secret|client_secret|password|passwd|sig|signature|code)=)[^&\s#"'<>]+/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The forms a known secret takes in transit: as is, URL-encoded, base64 (e.g. git's extraheader), and as
 * neutralised Markdown text (`_` as `&#95;`), should a rendered body quote it.
 */
function formsOf(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    neutraliseInline(secret),
  ]);
  forms.add(Buffer.from(`x-access-token:${secret}`).toString('base64'));
  // longest first: one form can contain another (base64 of `x-access-token:<secret>` ends in the secret's)
  return [...forms].filter((form) => form.length >= 8).sort((a, b) => b.length - a.length);
}

/** Replaces every known secret (in its common encodings) and every credential-shaped string. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    const value = secret?.trim();
    if (!value || value.length < 8) continue;
    for (const form of formsOf(value)) out = out.replace(new RegExp(escapeRegExp(form), 'g'), REDACTED);
  }
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(AUTH_HEADER, `$1$2$3${REDACTED}`);
  out = out.replace(URL_USERINFO, `$1${REDACTED}@`).replace(URL_SECRET_PARAM, `$1${REDACTED}`);
  return out.replace(AUTH_SCHEME, `$1 ${REDACTED}`);
}

/**
 * Every string in a JSON-like value (a state file, a result file, an Action output) redacted as by
 * redactSecrets, object keys included; numbers, booleans and null pass through. The one pass for
 * structured data before it is written anywhere that outlives the runner.
 */
export function redactValue<T>(value: T, secrets: readonly (string | undefined)[] = []): T {
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return redactSecrets(item, secrets);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(
        Object.entries(item).map(([key, inner]) => [redactSecrets(key, secrets), walk(inner)]),
      );
    }
    return item;
  };
  return walk(value) as T;
}

/** The GitHub token as a workflow's `env` and as the Action's input (the runner's `INPUT_<NAME>`) pass it. */
const GITHUB_TOKEN_VARIABLES = ['GITHUB_TOKEN', 'INPUT_GITHUB-TOKEN'];

/**
 * The secrets in an environment, for `redactSecrets`: the key of every provider in src/core/providers.ts,
 * every provider base URL that carries userinfo (`https://user:key@proxy/v1`), and the GitHub token.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const value = (name: string) => env[name]?.trim();
  return [
    ...KEY_VARIABLES.map(value),
    ...BASE_URL_VARIABLES.map(value).filter((url) => url?.includes('@')),
    ...GITHUB_TOKEN_VARIABLES.map(value),
  ].filter((secret): secret is string => Boolean(secret));
}
