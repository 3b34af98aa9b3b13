/**
 * The ONE path by which untrusted text (a model's answer, a repository's or a pull request's text, user
 * guidance, a configuration value, an API or provider error) goes into a Markdown body — PR bodies, park
 * issues, summaries, and the App's comments, reviews and check runs — in the one order that keeps it safe
 * (docs/how-it-works.md § Untrusted text and secrets): redacted first (a key must be recognisable before
 * anything is escaped; the credential shapes always, and the caller's known secrets when it has them), cut
 * raw second (so the cut can never reopen a span or a link, and the neutraliser disarms exactly what is
 * shown), neutralised last by neutralise.ts — inline as inert plain text, long text as a fence it cannot
 * close — so mentions, references, HTML, links and images never come alive and no text can forge a hidden
 * marker. Every finished body then goes through `postable`, which bounds it under GitHub's limit.
 */
import { GITHUB_BODY_LIMIT, boundBody, truncateText } from './body-limit.js';
import { neutraliseBlock, neutraliseInline } from './neutralise.js';
import { redactSecrets } from './redact.js';

/** GitHub refuses bodies of 65,536 characters; the bodies posted stay strictly under that. */
export const BODY_LIMIT = GITHUB_BODY_LIMIT - 1;

/** One line of inert text, e.g. a weakness title: at most `max` characters of the original. */
export function inertInline(text: string, max = 300, secrets: readonly string[] = []): string {
  return neutraliseInline(clip(redactSecrets(text, secrets), max));
}

/** A fenced block of verbatim text, e.g. the reviewer's raw answer: at most `max` characters of the original. */
export function inertBlock(text: string, max = 20_000, info = '', secrets: readonly string[] = []): string {
  return neutraliseBlock(clip(redactSecrets(text, secrets), max), info);
}

/** The first `max` characters of raw text (an ellipsis marks a cut); neutralise the result before posting. */
export function clip(text: string, max: number): string {
  return truncateText(text, Math.max(1, max)).text;
}

/** A finished body as GitHub will take it: under `limit`, with whatever a cut left open closed. */
export function postable(body: string, limit = BODY_LIMIT): string {
  return boundBody(body, { limit }).body;
}
