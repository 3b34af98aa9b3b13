/**
 * `skillclimb.config.json` at the project root: models per role, price overrides, budget, concurrency,
 * scoring mode and provider endpoints. Keys never go in this file (it is committed); they stay in the
 * environment. Model ids and settings: command-line flags > this file > environment defaults. Endpoints are
 * the exception: the file is repository content, and where the workflow's key is sent is the operator's
 * call, so flags/inputs > environment variables > this file, and this file's `endpoints` count only when
 * the operator sets SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonFileWith, zodExpectation, type JsonFileWording } from '../core/json-file.js';
import { skillsGlobProblem } from '../core/iterate/skill-layout.js';
import { defaultModelFor, type ModelFactoryOptions, type ModelSelection } from '../llm/factory.js';
import { parseModelId } from '../llm/model-id.js';
import { PriceTableSchema, pricesFromEnv } from '../llm/prices.js';
import {
  STRUCTURED_OUTPUT_SETTINGS,
  StructuredOutputSettingSchema,
  type StructuredOutputSetting,
} from '../llm/structured-output.js';
import { SkillclimbError, messageOf } from '../core/errors.js';
import { BASE_URL_VARIABLES, MODEL_PROVIDERS, type ConfigEndpointKey } from '../core/providers.js';

export const CONFIG_FILE = 'skillclimb.config.json';
/** The operator's opt-in (environment, never the config file) to the config file's `endpoints`. */
export const TRUST_CONFIG_ENDPOINTS_VAR = 'SKILLCLIMB_TRUST_CONFIG_ENDPOINTS';

const ModelIdString = z.string().superRefine((value, ctx) => {
  try {
    parseModelId(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: messageOf(err) });
  }
});

