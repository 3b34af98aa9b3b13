/**
 * The offline editor's mechanical edits: one deterministic `{description, old_string, new_string}` aimed at
 * the weakest structural metric, with no model. Every candidate is re-scored on the text-only metrics
 * before it is offered, so the engine only ever sees edits that raise the structural score (or, for a
 * duplicated paragraph, delete text without lowering it) — no iteration is wasted on a sure revert.
 *
 * It never edits code or text the skill says to output verbatim (docs/how-it-works.md § Scoring, the
 * offline provider): fenced and indented code, HTML blocks and verbatim templates are read by the Markdown
 * reader's lineUses, and a line is never split inside inline code, a link or a quoted string. Labelling or
 * closing a fence changes only fence lines; the code between them stays byte for byte.
 */
import {
  codePointLength,
  frontmatterEnd,
  lineUses,
  parseHeading,
  pyStrip,
  scanFences,
  splitSourceLines,
  type FenceScan,
  type LineUse,
  type SourceLine,
} from './markdown.js';
import { splitLongLine } from './line-split.js';
import { weakestMetrics, type MetricName, type StructuralResult } from './score-types.js';
import {
  MAX_LINE_LENGTH,
  scoreTextOnlyMetrics,
  TEXT_ONLY_METRICS,
  type TextOnlyMetricName,
} from './structural.js';

export interface OfflineEditRequest {
  skillMd: string;
  /** The latest structural metrics; the weakest one is aimed at first. */
  structural: StructuralResult;
  /** Descriptions of edits already reverted in this run: never proposed again. */
  revertedDescriptions: readonly string[];
}

/** The line limit the metric used (`--max-line-length` / config), read back from its result. */
function lineLimitOf(structural: StructuralResult): number {
  const limit = (structural.metrics.max_line_length as { limit?: unknown } | undefined)?.limit;
  return typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : MAX_LINE_LENGTH;
}

export type OfflineEditKind =
  'label-fence' | 'close-fence' | 'split-line' | 'fix-heading-jump' | 'drop-duplicate';

export interface OfflineEdit {
  kind: OfflineEditKind;
  /** The metric the edit aims at, or null for a duplicated paragraph (no metric rewards it directly). */
  metric: MetricName | null;
  description: string;
  old_string: string;
  new_string: string;
}

/** An edit before it is made unique: replace source[start, end) by `replacement`, covering lines first..last. */
interface Candidate {
  kind: OfflineEditKind;
  description: string;
  first: number;
  last: number;
  start: number;
  end: number;
  replacement: string;
}

interface Document {
  text: string;
  source: SourceLine[];
  /** Line texts as the metrics see them (BOM dropped from the first). */
  lines: string[];
  fences: FenceScan;
  /** How a renderer uses each line: only `text` lines are ever edited (fence edits touch `fence` lines). */
  uses: LineUse[];
  /** Index of the first line after the frontmatter: nothing before it is ever edited. */
  bodyStart: number;
  eol: string;
  /** The max_line_length limit the lines are split to. */
  limit: number;
}

/** A line the editor may change: prose a renderer shows as text, outside the metric's fences too. */
function editable(doc: Document, index: number): boolean {
  return index >= doc.bodyStart && doc.uses[index] === 'text' && !doc.fences.fenced[index];
}

function readDocument(text: string, limit: number): Document {
  const source = splitSourceLines(text);
  if (source[0]?.text.startsWith('\uFEFF')) {
    // Edits never include the byte-order mark, so it survives every edit.
    source[0] = { ...source[0], text: source[0].text.slice(1), start: source[0].start + 1 };
  }
  const lines = source.map((line) => line.text);
  const bodyStart = frontmatterEnd(lines) + 1;
  return {
    text,
    source,
    lines,
    fences: scanFences(lines),
    uses: lineUses(lines, bodyStart),
    bodyStart,
    eol: source.find((line) => line.eol !== '')?.eol ?? '\n',
    limit,
  };
}

/** A short, single-line quote of a line for descriptions (which are stored in a TSV row). */
function quote(line: string): string {
  const flat = pyStrip(line).replace(/\s+/g, ' ');
  const points = [...flat];
  return points.length > 40 ? `${points.slice(0, 40).join('')}…` : flat;
}

