/**
 * The eight deterministic structural metrics (docs/how-it-works.md § Scoring). Scores must agree with the
 * original Python implementation to 1e-6, so the text handling lives in markdown.ts with Python
 * semantics, and the score is summed in METRIC_NAMES order exactly as Python's `sum()` would.
 */
import path from 'node:path';
import {
  codePointLength,
  firstWord,
  isListItem,
  parseHeading,
  pyStrip,
  PY_WORD,
  PY_WS,
  scanFences,
  structuralLines,
  type FenceScan,
} from './markdown.js';
import { METRIC_NAMES, type MetricName, type MetricResult, type StructuralResult } from './score-types.js';
import { measureSubstance, substanceFactor, SUBSTANCE_WORDS } from './substance.js';

/**
 * How the metrics read a SKILL.md (docs/how-it-works.md § Where the structural scores differ from the original): `skillclimb`
 * (the default) reads fenced code and inline code as code for every metric and scales the score by the
 * skill's substance; `original` reads them as the original Python does, to 1e-6.
 */
type StructuralReading = 'skillclimb' | 'original';

export interface StructuralContext {
  /** Absolute path of the folder holding SKILL.md (links and [[refs]] resolve from here). */
  skillDir: string;
  /**
   * The required section names: `--required-section`, else evals/required_sections.json, else the config's
   * `structural.requiredSections` (resolved by the caller); undefined → the defaults (Steps, Constraints,
   * Limitations).
   */
  requiredSections: string[] | undefined;
  /** `--max-line-length` / the config's `structural.maxLineLength`; undefined → MAX_LINE_LENGTH. */
  maxLineLength?: number | undefined;
  /** `--banned-phrase` / the config's `structural.bannedPhrases`; undefined → BANNED_PHRASES. */
  bannedPhrases?: readonly string[] | undefined;
  /** Injected so this module stays free of I/O. */
  exists(absolutePath: string): boolean;
  /**
   * Names in a folder ([] when it does not exist). Needed only for the `.claude/projects/*` glob of the
   * cross-reference memory lookup; without it that lookup is skipped.
   */
  listDir?(absolutePath: string): string[];
  /** undefined → `skillclimb`. */
  reading?: StructuralReading | undefined;
}

export const DEFAULT_REQUIRED_SECTIONS = ['Steps', 'Constraints', 'Limitations'] as const;
export const BANNED_PHRASES = ['as an AI', 'I think', 'I cannot'] as const;
/** More than this many "should"s count as one banned-phrase hit. */
export const SHOULD_LIMIT = 10;
export const MAX_LINE_LENGTH = 150;
/** How many ancestors of the SKILL.md's folder (not the folder itself) are searched for `.claude/projects/*\/memory/`. */
export const MEMORY_SEARCH_LEVELS = 8;
export const IMPERATIVE_VERBS: ReadonlySet<string> = new Set([
  'Use', 'Write', 'Run', 'Avoid', 'Add', 'Remove', 'Do', "Don't", 'Check', 'Verify', 'Set', 'Read', 'Call',
  'Create', 'Delete', 'Update', 'Replace', 'Prefer', 'Ensure', 'Always', 'Never', 'Skip', 'Apply', 'Edit',
  'Open', 'Close', 'Save', 'Commit', 'Push', 'Pull', 'Fetch', 'Build', 'Test', 'Confirm', 'Document', 'Note',
  'Pass', 'Return', 'Stop', 'Start', 'Halt', 'Continue', 'Mark', 'Tag', 'Pin', 'Default', 'Dont',
]); // prettier-ignore
/** The share of imperative prose lines that scores 1.0. */
export const IMPERATIVE_TARGET = 0.4;

/** Headings are read on every line by the original; a `#` line inside fenced code is code otherwise. */
function headingOutsideCode(line: string, index: number, code: FenceScan | undefined) {
  return code?.fenced[index] ? null : parseHeading(line);
}

