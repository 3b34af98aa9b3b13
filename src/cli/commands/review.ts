/**
 * `skillclimb review [paths…]`: the auto-review loop on the local checkout (docs/how-it-works.md § Review
 * rounds). Everything that can be wrong before a model is called — flags, config, keys, models, the base,
 * a dirty tree — is a usage error (exit 2). Then the engine runs; the exit code says how it ended: 0 only
 * when this run acquitted, 1 when it ended or paused without acquittal, 130 (128+signal) when interrupted
 * with its state saved.
 */
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLocalReviewStore } from '../../adapters/local/review-store.js';
import { reviewerInstructionsAt } from '../../adapters/local/reviewer-skill.js';
import { instructionsSentence } from '../../core/review/reviewer-instructions.js';
import {
  createLocalReviewTarget,
  currentBranch,
  dirtyFiles,
  resolveBaseRef,
} from '../../adapters/local/review-target.js';
import { loadProjectModelConfig } from '../../config/project-models.js';
import { resolveReviewModels } from '../../config/review-selection.js';
import {
  decideStart,
  DEFAULT_MAX_ROUNDS,
  DIFFICULTIES,
  FIX_MODES,
  PRESETS,
  resumeSettings,
  type Difficulty,
  type FixMode,
  type Preset,
  type SettingsChoice,
} from '../../core/review/state.js';
import type { ReviewOutcome } from '../../core/review/outcome.js';
import { runGit } from '../../git/client.js';
import { buildRoleModel, callSettings } from '../../llm/factory.js';
import { parseModelId, type ModelId } from '../../llm/model-id.js';
import { createReviewModels } from '../../llm/review-models.js';
import type { Checkpoint } from '../../ports/review.js';
import { runReviewLoop } from '../../review/run.js';
import { positiveIntegerArgument, positiveNumberArgument } from '../arguments.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { createCliLogger } from '../logger.js';
import { createLineCheckpoint, type LineCheckpoint } from '../review-checkpoint.js';
import { isErrorOfKind, messageOf } from '../../core/errors.js';

interface ReviewFlags {
  project?: string;
  reviewerModel?: string;
  executorModel?: string;
  difficulty: Difficulty;
  maxRounds: number;
  fix: FixMode;
  checkpoint?: boolean;
  preset: Preset;
  claims?: string;
  base?: string;
  allowDirty?: boolean;
  json?: boolean;
  maxCostUsd?: number;
}

/** The flag behind each resumable setting, for "was it given on the command line?". */
const SETTING_FLAGS: Record<keyof SettingsChoice, string> = {
  maxRounds: 'maxRounds',
  fix: 'fix',
  checkpoint: 'checkpoint',
  preset: 'preset',
  difficulty: 'difficulty',
};

