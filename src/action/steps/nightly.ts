/**
 * `mode: run`: the nightly run (docs/how-it-works.md § Overview). Models checked, the repository and its
 * state branch made ready, the run state restored, then the engine drains the queue one skill at a time
 * with GitHub-backed ports (pull requests, issues, the API kill-switch, state-branch run times); the state,
 * the result file and the job summary are written whatever the engine did.
 */
import { createLocalForge } from '../../adapters/local/forge.js';
import { createFileKillSwitch } from '../../adapters/local/kill-switch.js';
import { createFileLock } from '../../adapters/local/lock.js';
import type { ParkReport } from '../../core/iterate/park.js';
import type { RunResult } from '../../core/iterate/run-result.js';
import { createGitHubForge } from '../../github/forge.js';
import { ensureGitIdentityEnv, remoteDefaultBranch } from '../../github/action/git.js';
import {
  createGitHubKillSwitch,
  killSwitchInputReason,
  killSwitchRetryPolicy,
} from '../../github/action/kill-switch.js';
import {
  GITHUB_RETRY_POLICY,
  createGitHubClient,
  describeApiError,
  fetchDefaultBranch,
  type GitHubClient,
  type RepoRef,
} from '../../github/octokit.js';
import { createGitHubShipper } from '../../github/action/shipper.js';
import { checkStateBranch } from '../../github/action/state-branch-guard.js';
import { openStateStore, type StateStore } from '../../github/action/state-store.js';
import { createGitWorkspace } from '../../git/workspace.js';
import type { IterateOptions } from '../../iterate/options.js';
import { planIterate } from '../../iterate/plan.js';
import { killSwitchUnreadable } from '../../iterate/preflight.js';
import { skillsGlobsOf } from '../../iterate/queue.js';
import { findSkills } from '../../iterate/skill-finder.js';
import { repositoryRoot } from '../../git/repo.js';
import { partialRunOf } from '../../iterate/run-error.js';
import { createModels } from '../../llm/factory.js';
import type { IteratePorts } from '../../ports/iterate.js';
import type { HeldLock, RunLock } from '../../ports/lock.js';
import type { Logger } from '../../ports/logger.js';
import type { SkillModels } from '../../ports/models.js';
import { checkoutBaseNote } from '../checkout-base.js';
import type { ActionContext } from '../context.js';
import { modelEnv, type ActionInputs } from '../inputs.js';
import { saveStateOnSignals } from '../interrupt.js';
import type { ActionIo, PipelineEngine, PipelineResult } from '../io.js';
import { renderJobSummary } from '../job-summary.js';
import { checkModelsFirst, loadNightModelConfig } from '../models.js';
import { createNightEvents } from '../night-events.js';
import { iterateOptions, resultFilePath } from '../options.js';
import { buildOutputs } from '../outputs.js';
import { planPorts } from '../plan-ports.js';
import { writeRunFile, type RunFile } from '../result-file.js';
import { emptyRun, nightRunFile, planFile } from '../run-records.js';
import { secretsOf } from '../secrets.js';
import { createSkillGroups } from '../skill-groups.js';
import { createStateSaver } from '../state-saver.js';
import { messageOf } from '../../core/errors.js';
import { inertInline } from '../../core/text/untrusted-text.js';
import { ITERATE_DEFAULTS } from '../../iterate/options.js';
import {
  ignoringFreshnessOf,
  publishDashboard,
  readDashboardOrders,
  runOrderNotes,
  type DashboardOrders,
} from '../dashboard.js';
import { evalsInitStep } from './evals-init.js';

const SILENT_LOG: Logger = { info: () => undefined, warn: () => undefined, progress: () => undefined };

