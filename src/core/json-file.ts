/**
 * A JSON file checked against a zod schema, its first problem reported as `<file>: <json.path>: <detail>`.
 * Each kind of file (evals, config) keeps its own error class and words a few zod issues its own way; the
 * parsing, the choice of issue and the path notation are the same everywhere, so they live here.
 */
import type { z } from 'zod';
import { messageOf } from './errors.js';

export type ZodIssue = z.core.$ZodIssue;

export interface JsonFileWording {
  /** The module's own error; `jsonPath` is `''` when the problem is the whole file. */
  error: (file: string, jsonPath: string, detail: string) => Error;
  /** The detail of the first zod issue, in the module's words. */
  detail: (issue: ZodIssue) => string;
}

/** `['categories', 1, 'evals', 0, 'id']` → `categories[1].evals[0].id`. */
export function formatJsonPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

/**
 * zod 4 words errors as "Invalid input: expected number, received string"; after one of `headings` only
 * the useful half is kept. Other messages (custom ones included) pass through unchanged.
 */
export function zodExpectation(message: string, headings: readonly string[]): string {
  const m = new RegExp(`^(?:${headings.join('|')}): (expected .*)$`).exec(message);
  return m?.[1] ?? message;
}

/** Parses `text` (a leading BOM is allowed) and validates it; throws `wording.error(…)` on the first problem. */
export function parseJsonFileWith<S extends z.ZodType>(
  file: string,
  text: string,
  schema: S,
  wording: JsonFileWording,
): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw wording.error(file, '', `not valid JSON (${messageOf(err)})`);
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw wording.error(file, '', 'invalid');
  throw wording.error(file, formatJsonPath(issue.path), wording.detail(issue));
}
