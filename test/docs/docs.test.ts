import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Paths the architecture and review-loop changes (issues 8–10) create, each with the file it replaces
 * (null: a new folder that replaces nothing). Until the change lands the old file stands in; once the new
 * path exists its entry must go (the last test says so), so a page never points at a path that exists in
 * neither shape.
 */
const ARRIVING: Readonly<Record<string, string | null>> = {};

/** The sections other code cites as `docs/how-it-works.md § <Heading>`, in order. */
const HOW_IT_WORKS_SECTIONS = [
  'Overview',
  'Layers and ports',
  'Pre-flight',
  'The queue',
  'Scoring',
  'The hill-climb loop',
  'Shipping',
  'Defect park',
  'Morning summary and results.tsv',
  'The dashboard issue',
  'Calibration',
  'Review rounds',
  'Independence and the stop gate',
  'Approval under noise',
  'Review state, memory and receipts',
  'Debate and nightmare',
  'Review fixes',
  'The App',
  'The reviewer learns',
  'Models and providers',
  'Untrusted text and secrets',
  'Differences from the original skills',
];

/** Pages written by other changes; links to them are allowed before they exist. */
const PAGES_TO_COME = new Set<string>([]);

/** The pages a reader follows: the README, CONTRIBUTING.md and docs/*.md. */
async function pages(): Promise<string[]> {
  const docs = (await readdir('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs].filter((f) => existsSync(f));
}

/** The page's lines outside fenced code blocks (a `## ` inside an example is not a heading). */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (marker.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence === undefined) out.push(line);
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, `-1`, `-2` for repeats. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every `src/…` path a page mentions, with the pages that mention it. */
async function mentionedPaths(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const page of await pages()) {
    const text = await readFile(page, 'utf8');
    for (const match of text.matchAll(/(?<![\w./-])src\/[A-Za-z0-9_./-]*/g)) {
      // A sentence's full stop or a trailing comma is not part of the path.
      const mentioned = match[0].replace(/[.,]+$/, '');
      found.set(mentioned, [...(found.get(mentioned) ?? []), page]);
    }
  }
  return found;
}

describe('src/ paths in the documentation', () => {
  it('finds paths to check (the pages do cite source files)', async () => {
    expect((await mentionedPaths()).size).toBeGreaterThan(40);
  });

  it('every src/ path a page mentions exists', async () => {
    const missing: string[] = [];
    for (const [mentioned, where] of await mentionedPaths()) {
      if (existsSync(mentioned)) continue;
      const standIn = ARRIVING[mentioned];
      if (standIn === null || (standIn !== undefined && existsSync(standIn))) continue;
      missing.push(`${mentioned}  (in ${[...new Set(where)].join(', ')})`);
    }
    expect(missing, `paths the docs mention that do not exist:\n${missing.join('\n')}`).toEqual([]);
  });

  it('no stand-in outlives the change it waits for', () => {
    const landed = Object.keys(ARRIVING).filter((target) => existsSync(path.normalize(target)));
    expect(landed, `these exist now; delete their ARRIVING entries: ${landed.join(', ')}`).toEqual([]);
  });
});

describe('docs/how-it-works.md', () => {
  it('has exactly the section headings the code cites, in order', async () => {
    const text = await readFile('docs/how-it-works.md', 'utf8');
    const sections = proseLines(text)
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3).trim());
    expect(sections).toEqual(HOW_IT_WORKS_SECTIONS);
  });
});

/** Every `.ts` file under `dir`, recursively. */
async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(file)));
    else if (entry.name.endsWith('.ts')) out.push(file);
  }
  return out;
}

/**
 * Every `how-it-works.md § <Heading>` citation in src/ (each § of a list too), as `file: text after the §`. A comment wraps freely,
 * so the lines of a comment are joined first (the `*` or `//` that starts a continued line dropped).
 */
async function sectionCitations(): Promise<Array<{ file: string; after: string }>> {
  const found: Array<{ file: string; after: string }> = [];
  for (const file of await sourceFiles('src')) {
    const text = (await readFile(file, 'utf8')).replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
    for (const match of text.matchAll(/how-it-works(?:\.md)?\s*§\s*/g)) {
      // `§ Review rounds, § Debate and nightmare`: each § of a list is a citation of the same page.
      for (let at = match.index + match[0].length; ;) {
        found.push({ file, after: text.slice(at, at + 80) });
        const next = /^[^§().]{1,60}?[,;]\s*(?:and\s+)?§\s*/.exec(text.slice(at, at + 120));
        if (!next) break;
        at += next[0].length;
      }
    }
  }
  return found;
}

describe('section citations in src/', () => {
  it('every `docs/how-it-works.md § <Heading>` names a heading the page has', async () => {
    const text = await readFile('docs/how-it-works.md', 'utf8');
    const headings = proseLines(text)
      .map((line) => /^#{2,6}\s+(.*?)\s*$/.exec(line)?.[1])
      .filter((heading): heading is string => heading !== undefined);
    const citations = await sectionCitations();
    expect(citations.length).toBeGreaterThan(20);
    // A heading the text after the § starts with, then no further capitalised word of a longer title:
    // a closing mark, a full stop, a colon, or the sentence going on in lower case.
    const names = (after: string) =>
      headings.some(
        (h) => after.startsWith(h) && /^(?:[^\w\s]|\s+[^A-Z\s]|\s*$)/.test(after.slice(h.length)),
      );
    const stale = citations
      .filter(({ after }) => !names(after))
      .map(({ file, after }) => `${file}: § ${after.slice(0, 50)}`);
    expect(stale, `citations of headings docs/how-it-works.md does not have:\n${stale.join('\n')}`).toEqual(
      [],
    );
  });
});

describe('links between the pages', () => {
  it('every relative link points at a file that exists, and every #anchor at a heading', async () => {
    const broken: string[] = [];
    for (const page of await pages()) {
      // Inline code (`[text](path)` as an example) is not a link.
      const text = proseLines(await readFile(page, 'utf8'))
        .join('\n')
        .replace(/(`+)[^`]*?\1/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const linked =
          file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
        if (!existsSync(linked)) {
          if (!PAGES_TO_COME.has(linked)) broken.push(`${page}: ${target} (no file ${linked})`);
          continue;
        }
        if (anchor === undefined || !linked.endsWith('.md')) continue;
        if (!anchorsOf(await readFile(linked, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${target} (no heading #${anchor} in ${linked})`);
        }
      }
    }
    expect(broken, `broken links:\n${broken.join('\n')}`).toEqual([]);
  });
});
