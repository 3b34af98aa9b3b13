/**
 * What one night runs with (docs/how-it-works.md § Layers and ports): the engine's ports on GitHub — the
 * squash-PR shipper, the issues forge (a park report too long for its issue kept on the state branch), the
 * checkout's lock kept at hand for a signal, git, the night's events — and the night's own record of them.
 */
import { createLocalForge } from '../adapters/local/forge.js';
import { createFileLock } from '../adapters/local/lock.js';
import { createBaselineDrawsFiles, createUpliftRecordFiles } from '../adapters/local/night-records.js';
import type { ParkReport } from '../core/iterate/park.js';
import { createGitHubShipper, type GitHubShipper } from '../github/action/shipper.js';
import type { StateStore } from '../github/action/state-store.js';
import { createGitHubForge, type GitHubForge } from '../github/forge.js';
import type { GitHubClient, RepoRef } from '../github/octokit.js';
import { createGitWorkspace } from '../git/workspace.js';
import type { IterateOptions } from '../iterate/options.js';
import type { IteratePorts } from '../ports/iterate.js';
import type { HeldLock, RunLock } from '../ports/lock.js';
import type { Logger } from '../ports/logger.js';
import type { SkillModels } from '../ports/models.js';
import type { ActionContext } from './context.js';
import type { DashboardOrders } from './dashboard.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, PipelineEngine } from './io.js';
import type { NightEvents } from './night-events.js';
import { secretsOf } from './secrets.js';

/** Everything a night is run with, once it has started. */
export interface Night {
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

export interface NightPorts {
  ports: IteratePorts;
  shipper: GitHubShipper;
  forge: GitHubForge;
  /** The lock the engine holds, if it took one: a signal releases it before the Action ends. */
  heldLock(): HeldLock | undefined;
}

/** The engine's ports for the night, logging into the skill's log group (`log`). */
export function nightPorts(night: Night, events: NightEvents, log: Logger): NightPorts {
  const { inputs, ctx, io, options, models, client, repo, base, store } = night;
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
    // The skills a night budget kept from starting, on the state branch (docs/how-it-works.md § Caps and budgets).
    notStarted: {
      read: async () => [...store.snapshot.notStarted],
      update: async (next) => {
        await store.save([], 'skill-iterate state: the skills the night budget kept from starting', next);
      },
    },
    // The Action ends on a signal itself (nightly.ts) and releases the held lock first.
    lock: holdingLock,
    git: createGitWorkspace(log),
    log,
    now: io.now,
    secrets: secretsOf(inputs, ctx),
    events,
    // In the checkout beside results.tsv: restored from the state branch and saved there with it.
    upliftRecords: createUpliftRecordFiles(options.project),
    baselineDraws: createBaselineDrawsFiles(options.project),
  };
  return { ports, shipper, forge, heldLock: () => held };
}

/** A park report's full text as `state/<skill>/park-<epoch>.md`; resolves where it is, for the note. */
async function keepOnStateBranch(store: StateStore, branch: string, report: ParkReport): Promise<string> {
  const name = `park-${report.kind}-${report.epoch}.md`;
  await store.save(
    [{ skill: report.skill, resultsTsv: undefined, lastRun: undefined, files: { [name]: report.body } }],
    `skill-iterate state: full park report of ${report.skill}`,
  );
  return `state/${report.skill}/${name} on the ${branch} branch`;
}
