/**
 * The Agent Skills eval format (docs/how-it-works.md § Eval files in the Agent Skills format): the
 * ecosystem's `evals/evals.json` — `{"skill_name", "evals": [{"id", "prompt", "expected_output", "files",
 * "assertions" | "expectations"}]}`, as the Agent Skills documentation and Anthropic's skill-creator write
 * it — told apart from the original's shape by its content, and read into the same model the original's
 * files give (SkillEvals), so every command scores either without a conversion step.
 *
 * Each eval is a scenario: its `prompt` is the render's user turn, its `files` (paths inside the skill
 * folder) are given to the render, its `expected_output` to the grader as a hint. Its assertions apply to
 * it alone and weigh the same. skillclimb's additions live in one extra field other tools ignore,
 * `"skillclimb": {"holdout": true, "checks": {"<assertion text>": {…check…}}}`, so the assertions stay
 * plain strings (skill-creator's schema). Pure: the files are read by src/iterate/evals-files.ts.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  CheckSchema,
  EvalsFileError,
  parseJsonFile,
  type Assertion,
  type Scenario,
  type SkillEvals,
} from './evals.js';
import { EVALS_FILE, SCENARIOS_FILE } from './skill-layout.js';
import { messageOf } from '../errors.js';
import { ReviewFeedbackSchema } from '../reviewer-skill.js';

const nonBlank = (what: string) =>
  z.string({ error: 'expected string' }).refine((s) => s.trim() !== '', `expected a non-empty ${what}`);

/** skillclimb's field on one eval; other tools ignore it. */
const SkillclimbFieldSchema = z
  .object({
    /** Never shown to the editor, scored only to confirm a gain (docs/how-it-works.md § Decisions under noise). */
    holdout: z.boolean().optional(),
    /** A `check` (graded by code, no model call) for an assertion, keyed by the assertion's exact text. */
    checks: z.record(z.string(), CheckSchema).optional(),
    /** An eval written from a team's answer to a review finding (docs/how-it-works.md § The reviewer learns). */
    feedback: ReviewFeedbackSchema.optional(),
  })
  .loose();

const EvalEntrySchema = z
  .object({
    id: z.int({ error: 'expected integer' }),
    prompt: nonBlank('prompt'),
    expected_output: z.string().optional(),
    files: z.array(z.string()).optional(),
    assertions: z.array(nonBlank('assertion')).optional(),
    /** skill-creator's name for the same list. */
    expectations: z.array(nonBlank('expectation')).optional(),
    name: z.string().optional(),
    skillclimb: SkillclimbFieldSchema.optional(),
  })
  .loose();
export type AgentSkillsEval = z.infer<typeof EvalEntrySchema>;

/** A path `files` may name: relative, inside the skill folder, `/`-separated. */
export function inputFileProblem(file: string): string | undefined {
  const expected = 'expected a path inside the skill folder, relative to it (e.g. evals/files/input.csv)';
  if (file.trim() === '' || file.includes('\\') || file.includes('\u0000')) return expected;
  if (path.posix.isAbsolute(file) || /^[A-Za-z]:/.test(file)) return expected;
  const normal = path.posix.normalize(file);
  if (normal === '.' || normal === '..' || normal.startsWith('../')) return expected;
  return undefined;
}

/** The statements an eval is graded on, as written (either list name). */
export function statementsOf(entry: AgentSkillsEval): string[] {
  return entry.assertions ?? entry.expectations ?? [];
}

export const AgentSkillsEvalsSchema = z
  .object({
    skill_name: z.string().optional(),
    evals: z.array(EvalEntrySchema).min(1),
  })
  .loose()
  .superRefine((file, ctx) => {
    const seen = new Map<number, number>();
    file.evals.forEach((entry, i) => {
      const first = seen.get(entry.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['evals', i, 'id'],
          message: `duplicate eval id ${entry.id} (first used at evals[${first}])`,
        });
      } else seen.set(entry.id, i);
      if (entry.assertions !== undefined && entry.expectations !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['evals', i, 'expectations'],
          message:
            'both "assertions" and "expectations": keep one list (skill-creator names it expectations, ' +
            'the Agent Skills documentation assertions)',
        });
      }
      const statements = statementsOf(entry);
      if (statements.length === 0 && (entry.expected_output ?? '').trim() === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['evals', i],
          message: 'nothing to grade: add "assertions" (or "expectations"), or an "expected_output"',
        });
      }
      entry.files?.forEach((file, j) => {
        const problem = inputFileProblem(file);
        if (problem) ctx.addIssue({ code: 'custom', path: ['evals', i, 'files', j], message: problem });
      });
      for (const text of Object.keys(entry.skillclimb?.checks ?? {})) {
        if (!statements.includes(text)) {
          ctx.addIssue({
            code: 'custom',
            path: ['evals', i, 'skillclimb', 'checks'],
            message: `${JSON.stringify(text)} is not one of this eval's assertions (a check is keyed by the assertion's exact text)`,
          });
        }
      }
    });
    if (file.evals.length > 0 && file.evals.every((entry) => entry.skillclimb?.holdout === true)) {
      ctx.addIssue({
        code: 'custom',
        path: ['evals'],
        message:
          'every eval is a holdout; at least one must have no "holdout": true for the loop to climb on',
      });
    }
  });
