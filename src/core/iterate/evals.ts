import { z } from 'zod';
import { CheckRegexError, compileCheckRegex } from './check-regex.js';
import { formatJsonPath, parseJsonFileWith, zodExpectation, type JsonFileWording } from '../json-file.js';
import { EVALS_FILE, REQUIRED_SECTIONS_FILE, SCENARIOS_FILE } from './skill-layout.js';
import { SkillclimbError } from '../errors.js';
import type { ReviewFeedback } from '../reviewer-skill.js';

/** Graded by code, no model call (skillclimb's addition to the original format). */
export const CheckSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['contains', 'icontains', 'not-contains', 'not-icontains']),
    value: z.string(),
  }),
  z
    .object({
      type: z.enum(['regex', 'not-regex']),
      value: z.string(),
      flags: z
        .string()
        .regex(/^[dgimsuvy]*$/, 'expected regular-expression flags')
        .optional(),
    })
    .superRefine((check, ctx) => {
      // A pattern that cannot compile, or that the linear-time engine cannot run, would otherwise surface
      // only mid-run, as a failed pair on every score.
      try {
        compileCheckRegex(check.value, check.flags);
      } catch (err) {
        if (!(err instanceof CheckRegexError)) throw err;
        ctx.addIssue({ code: 'custom', path: ['value'], message: err.message });
      }
    }),
  z.object({ type: z.enum(['max-lines', 'max-words']), value: z.number().int().nonnegative() }),
  z.object({ type: z.literal('is-json') }),
]);
export type Check = z.infer<typeof CheckSchema>;

export const AssertionSchema = z
  .object({
    id: z.int({ error: 'expected integer' }),
    statement: z.string().min(1),
    source: z.string().default(''),
    defect_type: z.string().default('unspecified'),
    check: CheckSchema.optional(),
  })
  .loose();
export type Assertion = z.infer<typeof AssertionSchema>;

const RawCategorySchema = z
  .object({
    name: z.string().min(1),
    weight: z.number().nonnegative().optional(),
    evals: z.array(AssertionSchema),
  })
  .loose();

export const EvalsFileSchema = z
  .object({
    skill: z.string().optional(),
    version: z.string().optional(),
    categories: z.array(RawCategorySchema).min(1),
  })
  .loose()
  .superRefine((file, ctx) => {
    // All zero where it counts (the categories holding assertions): the weighted score would divide 0 by 0
    // and read as a perfect 1 with nothing passed.
    const graded = file.categories.filter((category) => category.evals.length > 0);
    const counted = graded.length > 0 ? graded : file.categories;
    if (counted.length > 0 && counted.every((category) => category.weight === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['categories'],
        message:
          'every categories[].weight is 0 (of the categories with evals); give at least one a positive ' +
          'weight, or leave the weights out for equal ones',
      });
    }
    const seen = new Map<number, string>();
    file.categories.forEach((category, ci) => {
      category.evals.forEach((assertion, ai) => {
        const where = seen.get(assertion.id);
        if (where !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['categories', ci, 'evals', ai, 'id'],
            message: `duplicate assertion id ${assertion.id} (first used at ${where})`,
          });
        } else {
          seen.set(assertion.id, `categories[${ci}].evals[${ai}]`);
        }
      });
    });
  })
  .transform((file) => {
    const fallback = 1 / file.categories.length;
    return {
      ...file,
      categories: file.categories.map((c) => ({ ...c, weight: c.weight ?? fallback })),
    };
  });
export type EvalsFile = z.output<typeof EvalsFileSchema>;
export type Category = EvalsFile['categories'][number];

export const ScenarioSchema = z
  .object({
    // Some hand-written files number their scenarios; the id is a label, so a number reads as its string.
    id: z.union([z.string().min(1), z.int().transform(String)], { error: 'expected a non-empty string' }),
    name: z.string().optional(),
    description: z.string().optional(),
    context: z.string(),
    expected_assertions: z.array(z.int({ error: 'expected integer' })).optional(),
    files: z.record(z.string(), z.string()).optional(),
    /** skillclimb's addition: never shown to the editor, scored only for the ship gate's confirmation. */
    holdout: z.boolean().optional(),
    /**
     * What a good output looks like, in words (the Agent Skills format's `expected_output`): shown to the
     * grader as a hint, never to the render.
     */
    expected_output: z.string().optional(),
  })
  .loose();
export type Scenario = z.infer<typeof ScenarioSchema> & {
  /**
   * The review finding an Agent Skills eval was written from (its `skillclimb.feedback`): the reviewer
   * skill's PR names which of them the change stops raising or still catches (feedback-evidence.ts).
   */
  feedback?: ReviewFeedback | undefined;
};

