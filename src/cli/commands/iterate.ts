/** `skillclimb iterate`: skill-iterate on a local checkout (or only its plan, with --dry-run). */
import { Command, Option } from 'commander';
import os from 'node:os';
import path from 'node:path';
import { createLocalPlanPorts, createLocalPorts } from '../../adapters/local/ports.js';
import type { ShipStep } from '../../adapters/local/shipper.js';
import { loadProjectModels } from '../../config/project-models.js';
import { applyConfigSettings, type ConfigurableSetting } from '../../config/run-settings.js';
import { parseDuration } from '../../core/duration.js';
import { redactValue, secretsFromEnv } from '../../core/text/redact.js';
import type { RunResult } from '../../core/iterate/run-result.js';
import type { ScoreMode } from '../../core/iterate/score-types.js';
import type { TypedNightFlags } from '../../core/iterate/skill-layout.js';
import { KEEP_RULES, type KeepRule } from '../../core/iterate/noise.js';
import { RunInterrupted } from '../../iterate/interrupt.js';
import {
  ITERATE_DEFAULTS,
  KILL_SWITCH_READ_ERROR_POLICIES,
  type IterateOptions,
  type KillSwitchReadErrorPolicy,
} from '../../iterate/options.js';
import { planIterate } from '../../iterate/plan.js';
import { dryRunPlanJson, formatDryRunPlan } from '../../iterate/queue.js';
import { partialRunOf } from '../../iterate/run-error.js';
import { runIterate } from '../../iterate/run.js';
import type { Logger } from '../../ports/logger.js';
import type { SkillModels } from '../../ports/models.js';
import type { StructuredOutputSetting } from '../../llm/structured-output.js';
import {
  durationArgument,
  gainArgument,
  marginArgument,
  trialsArgument,
  positiveIntegerArgument,
  positiveNumberArgument,
  skillsArgument,
  skipListArgument,
  STRUCTURED_OUTPUT_HELP,
  structuredOutputArgument,
} from '../arguments.js';
import type { CliIo } from '../io.js';
import { createCliLogger } from '../logger.js';
import { UsageError } from '../errors.js';
import { abortOnSignals, shouldHandleSignals } from '../signals.js';
import { messageOf } from '../../core/errors.js';

/** commander's parsed values (camel-cased flag names). */
export interface IterateFlags {
  project?: string;
  skill?: string;
  queue?: string;
  perSkillBudget: string;
  perSkillIterations: number;
  skipList?: string[];
  calibrate?: boolean;
  dryRun?: boolean;
  json?: boolean;
  quiet?: boolean;
  mode: ScoreMode;
  concurrency: number;
  model?: string;
  editorModel?: string;
  renderModel?: string;
  graderModel?: string;
  structuredOutput?: StructuredOutputSetting;
  maxCostUsd?: number;
  nightBudget?: number;
  worktreeHome?: string;
  killSwitchReadError?: KillSwitchReadErrorPolicy;
  skills?: string[];
  minGain?: number;
  trials?: number;
  margin?: number;
  keepRule?: KeepRule;
  ignoreFreshness?: boolean;
}

export function buildIterateOptions(flags: IterateFlags, cwd: string): IterateOptions {
  return {
    project: path.resolve(cwd, flags.project ?? '.'),
    skill: flags.skill,
    queueFile: flags.queue === undefined ? undefined : path.resolve(cwd, flags.queue),
    perSkillBudgetMs: parseDuration(flags.perSkillBudget),
    perSkillIterations: flags.perSkillIterations,
    skipList: flags.skipList ?? [],
    calibrate: flags.calibrate === true,
    dryRun: flags.dryRun === true,
    mode: flags.mode,
    concurrency: flags.concurrency,
    iterationTimeoutMs: ITERATE_DEFAULTS.iterationTimeoutMs,
    worktreeHome: path.resolve(cwd, flags.worktreeHome ?? os.homedir()),
    maxCostUsd: flags.maxCostUsd,
    nightBudgetUsd: flags.nightBudget,
    killSwitchReadError: flags.killSwitchReadError ?? 'stop',
    minGain: flags.minGain ?? ITERATE_DEFAULTS.minGain,
    trials: flags.trials ?? ITERATE_DEFAULTS.trials,
    margin: flags.margin ?? ITERATE_DEFAULTS.margin,
    keepRule: flags.keepRule ?? ITERATE_DEFAULTS.keepRule,
    skills: flags.skills,
    ignoreFreshness: flags.ignoreFreshness === true,
    // What the operator typed, carried into every command the plan and the summary print.
    command: {
      project: flags.project,
      skills: flags.skills,
      calibrate: flags.calibrate === true ? true : undefined,
      models: {
        model: flags.model,
        editorModel: flags.editorModel,
        renderModel: flags.renderModel,
        graderModel: flags.graderModel,
        structuredOutput: flags.structuredOutput,
      },
    },
  };
}

