/**
 * How the App and the Action turn untrusted text (model answers, PR titles, file paths, user guidance,
 * API errors) into Markdown they post (docs/how-it-works.md § Untrusted text and secrets). A thin layer over
 * the ONE rendering path of src/core: redact (redact.ts), cut the raw text (truncateText), then neutralise
 * it (neutralise.ts), so the cut never reopens anything; a finished body is bounded by boundBody, which
 * closes what a cut left open and says what was cut.
 */
import { GITHUB_BODY_LIMIT, boundBody, truncateText } from '../core/body-limit.js';
import { neutraliseBlock } from '../core/neutralise.js';
import { redactSecrets } from '../core/redact.js';
import { inertInline } from '../core/untrusted-text.js';

export { GITHUB_BODY_LIMIT };

/** Short untrusted text on one line, e.g. a weakness title: inert plain text, at most `max` characters of it. */
export function quoteInline(text: string, max = 300): string {
  return inertInline(text, max);
}

/** Long untrusted text, e.g. the reviewer's raw answer: a fenced block, at most `max` characters of it. */
export function quoteBlock(text: string, max = 20_000, info = 'text'): string {
  return neutraliseBlock(clip(redactSecrets(text), max), info);
}

/**
 * Cuts raw `text` to at most `max` characters, saying so. For text that is neutralised (or fenced) AFTER
 * the cut, or that is never rendered as Markdown (a check-run title, stored guidance).
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `… [${text.length - max} more characters cut]`;
  if (max <= note.length) return truncateText(text, max).text;
  return `${truncateText(text, max - note.length + 1).text.slice(0, -1)}${note}`;
}

/**
 * A finished Markdown body (built from neutralised pieces) as it may be posted: redacted and under `limit`
 * (GitHub's), cut where nothing is split and closed where the cut left a code block, span or comment open.
 */
export function boundedBody(body: string, limit = GITHUB_BODY_LIMIT - 1, fullTextAt?: string): string {
  return boundBody(redactSecrets(body), { limit, ...(fullTextAt === undefined ? {} : { fullTextAt }) }).body;
}