/**
 * 1. An H4 whose nearest preceding H2/H3 is an H2 skips a level. `code`: the fences whose lines are not
 * headings (undefined: the original's reading, every line).
 */
export function sectionDepthConsistency(lines: readonly string[], code?: FenceScan): MetricResult {
  let violations = 0;
  let lastSectionLevel: number | null = null;
  for (const [index, line] of lines.entries()) {
    const heading = headingOutsideCode(line, index, code);
    if (!heading) continue;
    if (heading.level === 2 || heading.level === 3) lastSectionLevel = heading.level;
    else if (heading.level === 4 && lastSectionLevel === 2) violations++;
  }
  return { score: 1 / (1 + violations), violations };
}

/**
 * Case-insensitive, trailing `:.?!` ignored (so "Steps:" satisfies "Steps"). Whitespace left before that
 * punctuation stays, as in the original: "Steps :" is not "Steps".
 */
export function normaliseSectionName(name: string): string {
  return pyStrip(name)
    .toLowerCase()
    .replace(/[:.?!]+$/, '');
}

/** 2. Fraction of the required section names present as headings. */
export function requiredSections(
  lines: readonly string[],
  configured: readonly string[] | undefined,
  code?: FenceScan,
): MetricResult {
  const titles = new Set<string>();
  for (const [index, line] of lines.entries()) {
    const heading = headingOutsideCode(line, index, code);
    if (heading) titles.add(normaliseSectionName(heading.title));
  }
  const required = configured ?? DEFAULT_REQUIRED_SECTIONS;
  const missing = required.filter((name) => !titles.has(normaliseSectionName(name)));
  const present = required.length - missing.length;
  // Without a config file, a skill that uses none of the default names follows its own layout: not penalised,
  // and then nothing is required, so nothing is reported missing.
  const exempt = configured === undefined && present === 0;
  if (exempt) return { score: 1, exempt, present: 0, required: 0, missing: [] };
  const score = required.length === 0 ? 1 : present / required.length;
  return { score, present, required: required.length, missing, exempt };
}

/** Python's `re.IGNORECASE` also folds `İ` and `ı` onto `i`, which JavaScript's `iu` flags do not. */
function pythonCaselessWord(phrase: string): RegExp {
  const body = [...phrase]
    .map((ch) => (ch.toLowerCase() === 'i' ? '[i\\u0130\\u0131]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  // Python's `\b` is Unicode-aware; JavaScript's is ASCII-only, so the boundary is spelled out.
  return new RegExp(`(?<![${PY_WORD}])${body}(?![${PY_WORD}])`, 'giu');
}
const PATTERNS = new Map<string, RegExp>();
/** One compiled pattern per phrase (the configured phrases are few, and the loop scores many times). */
function phrasePattern(phrase: string): RegExp {
  let pattern = PATTERNS.get(phrase);
  if (pattern === undefined) {
    pattern = pythonCaselessWord(phrase);
    PATTERNS.set(phrase, pattern);
  }
  return pattern;
}
const SHOULD_PATTERN = pythonCaselessWord('should');

function countMatches(pattern: RegExp, text: string): number {
  pattern.lastIndex = 0;
  let count = 0;
  while (pattern.exec(text) !== null) count++;
  return count;
}

/**
 * 3. Banned phrases outside fenced code, matched as whole words (so "AI cannot" is not "I cannot").
 * "should" is counted outside fences too: the metric judges the prose's tone, and code may say `should`
 * freely (test names, assertions) without making the instructions wishy-washy. Phrases given by the
 * operator replace the three defaults; the "should" rule stays.
 */
export function bannedPhrases(
  lines: readonly string[],
  fences: FenceScan,
  phrases: readonly string[] = BANNED_PHRASES,
): MetricResult {
  const patterns = phrases.map((phrase) => ({ phrase, pattern: phrasePattern(phrase) }));
  const found: Record<string, number> = {};
  let hits = 0;
  let shouldCount = 0;
  lines.forEach((line, index) => {
    if (fences.fenced[index]) return;
    for (const { phrase, pattern } of patterns) {
      const count = countMatches(pattern, line);
      if (count > 0) {
        found[phrase] = (found[phrase] ?? 0) + count;
        hits += count;
      }
    }
    shouldCount += countMatches(SHOULD_PATTERN, line);
  });
  if (shouldCount > SHOULD_LIMIT) hits++;
  return { score: 1 / (1 + hits), hits, found, should_count: shouldCount };
}

/**
 * `skillDir / relative` as Python's pathlib builds it: `..` is left for the filesystem to resolve, so
 * `missing/../x.md` does not exist when `missing` does not (path.resolve would say it does).
 */
function joinUnnormalised(dir: string, relative: string): string {
  if (path.isAbsolute(relative)) return relative;
  return dir.endsWith(path.sep) ? dir + relative : dir + path.sep + relative;
}

/** Python's `urllib.parse.unquote`: %XX runs decode as UTF-8 (invalid bytes → U+FFFD); a stray `%` stays. */
export function pyUnquote(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return new TextDecoder('utf-8').decode(bytes);
  });
}