export async function nightlyStep(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  engine: PipelineEngine,
): Promise<PipelineResult> {
  const startedAt = io.now();
  // The input is fixed at job start: checked first, it costs no model check, API call or push.
  const inputReason = killSwitchInputReason(inputs.killSwitch);
  if (inputReason) return notStarted(inputReason, startedAt, ctx, io);
  if (!ctx.repo)
    throw new Error('GITHUB_REPOSITORY is not set: the Action needs "owner/name" to open pull requests');
  if (!inputs.githubToken) throw new Error('input github-token: required to open pull requests and issues');
  const env = modelEnv(inputs, ctx.env);
  const project = await loadNightModelConfig(inputs, ctx, env, io);
  await checkModelsFirst(project, env, io);
  const models = createModels(project.selection, env, project.modelOptions);
  io.log.info(`models: ${models.label}`);
  const options = iterateOptions(inputs, ctx, project.config);
  const repo = ctx.repo;
  const client = createGitHubClient({
    token: inputs.githubToken,
    apiUrl: ctx.apiUrl,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
  });
  const base = await prepareRepository(client, repo, inputs, options, io);

  const store = await openStateStore({
    project: options.project,
    branch: inputs.stateBranch,
    worktreeParent: ctx.runnerTemp,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
  });
  try {
    const dirs = await foundSkillDirs(options);
    const restored = await store.restoreInto(options.project, dirs);
    if (restored.length)
      io.log.info(`restored results.tsv from ${inputs.stateBranch}: ${restored.join(', ')}`);
    const killSwitch = createGitHubKillSwitch({
      client: killSwitchClient(inputs, ctx, io),
      repo,
      base,
      log: io.log,
      input: inputs.killSwitch,
    });
    let launchReason: string | null;
    try {
      launchReason = (await createFileKillSwitch(options.project).check()) ?? (await killSwitch.check());
    } catch (error) {
      const message = (error as Error).message;
      if (inputs.killSwitchReadError !== 'continue') {
        const reason = killSwitchUnreadable(message);
        return await notStarted(reason, startedAt, ctx, io, reason);
      }
      io.log.warn(`${killSwitchUnreadable(message, true)}; continuing (kill-switch-read-error: continue)`);
      launchReason = null;
    }
    if (launchReason) return await notStarted(launchReason, startedAt, ctx, io);
    // The dashboard's orders shape tonight's queue: skips join the skip-list, runs ignore freshness.
    const orders = inputs.dashboard
      ? await readDashboardOrders(client, repo, new Set(Object.keys(dirs)), io.log)
      : undefined;
    return await drainQueue({
      inputs,
      ctx,
      io,
      engine,
      options: orders ? { ...options, skipList: [...options.skipList, ...orders.orders.skip] } : options,
      freshness: ignoringFreshnessOf(store.freshness, orders?.orders.run ?? []),
      orders,
      models,
      client,
      repo,
      base,
      store,
      killSwitch,
      startedAt,
    });
  } finally {
    await store.close();
  }
}

/** Every skill the skills setting finds, by name, with its folder: where its history is restored to. */
async function foundSkillDirs(options: IterateOptions): Promise<Record<string, string>> {
  const repository = (await repositoryRoot(options.project)) ?? options.project;
  const found = await findSkills({ project: options.project, repository, globs: skillsGlobsOf(options) });
  return Object.fromEntries(found.skills.map((s) => [s.name, s.dir]));
}

/**
 * The base branch (the input, else the repository's default), a state branch that is the Action's own,
 * a note on the checkout, and a git identity to commit with.
 */
async function prepareRepository(
  client: GitHubClient,
  repo: RepoRef,
  inputs: ActionInputs,
  options: IterateOptions,
  io: ActionIo,
): Promise<string> {
  const base =
    inputs.base ??
    (await fetchDefaultBranch(client, repo).catch((error: unknown) => {
      throw new Error(
        `could not read ${repo.owner}/${repo.repo} to find its default branch (${describeApiError(error)})`,
      );
    }));
  // Before anything is restored from it or written to it: the state branch must be the Action's own. With a
  // `base` input the default branch comes from the remote's HEAD (no API call).
  const defaultBranch = inputs.base ? await remoteDefaultBranch(options.project) : base;
  await checkStateBranch({ project: options.project, branch: inputs.stateBranch, base, defaultBranch });
  // Not a repository: the engine's own pre-flight says so more clearly.
  const checkoutNote = await checkoutBaseNote(options.project, base).catch(() => undefined);
  if (checkoutNote) io.log.info(checkoutNote);
  if (await ensureGitIdentityEnv(options.project)) {
    io.log.info('no git identity configured: committing as github-actions[bot]');
  }
  return base;
}