async function repositoryRoot(project: string): Promise<string> {
  try {
    const info = await stat(project);
    if (!info.isDirectory()) throw new UsageError(`--project ${project}: not a folder`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--project ${project}: no such folder`);
  }
  try {
    return (await runGit(project, 'rev-parse', ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new UsageError(
      `--project ${project}: not inside a git repository (the review loop reviews git changes)`,
    );
  }
}

/** `[paths…]` as repository-relative paths; each must exist and lie inside the repository. */
function reviewPaths(raw: readonly string[], cwd: string, repoRoot: string): string[] {
  return raw.map((p) => {
    const absolute = path.resolve(cwd, p);
    const rel = path.relative(repoRoot, absolute);
    if (rel.startsWith('..') || path.isAbsolute(rel))
      throw new UsageError(`path ${p}: outside the repository ${repoRoot}`);
    if (!existsSync(absolute)) throw new UsageError(`path ${p}: no such file or folder`);
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  });
}

function exitCodeOf(outcome: ReviewOutcome, signal: NodeJS.Signals | undefined): number {
  if (outcome.status === 'acquitted') return EXIT_OK;
  if (outcome.status === 'interrupted') return 128 + (os.constants.signals[signal ?? 'SIGINT'] ?? 2);
  return EXIT_FAILURE;
}

async function buildModels(
  io: CliIo,
  flags: ReviewFlags,
  project: string,
  log: ReturnType<typeof createCliLogger>,
) {
  const { config, modelOptions } = await loadProjectModelConfig({
    project,
    flags: {},
    env: io.env,
    log,
  }).catch((err: unknown) => {
    throw new UsageError(messageOf(err));
  });
  try {
    const choice = resolveReviewModels({ flags, config, env: io.env });
    if (choice.warning) log.warn(choice.warning);
    const id = (raw: string) => parseModelId(raw) as Exclude<ModelId, { provider: 'offline' }>;
    const reviewer = buildRoleModel('reviewer', id(choice.reviewer), io.env, modelOptions);
    const executor = buildRoleModel('executor', id(choice.executor), io.env, modelOptions);
    // The reviewer's instructions are read later, at the base: the models are checked here, made then.
    const makeModels = (reviewerInstructions: string | undefined) =>
      createReviewModels({ reviewer, executor, settings: callSettings(modelOptions), reviewerInstructions });
    return { makeModels, config };
  } catch (err) {
    // A bad id, an offline role, a missing key: nothing has started yet.
    throw new UsageError(messageOf(err));
  }
}

// eslint-disable-next-line max-lines-per-function -- the command's checks before the engine starts, each a usage error in the order a person meets them; not yet split (issue 30 item 3)
async function runReview(io: CliIo, rawPaths: string[], flags: ReviewFlags, command: Command): Promise<void> {
  const log = createCliLogger(io, { json: flags.json === true });
  const project = path.resolve(io.cwd, flags.project ?? '.');
  const repoRoot = await repositoryRoot(project);
  const projectReal = path.join(repoRoot, path.relative(await realpath(repoRoot), await realpath(project)));
  const paths = reviewPaths(rawPaths, io.cwd, repoRoot);
  const { makeModels, config } = await buildModels(io, flags, projectReal, log);

  const store = createLocalReviewStore(projectReal);
  const stored = await store.readState().catch((err: unknown) => {
    // A state file the person can fix or remove: bad usage, exit 2 (src/core/errors.ts kinds).
    if (isErrorOfKind(err, 'input-file')) throw new UsageError(err.message);
    throw err;
  });
  const now = io.now ?? (() => new Date());
  const given = (name: keyof SettingsChoice) => command.getOptionValueSource(SETTING_FLAGS[name]) === 'cli';
  const chosen: SettingsChoice = {
    maxRounds: flags.maxRounds,
    fix: flags.fix,
    checkpoint: flags.checkpoint === true,
    preset: flags.preset,
    difficulty: flags.difficulty,
  };
  const start = decideStart(stored, now());
  const settings = start.kind === 'resume' ? resumeSettings(start.state, chosen, given) : chosen;

  const projectPrefix = path.relative(repoRoot, projectReal).split(path.sep).join('/');
  if (settings.fix === 'auto') {
    if ((await currentBranch(repoRoot)) === undefined) {
      throw new UsageError(
        '--fix auto commits on the current branch, but HEAD is detached: check out a branch, or use --fix manual',
      );
    }
    if (flags.allowDirty !== true) {
      const dirty = await dirtyFiles(repoRoot, projectPrefix);
      if (dirty.length > 0) {
        const shown = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, … (${dirty.length} files)` : '');
        throw new UsageError(
          `--fix auto commits on the current branch, but the working tree has uncommitted changes (${shown}): ` +
            'commit or stash them, or pass --allow-dirty (fixes then leave those files alone)',
        );
      }
    }
  }
  let claimsFile: string | undefined;
  if (flags.claims !== undefined) {
    claimsFile = path.resolve(io.cwd, flags.claims);
    if (!existsSync(claimsFile)) throw new UsageError(`--claims ${flags.claims}: no such file`);
  }
  // A base that cannot be found is bad usage (BaseRefError's kind): exit 2.
  const baseRef = await resolveBaseRef(repoRoot, flags.base);
  const target = await createLocalReviewTarget({
    repoRoot,
    project: projectReal,
    paths,
    baseRef,
    claimsFile,
    claimsLabel: flags.claims === undefined ? undefined : `--claims ${flags.claims}`,
    allowDirty: flags.allowDirty === true,
  });
  const { base, head } = await target.resolve();
  if ((await target.filesUnderReview(base, head)).length === 0 && start.kind !== 'resume') {
    throw new UsageError(
      `nothing to review: HEAD (${head.slice(0, 12)}) has no changes against ${baseRef} (merge base ${base.slice(0, 12)})` +
        (paths.length ? ` in ${paths.join(', ')}` : '') +
        '; pass --base, or name files to review',
    );
  }

  log.info(`review: ${target.label}; base ${baseRef} (${base.slice(0, 12)}), head ${head.slice(0, 12)}`);
  // The reviewer skill as the base has it, never as the branch under review does (§ The reviewer learns).
  const instructions = await reviewerInstructionsAt(repoRoot, baseRef);
  const said = instructionsSentence(instructions);
  if (instructions.source === 'built-in' && instructions.note !== undefined) log.warn(said);
  else log.info(said);
  const models = makeModels(instructions.source === 'skill' ? instructions.text : undefined);
  log.info(
    `models: reviewer ${models.reviewer.id} (${models.reviewer.family}), executor ${models.executor.id} (${models.executor.family})`,
  );
  let checkpoint: LineCheckpoint | undefined;
  const noCheckpoint: Checkpoint = { ask: async () => ({ kind: 'go' }) };
  if (settings.checkpoint) {
    checkpoint = createLineCheckpoint(io.stdin ?? process.stdin, (text) =>
      flags.json ? io.err(text) : io.out(text),
    );
  }
  const controller = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(128 + (os.constants.signals[signal] ?? 0));
    interruptedBy = signal;
    log.warn(`${signal}: stopping; the review state is saved (send it again to exit at once)`);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let outcome: ReviewOutcome;
  try {
    outcome = await runReviewLoop(
      {
        difficulty: settings.difficulty,
        maxRounds: settings.maxRounds,
        fix: settings.fix,
        checkpoint: settings.checkpoint,
        preset: settings.preset,
        maxCostUsd: flags.maxCostUsd ?? config.maxCostUsd,
        allowGlobs: config.review?.allow ?? [],
        instructionsNote: said,
      },
      {
        models,
        store,
        target,
        checkpoint: checkpoint ?? noCheckpoint,
        log,
        clock: now,
        signal: controller.signal,
        events: {
          emit: (event) => {
            if (event.type === 'round-started') {
              log.progress(
                `round ${event.round}/${settings.maxRounds}: reviewing ${event.head.slice(0, 12)}…`,
              );
            } else if (event.type === 'fix-committed') {
              log.progress(
                `round ${event.round}: committed fixes to ${event.files.join(', ')} (${event.head.slice(0, 12)})`,
              );
            }
          },
        },
      },
    );
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    checkpoint?.close();
  }
  if (flags.json) io.out(`${JSON.stringify(outcome, null, 2)}\n`);
  else
    log.info(
      `${outcome.status}: see ${path.join(path.relative(io.cwd, projectReal) || '.', 'review-stage', 'AUTO_REVIEW.md')}`,
    );
  io.exitCode = exitCodeOf(outcome, interruptedBy);
}