/** Replaces lines first..last (their text, not the last terminator) by `newLines`. */
function replaceLines(
  doc: Document,
  kind: OfflineEditKind,
  description: string,
  first: number,
  last: number,
  newLines: string[],
): Candidate {
  const lastLine = doc.source[last]!;
  return {
    kind,
    description,
    first,
    last,
    start: doc.source[first]!.start,
    end: lastLine.start + lastLine.text.length,
    replacement: newLines.join(doc.eol),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Fences

/** A best guess at a fenced block's language from its content. */
export function guessFenceLanguage(body: readonly string[]): string {
  const content = body.join('\n').trim();
  if (content === '') return 'text';
  if (/^[[{]/.test(content)) {
    try {
      JSON.parse(content);
      return 'json';
    } catch {
      // not JSON after all
    }
  }
  const lines = body.filter((line) => line.trim() !== '');
  const pythonLine =
    /^\s*(?:def \w+\s*\(|class \w+.*:\s*$|import [\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+)*\s*$|from [\w.]+ import |print\(|if __name__ ==|>>> )/;
  if (lines.some((line) => pythonLine.test(line))) return 'python';
  const shellLine =
    /^\s*(?:\$ |#!.*\b(?:ba|z)?sh\b|(?:sudo|npm|npx|yarn|pnpm|git|cd|ls|echo|export|pip3?|python3?|node|curl|wget|mkdir|rm|cp|mv|cat|grep|sed|awk|chmod|bash|sh|make|docker|gh|apt-get|apt|brew|cargo|go|uv|source|set)(?:\s|$)|\.\/)/;
  if (lines.some((line) => shellLine.test(line))) return 'sh';
  const yamlLine = /^\s*(?:#|- |[\w.\-"']+\s*:(?:\s|$)|---\s*$)/;
  if (lines.every((line) => yamlLine.test(line)) && lines.some((line) => /:(?:\s|$)/.test(line)))
    return 'yaml';
  return 'text';
}

function fenceOpenerWithLanguage(opener: string, language: string): string {
  const match = /^( {0,3}`{3,})/.exec(opener);
  return `${match?.[1] ?? '```'}${language}`;
}

function firstContentQuote(doc: Document, from: number, to: number): string {
  for (let i = from; i < to; i++) if (doc.lines[i]!.trim() !== '') return `"${quote(doc.lines[i]!)}"`;
  return 'an empty block';
}

function labelFenceEdits(doc: Document): Candidate[] {
  const edits: Candidate[] = [];
  for (const block of doc.fences.blocks) {
    if (block.close === null || block.info !== '' || block.open < doc.bodyStart) continue;
    // Only a real fence's opener: a backtick line inside a `~~~` block or an HTML block is content.
    if (doc.uses[block.open] !== 'fence') continue;
    const body = doc.lines.slice(block.open + 1, block.close);
    const language = guessFenceLanguage(body);
    const where = firstContentQuote(doc, block.open + 1, block.close);
    const opener = fenceOpenerWithLanguage(doc.lines[block.open]!, language);
    edits.push(
      replaceLines(
        doc,
        'label-fence',
        `label the unlabelled code fence before ${where} as ${language}`,
        block.open,
        block.open,
        [opener],
      ),
    );
  }
  return edits;
}

/**
 * Where an unclosed fence most likely ends: before the next H2/H3 heading (prose resumes there), after the
 * last non-blank line; at the end of the file when no such heading follows.
 */
function unclosedFenceEnd(doc: Document, open: number): number {
  let stop = doc.lines.length;
  for (let i = open + 1; i < doc.lines.length; i++) {
    const heading = parseHeading(doc.lines[i]!);
    if (heading && (heading.level === 2 || heading.level === 3)) {
      stop = i;
      break;
    }
  }
  let last = stop - 1;
  while (last > open && doc.lines[last]!.trim() === '') last--;
  return last;
}

function closeFenceEdits(doc: Document): Candidate[] {
  const block = doc.fences.blocks.find((candidate) => candidate.close === null);
  if (!block || block.open < doc.bodyStart || doc.uses[block.open] !== 'fence') return [];
  const last = unclosedFenceEnd(doc, block.open);
  const opener = doc.lines[block.open]!;
  const ticks = /`{3,}/.exec(opener)?.[0] ?? '```';
  const where = firstContentQuote(doc, block.open + 1, last + 1);
  // A closed fence without a language still costs as much as an unclosed one: label it in the same edit.
  if (block.info === '') {
    const language = guessFenceLanguage(doc.lines.slice(block.open + 1, last + 1));
    const openerLine = doc.source[block.open]!;
    const lastLine = doc.source[last]!;
    // The block's own lines are kept byte for byte (line endings included); only the opener changes.
    const body = doc.text.slice(
      openerLine.start + openerLine.text.length,
      lastLine.start + lastLine.text.length,
    );
    return [
      {
        kind: 'close-fence',
        description: `close the unclosed code fence before ${where} and label it ${language}`,
        first: block.open,
        last,
        start: openerLine.start,
        end: lastLine.start + lastLine.text.length,
        replacement: fenceOpenerWithLanguage(opener, language) + body + doc.eol + ticks,
      },
    ];
  }
  return [
    replaceLines(doc, 'close-fence', `close the unclosed code fence before ${where}`, last, last, [
      doc.lines[last]!,
      ticks,
    ]),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Headings

function headingJumpEdits(doc: Document): Candidate[] {
  const edits: Candidate[] = [];
  let lastSectionLevel: number | null = null;
  doc.lines.forEach((line, index) => {
    const heading = parseHeading(line);
    if (!heading) return;
    if (heading.level === 2 || heading.level === 3) lastSectionLevel = heading.level;
    else if (heading.level === 4 && lastSectionLevel === 2 && editable(doc, index)) {
      const description = `turn the H4 "${quote(heading.title)}" into an H3 (the section above it is an H2)`;
      edits.push(
        replaceLines(doc, 'fix-heading-jump', description, index, index, [line.replace(/^####/, '###')]),
      );
    }
  });
  return edits;
}

// ---------------------------------------------------------------------------------------------------------
// Long lines

function splitLineEdits(doc: Document): Candidate[] {
  const edits: Candidate[] = [];
  doc.lines.forEach((line, index) => {
    if (!editable(doc, index) || codePointLength(line) <= doc.limit) return;
    // Headings must stay one line; tables and HTML break if split.
    if (parseHeading(line) || /^\s*[|<]/.test(line)) return;
    const variants = new Map<string, { pieces: string[]; sentence: boolean }>();
    for (const prefer of ['any', 'imperative', 'plain'] as const) {
      const split = splitLongLine(line, prefer, doc.limit);
      if (split) variants.set(split.pieces.join('\n'), split);
    }
    // One description per line whatever the variant: once a split of this line is reverted, it is left alone.
    const description = `split the ${codePointLength(line)}-character line starting "${quote(line)}"`;
    for (const split of variants.values()) {
      const how = split.sentence ? 'at sentence ends' : 'at word boundaries';
      edits.push(replaceLines(doc, 'split-line', `${description} ${how}`, index, index, split.pieces));
    }
  });
  return edits;
}

// ---------------------------------------------------------------------------------------------------------
// Duplicated paragraphs

export const MIN_DUPLICATE_LENGTH = 40;

/**
 * Blocks of consecutive non-blank lines after the frontmatter, as [first, last] line indices: only those
 * whose every line is editable text (a block with code, HTML or a verbatim line in it is not a paragraph).
 */
function paragraphs(doc: Document): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  let begin = -1;
  for (let i = doc.bodyStart; i <= doc.lines.length; i++) {
    const inBlock = i < doc.lines.length && doc.lines[i]!.trim() !== '';
    if (inBlock && begin === -1) begin = i;
    if (!inBlock && begin !== -1) {
      let allText = true;
      for (let k = begin; k < i; k++) allText &&= editable(doc, k);
      if (allText) blocks.push([begin, i - 1]);
      begin = -1;
    }
  }
  return blocks;
}

function dropDuplicateEdits(doc: Document): Candidate[] {
  const seen = new Set<string>();
  const edits: Candidate[] = [];
  for (const [first, last] of paragraphs(doc)) {
    const key = doc.lines
      .slice(first, last + 1)
      .map(pyStrip)
      .join('\n');
    if (codePointLength(key) < MIN_DUPLICATE_LENGTH) continue;
    // Links and [[refs]] are scored by whether they resolve, which this pure module cannot see: dropping
    // one copy could lower link integrity, so such paragraphs are left alone.
    if (/\]\(|\[\[/.test(key)) continue;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    // Take a neighbouring blank line with it so no double blank line is left behind.
    let from = first;
    let to = last;
    if (from - 1 >= doc.bodyStart && doc.lines[from - 1]!.trim() === '' && !doc.fences.fenced[from - 1])
      from--;
    else if (to + 1 < doc.lines.length && doc.lines[to + 1]!.trim() === '') to++;
    edits.push({
      kind: 'drop-duplicate',
      description: `drop the second copy of the duplicated paragraph "${quote(doc.lines[first]!)}"`,
      first: from,
      last: to,
      start: doc.source[from]!.start,
      end: doc.source[to]!.next,
      replacement: '',
    });
  }
  return edits;
}

// ---------------------------------------------------------------------------------------------------------
// Choosing and packaging

const FIXERS: Partial<Record<MetricName, Array<(doc: Document) => Candidate[]>>> = {
  section_depth_consistency: [headingJumpEdits],
  code_fence_balance: [closeFenceEdits, labelFenceEdits],
  max_line_length: [splitLineEdits],
};

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** Widens the edit by whole context lines (below first, then above, alternating) until old_string is unique. */
function makeUnique(doc: Document, candidate: Candidate): { old_string: string; new_string: string } {
  let { first, last, start, end, replacement } = candidate;
  let downward = true;
  while (countOccurrences(doc.text, doc.text.slice(start, end)) !== 1) {
    const canGrowDown = last + 1 < doc.source.length;
    const canGrowUp = first > 0;
    if (!canGrowDown && !canGrowUp) break;
    if ((downward && canGrowDown) || !canGrowUp) {
      const next = doc.source[last + 1]!;
      // A candidate that ends mid-line grows to the end of the next line's text; one that ends after a
      // terminator (a deletion) already stands at the next line's start.
      const newEnd = end === next.start ? next.next : next.start + next.text.length;
      replacement += doc.text.slice(end, newEnd);
      end = newEnd;
      last++;
    } else {
      const newStart = doc.source[first - 1]!.start;
      replacement = doc.text.slice(newStart, start) + replacement;
      start = newStart;
      first--;
    }
    downward = !downward;
  }
  return { old_string: doc.text.slice(start, end), new_string: replacement };
}

function textOnlySum(
  text: string,
  maxLineLength: number,
): { sum: number; scores: Record<TextOnlyMetricName, number> } {
  // The required-section config is unknown here, and no edit changes a heading title, so the defaults do.
  const metrics = scoreTextOnlyMetrics(text, { requiredSections: undefined, maxLineLength });
  let sum = 0;
  const scores = {} as Record<TextOnlyMetricName, number>;
  for (const name of TEXT_ONLY_METRICS) {
    scores[name] = metrics[name].score;
    sum += metrics[name].score;
  }
  return { sum, scores };
}

function normaliseDescription(description: string): string {
  return description.replace(/\s+/g, ' ').trim();
}

/**
 * One mechanical edit aimed at the weakest structural metric that has one, else a duplicated paragraph
 * dropped; null when nothing applies. Never proposes a reverted description, never touches the frontmatter.
 */
export function proposeOfflineEdit(request: OfflineEditRequest): OfflineEdit | null {
  const search = searchOfflineEdit(request);
  for (;;) {
    const step = search.next();
    if (step.done) return step.value;
  }
}

/**
 * proposeOfflineEdit as steps: it yields before every candidate it re-scores (each a pass over the whole
 * text), so its driver (src/llm/offline.ts) can let the event loop run and stop when the run's signal
 * aborts: a huge SKILL.md must not keep SIGINT or the skill's budget waiting (docs/how-it-works.md § The
 * hill-climb loop). Pure: it only ever yields.
 */
export function* searchOfflineEdit(request: OfflineEditRequest): Generator<void, OfflineEdit | null> {
  const doc = readDocument(request.skillMd, lineLimitOf(request.structural));
  if (doc.lines.length === 0) return null;
  const reverted = new Set(request.revertedDescriptions.map(normaliseDescription));
  const before = textOnlySum(doc.text, doc.limit);

  const accept = (candidate: Candidate, metric: MetricName | null): OfflineEdit | null => {
    const description = `offline: ${candidate.description}`;
    if (reverted.has(normaliseDescription(description))) return null;
    const edited = doc.text.slice(0, candidate.start) + candidate.replacement + doc.text.slice(candidate.end);
    const after = textOnlySum(edited, doc.limit);
    if (metric !== null) {
      const target = metric as TextOnlyMetricName;
      if (!(after.scores[target] > before.scores[target]) || !(after.sum > before.sum)) return null;
    } else if (after.sum < before.sum) {
      return null;
    }
    return { kind: candidate.kind, metric, description, ...makeUnique(doc, candidate) };
  };

  for (const metric of weakestMetrics(request.structural)) {
    for (const fixer of FIXERS[metric] ?? []) {
      yield;
      for (const candidate of fixer(doc)) {
        yield;
        const edit = accept(candidate, metric);
        if (edit) return edit;
      }
    }
  }
  yield;
  for (const candidate of dropDuplicateEdits(doc)) {
    yield;
    const edit = accept(candidate, null);
    if (edit) return edit;
  }
  return null;
}
