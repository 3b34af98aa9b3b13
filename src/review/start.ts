/**
 * Initialization (docs/how-it-works.md § Review state, memory and receipts): the original's rules decide
 * between a fresh run and the next round of one in progress; a fresh run gets its run id, trace folder,
 * log header and memory heading before any model call, so even an interrupted first round is resumable.
 */
import { independenceOf, type Independence } from '../core/review/gate.js';
import { memoryRunHeading, renderRunHeader } from '../core/review/log.js';
import type { Claims } from '../core/review/material.js';
import type { RoundReport } from '../core/review/outcome.js';
import {
  decideStart,
  freshReason,
  legacyRunIdLine,
  resumeLine,
  runIdFor,
  type ReviewState,
  type StoredState,
} from '../core/review/state.js';
import { ZERO_USAGE, type Usage } from '../core/usage.js';
import { randomHex8, type ResolvedOptions, type ReviewPorts } from './options.js';

/** Everything one invocation carries from round to round. */
export interface RunContext {
  options: ResolvedOptions;
  ports: ReviewPorts;
  signal: AbortSignal;
  /** The working copy of REVIEW_STATE.json (written at the end of every Phase E). */
  state: ReviewState;
  resumed: boolean;
  independence: Independence;
  claims: Claims;
  base: string;
  invocationUsage: Usage;
  reports: RoundReport[];
}

function newRunId(ports: ReviewPorts, now: Date): string {
  return runIdFor(now, (ports.randomHex ?? randomHex8)());
}

function freshState(ctx: {
  runId: string;
  now: Date;
  options: ResolvedOptions;
  ports: ReviewPorts;
  base: string;
}): ReviewState {
  const { models } = ctx.ports;
  const independence = independenceOf(models.reviewer, models.executor);
  return {
    run_id: ctx.runId,
    round: 0,
    threadId: null,
    status: 'in_progress',
    last_score: null,
    last_verdict: null,
    pending_experiments: [],
    timestamp: ctx.now.toISOString(),
    difficulty: ctx.options.difficulty,
    reviewer_model: models.reviewer.id,
    reviewer_family: models.reviewer.family,
    executor_model: models.executor.id,
    executor_family: models.executor.family,
    family_relation: independence.relation,
    trace_id: null,
    base: ctx.base,
    reviewed_head: null,
    awaiting: null,
    pending: null,
    settings: settingsOf(ctx.options),
    history: [],
    usage: { ...ZERO_USAGE },
    outcome: null,
  };
}

function settingsOf(options: ResolvedOptions): ReviewState['settings'] {
  return {
    max_rounds: options.maxRounds,
    fix: options.fix,
    checkpoint: options.checkpoint,
    preset: options.preset,
  };
}

/** A stored in-progress state carried into this invocation; this invocation's options and models apply. */
function resumedState(
  stored: StoredState,
  runId: string,
  options: ResolvedOptions,
  ports: ReviewPorts,
  base: string,
): ReviewState {
  const fresh = freshState({ runId, now: ports.clock(), options, ports, base });
  return {
    ...fresh,
    round: stored.round,
    last_score: stored.last_score ?? null,
    last_verdict: stored.last_verdict ?? null,
    trace_id: stored.trace_id ?? null,
    reviewed_head: stored.reviewed_head ?? null,
    awaiting: stored.awaiting ?? null,
    pending: stored.pending ?? null,
    history: stored.history ?? [],
    usage: stored.usage ?? { ...ZERO_USAGE },
    dismissed: stored.dismissed ?? [],
  };
}

/** Starts a fresh run or resumes the one in progress; writes the state before anything is spent. */
export async function startRun(
  options: ResolvedOptions,
  ports: ReviewPorts,
  signal: AbortSignal,
): Promise<RunContext> {
  const { store, target, log, models } = ports;
  const now = ports.clock();
  const stored = await store.readState();
  const decision = decideStart(stored, now, options.staleAfterMs);
  const claims = await target.claims();
  const { base, head } = await target.resolve();
  const independence = independenceOf(models.reviewer, models.executor);

  let state: ReviewState;
  let resumed = false;
  if (decision.kind === 'fresh') {
    if (decision.deleteState) await store.deleteState();
    log.info(freshReason(decision));
    state = freshState({ runId: newRunId(ports, now), now, options, ports, base });
  } else {
    resumed = true;
    let runId = decision.runId;
    if (runId === undefined) {
      runId = newRunId(ports, now);
      log.info(legacyRunIdLine(runId));
    }
    state = resumedState(decision.state, runId, options, ports, base);
    const next = state.pending?.round ?? state.round + 1;
    log.info(resumeLine(runId, next, store.location));
  }

  if (state.trace_id === null) state.trace_id = await store.createTraceFolder(now);
  if (!resumed || (decision.kind === 'resume' && decision.runId === undefined)) {
    await store.appendLog(
      renderRunHeader({
        runId: state.run_id,
        startedAt: now.toISOString(),
        target: target.label,
        claimsSource: claims.source,
        range: `${base.slice(0, 12)}..${head.slice(0, 12)}`,
        reviewer: models.reviewer,
        executor: models.executor,
        independence,
        difficulty: options.difficulty,
        maxRounds: options.maxRounds,
        fix: options.fix,
        checkpoint: options.checkpoint,
        preset: options.preset,
        instructions: options.instructionsNote,
      }),
    );
    await store.appendMemory(`\n${memoryRunHeading(state.run_id)}\n\n`);
  }
  if (!independence.canAcquit) log.warn(independence.sentence);
  state.timestamp = now.toISOString();
  await store.writeState(state);
  return {
    options,
    ports,
    signal,
    state,
    resumed,
    independence,
    claims,
    base,
    invocationUsage: { ...ZERO_USAGE },
    reports: [],
  };
}