/** Whether the operator typed a flag (by commander's option name) rather than leaving it to its default. */
type FromCli = (flag: string) => boolean;

/** The text typed for each night setting whose parser turns it into a number, by option name. */
type TypedTexts = Map<keyof TypedNightFlags, string>;

/**
 * A flag's parser that also keeps the text it was given (trimmed, as the parser reads it), so a printed
 * command repeats `1.50` as `1.50`: a number printed back could read differently, or not parse at all
 * (`0.0000001` prints as `1e-7`, which the parsers refuse).
 */
function keepingText<T>(texts: TypedTexts, key: keyof TypedNightFlags, parse: (value: string) => T) {
  return (value: string): T => {
    const parsed = parse(value);
    texts.set(key, value.trim());
    return parsed;
  };
}

/**
 * The night settings the operator typed, as typed, for the commands the run prints (docs/cli.md § Printed
 * commands): a flag left to its default, or to skillclimb.config.json, is not repeated. Which flags and
 * why `--skip-list` is in and `--queue` is not: TypedNightFlags.
 */
function typedNightFlags(flags: IterateFlags, fromCli: FromCli, texts: TypedTexts): TypedNightFlags {
  const typed = (key: keyof TypedNightFlags, value: string | undefined) => (fromCli(key) ? value : undefined);
  const text = (key: keyof TypedNightFlags) => typed(key, texts.get(key));
  return {
    worktreeHome: typed('worktreeHome', flags.worktreeHome),
    perSkillBudget: typed('perSkillBudget', flags.perSkillBudget),
    perSkillIterations: text('perSkillIterations'),
    trials: text('trials'),
    margin: text('margin'),
    keepRule: typed('keepRule', flags.keepRule),
    minGain: text('minGain'),
    concurrency: text('concurrency'),
    maxCostUsd: text('maxCostUsd'),
    nightBudget: text('nightBudget'),
    killSwitchReadError: typed('killSwitchReadError', flags.killSwitchReadError),
    // Repeated --skip-list flags add up (skipListArgument): one flag with every name says the same.
    skipList: typed('skipList', flags.skipList?.join(',')),
  };
}

/** The run's options, with what the operator typed for the commands it prints. */
function iterateOptionsOf(
  io: CliIo,
  flags: IterateFlags,
  fromCli: FromCli,
  texts: TypedTexts,
): IterateOptions {
  const built = buildIterateOptions(flags, io.cwd);
  return {
    ...built,
    command: {
      ...built.command,
      program: io.program,
      mode: fromCli('mode') ? flags.mode : undefined,
      night: typedNightFlags(flags, fromCli, texts),
    },
  };
}

/**
 * What `iterate` does once its options are parsed: the run, or its plan with --dry-run. A test passes its
 * own to see the options a command line gives (a printed command pasted back gives the same night).
 */
export type IterateAction = (
  io: CliIo,
  flags: IterateFlags,
  options: IterateOptions,
  fromCli: FromCli,
) => Promise<void>;

const runOrPlan: IterateAction = async (io, flags, options, fromCli) => {
  const log = createCliLogger(io, { quiet: flags.quiet === true, json: flags.json === true });
  if (options.dryRun) await dryRun(io, flags, options, log, fromCli);
  else await realRun(io, flags, options, log, fromCli);
};

/**
 * The config, the role selection and the models, exactly as a run resolves them: a bad config file, a bad
 * model id or a missing key is a usage error (exit 2) before any work, for a real run and a dry run alike.
 * Building the models checks ids and keys only; no model is called.
 */
async function resolveRunModels(
  io: CliIo,
  flags: IterateFlags,
  cliOptions: IterateOptions,
  log: Logger,
  fromCli: (flag: ConfigurableSetting) => boolean,
): Promise<{ models: SkillModels; options: IterateOptions }> {
  const { models, config } = await loadProjectModels({
    project: cliOptions.project,
    flags,
    env: io.env,
    log,
    // `--concurrency` on the command line bounds the calls in flight to each endpoint too, not only those of
    // one scoring pass: a measurement's draws and the confirmation's sides are passes side by side, and an
    // endpoint that takes one call at a time gets one (docs/cli.md). Without the flag the endpoint's bound
    // stays the engine's own (src/llm/factory.ts MAX_CALLS_PER_ENDPOINT).
    maxCallsPerEndpoint: fromCli('concurrency') ? cliOptions.concurrency : undefined,
  }).catch((err: unknown) => {
    // A bad config file (ConfigError names file and field) or a missing key: nothing has started yet.
    throw new UsageError(messageOf(err));
  });
  // Settings the config file may give when the flag was not on the command line.
  const options = applyConfigSettings(cliOptions, config, fromCli);
  return { models, options: { ...options, structural: config.structural } };
}

