/**
 * Untrusted text (a model's answer, a repository's text, an API or provider error) on its way into a
 * Markdown body, in the one order that keeps it safe (docs/how-it-works.md § Untrusted text and secrets):
 * redacted first (a key must be recognisable before anything is escaped), cut raw second (so the cut can
 * never reopen a span or a link), neutralised last (so nothing in what is shown is live).
 */
import { truncateText } from './body-limit.js';
import { neutraliseBlock, neutraliseInline } from './neutralise.js';
import { redactSecrets } from './redact.js';

/** One line of inert text, at most `max` characters of the original. */
export function inertInline(text: string, max: number, secrets: readonly string[] = []): string {
  return neutraliseInline(truncateText(redactSecrets(text, secrets), max).text);
}

/** A fenced block of verbatim text, at most `max` characters of the original. */
export function inertBlock(text: string, max: number, info = '', secrets: readonly string[] = []): string {
  return neutraliseBlock(truncateText(redactSecrets(text, secrets), max).text, info);
}