interface Night {
  inputs: ActionInputs;
  ctx: ActionContext;
  io: ActionIo;
  engine: PipelineEngine;
  options: IterateOptions;
  models: SkillModels;
  client: GitHubClient;
  repo: RepoRef;
  base: string;
  store: StateStore;
  /** The state branch's run times, with the skills the dashboard ordered to run counted as never run. */
  freshness: IteratePorts['freshness'];
  /** The dashboard's orders, when the dashboard is on. */
  orders: DashboardOrders | undefined;
  killSwitch: IteratePorts['killSwitch'];
  startedAt: Date;
}

/** The engine over the queue, one log group and one state save per skill (from its events); then the records. */
async function drainQueue(night: Night): Promise<PipelineResult> {
  const { inputs, ctx, io, options, models, client, repo, base, store } = night;
  const groups = createSkillGroups(io.log, io);
  const log = groups.log;
  const events = createNightEvents({
    options,
    log: io.log,
    groups,
    stateSaver: (plan) => createStateSaver(store, plan, inputs, ctx, options.project, io),
    // Only when the engine stopped before its plan: the same plan, so the records still list the queue.
    planHere: () => planIterate(options, planPorts(options, night.freshness, { ...io, log: SILENT_LOG })),
  });
  const saveState = events.save;
  const shipper = createGitHubShipper({
    client,
    repo,
    base,
    labels: inputs.labels,
    draft: inputs.draft,
    runUrl: ctx.runUrl,
    runId: ctx.runId,
    modelsLabel: models.label,
    log,
    fullTextAt: (skill) => `state/${skill}/results.tsv on the ${inputs.stateBranch} branch`,
  });
  const forge = createGitHubForge({
    client,
    repo,
    log,
    runUrl: ctx.runUrl,
    fallback: createLocalForge(options.project, secretsOf(inputs, ctx)),
    keepFullText: (report) => keepOnStateBranch(store, inputs.stateBranch, report),
  });
  // The lock the engine takes, kept at hand so a signal can release it (src/action/interrupt.ts).
  const fileLock = createFileLock(options.project, { log, now: io.now });
  let held: HeldLock | undefined;
  const holdingLock: RunLock = {
    inspect: () => fileLock.inspect(),
    acquire: async () => (held = await fileLock.acquire()),
  };
  const ports: IteratePorts = {
    models,
    shipper,
    forge,
    killSwitch: night.killSwitch,
    freshness: night.freshness,
    // The Action ends on a signal itself (below) and releases the held lock first.
    lock: holdingLock,
    git: createGitWorkspace(log),
    log,
    now: io.now,
    secrets: secretsOf(inputs, ctx),
    events,
  };

  const stopSaving = saveStateOnSignals(saveState, inputs.stateBranch, io.log, async () => held?.release());
  let run: RunResult;
  let failure: string | undefined;
  try {
    run = await night.engine.runIterate(options, ports);
  } catch (error) {
    failure = messageOf(error);
    run = partialNight(error, failure, night, await events.planned());
  } finally {
    groups.close();
    stopSaving();
  }
  await events.planned();
  await saveState('end of run', run.results);

  const file = nightRunFile(run, shipper, forge);
  const resultPath = await writeRunFile(resultFilePath(ctx, inputs, 'run'), file, secretsOf(inputs, ctx));
  await io.writeSummary(renderJobSummary(file, ctx.runUrl));
  // A matrix job (one `skill`) honours the orders; the summarize job writes the dashboard.
  if (night.orders && inputs.skill === undefined) await updateDashboard(night, night.orders, file);
  return { outputs: buildOutputs(file, { summaryPath: run.summaryPath, resultPath }), failure };
}

/**
 * The end of a night: the "re-run evals init" orders (one evals-init pull request), then the dashboard
 * rewritten with tonight's results, the one-off boxes cleared and the standing skips kept.
 */