async function dryRun(
  io: CliIo,
  flags: IterateFlags,
  cliOptions: IterateOptions,
  log: Logger,
  fromCli: (flag: ConfigurableSetting) => boolean,
): Promise<void> {
  // Validated like a real run, so a plan that prints is a plan that would start. The plan itself keeps the
  // original skill's byte-for-byte format (no models line): the models are what the real run's first line
  // names.
  const { options } = await resolveRunModels(io, flags, cliOptions, log, fromCli);
  const now = io.now?.() ?? new Date();
  const plan = await planIterate(options, createLocalPlanPorts(options.project, { log, now: () => now }));
  const labels = { budget: flags.perSkillBudget };
  io.out(
    flags.json
      ? `${JSON.stringify(dryRunPlanJson(plan, options, labels), null, 2)}\n`
      : formatDryRunPlan(plan, options, labels),
  );
}

async function realRun(
  io: CliIo,
  flags: IterateFlags,
  cliOptions: IterateOptions,
  log: Logger,
  fromCli: (flag: ConfigurableSetting) => boolean,
): Promise<void> {
  const { models, options } = await resolveRunModels(io, flags, cliOptions, log, fromCli);
  log.info(`models: ${models.label}`);
  // SIGINT/SIGTERM stop the run gracefully (partial summary, lock released, exit 128+signo); a second one
  // exits at once. A host that already listens for them keeps them; the lock file goes when the process exits.
  const handleSignals = shouldHandleSignals(undefined);
  const stop = new AbortController();
  const ports = createLocalPorts(options, {
    models,
    log,
    ...(io.now ? { now: io.now } : {}),
    // The keys in use redact results.tsv, the summary and park reports exactly (how-it-works § Untrusted
    // text and secrets): a provider error may echo a key that has no recognisable token shape.
    secrets: secretsFromEnv(io.env),
    shipper: { onStep: testPauseHook(io) },
  });
  const stopHandlingSignals = handleSignals ? abortOnSignals(stop, log) : () => undefined;
  let result: RunResult;
  try {
    result = await runIterate(options, { ...ports, signal: stop.signal });
  } catch (err) {
    // A stopped run still did work: --json prints what was done; the error then sets the exit code (128+signo).
    const partial = err instanceof RunInterrupted ? partialRunOf(err) : undefined;
    if (flags.json && partial) printRunJson(io, partial);
    throw err;
  } finally {
    stopHandlingSignals();
  }
  if (flags.json) printRunJson(io, result);
}

/** The variable naming the landing step the chaos tests stop a run at (see testPauseHook). */
export const TEST_PAUSE_VARIABLE = 'SKILLCLIMB_TEST_PAUSE_AT';
const TEST_PAUSE_MS = 10 * 60 * 1000;

/**
 * For the chaos tests only (docs/operations.md § What a crash leaves behind): with
 * SKILLCLIMB_TEST_PAUSE_AT=<step> the local ship stops at that step of its landing, says so on stderr and
 * waits, so a test can kill the process at a known moment instead of a random one.
 */
function testPauseHook(io: CliIo): ((step: ShipStep) => Promise<void>) | undefined {
  const at = io.env[TEST_PAUSE_VARIABLE]?.trim();
  if (!at) return undefined;
  return async (step) => {
    if (step !== at) return;
    io.err(`${TEST_PAUSE_VARIABLE}: paused at ${step} (pid ${process.pid})\n`);
    await new Promise((resolve) => setTimeout(resolve, TEST_PAUSE_MS));
  };
}

function printRunJson(io: CliIo, run: RunResult): void {
  // It quotes the same crash reasons as results.tsv: the same pass with the secrets in use.
  // (Dates become their JSON strings first: redactValue walks plain data.)
  const plain: unknown = JSON.parse(JSON.stringify(run));
  io.out(`${JSON.stringify(redactValue(plain, secretsFromEnv(io.env)), null, 2)}\n`);
}

