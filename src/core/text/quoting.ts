/**
 * Quoting helpers shared by every prompt (the editor's, the grader's, the reviewer's): brace-safe template
 * substitution, delimiters a quoted text does not contain, and content-derived markers
 * (docs/how-it-works.md § Untrusted text and secrets).
 *
 * Substitution is brace-safe: only a TEMPLATE is scanned for `{{name}}`; values are spliced in once and
 * never re-read, so a SKILL.md full of `{}`, `{{…}}` or `$&` arrives verbatim.
 */
import { createHash } from 'node:crypto';

/** Fills `{{name}}` placeholders of a template. An unknown name is a programming error, so it throws. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const parts = template.split(/\{\{([a-z_][a-z0-9_.]*)\}\}/i);
  return parts
    .map((part, i) => {
      if (i % 2 === 0) return part;
      const value = values[part];
      if (value === undefined) throw new Error(`prompt template: no value for {{${part}}}`);
      return value;
    })
    .join('');
}

/**
 * A prompt in three parts, stable first: `system` (the same on every call of a mode), `prefix` (the start
 * of the user message that repeats across calls: the SKILL.md for the editor, the scenario for the grader)
 * and `user` (what changes on every call). Providers with prompt caching mark the end of `system` and of
 * `prefix` as cache breakpoints; the others send `prefix + user` as one message.
 */
export interface PromptParts {
  system: string;
  prefix: string;
  user: string;
}

/** The prompt as one text, in the order the model reads it (tests, size figures). */
export function promptText(prompt: PromptParts): string {
  return `${prompt.system}\n${prompt.prefix}${prompt.user}`;
}

/** Text on one line: runs of line breaks (and the spaces around them) become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** A delimiter that does not occur in `text`, so quoted data cannot close its own quote. */
export function delimiterFor(text: string, base: string): string {
  let marker = base;
  for (let n = 1; text.includes(marker); n++) marker = `${base}-${n}`;
  return marker;
}

/** A one-line value between `<<<` and `>>>` markers it does not contain (eval statements, grader reasons). */
export function inlineQuoted(text: string): string {
  return `${delimiterFor(text, '<<<')} ${text} ${delimiterFor(text, '>>>')}`;
}

/**
 * A marker derived from the text it fences, so the same scenario is quoted the same way on every call (its
 * part of the prompt stays cacheable); the text cannot contain a line ending it, since the marker is
 * lengthened until neither delimiter line occurs in it.
 */
export function contentMarker(label: string, text: string): string {
  const digest = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
  let marker = digest;
  for (let n = 1; text.includes(`BEGIN-${label}-${marker}`) || text.includes(`END-${label}-${marker}`); n++) {
    marker = `${digest}-${n}`;
  }
  return marker;
}

/** Data between `BEGIN-<label>-<marker>` and `END-<label>-<marker>` lines. */
export function markedData(label: string, marker: string, text: string): string {
  return `BEGIN-${label}-${marker}\n${text}\nEND-${label}-${marker}`;
}