export type AgentSkillsEvals = z.output<typeof AgentSkillsEvalsSchema>;

/** What `evals.json` holds, told by its content. */
export type EvalsShape = { format: 'original' } | { format: 'agent-skills'; file: AgentSkillsEvals };

export const NEITHER_FORMAT =
  'not an eval file skillclimb reads: expected the original format\'s "categories" (with ' +
  `${SCENARIOS_FILE} beside it) or the Agent Skills format's "evals" list ` +
  '({"skill_name": …, "evals": [{"id": 1, "prompt": …, "expected_output": …, "assertions": […]}]})';

function found(raw: unknown): string {
  if (Array.isArray(raw)) return 'found a JSON array';
  if (raw === null || typeof raw !== 'object') return `found a JSON ${raw === null ? 'null' : typeof raw}`;
  const keys = Object.keys(raw);
  if (keys.length === 0) return 'found an empty object';
  const shown = keys.slice(0, 6).map((k) => JSON.stringify(k));
  return `found the key${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/**
 * Which shape `text` (evals.json) is in: `categories` → the original's; `evals` → the Agent Skills
 * format's (validated here); neither → the original's when `test_scenarios.json` is beside it (its schema
 * names what is missing), else an EvalsFileError that says what was expected.
 */
export function readEvalsShape(text: string, hasScenarios: boolean, file = EVALS_FILE): EvalsShape {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new EvalsFileError(file, '', `not valid JSON (${messageOf(err)})`);
  }
  const object = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : undefined;
  if (object && 'categories' in object) return { format: 'original' };
  if (object && 'evals' in object) {
    return { format: 'agent-skills', file: parseJsonFile(file, text, AgentSkillsEvalsSchema) };
  }
  if (hasScenarios) return { format: 'original' };
  throw new EvalsFileError(file, '', `${NEITHER_FORMAT}; ${found(raw)}`);
}

/** Every input file the evals name, once, in order. */
export function inputFilesOf(file: AgentSkillsEvals): string[] {
  return [...new Set(file.evals.flatMap((entry) => entry.files ?? []))];
}

/** The one assertion of an eval that has none: its expected_output, graded as a statement. */
export function expectedOutputStatement(expectedOutput: string): string {
  return `The output delivers what this eval expects: ${expectedOutput.trim()}`;
}

/** The single category every Agent Skills assertion is in: they all weigh the same. */
export const AGENT_SKILLS_CATEGORY = 'Assertions';

/**
 * The model the scorer reads. Assertion ids are numbered 1..N in file order (the grader and the reports
 * need ids; the file has none); each eval's `expected_assertions` are its own. `inputs` maps each path of
 * `files` to the text given to the render.
 */
export function agentSkillsEvals(
  file: AgentSkillsEvals,
  inputs: ReadonlyMap<string, string>,
  requiredSections: string[] | undefined,
): SkillEvals {
  const assertions: Assertion[] = [];
  const scenarios: Scenario[] = file.evals.map((entry) => {
    const written = statementsOf(entry);
    const expected = entry.expected_output?.trim() ? entry.expected_output : undefined;
    const statements =
      written.length > 0 ? written : expected === undefined ? [] : [expectedOutputStatement(expected)];
    const checks = entry.skillclimb?.checks ?? {};
    const ids = statements.map((statement) => {
      const check = Object.hasOwn(checks, statement) ? checks[statement] : undefined;
      const assertion: Assertion = {
        id: assertions.length + 1,
        statement,
        source: '',
        defect_type: 'unspecified',
        ...(check === undefined ? {} : { check }),
      };
      assertions.push(assertion);
      return assertion.id;
    });
    const files = entry.files?.length
      ? Object.fromEntries(entry.files.map((f) => [f, inputs.get(f) ?? '']))
      : undefined;
    return {
      id: String(entry.id),
      ...(entry.name === undefined ? {} : { name: entry.name }),
      context: entry.prompt,
      expected_assertions: ids,
      ...(files === undefined ? {} : { files }),
      ...(entry.skillclimb?.holdout === undefined ? {} : { holdout: entry.skillclimb.holdout }),
      ...(expected === undefined ? {} : { expected_output: expected }),
      ...(entry.skillclimb?.feedback === undefined ? {} : { feedback: entry.skillclimb.feedback }),
    };
  });
  return {
    evals: {
      ...(file.skill_name === undefined ? {} : { skill: file.skill_name }),
      categories: [{ name: AGENT_SKILLS_CATEGORY, weight: 1, evals: assertions }],
    },
    scenarios,
    requiredSections,
    format: 'agent-skills',
  };
}
