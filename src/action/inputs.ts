/**
 * The Action's inputs: ONE zod schema keyed by the names in action.yml, the single source of the inputs,
 * their defaults and their error messages (`input per-skill-iterations: expected a positive integer, …`).
 */
import { KEEP_RULES, type KeepRule } from '../core/iterate/noise.js';
import { z } from 'zod';
import { DurationError, parseDuration } from '../core/duration.js';
import { isKillSwitchValue } from '../github/action/kill-switch.js';
import { DEFAULT_STATE_BRANCH } from '../github/action/state-files.js';
import { skillsGlobProblem } from '../core/iterate/skill-layout.js';
import {
  ITERATE_DEFAULTS,
  KILL_SWITCH_READ_ERROR_POLICIES,
  type KillSwitchReadErrorPolicy,
} from '../iterate/options.js';
import { SkillclimbError } from '../core/errors.js';
import { FAIL_ON, type FailOn } from '../core/iterate/pr-score.js';
import { PROVIDER_INPUTS, type ProviderInputName } from '../core/providers.js';

/**
 * A skill that ran less than this many hours ago is left out of the queue. 20, not the CLI's 24: the last
 * run is recorded when a skill finishes, so a daily schedule reaches every skill again the next night,
 * while a second dispatch the same day skips what already ran.
 */
export const DEFAULT_FRESHNESS_HOURS = 20;

export const MODES = ['run', 'plan', 'summarize', 'evals-init', 'score'] as const;
export type ActionMode = (typeof MODES)[number];

const text = z.string().transform((v) => v.trim());
const optionalText = text.transform((v) => (v === '' ? undefined : v));

const TRUE = ['true', 'True', 'TRUE'];
const FALSE = ['false', 'False', 'FALSE'];
/** A true/false input; `empty` is what an input the workflow never names (an empty string) means. */
const booleanOr = (empty: boolean) =>
  text.transform((v, ctx) => {
    if (v === '') return empty;
    if (TRUE.includes(v)) return true;
    if (FALSE.includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `expected true or false, got ${JSON.stringify(v)}` });
    return z.NEVER;
  });
const boolean = booleanOr(false);

/** `1h`, `30m`, `90s`, `1h30m` → milliseconds (the CLI's `--per-skill-budget` format), else undefined. */
export function durationMs(value: string): number | undefined {
  try {
    return parseDuration(value);
  } catch (err) {
    if (err instanceof DurationError) return undefined;
    throw err;
  }
}

const duration = text.transform((v, ctx) => {
  const ms = durationMs(v || ITERATE_DEFAULTS.perSkillBudget);
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a duration like 1h, 30m, 90s or 1h30m, got ${JSON.stringify(v)}`,
    });
    return z.NEVER;
  }
  return ms;
});

const positiveInt = (fallback: number) =>
  text.transform((v, ctx) => {
    if (v === '') return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1) {
      ctx.addIssue({ code: 'custom', message: `expected a positive integer, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return Number(v);
  });

const optionalUsd = text.transform((v, ctx) => {
  if (v === '') return undefined;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a positive number of US dollars, got ${JSON.stringify(v)}`,
    });
    return z.NEVER;
  }
  return n;
});

/** `freshness-hours`: a positive number of hours, default 20. */
const hours = (fallback: number) =>
  text.transform((v, ctx) => {
    if (v === '') return fallback;
    const n = Number(v);
    if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a positive number of hours, got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return n;
  });

/** Workflow event names (`pull_request_target`, `push`, …). */
const eventList = text.transform((v, ctx) => {
  const names = v
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.find((name) => !/^[a-z_]+$/.test(name));
  if (bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `expected comma-separated workflow event names such as pull_request_target, got ${JSON.stringify(bad)}`,
    });
    return z.NEVER;
  }
  return names;
});

const list = text.transform((v) =>
  v
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean),
);

/** `skills`: globs of skill folders relative to the project, comma- or newline-separated; empty: the config's. */
const skillsGlobs = list.transform((globs, ctx) => {
  for (const glob of globs) {
    const problem = skillsGlobProblem(glob);
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
  }
  return globs.length > 0 ? globs : undefined;
});

/** `min-gain`: a composite gain from 0 to 1; empty: the config's, else 0.005. */
const optionalGain = text.transform((v, ctx) => {
  if (v === '') return undefined;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(v) || !(n >= 0 && n <= 1)) {
    ctx.addIssue({ code: 'custom', message: `expected a number from 0 to 1, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return n;
});

/** `trials`: independent draws per measurement, 1 to 10; empty: the config's, else 3. */
const optionalTrials = text.transform((v, ctx) => {
  if (v === '') return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 10) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a whole number from 1 to 10, got ${JSON.stringify(v)}`,
    });
    return z.NEVER;
  }
  return Number(v);
});

/** `margin`: standard errors a gain must clear, 0 to 10; empty: the config's, else 1. */
const optionalMargin = text.transform((v, ctx) => {
  if (v === '') return undefined;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(v) || !(n >= 0 && n <= 10)) {
    ctx.addIssue({ code: 'custom', message: `expected a number from 0 to 10, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return n;
});