const MARKDOWN_LINK = /\[([^\]]*)\]\(([^)]*)\)/g;
const SKIPPED_SCHEME = /^(?:https?|mailto|ftp):/i;
const WHITESPACE = new RegExp(`[${PY_WS}]`);

/** The file path a link target names, or null when it is external, anchor-only or empty. */
export function relativeLinkPath(rawTarget: string): string | null {
  let target = pyStrip(rawTarget);
  // `[t](path "title")` and `[t](<path>)`: the path is the first word, angle brackets dropped.
  target = target.split(WHITESPACE)[0] ?? '';
  if (target.startsWith('<') && target.endsWith('>')) target = target.slice(1, -1);
  if (target === '' || target.startsWith('#') || SKIPPED_SCHEME.test(target)) return null;
  const bare = target.split('#')[0]!.split('?')[0]!;
  if (bare === '') return null;
  return pyUnquote(bare);
}

/**
 * Where code stands in the joined text: each fenced line, and each inline code span (a run of backticks
 * closed by a run of the same length) on the other lines, as [start, end) offsets.
 */
function codeRanges(body: string): Array<[number, number]> {
  const lines = body.split('\n');
  const fences = scanFences(lines);
  const ranges: Array<[number, number]> = [];
  let offset = 0;
  lines.forEach((line, index) => {
    if (fences.fenced[index]) ranges.push([offset, offset + line.length]);
    else {
      for (const span of line.matchAll(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) {
        ranges.push([offset + span.index, offset + span.index + span[0].length]);
      }
    }
    offset += line.length + 1;
  });
  return ranges;
}

/** True when `index` lies inside one of the code ranges. */
function inCode(ranges: ReadonlyArray<[number, number]>, index: number): boolean {
  return ranges.some(([start, end]) => start <= index && index < end);
}

/**
 * 4. Relative Markdown links that resolve from the SKILL.md folder. The original counts a link inside code
 * (a fenced block or an inline code span) as a link; skillclimb's reading does not count it (code is no
 * prose: `[x](y)` there is an example or a program's text). Either way the details tell the two apart:
 * `broken` lists the links that do not resolve outside code, `broken_in_code` those inside code.
 */
export function linkIntegrity(body: string, ctx: StructuralContext): MetricResult {
  const original = ctx.reading === 'original';
  let total = 0;
  const broken: string[] = [];
  const brokenInCode: string[] = [];
  let code: Array<[number, number]> | undefined;
  for (const match of body.matchAll(MARKDOWN_LINK)) {
    const linkPath = relativeLinkPath(match[2]!);
    if (linkPath === null) continue;
    code ??= codeRanges(body);
    const linkInCode = inCode(code, match.index);
    const exists = ctx.exists(joinUnnormalised(ctx.skillDir, linkPath));
    if (linkInCode && !exists) brokenInCode.push(linkPath);
    if (linkInCode && !original) continue;
    total++;
    if (!exists && !linkInCode) broken.push(linkPath);
  }
  const counted = original ? broken.length + brokenInCode.length : broken.length;
  const valid = total - counted;
  return {
    score: total === 0 ? 1 : valid / total,
    valid,
    total,
    broken,
    broken_in_code: brokenInCode,
  };
}

/** 5. Unclosed fences and closed fences without a language, per opener. */
export function codeFenceBalance(fences: FenceScan): MetricResult {
  const openers = fences.blocks.length;
  const unclosed = fences.blocks.filter((block) => block.close === null).length;
  const unlabelled = fences.blocks.filter((block) => block.close !== null && block.info === '').length;
  const score = Math.max(0, 1 - (unclosed + unlabelled) / Math.max(1, openers));
  return { score, openers, unclosed, unlabelled };
}

/** 6. Share of lines within the limit (MAX_LINE_LENGTH code points unless the operator gives another). */
export function maxLineLength(lines: readonly string[], limit: number = MAX_LINE_LENGTH): MetricResult {
  const over = lines.filter((line) => codePointLength(line) > limit).length;
  return { score: 1 - over / lines.length, over, lines: lines.length, limit };
}

const CROSS_REFERENCE = /\[\[([^\]]+)\]\]/g;

