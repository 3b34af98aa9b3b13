/**
 * `skillclimb evals init` (docs/how-it-works.md § The queue): what a model's eval files must look like,
 * the repairs code makes to them, and the checks that decide whether they may be written. Pure: the engine
 * (src/iterate/evals-init.ts) asks the model and writes the files; this module never reads or writes one.
 *
 * The rules are the original skill-eval-setup's: categories from the skill's own headings plus an
 * Anti-patterns category; each statement one true/false claim about the output; a `source` citing real
 * SKILL.md lines (at most 15, a single line for a NEVER / MUST / IF rule), a citation in each major
 * section; `defect_type` from a fixed list; at least 40 % discrimination assertions; 2–3 scenarios with
 * `expected_assertions`; ids sequential; `result: null`; `passing_threshold` (N-2)/N.
 *
 * The rules come from the body: the leading YAML front matter (`name:`, `description:` — trigger text for
 * the agent that picks the skill, not a rule for its output) is neither a rule line, a heading nor a
 * section the assertions must cite. Line numbers still count from the top of the file.
 */
import { z } from 'zod';
import { EvalsFileError, parseEvals, parseScenarios, type EvalsFile, type Scenario } from './evals.js';
import { pySplitLines, parseHeading, stripBom } from './markdown.js';
import { frontmatterClose } from '../frontmatter.js';

export const DEFECT_TYPES = [
  'structural',
  'format',
  'quantity',
  'content',
  'anti-pattern',
  'required-content',
  'internal-inconsistency',
  'conditional-behavior',
  'n/a-sanity',
  'n/a-coverage',
] as const;
export type DefectType = (typeof DEFECT_TYPES)[number];

/** The two defect types that do not discriminate (a sanity or coverage check any output passes). */
export const NON_DISCRIMINATING: readonly DefectType[] = ['n/a-sanity', 'n/a-coverage'];
export const MIN_DISCRIMINATION_SHARE = 0.4;
export const MAX_CITED_LINES = 15;
export const MIN_SCENARIOS = 2;
export const MAX_SCENARIOS = 3;
export const MIN_ASSERTIONS = 3;

/** The model's answer, as the provider layer validates its shape (the content is checked below). */
export const AuthoredAssertionSchema = z.object({
  id: z.int(),
  statement: z.string(),
  source: z.string(),
  defect_type: z.string(),
});
export const AuthoredAnswerSchema = z.object({
  categories: z.array(
    z.object({
      name: z.string(),
      weight: z.number(),
      evals: z.array(AuthoredAssertionSchema),
    }),
  ),
  scenarios: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      context: z.string(),
      expected_assertions: z.array(z.int()),
      /** Asked for only when the files are written in the Agent Skills format (its `expected_output`). */
      expected_output: z.string().optional(),
    }),
  ),
});
export type AuthoredAnswer = z.infer<typeof AuthoredAnswerSchema>;

/** The two files as they will be written (JSON values), before validation. */
export interface AuthoredFiles {
  evals: Record<string, unknown>;
  /** undefined with --keep-scenarios: the file on disk stays as it is. */
  scenarios: Record<string, unknown> | undefined;
  /** Set when the answer's category weights did not sum to 1 and were rescaled: what was done. */
  weightsNote?: string;
}

/** Written weights have 4 decimals; the largest takes the rounding remainder, so they sum to 1. */
const WEIGHT_DECIMALS = 4;
/** How far from 1 a sum of weights may be and still count as 1. */
const WEIGHT_SUM_TOLERANCE = 1e-6;

/**
 * The prompt asks for weights that sum to 1, and the scorer divides by their sum when they do not; the
 * files are written the way the prompt asks, so what a reader sees is what counts. Weights that are not
 * all non-negative numbers with a positive sum are left for the schema to refuse.
 */
function normaliseWeights(weights: readonly number[]): { weights: number[]; from: number } | undefined {
  const sum = weights.reduce((total, w) => total + w, 0);
  if (!(sum > 0) || weights.some((w) => !(w >= 0)) || Math.abs(sum - 1) <= WEIGHT_SUM_TOLERANCE) {
    return undefined;
  }
  const scale = 10 ** WEIGHT_DECIMALS;
  const rounded = weights.map((w) => Math.round((w / sum) * scale));
  const largest = rounded.indexOf(Math.max(...rounded));
  rounded[largest] = scale - rounded.reduce((total, w, i) => (i === largest ? total : total + w), 0);
  return { weights: rounded.map((w) => w / scale), from: sum };
}