/** `keep-rule`: `noise-aware` or `original`; empty: the config's, else noise-aware. */
const optionalKeepRule = text.transform((v, ctx) => {
  if (v === '') return undefined;
  if ((KEEP_RULES as readonly string[]).includes(v)) return v as KeepRule;
  ctx.addIssue({
    code: 'custom',
    message: `expected one of ${KEEP_RULES.join(', ')}, got ${JSON.stringify(v)}`,
  });
  return z.NEVER;
});

const skillName = optionalText.refine((v) => v === undefined || /^[A-Za-z0-9._-]+$/.test(v), {
  message: 'expected a skill folder name (letters, digits, ".", "_", "-")',
});

const mode = text.transform((v, ctx) => {
  const value = v || 'run';
  if ((MODES as readonly string[]).includes(value)) return value as ActionMode;
  ctx.addIssue({ code: 'custom', message: `expected one of ${MODES.join(', ')}, got ${JSON.stringify(v)}` });
  return z.NEVER;
});

const branchName = (fallback: string | undefined) =>
  text
    .refine((v) => v === '' || (!/[\s~^:?*[\\]|\.\.|@\{/.test(v) && !v.startsWith('-')), {
      message: 'expected a git branch name',
    })
    .transform((v) => v || fallback);

/**
 * `kill-switch`: `${{ vars.SKILL_ITERATE_KILLSWITCH }}`, read once at job start. `1`, `true`, `yes` (or
 * `on`) stop the run; empty, `0`, `false`, `no`, `off` let it run; anything else is a typo that must not
 * silently mean "run".
 */
const killSwitch = text.transform((v, ctx) => {
  if (isKillSwitchValue(v)) return v;
  if (/^(0|false|no|off)?$/i.test(v)) return undefined;
  ctx.addIssue({
    code: 'custom',
    message: `expected 1, true or yes to stop the run, or empty, 0, false or no to let it run, got ${JSON.stringify(v)}`,
  });
  return z.NEVER;
});

/** `kill-switch-read-error`: `stop` (default) or `continue`. */
const killSwitchReadError = text.transform((v, ctx) => {
  const value = v || 'stop';
  if ((KILL_SWITCH_READ_ERROR_POLICIES as readonly string[]).includes(value)) {
    return value as KillSwitchReadErrorPolicy;
  }
  ctx.addIssue({ code: 'custom', message: `expected stop or continue, got ${JSON.stringify(v)}` });
  return z.NEVER;
});

/** `fail-on` (`mode: score`): `regression` (default) or `never`. */
const failOn = text.transform((v, ctx) => {
  const value = v || 'regression';
  if ((FAIL_ON as readonly string[]).includes(value)) return value as FailOn;
  ctx.addIssue({ code: 'custom', message: `expected ${FAIL_ON.join(' or ')}, got ${JSON.stringify(v)}` });
  return z.NEVER;
});

/** Each provider's key and base-URL inputs (`anthropic-api-key`, …), from src/core/providers.ts. */
const providerInputs = Object.fromEntries(
  PROVIDER_INPUTS.map(({ input }) => [input, optionalText]),
) as Record<ProviderInputName, typeof optionalText>;

/** Keys are the input names of action.yml; values read as `core.getInput(name)` (always a string). */
export const ActionInputsSchema = z.object({
  'github-token': text,
  ...providerInputs,
  model: optionalText,
  'editor-model': optionalText,
  'render-model': optionalText,
  'grader-model': optionalText,
  project: text.transform((v) => v || '.'),
  skill: skillName,
  skills: skillsGlobs,
  queue: optionalText,
  'per-skill-budget': duration,
  'per-skill-iterations': positiveInt(ITERATE_DEFAULTS.perSkillIterations),
  'skip-list': list,
  calibrate: boolean,
  'dry-run': boolean,
  'max-cost-usd': optionalUsd,
  'night-budget': optionalUsd,
  'min-gain': optionalGain,
  trials: optionalTrials,
  margin: optionalMargin,
  'keep-rule': optionalKeepRule,
  base: branchName(undefined),
  labels: list,
  draft: boolean,
  mode,
  'state-branch': branchName(DEFAULT_STATE_BRANCH),
  'results-dir': optionalText,
  'kill-switch': killSwitch,
  'kill-switch-read-error': killSwitchReadError,
  'freshness-hours': hours(DEFAULT_FRESHNESS_HOURS),
  'allow-events': eventList,
  'fail-on': failOn,
  // Default on: an empty input (a workflow that never names it) means true.
  dashboard: booleanOr(true),
});

export type ActionInputName = keyof typeof ActionInputsSchema.shape;
export const INPUT_NAMES = Object.keys(ActionInputsSchema.shape) as ActionInputName[];

export interface ActionInputs {
  githubToken: string;
  /** The provider variables the given provider inputs set: `{ ANTHROPIC_API_KEY: <anthropic-api-key> }`. */
  providerVariables: Readonly<Record<string, string>>;
  model: string | undefined;
  editorModel: string | undefined;
  renderModel: string | undefined;
  graderModel: string | undefined;
  project: string;
  skill: string | undefined;
  /** The skills setting (globs); undefined: the config's, else DEFAULT_SKILLS_GLOBS. */
  skills: string[] | undefined;
  queue: string | undefined;
  perSkillBudgetMs: number;
  perSkillIterations: number;
  skipList: string[];
  calibrate: boolean;
  dryRun: boolean;
  maxCostUsd: number | undefined;
  /** `night-budget`: no new skill starts once the night has spent this (one job's queue only). */
  nightBudgetUsd: number | undefined;
  /** Undefined: the config's `minGain`, else the default 0.005. */
  minGain: number | undefined;
  /** Undefined: the config's `trials`, else 3. */
  trials: number | undefined;
  /** Undefined: the config's `margin`, else 1. */
  margin: number | undefined;
  /** Undefined: the config's `keepRule`, else noise-aware. */
  keepRule: KeepRule | undefined;
  /** Undefined: the repository's default branch. */
  base: string | undefined;
  labels: string[];
  draft: boolean;
  mode: ActionMode;
  stateBranch: string;
  resultsDir: string | undefined;
  /** The `kill-switch` value that stops the run (e.g. `1`); undefined when the run may go. */
  killSwitch: string | undefined;
  /** What a kill-switch that cannot be read means: stop (default) or continue. */
  killSwitchReadError: KillSwitchReadErrorPolicy;
  /** The cross-night freshness window: skills that ran within it are left out of the queue. */
  freshnessWindowMs: number;
  /** Workflow events allowed besides schedule and workflow_dispatch (see `eventRefusal`). */
  allowEvents: string[];
  /** `mode: score`: what fails the check — a regression beyond the noise margin, or never. */
  failOn: FailOn;
  /** Read the dashboard issue's orders and rewrite it at the end of the night (default true). */
  dashboard: boolean;
}

export class InputError extends SkillclimbError {
  readonly kind = 'usage';
  override name = 'InputError';
}

/** Reads every input of the schema through `read` (core.getInput) and validates them all at once. */
export function parseInputs(read: (name: ActionInputName) => string): ActionInputs {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, read(name) ?? '']));
  const parsed = ActionInputsSchema.safeParse(raw);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => `input ${String(issue.path[0])}: ${issue.message}`);
    throw new InputError(messages.join('\n'));
  }
  const v = parsed.data;
  const inputs: ActionInputs = {
    githubToken: v['github-token'],
    providerVariables: Object.fromEntries(
      PROVIDER_INPUTS.flatMap(({ input, variable }) => {
        const value = v[input];
        return value ? [[variable, value]] : [];
      }),
    ),
    model: v.model,
    editorModel: v['editor-model'],
    renderModel: v['render-model'],
    graderModel: v['grader-model'],
    project: v.project,
    skill: v.skill,
    skills: v.skills,
    queue: v.queue,
    perSkillBudgetMs: v['per-skill-budget'],
    perSkillIterations: v['per-skill-iterations'],
    skipList: v['skip-list'],
    calibrate: v.calibrate,
    dryRun: v['dry-run'],
    maxCostUsd: v['max-cost-usd'],
    nightBudgetUsd: v['night-budget'],
    minGain: v['min-gain'],
    trials: v.trials,
    margin: v.margin,
    keepRule: v['keep-rule'],
    base: v.base,
    labels: v.labels,
    draft: v.draft,
    mode: v.mode,
    stateBranch: v['state-branch'] ?? DEFAULT_STATE_BRANCH,
    resultsDir: v['results-dir'],
    killSwitch: v['kill-switch'],
    killSwitchReadError: v['kill-switch-read-error'],
    freshnessWindowMs: v['freshness-hours'] * 60 * 60 * 1000,
    allowEvents: v['allow-events'],
    failOn: v['fail-on'],
    dashboard: v.dashboard,
  };
  if (inputs.skill && inputs.queue)
    throw new InputError('inputs skill and queue: give one or the other, not both');
  checkNightBudget(inputs);
  if (inputs.mode === 'summarize' && !inputs.resultsDir) {
    throw new InputError(
      'input results-dir: required when mode is summarize (the folder of downloaded result files)',
    );
  }
  return inputs;
}

/**
 * `night-budget` holds back the skills of one job's queue (docs/action.md § Night budget). A matrix splits
 * the night into parallel jobs of one skill each, none of which knows what the others spent: a budget there
 * would stop nothing, so it is refused rather than ignored.
 */
function checkNightBudget(inputs: ActionInputs): void {
  if (inputs.nightBudgetUsd === undefined) return;
  const why =
    inputs.mode === 'plan'
      ? 'mode plan splits the night into parallel matrix jobs, none of which knows what the others spent'
      : inputs.skill !== undefined
        ? 'a job given one skill (a matrix job) has no other skill to hold back'
        : undefined;
  if (why) {
    throw new InputError(
      `input night-budget: applies to a whole night run in one job (mode run without skill); ${why}. ` +
        'Cap each job with max-cost-usd instead, or run the night in one job.',
    );
  }
}

/** The provider variables `createModels` reads, with the inputs taking precedence over the environment. */
export function modelEnv(inputs: ActionInputs, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...inputs.providerVariables };
}
