/**
 * The App's configuration (docs/how-it-works.md § The App): the repository's `.github/review-loop.yml`,
 * read through Probot's `context.config` from the DEFAULT branch (a pull request cannot change its own
 * review rules; `_extends` pulls organisation defaults), validated with zod, over the App's environment.
 * The environment sets the ceilings: a repository may lower a budget, never raise what the App's owner
 * pays for.
 */
import { z } from 'zod';
import { inlineCode } from '../core/iterate/park.js';
import { parseModelId } from '../llm/model-id.js';
import { DEFAULT_ALLOWED_ROLES } from './validation/permission.js';
import { DEFAULT_MAX_ROUNDS, DIFFICULTIES, FIX_MODES, PRESETS } from '../core/review/state.js';
import { REVIEW_EVENT_MODES } from '../github/review/loop-state.js';
import type { LoopSettings } from '../github/review/loop-state.js';
import { MAX_ROUNDS_LIMIT } from './validation/command.js';
import type { StartOptions } from './validation/command.js';
import { SkillclimbError, messageOf } from '../core/errors.js';

export const CONFIG_FILE = 'review-loop.yml';
export const CONFIG_PATH = `.github/${CONFIG_FILE}`;

const modelId = z.string().superRefine((value, ctx) => {
  try {
    parseModelId(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: messageOf(error) });
  }
});

/** Every field of `.github/review-loop.yml`; all optional. docs/app.md lists them with their defaults. */
export const RepoConfigSchema = z.strictObject({
  reviewer_model: modelId.optional(),
  executor_model: modelId.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  rounds: z.number().int().min(1).max(MAX_ROUNDS_LIMIT).optional(),
  fix: z.enum(FIX_MODES).optional(),
  checkpoint: z.boolean().optional(),
  preset: z.enum(PRESETS).optional(),
  /**
   * How each round's PR review is filed: `comment` (every review a comment) or `approve` (a passing round
   * an approval, one asking for changes "changes requested"). Written in any case; GitHub's `COMMENT` reads
   * as `comment`.
   */
  review_event: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.toLowerCase() : value),
      z.enum(REVIEW_EVENT_MODES),
    )
    .optional(),
  /** Who may run commands: minimum built-in roles (read, triage, write, maintain, admin) or custom roles by name; admins always (validation/permission.ts). */
  allowed_roles: z.array(z.string().min(1)).min(1).optional(),
  /**
   * The folder of the reviewer's skill (a SKILL.md, and its evals), read from the default branch only
   * (docs/how-it-works.md § The reviewer learns); the built-in instructions when it has no SKILL.md.
   */
  reviewer_skill: z.string().min(1).optional(),
  /**
   * Whether a closed pull request's dismissed and fixed findings become evals of the reviewer skill, in
   * one pull request for a maintainer to merge (src/app/learn-from-feedback.ts); on unless `false`.
   */
  learn_from_feedback: z.boolean().optional(),
  /** Globs an auto fix may touch beyond the files the PR changes; `.github/workflows/` is refused whatever they say. */
  fix_paths: z.array(z.string().min(1)).optional(),
  budget: z
    .strictObject({
      max_rounds: z.number().int().min(1).max(MAX_ROUNDS_LIMIT).optional(),
      max_tokens: z.number().int().positive().optional(),
      max_cost_usd: z.number().positive().optional(),
    })
    .optional(),
});
export type RepoConfig = z.infer<typeof RepoConfigSchema>;

/** The App's own settings, from its environment. */
export interface AppEnvSettings {
  reviewerModel: string | undefined;
  executorModel: string | undefined;
  /** Loops that may run at once across every installation. */
  concurrency: number;
  /** Ceilings per loop. */
  maxRounds: number;
  maxTokens: number;
  maxCostUsd: number;
}

export const ENV_DEFAULTS = {
  concurrency: 2,
  maxRounds: 10,
  maxTokens: 2_000_000,
  maxCostUsd: 5,
} as const;