export const ScenariosFileSchema = z
  .object({
    skill: z.string().optional(),
    version: z.string().optional(),
    scenarios: z.array(ScenarioSchema).min(1),
  })
  .loose()
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    file.scenarios.forEach((s, si) => {
      if (ids.has(s.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['scenarios', si, 'id'],
          message: `duplicate scenario id "${s.id}"`,
        });
      }
      ids.add(s.id);
    });
    if (file.scenarios.length > 0 && file.scenarios.every((s) => s.holdout === true)) {
      ctx.addIssue({
        code: 'custom',
        path: ['scenarios'],
        message:
          'every scenario is a holdout; at least one must have no "holdout": true for the loop to climb on',
      });
    }
  });

export const RequiredSectionsSchema = z.object({ required: z.array(z.string().min(1)) }).loose();

/**
 * The two shapes of `evals/evals.json` (docs/how-it-works.md § Scoring): the original's categories beside
 * `test_scenarios.json`, and the Agent Skills format's list of evals, each a scenario with its own
 * assertions.
 */
export const EVALS_FORMATS = ['original', 'agent-skills'] as const;
export type EvalsFormat = (typeof EVALS_FORMATS)[number];

export interface SkillEvals {
  evals: EvalsFile;
  scenarios: Scenario[];
  /** From `evals/required_sections.json`; undefined means "use the defaults". */
  requiredSections: string[] | undefined;
  /**
   * The shape the files were read from (undefined: the original's). In the Agent Skills format an
   * assertion belongs to its own scenario: it is no pair of any other, not even a vacuous one.
   */
  format?: EvalsFormat | undefined;
}

/** A validation failure that names the file and the JSON path, e.g. `evals.json: categories[1].evals[0].id: expected integer`. */
export class EvalsFileError extends SkillclimbError {
  readonly kind = 'input-file';
  constructor(
    readonly file: string,
    readonly jsonPath: string,
    readonly detail: string,
  ) {
    super(jsonPath ? `${file}: ${jsonPath}: ${detail}` : `${file}: ${detail}`);
    this.name = 'EvalsFileError';
  }
}

export { formatJsonPath };

const EVALS_WORDING: JsonFileWording = {
  error: (file, jsonPath, detail) => new EvalsFileError(file, jsonPath, detail),
  detail: (issue) =>
    issue.code === 'invalid_type' && issue.expected === 'int'
      ? 'expected integer'
      : zodExpectation(issue.message, ['Invalid input', 'Too small', 'Too big']),
};

/** `evals/required_sections.json`'s list, or undefined when the file does not exist. */
export function parseRequiredSections(text: string | undefined): string[] | undefined {
  return text === undefined
    ? undefined
    : parseJsonFile(REQUIRED_SECTIONS_FILE, text, RequiredSectionsSchema).required;
}

export function parseJsonFile<S extends z.ZodType>(file: string, text: string, schema: S): z.output<S> {
  return parseJsonFileWith(file, text, schema, EVALS_WORDING);
}

export function parseEvals(text: string, file = EVALS_FILE): EvalsFile {
  return parseJsonFile(file, text, EvalsFileSchema);
}

export function parseScenarios(
  text: string,
  evals: EvalsFile | undefined,
  file = SCENARIOS_FILE,
): Scenario[] {
  const parsed = parseJsonFile(file, text, ScenariosFileSchema);
  if (evals) {
    const known = new Set(evals.categories.flatMap((c) => c.evals.map((a) => a.id)));
    parsed.scenarios.forEach((s, si) => {
      s.expected_assertions?.forEach((id, ei) => {
        if (!known.has(id)) {
          throw new EvalsFileError(
            file,
            formatJsonPath(['scenarios', si, 'expected_assertions', ei]),
            `unknown assertion id ${id} (not in ${EVALS_FILE})`,
          );
        }
      });
    });
  }
  return parsed.scenarios;
}

/** A skill's eval files as read: undefined for a file that does not exist. */
export interface EvalsTexts {
  evals: string | undefined;
  scenarios: string | undefined;
  requiredSections: string | undefined;
}

/** Parses and cross-validates the eval files of one skill folder (`<skill>/evals/…`). */
export function parseSkillEvals(texts: EvalsTexts): SkillEvals {
  if (texts.evals === undefined) throw new EvalsFileError(EVALS_FILE, '', 'file not found');
  const evals = parseEvals(texts.evals);
  if (texts.scenarios === undefined) throw new EvalsFileError(SCENARIOS_FILE, '', 'file not found');
  const scenarios = parseScenarios(texts.scenarios, evals);
  const requiredSections = parseRequiredSections(texts.requiredSections);
  return { evals, scenarios, requiredSections };
}

/**
 * The evals of a skill scored on structure alone (`--mode structural`, docs/how-it-works.md § Scoring): no
 * assertions and no scenarios, only the required sections when the skill names them.
 */
export function structuralOnlyEvals(requiredSections: string | undefined): SkillEvals {
  return {
    evals: { categories: [] },
    scenarios: [],
    requiredSections: parseRequiredSections(requiredSections),
  };
}

export function allAssertions(evals: EvalsFile): Array<Assertion & { category: Category }> {
  return evals.categories.flatMap((category) => category.evals.map((a) => ({ ...a, category })));
}