/** `"(N-2)/N"` with N the number of assertions, evaluated: `"10/12"` for 12 assertions. */
export function passingThreshold(assertions: number): string {
  return `${Math.max(0, assertions - 2)}/${assertions}`;
}

/**
 * What code fixes itself instead of asking the model again: ids numbered 1..N in order (the scenarios'
 * expected_assertions follow), `result: null`, the skill name, versions, the passing threshold, scenario
 * ids `scenario_1…`. With kept scenarios the ids are the model's: the scenarios refer to them.
 */
export function repairAuthored(
  answer: AuthoredAnswer,
  skill: string,
  kept: { scenarios: Scenario[] } | undefined,
): AuthoredFiles {
  const renumber = new Map<number, number>();
  let next = 0;
  const normalised = normaliseWeights(answer.categories.map((c) => c.weight));
  const categories = answer.categories.map((category, index) => ({
    name: category.name.trim(),
    weight: normalised?.weights[index] ?? category.weight,
    evals: category.evals.map((assertion) => {
      next++;
      const id = kept ? assertion.id : next;
      if (!kept && !renumber.has(assertion.id)) renumber.set(assertion.id, id);
      return {
        id,
        statement: assertion.statement.trim(),
        source: assertion.source.trim(),
        defect_type: assertion.defect_type.trim(),
        result: null,
      };
    }),
  }));
  const evals = {
    skill,
    version: '2.0',
    passing_threshold: passingThreshold(next),
    categories,
  };
  const weightsNote = normalised
    ? `the category weights summed to ${+normalised.from.toFixed(6)}, so they were rescaled to sum to 1 ` +
      `(${normalised.weights.join(', ')})`
    : undefined;
  const note = weightsNote ? { weightsNote } : {};
  if (kept) return { evals, scenarios: undefined, ...note };
  const scenarios = answer.scenarios.map((scenario, index) => ({
    id: `scenario_${index + 1}`,
    name: scenario.name.trim(),
    description: scenario.description.trim(),
    context: scenario.context,
    expected_assertions: [...new Set(scenario.expected_assertions.map((id) => renumber.get(id) ?? id))].sort(
      (a, b) => a - b,
    ),
  }));
  return { evals, scenarios: { skill, version: '1.0', scenarios }, ...note };
}

/** Holdouts `evals init` marks by default when it writes three or more scenarios. */
export const DEFAULT_HOLDOUTS = 1;

/**
 * Marks the last `count` written scenarios `"holdout": true` (docs/how-it-works.md § Decisions under noise):
 * only when there are three or more, and never so many that fewer than two stay visible to the editor.
 * Kept scenarios (undefined) are left as they are on disk.
 */
export function markHoldouts(files: AuthoredFiles, count: number): AuthoredFiles {
  const list: unknown = files.scenarios?.scenarios;
  if (!Array.isArray(list) || list.length < 3 || count <= 0) return files;
  const marked = Math.min(Math.floor(count), list.length - 2);
  const scenarios = list.map((s: unknown, i) =>
    i >= list.length - marked && typeof s === 'object' && s !== null ? { ...s, holdout: true } : s,
  );
  return { ...files, scenarios: { ...files.scenarios, scenarios } };
}

/** A cited range of SKILL.md lines, 1-based and inclusive. */
export interface CitedLines {
  first: number;
  last: number;
}

/** `SKILL.md, lines 12-18`, `SKILL.md, line 7`, `SKILL.md:7`, `SKILL.md:12-18` (en dash too); else undefined. */
export function parseSource(source: string): CitedLines | undefined {
  const match = /^SKILL\.md\s*(?:,\s*lines?\s*|:\s*|\s+lines?\s+)(\d+)(?:\s*[-–]\s*(\d+))?\s*$/i.exec(
    source.trim(),
  );
  if (!match) return undefined;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  return { first, last };
}

const normaliseName = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Statements that cannot grade FALSE on a concrete defect ("Output is well formed"). */
const VAGUE_STATEMENT =
  /\b(?:is|are)\s+(?:well[- ]?(?:formed|structured|written|organi[sz]ed)|good|high[- ]quality|appropriate|reasonable|correct|helpful|clear|complete|fine|ok(?:ay)?)\s*\.?$|\bfollows?\s+(?:the|all)\s+(?:skill|instructions|rules|guidelines)\b/i;

/** A line with a rule the evals must cover: an upper-case NEVER, NOT, MUST or IF. */
const RULE_LINE = /\b(?:NEVER|NOT|MUST|IF)\b/;