export class EnvConfigError extends SkillclimbError {
  readonly kind = 'config';
  constructor(variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = 'EnvConfigError';
  }
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, integer: boolean): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new EnvConfigError(
      name,
      `expected a positive ${integer ? 'whole ' : ''}number, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function optionalModel(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  try {
    return parseModelId(raw).id;
  } catch (error) {
    throw new EnvConfigError(name, messageOf(error));
  }
}

/** Reads the App's environment once at start-up; a bad value stops the start with the variable's name. */
export function readAppEnv(env: NodeJS.ProcessEnv): AppEnvSettings {
  return {
    reviewerModel: optionalModel(env, 'REVIEW_LOOP_REVIEWER_MODEL'),
    executorModel: optionalModel(env, 'REVIEW_LOOP_EXECUTOR_MODEL'),
    concurrency: positiveNumber(env, 'REVIEW_LOOP_CONCURRENCY', ENV_DEFAULTS.concurrency, true),
    maxRounds: Math.min(
      MAX_ROUNDS_LIMIT,
      positiveNumber(env, 'REVIEW_LOOP_MAX_ROUNDS', ENV_DEFAULTS.maxRounds, true),
    ),
    maxTokens: positiveNumber(env, 'REVIEW_LOOP_MAX_TOKENS', ENV_DEFAULTS.maxTokens, true),
    maxCostUsd: positiveNumber(env, 'REVIEW_LOOP_MAX_COST_USD', ENV_DEFAULTS.maxCostUsd, false),
  };
}

/** The settings a repository's file gives, before a command's options (and before the fork rule). */
export function settingsFrom(config: RepoConfig, env: AppEnvSettings): LoopSettings {
  const ceiling = Math.min(env.maxRounds, config.budget?.max_rounds ?? env.maxRounds);
  return {
    reviewerModel: config.reviewer_model ?? env.reviewerModel,
    executorModel: config.executor_model ?? env.executorModel,
    difficulty: config.difficulty ?? 'medium',
    rounds: Math.min(config.rounds ?? DEFAULT_MAX_ROUNDS, ceiling),
    fix: config.fix ?? 'auto',
    checkpoint: config.checkpoint ?? false,
    preset: config.preset ?? 'code',
    reviewEvent: config.review_event ?? 'comment',
    allowedRoles: config.allowed_roles ?? [...DEFAULT_ALLOWED_ROLES],
    fixPaths: config.fix_paths ?? [],
    // Only when named: without it the runner reads the default folder (core/reviewer-skill.ts).
    ...(config.reviewer_skill === undefined ? {} : { reviewerSkill: config.reviewer_skill }),
    budget: {
      maxTokens: Math.min(env.maxTokens, config.budget?.max_tokens ?? env.maxTokens),
      maxCostUsd: Math.min(env.maxCostUsd, config.budget?.max_cost_usd ?? env.maxCostUsd),
    },
  };
}

export type ApplyOptionsResult =
  { ok: true; settings: LoopSettings; notes: string[] } | { ok: false; problem: string };

/**
 * A start command's options over the settings. Fork PRs are always `manual` (the App never pushes to a
 * fork); asking for more rounds than the budget allows is refused rather than silently cut.
 */
export function applyStartOptions(
  base: LoopSettings,
  options: StartOptions,
  context: { isFork: boolean; maxRounds: number },
): ApplyOptionsResult {
  if (options.rounds !== undefined && options.rounds > context.maxRounds) {
    return {
      ok: false,
      problem: `\`rounds: ${options.rounds}\` is over this repository's budget of ${context.maxRounds} (\`rounds:\` takes ${context.maxRounds === 1 ? '1' : `1 to ${context.maxRounds}`} here)`,
    };
  }
  const notes: string[] = [];
  const settings: LoopSettings = {
    ...base,
    ...(options.difficulty ? { difficulty: options.difficulty } : {}),
    ...(options.rounds ? { rounds: options.rounds } : {}),
    ...(options.fix ? { fix: options.fix } : {}),
    ...(options.checkpoint !== undefined ? { checkpoint: options.checkpoint } : {}),
    ...(options.preset ? { preset: options.preset } : {}),
  };
  if (settings.fix === 'none') {
    // One review and no fix: a second round would review the same head again, so none is run or announced.
    if (options.rounds !== undefined && options.rounds > 1) {
      notes.push(`With fix: none the loop reviews once, so rounds: ${options.rounds} does not apply.`);
    }
    settings.rounds = 1;
  }
  if (context.isFork && settings.fix === 'auto') {
    settings.fix = 'manual';
    notes.push('This pull request comes from a fork, so fixes are manual: the App never pushes to a fork.');
  }
  return { ok: true, settings, notes };
}

/** The round ceiling a repository's file and the App's environment allow. */
export function maxRoundsFor(config: RepoConfig, env: AppEnvSettings): number {
  return Math.min(env.maxRounds, config.budget?.max_rounds ?? env.maxRounds);
}

export type ConfigResult =
  | { ok: true; config: RepoConfig }
  /** `problems`: one plain sentence per problem, each naming its field; `problem`: all of them, for a reply. */
  | { ok: false; problem: string; problems: string[] };

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

const WHOLE_ROUNDS = `a whole number from 1 to ${MAX_ROUNDS_LIMIT}`;