async function updateDashboard(night: Night, orders: DashboardOrders, file: RunFile): Promise<void> {
  const { inputs, ctx, io, options, client, repo, store } = night;
  const notes = [...orders.notes, ...runOrderNotes(orders.orders, file)];
  const evalsInit = orders.orders['evals-init'];
  if (evalsInit.length > 0) {
    const list = evalsInit.map((s) => `\`${s}\``).join(', ');
    try {
      const result = await evalsInitStep(inputs, ctx, io, { names: evalsInit, force: true });
      const url = result.outputs['pull-request'];
      notes.push(
        url
          ? `Re-ran evals init for ${list} as ordered: [pull request](${url}); the box is cleared.`
          : `Re-ran evals init for ${list} as ordered, but no pull request was opened` +
              `${result.failure ? ` (${inertInline(result.failure, 300)})` : ''}; the box is cleared.`,
      );
    } catch (error) {
      io.log.warn(`dashboard: evals init for ${evalsInit.join(', ')} failed: ${messageOf(error)}`);
      notes.push(
        `Evals init for ${list} failed (${inertInline(messageOf(error), 300)}); the box is cleared.`,
      );
    }
  }
  await publishDashboard({
    client,
    repo,
    file,
    recorded: store.snapshot.skills,
    ticked: { run: [], skip: orders.orders.skip, 'evals-init': [] },
    notes,
    freshnessWindowMs: inputs.freshnessWindowMs,
    minGain: options.minGain ?? ITERATE_DEFAULTS.minGain,
    now: io.now(),
    runUrl: ctx.runUrl,
    log: io.log,
    dryRun: false,
    writeSummary: (markdown) => io.writeSummary(markdown),
    skills: { project: options.project, globs: skillsGlobsOf(options) },
  });
}

/** A park report's full text as `state/<skill>/park-<epoch>.md`; resolves where it is, for the issue's note. */
async function keepOnStateBranch(store: StateStore, branch: string, report: ParkReport): Promise<string> {
  const name = `park-${report.kind}-${report.epoch}.md`;
  await store.save(
    [{ skill: report.skill, resultsTsv: undefined, lastRun: undefined, files: { [name]: report.body } }],
    `skill-iterate state: full park report of ${report.skill}`,
  );
  return `state/${report.skill}/${name} on the ${branch} branch`;
}

/**
 * The engine attaches what it finished (results, morning summary path): the summary, the outputs and the
 * state save keep every skill already processed. The job still fails.
 */
function partialNight(
  error: unknown,
  failure: string,
  night: Night,
  plan: Parameters<typeof emptyRun>[2],
): RunResult {
  const { io, models } = night;
  const partialRun = partialRunOf(error);
  if (partialRun) {
    return {
      ...partialRun,
      partial: partialRun.partial ?? { reason: `exception: ${failure}`, at: io.now() },
      modelsLabel: partialRun.modelsLabel || models.label,
    };
  }
  return {
    ...emptyRun(night.startedAt, io.now(), plan),
    partial: { reason: `exception: ${failure}`, at: io.now() },
    modelsLabel: models.label,
  };
}

/**
 * A kill-switch set at launch: nothing runs, the job stays green, and the summary says why. One that could
 * not be read stops the night too, but fails the job (`failure`): someone has to look.
 */
async function notStarted(
  reason: string,
  startedAt: Date,
  ctx: ActionContext,
  io: ActionIo,
  failure?: string,
): Promise<PipelineResult> {
  io.log.warn(`${reason}: skill-iterate did not start`);
  const file: RunFile = {
    ...planFile({ ...emptyRun(startedAt, io.now()), partial: { reason, at: io.now() } }),
    mode: 'run',
  };
  await io.writeSummary(renderJobSummary(file, ctx.runUrl));
  return { outputs: buildOutputs(file, {}), failure };
}

/** The kill-switch's own client, with the kill-switch's retry policy (src/github/action/kill-switch.ts). */
function killSwitchClient(inputs: ActionInputs, ctx: ActionContext, io: ActionIo) {
  return createGitHubClient({
    token: inputs.githubToken,
    apiUrl: ctx.apiUrl,
    log: io.log,
    secrets: secretsOf(inputs, ctx),
    retry: killSwitchRetryPolicy(GITHUB_RETRY_POLICY),
  });
}
