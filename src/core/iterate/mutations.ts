/**
 * The adversarial mutations of calibration (docs/how-it-works.md § Calibration): ten known defects, each
 * injected into a copy of a SKILL.md. Each mutation is deterministic and touches one spot, preferring the places a grader should care
 * about most (required sections, the Steps list, the Constraints). The frontmatter is never touched: an edit
 * that breaks it is rejected by the loop anyway, so it would teach nothing about the grader.
 * Pure: no I/O.
 */
import { parseFenceLine, parseHeading, scanFences } from './markdown.js';
import { DEFAULT_REQUIRED_SECTIONS, IMPERATIVE_VERBS } from './structural.js';
import { frontmatterClose } from '../frontmatter.js';

export const MUTATION_KINDS = [
  'delete-required-bullet',
  'paraphrase-heading',
  'remove-code-fence',
  'swap-must-should',
  'delete-section',
  'duplicate-paragraph',
  'remove-leading-imperative',
  'remove-constraint-line',
  'add-trailing-garbage',
  'shuffle-steps',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface MutationOptions {
  /** From evals/required_sections.json; undefined → Steps, Constraints, Limitations. */
  requiredSections?: string[] | undefined;
}

/** One junk line longer than the 150-character line limit, starting with a non-imperative word. */
export const TRAILING_GARBAGE = 'asdf qwer zxcv uiop hjkl '.repeat(8).trim();

/** A list item split into indentation, marker and text, so a mutation can rewrite one part. */
const LIST_ITEM = /^(\s*)([-*+]\s+|\d+\.\s+)(.*)$/;
const CONSTRAINT_WORDS = /\b(must|never|always|do not|don't|only)\b/i;

const HEADING_PARAPHRASES: Record<string, string> = {
  steps: 'Procedure',
  constraints: 'Restrictions',
  limitations: 'Caveats',
  usage: 'How to use it',
  examples: 'Samples',
  example: 'Sample',
  output: 'Result',
  'output format': 'Shape of the result',
  overview: 'Summary',
  'when to use': 'Appropriate situations',
  'when not to use': 'Inappropriate situations',
  rules: 'Guidelines',
  inputs: 'What it takes',
};

interface Heading {
  line: number;
  level: number;
  title: string;
}

/** The parsed shape the mutations need: lines, where the body starts, fenced lines, headings. */
interface Doc {
  lines: string[];
  bodyStart: number;
  inFence: boolean[];
  headings: Heading[];
}

function normaliseTitle(title: string): string {
  return title
    .trim()
    .replace(/[:.?!]+$/, '')
    .trim()
    .toLowerCase();
}

/**
 * Lines are split on `\n` only and joined back the same way, so a mutated copy keeps every other byte of
 * the file (a `\r` stays on its line); headings, fences and the frontmatter are the shared reader's.
 */
function parse(text: string): Doc {
  const lines = text.split('\n');
  // An unclosed frontmatter is not skipped: the mutations then see the whole file.
  const close = frontmatterClose(lines);
  const bodyStart = typeof close === 'number' ? close + 1 : 0;
  const inFence = lines.map(() => false);
  const body = scanFences(lines.slice(bodyStart));
  const headings: Heading[] = [];
  for (let i = bodyStart; i < lines.length; i++) {
    inFence[i] = body.fenced[i - bodyStart] ?? false;
    if (inFence[i]) continue;
    const heading = parseHeading(lines[i] ?? '');
    const title = heading?.title.replace(/\s+#+$/, '');
    if (heading && title) headings.push({ line: i, level: heading.level, title });
  }
  return { lines, bodyStart, inFence, headings };
}

/** Line range [start, end) of a heading's section: up to the next heading of the same or a higher level. */
function sectionRange(doc: Doc, heading: Heading): [number, number] {
  const next = doc.headings.find((h) => h.line > heading.line && h.level <= heading.level);
  return [heading.line, next ? next.line : doc.lines.length];
}

function sectionOf(doc: Doc, line: number): Heading | undefined {
  let found: Heading | undefined;
  for (const h of doc.headings) if (h.line < line) found = h;
  return found;
}

/** Lines of the body, outside fences, that are not headings. */
function proseLines(doc: Doc): number[] {
  const out: number[] = [];
  const headingLines = new Set(doc.headings.map((h) => h.line));
  for (let i = doc.bodyStart; i < doc.lines.length; i++) {
    if (!doc.inFence[i] && !headingLines.has(i)) out.push(i);
  }
  return out;
}

function requiredSet(options: MutationOptions): Set<string> {
  return new Set((options.requiredSections ?? DEFAULT_REQUIRED_SECTIONS).map(normaliseTitle));
}

function isListItem(line: string): boolean {
  return LIST_ITEM.test(line);
}

function without(lines: string[], start: number, end = start + 1): string {
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n');
}

function deleteRequiredBullet(doc: Doc, options: MutationOptions): string | null {
  const required = requiredSet(options);
  const items = proseLines(doc).filter((i) => isListItem(doc.lines[i] ?? ''));
  const inSection = (i: number, accept: (title: string) => boolean): boolean => {
    const h = sectionOf(doc, i);
    return h !== undefined && accept(normaliseTitle(h.title));
  };
  // Constraint lines have their own mutation; prefer another required section so the two differ.
  const target =
    items.find((i) => inSection(i, (t) => required.has(t) && !t.includes('constraint'))) ??
    items.find((i) => inSection(i, (t) => required.has(t))) ??
    items[0];
  return target === undefined ? null : without(doc.lines, target);
}

function paraphraseHeading(doc: Doc, options: MutationOptions): string | null {
  const required = requiredSet(options);
  const candidates = doc.headings.filter((h) => h.level >= 2);
  const target =
    candidates.find((h) => required.has(normaliseTitle(h.title))) ?? candidates[0] ?? doc.headings[0];
  if (!target) return null;
  const key = normaliseTitle(target.title);
  const paraphrase =
    HEADING_PARAPHRASES[key] ?? `About ${target.title.replace(/[:.?!]+$/, '').toLowerCase()}`;
  const lines = [...doc.lines];
  lines[target.line] = `${'#'.repeat(target.level)} ${paraphrase}`;
  return lines.join('\n');
}

function removeCodeFence(doc: Doc): string | null {
  const fences: number[] = [];
  for (let i = doc.bodyStart; i < doc.lines.length; i++) {
    if (parseFenceLine(doc.lines[i] ?? '')) fences.push(i);
  }
  if (fences.length === 0) return null;
  // Dropping the closing fence lets the code swallow the prose after it: the defect a reader notices.
  const target = fences[1] ?? fences[0];
  return target === undefined ? null : without(doc.lines, target);
}

function swapMustShould(doc: Doc): string | null {
  const head = doc.lines.slice(0, doc.bodyStart);
  const body = doc.lines.slice(doc.bodyStart).join('\n');
  let swapped = body.replace(/\bMUST\b/g, 'should');
  if (swapped === body) swapped = body.replace(/\bMust\b/g, 'Should').replace(/\bmust\b/g, 'should');
  if (swapped === body) return null;
  return [...head, swapped].join('\n');
}

function deleteSection(doc: Doc, options: MutationOptions): string | null {
  const required = requiredSet(options);
  const candidates = doc.headings.filter((h) => h.level >= 2);
  const target = candidates.find((h) => required.has(normaliseTitle(h.title))) ?? candidates[0];
  if (!target) return null;
  const [start, end] = sectionRange(doc, target);
  return without(doc.lines, start, end);
}

function duplicateParagraph(doc: Doc): string | null {
  const prose = new Set(proseLines(doc));
  for (let i = doc.bodyStart; i < doc.lines.length; i++) {
    if (!prose.has(i) || (doc.lines[i] ?? '').trim() === '') continue;
    let end = i;
    while (end < doc.lines.length && prose.has(end) && (doc.lines[end] ?? '').trim() !== '') end++;
    const paragraph = doc.lines.slice(i, end);
    return [...doc.lines.slice(0, end), '', ...paragraph, ...doc.lines.slice(end)].join('\n');
  }
  return null;
}

function removeLeadingImperative(doc: Doc): string | null {
  for (const i of proseLines(doc)) {
    const line = doc.lines[i] ?? '';
    const m = /^(\s*(?:[-*+]\s+|\d+\.\s+)?)([A-Za-z']+)(\s+)(\S.*)$/.exec(line);
    if (!m || m[2] === undefined || m[4] === undefined || !IMPERATIVE_VERBS.has(m[2])) continue;
    const rest = m[4];
    const lines = [...doc.lines];
    lines[i] = `${m[1] ?? ''}${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
    return lines.join('\n');
  }
  return null;
}

/** The first line of a Constraints section, else the first line that reads like a rule (must, never, …). */
function removeConstraintLine(doc: Doc): string | null {
  const prose = proseLines(doc).filter((i) => (doc.lines[i] ?? '').trim() !== '');
  const inConstraints = prose.find((i) => {
    const h = sectionOf(doc, i);
    return h !== undefined && normaliseTitle(h.title).includes('constraint');
  });
  const target = inConstraints ?? prose.find((i) => CONSTRAINT_WORDS.test(doc.lines[i] ?? ''));
  return target === undefined ? null : without(doc.lines, target);
}

function addTrailingGarbage(doc: Doc): string {
  const text = doc.lines.join('\n');
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  return `${text}${separator}\n${TRAILING_GARBAGE}\n`;
}

/** Runs of consecutive single-line list items at one indentation, outside fences. */
function listRuns(doc: Doc): number[][] {
  const prose = new Set(proseLines(doc));
  const runs: number[][] = [];
  let current: number[] = [];
  let indent = -1;
  const flush = (): void => {
    if (current.length >= 2) runs.push(current);
    current = [];
    indent = -1;
  };
  for (let i = doc.bodyStart; i < doc.lines.length; i++) {
    const m = prose.has(i) ? LIST_ITEM.exec(doc.lines[i] ?? '') : null;
    const itemIndent = m?.[1]?.length ?? -1;
    if (!m) {
      flush();
      continue;
    }
    if (current.length > 0 && itemIndent !== indent) flush();
    indent = itemIndent;
    current.push(i);
  }
  flush();
  return runs;
}

function shuffleSteps(doc: Doc): string | null {
  const runs = listRuns(doc);
  const inSteps = runs.find((run) => {
    const h = sectionOf(doc, run[0] ?? 0);
    return h !== undefined && normaliseTitle(h.title).includes('step');
  });
  const numbered = runs.find((run) => /^\s*\d+\./.test(doc.lines[run[0] ?? 0] ?? ''));
  const run = inSteps ?? numbered ?? runs[0];
  if (!run) return null;
  // Reverse the items' text but keep each marker in place, so a numbered list still counts 1, 2, 3.
  const parts = run.map((i) => LIST_ITEM.exec(doc.lines[i] ?? ''));
  const texts = parts.map((m) => m?.[3] ?? '').reverse();
  const lines = [...doc.lines];
  run.forEach((lineIndex, k) => {
    const m = parts[k];
    lines[lineIndex] = `${m?.[1] ?? ''}${m?.[2] ?? ''}${texts[k] ?? ''}`;
  });
  const out = lines.join('\n');
  return out === doc.lines.join('\n') ? null : out;
}

/** The mutated text, or null when this kind cannot apply to the text (or would change nothing). */
export function applyMutation(
  kind: MutationKind,
  text: string,
  options: MutationOptions = {},
): string | null {
  const doc = parse(text);
  let out: string | null;
  switch (kind) {
    case 'delete-required-bullet':
      out = deleteRequiredBullet(doc, options);
      break;
    case 'paraphrase-heading':
      out = paraphraseHeading(doc, options);
      break;
    case 'remove-code-fence':
      out = removeCodeFence(doc);
      break;
    case 'swap-must-should':
      out = swapMustShould(doc);
      break;
    case 'delete-section':
      out = deleteSection(doc, options);
      break;
    case 'duplicate-paragraph':
      out = duplicateParagraph(doc);
      break;
    case 'remove-leading-imperative':
      out = removeLeadingImperative(doc);
      break;
    case 'remove-constraint-line':
      out = removeConstraintLine(doc);
      break;
    case 'add-trailing-garbage':
      out = addTrailingGarbage(doc);
      break;
    case 'shuffle-steps':
      out = shuffleSteps(doc);
      break;
  }
  return out === text ? null : out;
}

export function mutateAll(
  text: string,
  options: MutationOptions = {},
): Array<{ kind: MutationKind; text: string | null }> {
  return MUTATION_KINDS.map((kind) => ({ kind, text: applyMutation(kind, text, options) }));
}