/**
 * Folders that may hold `.claude/projects/*\/memory/`: the parents of the SKILL.md's folder, 8 of them. The
 * folder itself is not one, as in the original (a memory folder inside the skill does not resolve).
 */
function memorySearchRoots(skillDir: string): string[] {
  const roots: string[] = [];
  let current = path.resolve(skillDir);
  for (let level = 0; level < MEMORY_SEARCH_LEVELS; level++) {
    const parent = path.dirname(current);
    if (parent === current) break;
    roots.push(parent);
    current = parent;
  }
  return roots;
}

function resolvesCrossReference(slug: string, ctx: StructuralContext): boolean {
  const inFolder = (dir: string, name: string) => ctx.exists(joinUnnormalised(dir, name));
  if (inFolder(ctx.skillDir, `${slug}.md`) || inFolder(ctx.skillDir, slug)) return true;
  if (!ctx.listDir) return false;
  for (const root of memorySearchRoots(ctx.skillDir)) {
    const projects = path.join(root, '.claude', 'projects');
    for (const project of ctx.listDir(projects)) {
      const memory = path.join(projects, project, 'memory');
      if (inFolder(memory, `feedback_${slug}.md`) || inFolder(memory, `${slug}.md`)) return true;
    }
  }
  return false;
}

/**
 * 7. `[[slug]]` / `[[slug#anchor]]` references that resolve to a sibling file or a memory file. In
 * skillclimb's reading a `[[…]]` inside code is not a reference (TOML's `[[tool.x]]`, bash's `[[ -n "$x" ]]`).
 */
export function crossReferenceResolution(body: string, ctx: StructuralContext): MetricResult {
  let total = 0;
  const unresolved: string[] = [];
  const code = ctx.reading === 'original' ? [] : codeRanges(body);
  for (const match of body.matchAll(CROSS_REFERENCE)) {
    if (inCode(code, match.index)) continue;
    total++;
    const slug = pyStrip(match[1]!.split('#')[0]!);
    // `[[#anchor]]` points into this file, which always exists.
    if (slug !== '' && !resolvesCrossReference(slug, ctx)) unresolved.push(slug);
  }
  const resolved = total - unresolved.length;
  return { score: total === 0 ? 1 : resolved / total, resolved, total, unresolved };
}

