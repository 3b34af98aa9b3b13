/**
 * Untrusted text (model output, repository text) rendered in GitHub Markdown without anything in it
 * coming alive (docs/how-it-works.md § Untrusted text and secrets): no mention pings (`@user`,
 * `@org/team`), no issue or pull-request reference links or closes (`#1`, `owner/repo#1`, `GH-1`,
 * `Fixes #1`, issue URLs), no HTML renders (`<img onerror>`, `<details>`, `<!-- markers -->`), no link or
 * autolink is live (`[t](javascript:…)`, bare URLs, `www.`), no image loads.
 *
 * Two ways, both pure:
 * - neutraliseInline: the text as plain text on one line. Markdown and HTML syntax are written as
 *   character references (`&lt;`, `&#91;`), which GitHub shows as the characters but never parses as
 *   syntax; the autolinkers (mentions, references, URLs) work on the decoded text, so those are broken
 *   by a zero-width joiner instead: invisible, and no longer a match.
 * - neutraliseBlock: the text verbatim in a fenced code block whose fence is longer than any backtick
 *   run inside, so the text cannot close it; GitHub renders nothing inside a code block.
 * The result of each is safe anywhere in a body, also when cut (see body-limit.ts): each character is
 * neutralised on its own, so no prefix of the output is live.
 */

/** U+200D ZERO WIDTH JOINER: invisible, and it breaks every autolink pattern it sits inside. */
export const ZWJ = '\u200D';

/** Markdown and HTML syntax characters, as character references (shown as themselves, never parsed). */
const REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '[': '&#91;',
  ']': '&#93;',
  '`': '&#96;',
  '\\': '&#92;',
  '|': '&#124;',
  '*': '&#42;',
  _: '&#95;',
  '~': '&#126;',
};
/**
 * `"` is not here: with `<` written as a reference no tag can open, so a quote is never an attribute's
 * and means nothing to Markdown. `&` is written as `&amp;` only where it begins a character reference
 * (`&#64;`, `&lt;`), which would otherwise decode (and a decoded `@` would mention): "Q&A" stays as it is,
 * so a summary read in a terminal shows no `&quot;` or `&amp;` for ordinary text.
 */
const SYNTAX = /&(?=#?[A-Za-z0-9]+;)|[<>[\]`\\|*_~]/g;

/**
 * The autolinkers' triggers, each broken by a joiner: mentions and email autolinks (`@`), references
 * (`#`, `GH-`), URL autolinks (`://`, `www.`, `mailto:`, `xmpp:`).
 */
function breakAutolinks(text: string): string {
  return text
    .replace(/[@#]/g, `$&${ZWJ}`)
    .replace(/\b(gh)-/gi, `$1${ZWJ}-`)
    .replace(/:\/\//g, `:${ZWJ}//`)
    .replace(/\b(www)\./gi, `$1${ZWJ}.`)
    .replace(/\b(mailto|xmpp):/gi, `$1${ZWJ}:`);
}

/**
 * Untrusted text as inert plain text on one line (whitespace runs, newlines included, become one space):
 * for table cells, list items and sentences. Empty text is `_(empty)_`.
 */
export function neutraliseInline(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '_(empty)_';
  // Joiners first: the references written next contain `#`, which must stay intact.
  return breakAutolinks(flat).replace(SYNTAX, (ch) => REFERENCES[ch] ?? ch);
}

/** A backtick fence longer than any backtick run in `content` (at least three), so it cannot close early. */
export function fenceFor(content: string): string {
  const longest = Math.max(0, ...Array.from(content.matchAll(/`+/g), (m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * Untrusted text verbatim as a fenced code block, e.g. a results.tsv or a model's full answer. `info` is
 * the language hint (`json`, `diff`); anything but letters, digits and `+-._` is dropped from it.
 */
export function neutraliseBlock(text: string, info = ''): string {
  const fence = fenceFor(text);
  const body = /(?:\r\n|\r|\n)$/.test(text) ? text : `${text}\n`;
  return `${fence}${info.replace(/[^\w+.-]/g, '')}\n${body}${fence}`;
}

/**
 * Model-written text as ONE inline code span, shown verbatim: GitHub renders it as code, so it cannot
 * mention (`@org/team`), reference or close (`Fixes #1`), embed an image or HTML, or smuggle a hidden
 * marker. The fence is longer than any backtick run inside, so the text cannot close it. A span is live
 * again once cut open: bound such a body with boundBody (body-limit.ts), which closes it, or prefer
 * neutraliseInline, which stays inert under any cut.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '_(empty)_';
  const longest = Math.max(0, ...Array.from(flat.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space between it and the fence (stripped on render).
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