export function reviewCommand(io: CliIo): Command {
  return new Command('review')
    .description(
      'Review the current branch against its base with a model reviewer, fix, and re-review until a reviewer ' +
        'of another model family acquits or the rounds run out (writes review-stage/)',
    )
    .argument(
      '[paths...]',
      'files or folders to narrow the review to (default: everything the branch changes)',
    )
    .option('--project <dir>', 'the checkout to review (default: current directory)')
    .option('--reviewer-model <id>', 'provider:model of the reviewer (default: by key, Anthropic first)')
    .option(
      '--executor-model <id>',
      'provider:model of the executor that rebuts and fixes (default: by key, OpenAI first)',
    )
    .addOption(
      new Option(
        '--difficulty <level>',
        'medium, hard (+ debate) or nightmare (+ verifier with read-only tools)',
      )
        .choices([...DIFFICULTIES])
        .default('medium'),
    )
    .option('--max-rounds <n>', 'rounds before giving up', positiveIntegerArgument, DEFAULT_MAX_ROUNDS)
    .addOption(
      new Option(
        '--fix <mode>',
        'auto: commit the executor’s edits; manual: pause for your fix; none: review only',
      )
        .choices([...FIX_MODES])
        .default('auto'),
    )
    .option('--checkpoint', 'ask before each round’s fixes (go, skip N, stop, or your instructions)')
    .addOption(new Option('--preset <preset>', 'the reviewer’s stance').choices([...PRESETS]).default('code'))
    .option('--claims <file>', 'what the change claims to do (default: the README at the head)')
    .option(
      '--base <ref>',
      'branch or commit the change is measured from (default: the remote default branch, main, master)',
    )
    .option('--allow-dirty', 'run --fix auto with uncommitted changes (files with changes are never edited)')
    .option('--json', 'print the outcome as JSON on stdout (logs go to stderr)')
    .option(
      '--max-cost-usd <n>',
      'end the run between rounds once its estimated cost reaches this',
      positiveNumberArgument,
    )
    .action(async (paths: string[], flags: ReviewFlags, command: Command) => {
      await runReview(io, paths, flags, command);
    });
}