/** 8. Imperative share of the prose lines (outside fences, not headings, not list items), best at 40 %. */
export function rulesToRationaleRatio(lines: readonly string[], fences: FenceScan): MetricResult {
  let proseLines = 0;
  let imperative = 0;
  lines.forEach((line, index) => {
    if (fences.fenced[index]) return;
    const stripped = pyStrip(line);
    if (stripped === '' || stripped.startsWith('#') || isListItem(stripped)) return;
    proseLines++;
    const word = firstWord(stripped);
    if (word !== undefined && IMPERATIVE_VERBS.has(word)) imperative++;
  });
  if (proseLines === 0) return { score: 1, share: null, imperative, prose_lines: 0 };
  const share = imperative / proseLines;
  const score = Math.max(0, Math.min(1, 1 - 2 * Math.abs(share - IMPERATIVE_TARGET)));
  return { score, share, imperative, prose_lines: proseLines };
}

/** Metrics that depend on the text alone (no filesystem), which the offline editor can re-check. */
export const TEXT_ONLY_METRICS = [
  'section_depth_consistency',
  'required_sections',
  'banned_phrases',
  'code_fence_balance',
  'max_line_length',
  'rules_to_rationale_ratio',
] as const satisfies readonly MetricName[];
export type TextOnlyMetricName = (typeof TEXT_ONLY_METRICS)[number];

/** The operator's structural settings (flags, config); each one left out keeps its default. */
export interface StructuralSettings {
  requiredSections?: string[] | undefined;
  maxLineLength?: number | undefined;
  bannedPhrases?: readonly string[] | undefined;
  /** The config's `structural.reading`; undefined → `skillclimb`. */
  reading?: StructuralReading | undefined;
}

/** The text-only metrics of `text`, computed exactly as scoreStructure computes them. */
export function scoreTextOnlyMetrics(
  text: string,
  settings: StructuralSettings,
): Record<TextOnlyMetricName, MetricResult> {
  const lines = structuralLines(text);
  const fences = scanFences(lines);
  const code = settings.reading === 'original' ? undefined : fences;
  return {
    section_depth_consistency: sectionDepthConsistency(lines, code),
    required_sections: requiredSections(lines, settings.requiredSections, code),
    banned_phrases: bannedPhrases(lines, fences, settings.bannedPhrases),
    code_fence_balance: codeFenceBalance(fences),
    max_line_length: maxLineLength(lines, settings.maxLineLength),
    rules_to_rationale_ratio: rulesToRationaleRatio(lines, fences),
  };
}

export function scoreStructure(text: string, ctx: StructuralContext): StructuralResult {
  const textOnly = scoreTextOnlyMetrics(text, ctx);
  // Links may span lines, so they are matched on the whole text, lines joined as Python's
  // universal-newline read would give them.
  const body = structuralLines(text).join('\n');
  const metrics: Record<MetricName, MetricResult> = {
    ...textOnly,
    link_integrity: linkIntegrity(body, ctx),
    cross_reference_resolution: crossReferenceResolution(body, ctx),
  };
  let sum = 0;
  for (const name of METRIC_NAMES) sum += metrics[name].score;
  const mean = sum / METRIC_NAMES.length;
  if (ctx.reading === 'original') return { score: mean, metrics: orderMetrics(metrics) };
  // An empty file breaks no rule of the eight; what it lacks is anything to follow (§ A score that never
  // rewards deleting the skill).
  const substance = measureSubstance(text);
  const factor = substanceFactor(substance);
  return {
    score: mean * factor,
    metrics: orderMetrics(metrics),
    substance: { words: substance.words, needed: SUBSTANCE_WORDS, factor },
  };
}

/** Keys in METRIC_NAMES order so `score --json` prints them in the documented order. */
function orderMetrics(metrics: Record<MetricName, MetricResult>): Record<MetricName, MetricResult> {
  return Object.fromEntries(METRIC_NAMES.map((name) => [name, metrics[name]])) as Record<
    MetricName,
    MetricResult
  >;
}