interface SkillShape {
  lineCount: number;
  headings: Array<{ line: number; level: number; title: string }>;
  /** [first, last] line of each H2 section that has content. */
  sections: Array<{ title: string; first: number; last: number }>;
  /** Each line of the body with an upper-case NEVER / NOT / MUST / IF, with the words found. */
  rules: Array<{ line: number; words: string[]; text: string }>;
}

const RULE_WORDS = /\b(?:NEVER|NOT|MUST|IF)\b/g;

function shapeOf(skillMd: string): SkillShape {
  const lines = pySplitLines(stripBom(skillMd));
  const headings: SkillShape['headings'] = [];
  const rules: SkillShape['rules'] = [];
  // A closed front matter is skipped; an unclosed `---` is read as body (nothing would be left otherwise).
  const close = frontmatterClose(lines);
  const bodyStart = typeof close === 'number' ? close + 1 : 0;
  let inFence = false;
  lines.forEach((line, index) => {
    if (index < bodyStart) return;
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    const heading = inFence ? null : parseHeading(line);
    if (heading && heading.title !== '')
      headings.push({ line: index + 1, level: heading.level, title: heading.title });
    if (!inFence && RULE_LINE.test(line)) {
      rules.push({ line: index + 1, words: [...new Set(line.match(RULE_WORDS))], text: line.trim() });
    }
  });
  const h2 = headings.filter((h) => h.level === 2);
  const sections = h2
    .map((h, i) => ({ title: h.title, first: h.line, last: (h2[i + 1]?.line ?? lines.length + 1) - 1 }))
    .filter((s) => lines.slice(s.first, s.last).some((l) => l.trim() !== ''));
  return { lineCount: lines.length, headings, sections, rules };
}

/** The lines of SKILL.md, numbered as `source` cites them (for the prompt). */
export function numberedLines(skillMd: string): string {
  const lines = pySplitLines(stripBom(skillMd));
  const width = String(lines.length).length;
  return lines.map((line, i) => `${String(i + 1).padStart(width)} | ${line}`).join('\n');
}

/** The rule lines (NEVER / MUST / IF) the evals must cite, for the prompt. */
export function ruleLineNumbers(skillMd: string): number[] {
  return shapeOf(skillMd).rules.map((rule) => rule.line);
}

