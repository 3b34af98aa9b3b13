/**
 * Secrets must never reach anything that outlives the runner log (results.tsv, issues, PR bodies, the
 * state branch, result files): providers sometimes echo the key they were sent in an error message.
 * `core.setSecret` only masks the live log, so text is redacted where it is produced and where it is written.
 */

const REDACTED = '[redacted]';

/** Shapes of credentials that are never legitimate content of a report. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{12,}/g, // Anthropic (sk-ant-…) and OpenAI (sk-…, sk-proj-…) keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
];
/** Keep the scheme or header name, so the message still says what was redacted. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi;
const AUTH_HEADER = /\b(x-api-key|api-key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;}]{8,}/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms a known secret takes in transit: as is, URL-encoded, and base64 (e.g. git's extraheader). */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')]);
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
  out = out.replace(AUTH_HEADER, `$1$2${REDACTED}`);
  return out.replace(AUTH_SCHEME, `$1 ${REDACTED}`);
}

/** The provider keys and tokens in an environment, for `redactSecrets`. */
export function secretsFromEnv(env: NodeJS.ProcessEnv): string[] {
  return ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GITHUB_TOKEN', 'INPUT_GITHUB-TOKEN']
    .map((name) => env[name]?.trim())
    .filter((value): value is string => Boolean(value));
}
