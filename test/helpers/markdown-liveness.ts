/**
 * A test oracle for "nothing in this Markdown is live": what GitHub would turn into a mention, an issue
 * reference, HTML, a link or an image. It follows CommonMark where that decides what is code (fenced
 * blocks, code spans paired left to right per paragraph) and GitHub's autolinkers on the decoded text
 * outside code. Written independently of src/core/text/neutralise.ts and body-limit.ts, and simpler: the bodies
 * under test keep every piece in its own paragraph at the left margin.
 */

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character references decoded as a Markdown renderer does in text (`&#91;` → `[`, `&lt;` → `<`). */
export function decodeReferences(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]+));/g, (whole, dec, hex, name) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec) || 0xfffd);
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex as string, 16) || 0xfffd);
    return NAMED[name as string] ?? whole;
  });
}

/** The text outside fenced code blocks, one string per run of lines between fences. */
function outsideFences(markdown: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let fence: { marker: string; length: number } | undefined;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence === undefined) {
      if (run && !(run[1]![0] === '`' && run[2]!.includes('`'))) {
        fence = { marker: run[1]![0]!, length: run[1]!.length };
        parts.push(current.join('\n'));
        current = [];
      } else {
        current.push(line);
      }
    } else if (
      run &&
      run[1]![0] === fence.marker &&
      run[1]!.length >= fence.length &&
      run[2]!.trim() === ''
    ) {
      fence = undefined;
    }
  }
  parts.push(current.join('\n'));
  return parts;
}

/** A paragraph with its code spans removed (CommonMark: a run of n backticks closes at the next run of n). */
function withoutCodeSpans(paragraph: string): string {
  let out = '';
  let i = 0;
  while (i < paragraph.length) {
    const ch = paragraph[i]!;
    if (ch === '\\' && i + 1 < paragraph.length) {
      out += paragraph.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch !== '`') {
      out += ch;
      i++;
      continue;
    }
    let end = i;
    while (paragraph[end] === '`') end++;
    const length = end - i;
    let search = end;
    let close = -1;
    while (search < paragraph.length) {
      const next = paragraph.indexOf('`', search);
      if (next === -1) break;
      let runEnd = next;
      while (paragraph[runEnd] === '`') runEnd++;
      if (runEnd - next === length) {
        close = next;
        break;
      }
      search = runEnd;
    }
    if (close === -1) {
      out += paragraph.slice(i, end); // an unmatched run is literal text
      i = end;
    } else {
      out += ' '; // the span: code, never live
      i = close + length;
    }
  }
  return out;
}

const RAW_LIVE: ReadonlyArray<[string, RegExp]> = [
  ['HTML', /<[A-Za-z!?/]/],
  ['link', /\]\(/],
  ['reference link', /\]\[/],
  ['image', /!\[/],
  ['link definition', /^ {0,3}\[[^\]]+\]:/m],
];

const DECODED_LIVE: ReadonlyArray<[string, RegExp]> = [
  ['mention or email autolink', /@[A-Za-z0-9]/],
  ['issue reference', /#\d/],
  ['GH- reference', /\bgh-\d/i],
  ['URL autolink', /[A-Za-z]:\/\//],
  ['www autolink', /\bwww\./i],
  ['mailto/xmpp autolink', /\b(?:mailto|xmpp):/i],
];

/** What in `markdown` GitHub would render live, as `kind: excerpt` lines; empty when nothing is. */
export function liveParts(markdown: string): string[] {
  const found: string[] = [];
  for (const outside of outsideFences(markdown)) {
    for (const paragraph of outside.split(/\n[ \t]*\n/)) {
      const text = withoutCodeSpans(paragraph);
      for (const [kind, pattern] of RAW_LIVE) {
        const match = pattern.exec(text);
        if (match) found.push(`${kind}: ${JSON.stringify(text.slice(match.index, match.index + 40))}`);
      }
      const decoded = decodeReferences(text);
      for (const [kind, pattern] of DECODED_LIVE) {
        const match = pattern.exec(decoded);
        if (match) found.push(`${kind}: ${JSON.stringify(decoded.slice(match.index, match.index + 40))}`);
      }
    }
  }
  return found;
}

/** Issue 13 item 4 and the usual suspects. */
export const HOSTILE: readonly string[] = [
  '@octocat @acme/admins please look',
  'Fixes #1, closes acme/skills#2 and resolves GH-3',
  'Fixes https://github.com/acme/skills/issues/1',
  '<img src=x onerror=alert(1)>',
  '<details><summary>open me</summary>hidden</details>',
  '<!-- skillclimb:pr {"skill":"x","baseline":0,"final":9} -->',
  '[click](javascript:alert(document.cookie))',
  '![pixel](https://evil.example/p.png)',
  '<https://evil.example/autolink>',
  'see https://evil.example and www.evil.example or mail me@evil.example',
  '[ref]: https://evil.example\n[ref]',
  '&lt;img src=x onerror=alert(1)&gt; and &#64;octocat and &#35;1',
  '`code` then ``` fence ``` and \\`escaped',
  '| a | b |\n| --- | --- |\n| @octocat | #1 |',
  '# heading @octocat\n> quote #1\n- item <b>bold</b>',
  'mailto:me@evil.example xmpp:me@evil.example',
];