export interface AuthoredCheck {
  /** Every problem, worded for the model's retry (and for the person when the files are refused). */
  problems: string[];
  /** Set when the files pass: what they hold. */
  summary: { assertions: number; categories: number; scenarios: number; discrimination: number } | undefined;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Checks the repaired files against the existing schemas and the eval-setup rules. `keptScenarios` is the
 * scenarios file as it is on disk (--keep-scenarios): evals.json must fit its expected_assertions.
 */
// eslint-disable-next-line max-lines-per-function -- one check per authored field, in the order its messages are reported; not yet split (issue 30 item 3)
export function checkAuthored(
  skillMd: string,
  files: AuthoredFiles,
  keptScenarios: string | undefined,
): AuthoredCheck {
  const problems: string[] = [];
  const fileError = (err: unknown): string => {
    if (err instanceof EvalsFileError) return err.message;
    throw err;
  };
  let evals: EvalsFile | undefined;
  try {
    evals = parseEvals(json(files.evals));
  } catch (err) {
    problems.push(fileError(err));
  }
  let scenarios: Scenario[] | undefined;
  const scenariosText = files.scenarios === undefined ? keptScenarios : json(files.scenarios);
  if (evals && scenariosText !== undefined) {
    try {
      scenarios = parseScenarios(scenariosText, evals);
    } catch (err) {
      problems.push(fileError(err));
    }
  }
  if (!evals) return { problems, summary: undefined };

  // The prompt's rule 1, as the repair writes it: weights that sum to 1.
  const weightSum = evals.categories.reduce((total, c) => total + c.weight, 0);
  if (Math.abs(weightSum - 1) > WEIGHT_SUM_TOLERANCE) {
    problems.push(`evals.json: the category weights sum to ${+weightSum.toFixed(6)}; they must sum to 1`);
  }

  const shape = shapeOf(skillMd);
  const assertions = evals.categories.flatMap((c) => c.evals.map((a) => ({ ...a, category: c.name })));
  const n = assertions.length;
  if (n < MIN_ASSERTIONS) problems.push(`evals.json: ${n} assertions; write at least ${MIN_ASSERTIONS}`);

  // Ids: 1..N in order (the repair renumbers them, except against kept scenarios).
  assertions.forEach((a, i) => {
    if (a.id !== i + 1)
      problems.push(`evals.json: assertion ids must run 1..${n} in order; #${i + 1} has id ${a.id}`);
  });

  const cited: Array<CitedLines & { id: number }> = [];
  for (const a of assertions) {
    if (!(DEFECT_TYPES as readonly string[]).includes(a.defect_type)) {
      problems.push(
        `assertion ${a.id}: defect_type "${a.defect_type}" is not one of ${DEFECT_TYPES.join(', ')}`,
      );
    }
    const range = parseSource(a.source);
    if (!range) {
      problems.push(
        `assertion ${a.id}: source "${a.source}" must cite SKILL.md lines as "SKILL.md, lines A-B" or "SKILL.md, line N"`,
      );
      continue;
    }
    if (range.first < 1 || range.last > shape.lineCount || range.first > range.last) {
      problems.push(
        `assertion ${a.id}: source "${a.source}" cites lines that do not exist (SKILL.md has ${shape.lineCount} lines)`,
      );
      continue;
    }
    if (range.last - range.first + 1 > MAX_CITED_LINES) {
      problems.push(
        `assertion ${a.id}: source "${a.source}" spans ${range.last - range.first + 1} lines; cite at most ${MAX_CITED_LINES}`,
      );
    }
    cited.push({ ...range, id: a.id });
    const discriminating = !(NON_DISCRIMINATING as readonly string[]).includes(a.defect_type);
    if (discriminating && VAGUE_STATEMENT.test(a.statement.trim())) {
      problems.push(
        `assertion ${a.id}: "${a.statement}" cannot grade FALSE on a concrete defect; name what would make it false`,
      );
    }
  }
  const discrimination =
    n === 0
      ? 0
      : assertions.filter((a) => !(NON_DISCRIMINATING as readonly string[]).includes(a.defect_type)).length /
        n;
  if (n > 0 && discrimination < MIN_DISCRIMINATION_SHARE) {
    problems.push(
      `only ${Math.round(discrimination * 100)}% of the assertions discriminate (defect_type other than ` +
        `${NON_DISCRIMINATING.join(' and ')}); at least ${MIN_DISCRIMINATION_SHARE * 100}% must`,
    );
  }
  const covers = (line: number) => cited.some((c) => c.first <= line && line <= c.last);
  for (const rule of shape.rules) {
    if (!covers(rule.line)) {
      const text = rule.text.length > 120 ? `${rule.text.slice(0, 119)}…` : rule.text;
      problems.push(
        `SKILL.md line ${rule.line} states a rule (${rule.words.join(', ')}) that no assertion cites ` +
          `("${text}"); cite it as "SKILL.md, line ${rule.line}"`,
      );
    }
  }
  for (const section of shape.sections) {
    if (!cited.some((c) => c.first <= section.last && c.last >= section.first)) {
      problems.push(
        `the section "${section.title}" (SKILL.md lines ${section.first}-${section.last}) has no assertion citing it`,
      );
    }
  }

  const headingNames = shape.headings.map((h) => normaliseName(h.title)).filter(Boolean);
  if (!evals.categories.some((c) => /anti-?patterns?/i.test(c.name))) {
    problems.push('evals.json: add an "Anti-patterns" category (what the output must NOT do)');
  }
  if (headingNames.length > 0) {
    for (const category of evals.categories) {
      const name = normaliseName(category.name);
      if (/antipatterns?/.test(name)) continue;
      if (!headingNames.some((h) => h.includes(name) || name.includes(h))) {
        problems.push(`category "${category.name}" is not one of the skill's own headings`);
      }
    }
  }

  if (files.scenarios !== undefined && scenarios) {
    if (scenarios.length < MIN_SCENARIOS || scenarios.length > MAX_SCENARIOS) {
      problems.push(
        `test_scenarios.json: ${scenarios.length} scenarios; write ${MIN_SCENARIOS} to ${MAX_SCENARIOS}`,
      );
    }
    for (const scenario of scenarios) {
      if (scenario.context.trim() === '') problems.push(`scenario ${scenario.id}: context is empty`);
      if (!scenario.expected_assertions || scenario.expected_assertions.length === 0) {
        problems.push(
          `scenario ${scenario.id}: list the assertions whose trigger fires in expected_assertions`,
        );
      }
    }
  }
  return {
    problems,
    summary:
      problems.length === 0
        ? {
            assertions: n,
            categories: evals.categories.length,
            scenarios: scenarios?.length ?? 0,
            discrimination,
          }
        : undefined,
  };
}

/** The files' text as written: two-space JSON and a final newline. */
export function formatAuthoredFile(value: Record<string, unknown>): string {
  return json(value);
}
