/**
 * Every error message and warning built in src/llm and src/config goes through here: providers echo the
 * key they were sent (in bodies, in URLs), and these messages end up in results.tsv, park issues and the
 * state branch, which outlive the runner log.
 */
import { redactSecrets } from '../core/text/redact.js';

/** A URL in free text: scheme, optional userinfo, then host and path up to a query, fragment or delimiter. */
const URL_IN_TEXT = /\b(https?:\/\/)(?:[^\s/?#@"'<>]+@)?([^\s?#"'<>]*)(?:[?#][^\s"'<>]*)?/gi;

/** Drops the userinfo and the query/fragment of every URL in `text` (where credentials travel). */
export function stripUrlCredentials(text: string): string {
  return text.replace(URL_IN_TEXT, '$1$2');
}

/** The known secrets (the role's key) and every credential-shaped string replaced; URLs stripped. */
export function redactMessage(text: string, secrets: readonly (string | undefined)[] = []): string {
  return redactSecrets(stripUrlCredentials(text), secrets);
}