/** What each field takes, in the words a reply uses (docs/app.md § Configuration lists the same). */
const FIELD_RULES: Record<string, string> = {
  reviewer_model: 'a model id such as `openai:gpt-5`',
  executor_model: 'a model id such as `anthropic:claude-sonnet-4-5`',
  difficulty: `one of ${DIFFICULTIES.join(', ')}`,
  rounds: WHOLE_ROUNDS,
  fix: `one of ${FIX_MODES.join(', ')}`,
  checkpoint: '`true` or `false`',
  preset: `one of ${PRESETS.join(', ')}`,
  review_event:
    '`comment` or `approve` (the former `REQUEST_CHANGES` is `approve`: a passing round approves, one asking for changes requests them)',
  allowed_roles: 'a non-empty list of repository roles, e.g. `[admin, maintain, write]`',
  reviewer_skill: 'a folder path in the repository, e.g. `.github/skills/review-loop-reviewer`',
  learn_from_feedback: '`true` or `false`',
  fix_paths: 'a list of globs, e.g. `["docs/**"]`',
  budget: 'a map with `max_rounds`, `max_tokens` and `max_cost_usd`',
  'budget.max_rounds': WHOLE_ROUNDS,
  'budget.max_tokens': 'a whole number above 0',
  'budget.max_cost_usd': 'a number of US dollars above 0',
};

const TOP_FIELDS = Object.keys(RepoConfigSchema.shape);

/** One zod issue as a plain sentence naming the field: what it must be, and what it is. */
function sentenceOf(raw: unknown, issue: z.core.$ZodIssue): string {
  const named = issue.path.filter((part): part is string => typeof part === 'string');
  const field = named.join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = field === '' ? 'this file' : `\`${field}\``;
    const known =
      field === '' ? TOP_FIELDS : Object.keys(FIELD_RULES).filter((k) => k.startsWith(`${field}.`));
    const names = issue.keys.map((key) => inlineCode(field === '' ? key : `${field}.${key}`)).join(', ');
    const fields = known.map((k) => `\`${k.split('.').at(-1) ?? k}\``).join(', ');
    return `${names} ${issue.keys.length === 1 ? 'is not a field' : 'are not fields'} of ${where} (the fields are ${fields})`;
  }
  if (field === '') return 'the file must be a map of fields (`field: value` lines)';
  const got = inlineCode(describeValue(valueAt(raw, issue.path)));
  const entry = issue.path.length > named.length ? ` (entry ${Number(issue.path.at(-1)) + 1})` : '';
  if (issue.code === 'custom') return `\`${field}\`${entry}: ${issue.message}`;
  const rule = FIELD_RULES[field] ?? 'a different value';
  const what = entry
    ? `each entry of \`${field}\` must be text that is not empty`
    : `\`${field}\` must be ${rule}`;
  return `${what}; it is ${got}${entry}`;
}

/**
 * Validates what `context.config` returned (null when the repository has no file). Every problem is
 * reported at once, each in a sentence that names its field, so one reply says everything to change.
 */
export function validateRepoConfig(raw: unknown): ConfigResult {
  if (raw === null || raw === undefined) return { ok: true, config: {} };
  const parsed = RepoConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const problems = [...new Set(parsed.error.issues.map((issue) => sentenceOf(raw, issue)))];
  return configProblems(problems);
}

/** The failed result for `problems`: one sentence, or a list when there are several. */
export function configProblems(problems: string[]): ConfigResult {
  const problem =
    problems.length === 1
      ? `\`${CONFIG_PATH}\`: ${problems[0]}.`
      : [`\`${CONFIG_PATH}\` has ${problems.length} problems:`, '', ...problems.map((p) => `- ${p}.`)].join(
          '\n',
        );
  return { ok: false, problem, problems };
}

/** Where the App keeps its shared state (docs/app.md § Settings): one process, or replicas on one Redis. */
export interface ScaleSettings {
  /** `REDIS_URL`: unset, one process keeps everything in memory (and the running loops in `dataDir`). */
  redisUrl: string | undefined;
  /** `DATA_DIR` (default `.review-loop-data` in the working folder); used without Redis only. */
  dataDir: string | undefined;
  /** `CLAIM_TTL_MS`: how long a dead replica's loops stay claimed before another takes them over. */
  claimTtlMs: number;
}

export const DEFAULT_DATA_DIR = '.review-loop-data';
export const DEFAULT_CLAIM_TTL_MS = 30_000;

export function readScaleEnv(env: NodeJS.ProcessEnv, resolvePath: (path: string) => string): ScaleSettings {
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl) {
    let protocol: string;
    try {
      protocol = new URL(redisUrl).protocol;
    } catch {
      throw new EnvConfigError('REDIS_URL', 'is not a URL; expected redis://[user:password@]host:port[/db]');
    }
    if (protocol !== 'redis:' && protocol !== 'rediss:') {
      throw new EnvConfigError('REDIS_URL', `expected a redis:// or rediss:// URL, got a ${protocol} one`);
    }
  }
  const claimTtlMs = positiveNumber(env, 'CLAIM_TTL_MS', DEFAULT_CLAIM_TTL_MS, true);
  if (claimTtlMs < 1_000) {
    throw new EnvConfigError('CLAIM_TTL_MS', `expected at least 1000 (one second), got ${claimTtlMs}`);
  }
  return {
    redisUrl,
    dataDir: redisUrl ? undefined : resolvePath(env.DATA_DIR?.trim() || DEFAULT_DATA_DIR),
    claimTtlMs,
  };
}