/** A skills glob: relative, `/`-separated, no `..` (it names folders inside the project). */
const SkillsGlob = z.string().superRefine((value, ctx) => {
  const problem = skillsGlobProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

const UrlString = z
  .string()
  .refine((value) => /^https?:\/\/[^\s]+$/.test(value), 'expected an http:// or https:// URL');

/** `endpoints`: one optional base URL per provider, under its config key (src/core/providers.ts). */
const ENDPOINT_FIELDS = Object.fromEntries(
  MODEL_PROVIDERS.map((p) => [p.baseUrl.configKey, UrlString.optional()]),
) as Record<ConfigEndpointKey, ReturnType<typeof UrlString.optional>>;

export const ConfigSchema = z
  .object({
    $schema: z.string().optional(),
    models: z
      .object({
        /** All three roles, like `--model`. */
        default: ModelIdString.optional(),
        editor: ModelIdString.optional(),
        render: ModelIdString.optional(),
        grader: ModelIdString.optional(),
        /** The review loop's roles (`skillclimb review`); `default` does not apply to them. */
        reviewer: ModelIdString.optional(),
        executor: ModelIdString.optional(),
        /** `skillclimb evals init`: the model that writes eval files (else the editor's, else `default`). */
        author: ModelIdString.optional(),
      })
      .strict()
      .optional(),
    /** USD per million tokens, keyed by `provider:model` or bare model name. */
    prices: PriceTableSchema.optional(),
    maxCostUsd: z.number().positive().optional(),
    /** The night budget: no new skill starts once the night's estimated cost reaches it (docs/how-it-works.md § Caps and budgets). */
    nightBudgetUsd: z.number().positive().optional(),
    concurrency: z.int().min(1).max(64).optional(),
    mode: z.enum(['composite', 'structural', 'absolute']).optional(),
    /** Below this composite gain a higher final score is no-improvement (default 0.005; 0 is the original's rule). */
    minGain: z.number().min(0).max(1).optional(),
    /** Independent draws per measurement: baseline, promising candidate, confirmation (default 3). */
    trials: z.int().min(1).max(10).optional(),
    /** Standard errors of the difference a gain must clear (default 1; docs/how-it-works.md § Decisions under noise). */
    margin: z.number().min(0).max(10).optional(),
    /** `noise-aware` (default) or `original` (any gain keeps, the loop's own scores ship). */
    keepRule: z.enum(['original', 'noise-aware']).optional(),
    /**
     * Where the skills live: globs of skill folders relative to the project (default `[".claude/skills/*", ".github/skills/review-loop-reviewer"]`),
     * e.g. `["skills/*", "plugins/*\/skills/*"]`.
     */
    skills: z.array(SkillsGlob).min(1).optional(),
    /** The structural metrics' settings; each one given replaces its default (docs/how-it-works.md § Scoring). */
    structural: z
      .object({
        maxLineLength: z.int().min(1).optional(),
        requiredSections: z.array(z.string().trim().min(1)).optional(),
        bannedPhrases: z.array(z.string().trim().min(1)).min(1).optional(),
        /**
         * `skillclimb` (default): code is not prose for any metric and a skill with little to say scores in
         * proportion; `original`: the original's reading, to 1e-6 (docs/how-it-works.md § Where the
         * structural scores differ from the original).
         */
        reading: z.enum(['skillclimb', 'original']).optional(),
      })
      .strict()
      .optional(),
    /** Per-attempt model call timeout in seconds (default 120). */
    timeoutSeconds: z.number().positive().max(3600).optional(),
    endpoints: z.object(ENDPOINT_FIELDS).strict().optional(),
    review: z
      .object({
        /** Globs a review fix may edit beyond the files the change under review touches. */
        allow: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
    openaiCompatible: z
      .object({
        /** `auto` (default): json_schema, falling back to json_object, then text; the others force one mode. */
        structuredOutput: StructuredOutputSettingSchema.optional(),
        /** The older spelling: true is `"json_schema"`, false is `"text"`. */
        structuredOutputs: z.boolean().optional(),
      })
      .strict()
      .superRefine((value, ctx) => {
        if (value.structuredOutput !== undefined && value.structuredOutputs !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['structuredOutputs'],
            message: 'give structuredOutput alone (structuredOutputs is its older spelling)',
          });
        }
      })
      .optional(),
  })
  .strict();
export type SkillclimbConfig = z.infer<typeof ConfigSchema>;

/** A config problem, naming the file and the field: `skillclimb.config.json: models.grader: …`. */
export class ConfigError extends SkillclimbError {
  readonly kind = 'config';
  constructor(
    readonly file: string,
    readonly field: string,
    detail: string,
  ) {
    super(field ? `${file}: ${field}: ${detail}` : `${file}: ${detail}`);
    this.name = 'ConfigError';
  }
}

const CONFIG_WORDING: JsonFileWording = {
  error: (file, field, detail) => new ConfigError(file, field, detail),
  detail: (issue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : zodExpectation(issue.message, ['Invalid input', 'Invalid option', 'Too small', 'Too big']),
};

export function parseConfig(text: string, file = CONFIG_FILE): SkillclimbConfig {
  return parseJsonFileWith(file, text, ConfigSchema, CONFIG_WORDING);
}

/** Reads `<project>/skillclimb.config.json`; an absent file is an empty config. */
export async function loadConfig(project: string): Promise<SkillclimbConfig> {
  const file = path.join(project, CONFIG_FILE);
  let text: string;
  try {
    // A FIFO in its place would block the read (and the run) forever; a directory would be EISDIR.
    if (!(await stat(file)).isFile()) {
      throw new ConfigError(file, '', 'is not a regular file (replace it by the JSON file, or remove it)');
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(file, '', `cannot read (${messageOf(err)})`);
  }
  return parseConfig(text, file);
}

export interface ModelFlags {
  model?: string | undefined;
  editorModel?: string | undefined;
  renderModel?: string | undefined;
  graderModel?: string | undefined;
  /** `--structured-output` (already checked by parseStructuredOutputFlag). */
  structuredOutput?: StructuredOutputSetting | undefined;
}

/** `--structured-output <mode>`: one of auto, json_schema, json_object, text (an Error naming the flag otherwise). */
export function parseStructuredOutputFlag(value: string): StructuredOutputSetting {
  const parsed = StructuredOutputSettingSchema.safeParse(value.trim());
  if (parsed.success) return parsed.data;
  throw new Error(
    `--structured-output: expected one of ${STRUCTURED_OUTPUT_SETTINGS.join(', ')}, got ${JSON.stringify(value)}`,
  );
}

/** The compatible servers' structured-output setting: the flag, else the config, else undefined (`auto`). */
export function structuredOutputSetting(
  flags: Pick<ModelFlags, 'structuredOutput'>,
  config: SkillclimbConfig,
): StructuredOutputSetting | undefined {
  if (flags.structuredOutput !== undefined) return flags.structuredOutput;
  const section = config.openaiCompatible;
  if (section?.structuredOutput !== undefined) return section.structuredOutput;
  if (section?.structuredOutputs !== undefined) return section.structuredOutputs ? 'json_schema' : 'text';
  return undefined;
}

export type ModelSource = 'flag' | 'config' | 'default';

export interface ResolvedModelSelection extends ModelSelection {
  editorModel: string;
  renderModel: string;
  graderModel: string;
  /** Where each role's id came from, for the run header ("grader=openai:gpt-5 (config)"). */
  sources: { editor: ModelSource; render: ModelSource; grader: ModelSource };
}

/**
 * Each role's model id: its own flag, else `--model`, else the config's role, else the config's
 * `models.default`, else the environment default (a key → its provider's default model, no key → offline).
 * The result is a complete ModelSelection for `createModels(selection, env, modelOptionsFromConfig(…))`.
 */
export function resolveModelSelection(input: {
  flags: ModelFlags;
  config: SkillclimbConfig;
  env: NodeJS.ProcessEnv;
}): ResolvedModelSelection {
  const { flags, config, env } = input;
  const fallback = defaultModelFor(env);
  const pick = (flag: string | undefined, configured: string | undefined): [string, ModelSource] => {
    if (flag !== undefined) return [flag, 'flag'];
    if (flags.model !== undefined) return [flags.model, 'flag'];
    if (configured !== undefined) return [configured, 'config'];
    if (config.models?.default !== undefined) return [config.models.default, 'config'];
    return [fallback, 'default'];
  };
  const [editorModel, editor] = pick(flags.editorModel, config.models?.editor);
  const [renderModel, render] = pick(flags.renderModel, config.models?.render);
  const [graderModel, grader] = pick(flags.graderModel, config.models?.grader);
  return { editorModel, renderModel, graderModel, sources: { editor, render, grader } };
}

/** The operator opted in to the config file's endpoints (SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1). */
export function trustsConfigEndpoints(env: NodeJS.ProcessEnv): boolean {
  return env[TRUST_CONFIG_ENDPOINTS_VAR]?.trim() === '1';
}

/** The warning for config endpoints that are ignored, or undefined when there are none or they are trusted. */
export function ignoredEndpointsWarning(
  config: SkillclimbConfig,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const fields = Object.entries(config.endpoints ?? {})
    .filter(([, url]) => url !== undefined)
    .map(([name]) => `endpoints.${name}`);
  if (fields.length === 0 || trustsConfigEndpoints(env)) return undefined;
  return (
    `${CONFIG_FILE}: ${fields.join(', ')} ignored: a repository file does not decide where API keys are sent ` +
    `(set ${BASE_URL_VARIABLES.join(' / ')}, or ${TRUST_CONFIG_ENDPOINTS_VAR}=1 to trust the file)`
  );
}

/**
 * The createModels options a config implies: prices (over SKILLCLIMB_PRICES), timeout, compatible-server
 * settings, and — only with SKILLCLIMB_TRUST_CONFIG_ENDPOINTS=1 — endpoints, ranked below the environment
 * variables. Untrusted endpoints are dropped with one warning through `warn`.
 */
export function modelOptionsFromConfig(
  config: SkillclimbConfig,
  env: NodeJS.ProcessEnv,
  warn?: (message: string) => void,
): ModelFactoryOptions {
  const ignored = ignoredEndpointsWarning(config, env);
  if (ignored !== undefined) warn?.(ignored);
  return {
    prices: { ...pricesFromEnv(env), ...config.prices },
    configEndpoints: ignored === undefined ? config.endpoints : undefined,
    structuredOutput: structuredOutputSetting({}, config),
    timeoutMs: config.timeoutSeconds === undefined ? undefined : config.timeoutSeconds * 1000,
  };
}
