/**
 * The ONE place the App turns untrusted text (model answers, PR titles, file paths, user guidance) into
 * Markdown it posts (docs/how-it-works.md § Untrusted text and secrets). Everything is quoted: inline
 * text as a code span, long text in a fence longer than any backtick run inside, so mentions, issue
 * references, links, images and HTML never become live and no text can close its quote or forge a
 * hidden marker. Secrets are redacted on the way out: a provider error may echo the key it was sent.
 */
import { fenceFor, inlineCode } from '../core/park.js';
import { redactSecrets } from '../core/redact.js';

/** GitHub refuses bodies of 65,536 characters or more (comments, reviews, issues, check-run summaries). */
export const GITHUB_BODY_LIMIT = 65_536;

/** Short untrusted text on one line, e.g. a weakness title: a code span, at most `max` characters. */
export function quoteInline(text: string, max = 300): string {
  return inlineCode(clip(redactSecrets(text), max));
}

/** Long untrusted text, e.g. the reviewer's raw answer: a fenced block, at most `max` characters. */
export function quoteBlock(text: string, max = 20_000, info = 'text'): string {
  const body = clip(redactSecrets(text), max);
  const fence = fenceFor(body);
  return `${fence}${info}\n${body.endsWith('\n') ? body : `${body}\n`}${fence}`;
}

/** Cuts `text` to `max` characters, saying so. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… [${text.length - max} more characters cut]`;
  return `${text.slice(0, Math.max(0, max - note.length))}${note}`;
}
