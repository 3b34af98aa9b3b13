/**
 * skill-creator's own schemas for `evals/evals.json` and `benchmark.json`, as its reference page
 * documents them (anthropics/skills, skills/skill-creator/references/schemas.md), written as zod so a test
 * can check a file skillclimb writes against them. Every field the page lists is required with its type
 * (`files` is the one it calls optional); fields it does not list are allowed, as in a JSON Schema without
 * `additionalProperties: false` — skill-creator's scripts read the fields they know and ignore the rest.
 * The benchmark's field names are the ones its eval viewer reads ("Using `config` instead of
 * `configuration` … will cause the viewer to show empty/zero values").
 */
import { z } from 'zod';

/** An object with the listed fields; others pass through untouched (they are allowed, not checked). */
const object = <T extends z.ZodRawShape>(shape: T) => z.object(shape).loose();

export const SkillCreatorEvalsSchema = object({
  skill_name: z.string(),
  evals: z.array(
    object({
      id: z.int(),
      prompt: z.string(),
      expected_output: z.string(),
      files: z.array(z.string()).optional(),
      expectations: z.array(z.string()),
    }),
  ),
}).refine((file) => new Set(file.evals.map((e) => e.id)).size === file.evals.length, {
  message: 'evals[].id: unique integer identifier',
});

const stat = object({ mean: z.number(), stddev: z.number() });
const summary = object({ pass_rate: stat, time_seconds: stat, tokens: stat });

export const SkillCreatorBenchmarkSchema = object({
  metadata: object({
    skill_name: z.string(),
    skill_path: z.string(),
    executor_model: z.string(),
    analyzer_model: z.string(),
    timestamp: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    evals_run: z.array(z.union([z.number(), z.string()])),
    runs_per_configuration: z.int().positive(),
  }),
  runs: z.array(
    object({
      eval_id: z.number(),
      eval_name: z.string(),
      configuration: z.enum(['with_skill', 'without_skill']),
      run_number: z.int().positive(),
      result: object({
        pass_rate: z.number().min(0).max(1),
        passed: z.int(),
        failed: z.int(),
        total: z.int(),
        time_seconds: z.number(),
        tokens: z.number(),
        tool_calls: z.number(),
        errors: z.number(),
      }),
      expectations: z.array(object({ text: z.string(), passed: z.boolean(), evidence: z.string() })),
      notes: z.array(z.string()),
    }),
  ),
  run_summary: object({
    with_skill: summary,
    without_skill: summary,
    delta: object({
      pass_rate: z.string().regex(/^[+-]\d+\.\d\d$/),
      time_seconds: z.string().regex(/^[+-]\d+\.\d$/),
      tokens: z.string().regex(/^[+-]\d+$/),
    }),
  }),
  notes: z.array(z.string()),
});
