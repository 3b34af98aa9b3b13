/**
 * The ONE path by which the App turns untrusted text (model answers, PR titles, file paths, user guidance,
 * configuration values) into Markdown it posts (docs/how-it-works.md § Untrusted text and secrets): the
 * text is redacted (a provider error may echo the key it was sent), cut BEFORE it is neutralised (so the
 * neutraliser disarms exactly what is shown), then neutralised by src/core/text/neutralise.ts — inline as
 * inert plain text, long text as a fence it cannot close — so mentions, references, HTML, links and
 * images never come alive and no text can forge a hidden marker. Every finished body then goes through
 * `postable`, which bounds it under GitHub's limit with src/core/text/body-limit.ts.
 */
import { GITHUB_BODY_LIMIT, boundBody, truncateText } from '../core/text/body-limit.js';
import { neutraliseBlock, neutraliseInline } from '../core/text/neutralise.js';
import { redactSecrets } from '../core/text/redact.js';

/** GitHub refuses bodies of 65,536 characters; the App's stay strictly under that. */
export const BODY_LIMIT = GITHUB_BODY_LIMIT - 1;

/** Short untrusted text on one line, e.g. a weakness title: inert plain text of at most `max` characters. */
export function quoteInline(text: string, max = 300): string {
  return neutraliseInline(clip(redactSecrets(text), max));
}

/** Long untrusted text, e.g. the reviewer's raw answer: a fenced block of at most `max` characters. */
export function quoteBlock(text: string, max = 20_000, info = 'text'): string {
  return neutraliseBlock(clip(redactSecrets(text), max), info);
}

/** The first `max` characters of raw text (an ellipsis marks a cut); neutralise the result before posting. */
export function clip(text: string, max: number): string {
  return truncateText(text, Math.max(1, max)).text;
}

/** A finished body as GitHub will take it: under `limit`, with whatever a cut left open closed. */
export function postable(body: string, limit = BODY_LIMIT): string {
  return boundBody(body, { limit }).body;
}
