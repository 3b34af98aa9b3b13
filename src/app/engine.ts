/**
 * Where the review-loop engine is plugged into the App (docs/how-it-works.md § The App): the runner
 * `npm start` uses builds the loop's models from the App's environment, wires the engine's ports to the
 * pull session — the sticky comment as its store, the pull request as its target, comments as its
 * checkpoint and its instructions — and runs `runReviewLoop` once per event: as many rounds as it can
 * without waiting for a person.
 */
import type { ModelFactoryOptions } from '../llm/factory.js';
import type { CheckpointAnswer } from '../ports/review.js';
import { runReviewLoop } from '../review/run.js';
import { buildLoopModels } from './engine-models.js';
import { CommentCheckpoint } from '../github/review/comment-checkpoint.js';
import { GitHubReviewStore } from '../github/review/review-store.js';
import { GitHubReviewTarget } from '../github/review/review-target.js';
import type { ReviewOutcome } from '../core/review/outcome.js';
import { PullRequestEvents, notIndependentNote, pullMessage } from '../github/review/engine-events.js';
import type { LoopOutcome, LoopRequest, LoopRunner, LoopTrigger } from './loop-runner.js';
import type { PullSession } from '../github/review/pull-session-port.js';
import type { EntryRead } from '../github/review/pull-info.js';
import { describeApiError } from '../github/octokit.js';
import { DEFAULT_REVIEWER_SKILL_DIR } from '../core/reviewer-skill.js';
import {
  MAX_REVIEWER_SKILL_BYTES,
  instructionsFrom,
  instructionsSentence,
  reviewerSkillFile,
  type ReviewerInstructions,
  type ReviewerSkillRead,
} from '../core/review/reviewer-instructions.js';

export interface EngineRunnerOptions {
  /** Model call settings (timeouts, retries); tests shorten the retry waits. */
  models?: ModelFactoryOptions;
  clock?: () => Date;
}

/** A checkpoint answer the trigger carries, for the round that waited for it. */
function answerOf(trigger: LoopTrigger): CheckpointAnswer | undefined {
  return trigger.kind === 'answer' ? trigger.answer : undefined;
}

/** `run_20260301_0000beef` → `0000beef`: a fresh engine run takes the id the App put on the check run. */
function suffixOf(runId: string): string {
  const suffix = /_([0-9a-f]{8})$/.exec(runId)?.[1];
  if (suffix === undefined) throw new Error(`run id ${runId} does not end in 8 hex digits`);
  return suffix;
}

/** The engine's outcome as the App's loop outcome: status, head, message, last verdict, blockers. */
export function loopOutcomeOf(outcome: ReviewOutcome): LoopOutcome {
  const waiting = outcome.reports.filter((r) => r.phase === 'awaiting-checkpoint');
  const scored = [...outcome.rounds, ...waiting].filter((r) => r.score !== null);
  const last = scored.at(-1);
  return {
    status: outcome.status,
    runId: outcome.runId,
    head: outcome.head,
    message: pullMessage(outcome),
    rounds: outcome.rounds.length,
    lastScore: last?.score ?? undefined,
    lastVerdict: last?.verdict,
    lastRoundScored: outcome.rounds.length > 0 ? outcome.rounds.at(-1)!.score !== null : undefined,
    blockers: outcome.blockers.map((w) => ({ title: w.title, effort: w.effort })),
    caveat: outcome.independence.canAcquit ? undefined : notIndependentNote(outcome.independence),
  };
}

function skillReadOf(entry: EntryRead): ReviewerSkillRead {
  switch (entry.kind) {
    case 'file':
    case 'missing':
      return entry;
    case 'symlink':
      return { kind: 'not-a-file', what: 'a symbolic link' };
    case 'folder':
      return { kind: 'not-a-file', what: 'a folder' };
    case 'binary':
      return { kind: 'not-a-file', what: 'a binary file' };
  }
}

/**
 * The reviewer's instructions for this turn (docs/how-it-works.md § The reviewer learns): the reviewer
 * skill as the repository's DEFAULT branch has it now — never the pull request's head, which may edit it —
 * else the built-in ones, with the reason when a skill was there but could not be used.
 */
async function reviewerInstructionsOf(
  session: Pick<PullSession, 'readOnDefaultBranch'>,
  folder: string | undefined,
): Promise<ReviewerInstructions> {
  const dir = folder ?? DEFAULT_REVIEWER_SKILL_DIR;
  const file = reviewerSkillFile(dir);
  if (file === undefined) {
    return {
      source: 'built-in',
      note: `\`reviewer_skill: ${dir}\` in .github/review-loop.yml is not a folder inside the repository`,
    };
  }
  try {
    const read = await session.readOnDefaultBranch(file, MAX_REVIEWER_SKILL_BYTES);
    return instructionsFrom(skillReadOf(read.entry), { path: file, commit: read.commit, ref: read.branch });
  } catch (error) {
    return {
      source: 'built-in',
      note: `${file} on the default branch could not be read (${describeApiError(error)})`,
    };
  }
}

async function runOnce(request: LoopRequest, env: NodeJS.ProcessEnv, options: EngineRunnerOptions) {
  const { settings, session, signal } = request;
  const instructions = await reviewerInstructionsOf(session, settings.reviewerSkill);
  const said = instructionsSentence(instructions);
  if (instructions.source === 'built-in' && instructions.note !== undefined) session.log.warn(said);
  else session.log.info(said);
  const models = buildLoopModels(
    settings,
    env,
    options.models,
    instructions.source === 'skill' ? instructions.text : undefined,
  );
  const store = new GitHubReviewStore(session);
  const target = new GitHubReviewTarget(session);
  const events = new PullRequestEvents({
    session,
    target,
    store,
    maxRounds: settings.rounds,
    fix: settings.fix,
    reviewerModel: models.reviewer.id,
  });
  const outcome = await runReviewLoop(
    {
      difficulty: settings.difficulty,
      maxRounds: settings.rounds,
      fix: settings.fix,
      checkpoint: settings.checkpoint,
      preset: settings.preset,
      maxCostUsd: settings.budget.maxCostUsd,
      maxTokens: settings.budget.maxTokens,
      allowGlobs: settings.fixPaths,
      // Manual (and fork) PRs get the executor's fixes as one-click suggestions; nothing is pushed.
      proposeManualFixes: true,
    },
    {
      models,
      store,
      target,
      checkpoint: new CommentCheckpoint(),
      instructions: { take: () => session.takeGuidance() },
      dismissals: { list: () => session.dismissals() },
      published: { find: (runId, round) => session.publishedRound(runId, round) },
      log: {
        info: (message) => session.log.info(message),
        warn: (message) => session.log.warn(message),
        progress: (message) => session.log.info(message),
      },
      clock: options.clock ?? (() => new Date()),
      signal,
      events,
      randomHex: () => suffixOf(request.runId),
    },
    { checkpoint: answerOf(request.trigger) },
  );
  // Interrupted before any verdict, the engine names the base; the check belongs on the head under review.
  const ended = loopOutcomeOf(outcome.status === 'interrupted' ? { ...outcome, head: target.head } : outcome);
  return { ...ended, instructions: said };
}

export function createLoopRunner(env: NodeJS.ProcessEnv, options: EngineRunnerOptions = {}): LoopRunner {
  return { run: (request) => runOnce(request, env, options) };
}