export function iterateCommand(io: CliIo, action: IterateAction = runOrPlan): Command {
  const texts: TypedTexts = new Map();
  return new Command('iterate')
    .description(
      'Hill-climb every scorable skill (each <skill>/SKILL.md the skills setting finds) against its evals, one worktree per skill',
    )
    .option('--project <path>', 'project whose skills to iterate (default: current directory)')
    .option(
      '--skills <globs>',
      'comma-separated globs of skill folders, relative to the project (default: .claude/skills/*,.github/skills/review-loop-reviewer)',
      skillsArgument,
    )
    .addOption(new Option('--skill <name>', 'iterate only this skill').conflicts('queue'))
    .option('--queue <file>', 'file with one skill name per line (# comments allowed); replaces discovery')
    .option(
      '--per-skill-budget <dur>',
      'wall-clock cap per skill: 1h, 30m, 90s, 1h30m',
      durationArgument,
      ITERATE_DEFAULTS.perSkillBudget,
    )
    .option(
      '--per-skill-iterations <n>',
      'iteration cap per skill',
      keepingText(texts, 'perSkillIterations', positiveIntegerArgument),
      ITERATE_DEFAULTS.perSkillIterations,
    )
    .option(
      '--skip-list <names>',
      'comma-separated skills to exclude beyond the embedded skip-list',
      skipListArgument,
    )
    .option('--calibrate', 'run adversarial-mutation calibration before iterating each skill')
    .option('--dry-run', 'print the resolved queue, worktrees and budget, then exit (takes no lock)')
    .option('--json', 'print the plan (with --dry-run) or the run result as JSON on stdout')
    .option('--quiet', 'do not print per-iteration progress')
    .addOption(
      new Option('--mode <mode>', 'scoring mode')
        .choices(['composite', 'structural', 'absolute'])
        .default(ITERATE_DEFAULTS.mode),
    )
    .option(
      '--concurrency <n>',
      'concurrent renders/grades per scoring pass',
      keepingText(texts, 'concurrency', positiveIntegerArgument),
      ITERATE_DEFAULTS.concurrency,
    )
    .option('--model <id>', 'provider:model for every role (editor, render, grader)')
    .option('--editor-model <id>', 'provider:model that proposes edits')
    .option('--render-model <id>', 'provider:model that runs the skill on each scenario')
    .option('--grader-model <id>', 'provider:model that grades the renders')
    .option('--structured-output <mode>', STRUCTURED_OUTPUT_HELP, structuredOutputArgument)
    .option(
      '--max-cost-usd <n>',
      'stop between iterations once the estimated cost reaches this',
      keepingText(texts, 'maxCostUsd', positiveNumberArgument),
    )
    .option(
      '--night-budget <usd>',
      'start no new skill once the night has spent this (estimated USD); the skills not started run first next night',
      keepingText(texts, 'nightBudget', positiveNumberArgument),
    )
    .option('--worktree-home <dir>', 'parent folder of the per-skill worktrees (default: home directory)')
    .addOption(
      new Option(
        '--kill-switch-read-error <policy>',
        'a kill-switch that cannot be read: stop the run (default) or continue with a warning',
      ).choices(KILL_SWITCH_READ_ERROR_POLICIES),
    )
    .option(
      '--ignore-freshness',
      'queue skills that ran within the last 24 hours too (a structural run before the first composite night needs no flag)',
    )
    .option(
      '--min-gain <n>',
      `smallest composite gain that ships (default ${ITERATE_DEFAULTS.minGain}; 0: any gain)`,
      keepingText(texts, 'minGain', gainArgument),
    )
    .option(
      '--trials <n>',
      `independent draws (fresh render and grade) of the baseline, a promising edit and each confirmed text (default ${ITERATE_DEFAULTS.trials}; 1: one draw, as the original)`,
      keepingText(texts, 'trials', trialsArgument),
    )
    .option(
      '--margin <n>',
      `standard errors of the measured noise a gain must clear to ship (half of it to keep) (default ${ITERATE_DEFAULTS.margin})`,
      keepingText(texts, 'margin', marginArgument),
    )
    .addOption(
      new Option(
        '--keep-rule <rule>',
        'noise-aware (default: re-measured gains must clear the margin, the ship gate confirms) or original (any gain keeps)',
      ).choices(KEEP_RULES),
    )
    .action(async (flags: IterateFlags, command: Command) => {
      const fromCli: FromCli = (flag) => command.getOptionValueSource(flag) === 'cli';
      await action(io, flags, iterateOptionsOf(io, flags, fromCli, texts), fromCli);
      io.exitCode = 0;
    });
}
