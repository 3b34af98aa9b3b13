/**
 * Steps A–D of one iteration (docs/how-it-works.md § One iteration (steps A–H)): brainstorm one edit from
 * the kept state, apply it, write and commit it while its scoring starts, then hand the scored text to the
 * keep decision (keep-decision.ts). What the attempt got to before it failed is kept on an Attempt, so a
 * crash row still names its commit and its spend counts.
 */
import { untilAborted } from '../../core/abortable.js';
import { messageOf } from '../../core/errors.js';
import { NO_COMMIT, applyEdit, type KeptState } from '../../core/iterate/hill-climb.js';
import { ModelOutputError, type EditProposal } from '../../core/model-answers.js';
import { ZERO_USAGE, addUsage, type Usage } from '../../core/usage.js';
import { buildEditorInput } from '../editor-input.js';
import { CapAtStart, costCapReached } from './caps.js';
import type { LoopContext } from './context.js';
import { judgeEdit, type Verdict } from './keep-decision.js';
import { screenThenScore } from './screening.js';
import { writeSkillFile } from './skill-file.js';

/** How far one attempt got: its edit's description, its commit and what it spent so far. */
export class Attempt {
  description = 'no edit';
  /** The editor answered with a usable proposal shape (a real description, not "no edit"). */
  proposed = false;
  commit = NO_COMMIT;
  usage: Usage = ZERO_USAGE;

  spent(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  proposedEdit(description: string): void {
    this.description = description;
    this.proposed = true;
  }

  committed(commit: string): void {
    this.commit = commit;
  }
}

/** Steps A–F from the kept state; throws only what the caller must treat as a crash. */
export async function attemptEdit(
  loop: LoopContext,
  kept: KeptState,
  signal: AbortSignal,
  attempt: Attempt,
): Promise<Verdict> {
  const { input } = loop;
  const { state } = loop.ledger;
  // Step A: brainstorm one edit.
  const editorInput = buildEditorInput(
    input.skill,
    kept,
    state.consecutiveReverts,
    state.revertedDescriptions,
    loop.statements,
  );
  let proposal: EditProposal | undefined;
  let unusable: string | undefined;
  const proposing = untilAborted(input.models.propose(editorInput, signal), signal);
  proposing.catch(() => undefined); // awaited below, after the previous revert's reset
  // A report's draw waiting to start (the uplift) runs beside this call: the editor's request goes out first.
  loop.launchReports();
  await loop.resets.settle();
  try {
    const reply = await proposing;
    attempt.spent(reply.usage);
    proposal = reply.value;
    attempt.proposedEdit(proposal.description);
  } catch (err) {
    if (!(err instanceof ModelOutputError) || signal.aborted) throw err;
    unusable = messageOf(err);
  }
  // Step B: apply. An unusable proposal is the loop working as intended: revert, nothing committed.
  const applied = proposal ? applyEdit(kept.text, proposal) : undefined;
  if (!proposal || !applied?.ok) {
    return { outcome: 'revert', score: null, note: applied && !applied.ok ? applied.reason : unusable };
  }
  const newText = applied.text;
  await writeSkillFile(loop.skillMdPath, newText);
  // Steps C and D side by side: the scoring needs the text, not the commit, so the first renders go out
  // while git commits (docs/how-it-works.md § The hill-climb loop). A failed commit is still a crash: the
  // scoring is stopped and the edit discarded.
  const stopScoring = new AbortController();
  const scoring = screenThenScore(loop, kept, newText, AbortSignal.any([signal, stopScoring.signal]));
  scoring.catch(() => undefined); // awaited below once the commit is in
  try {
    attempt.committed(await input.git.commitFile(input.worktreePath, loop.skillMdRel, attempt.description));
  } catch (err) {
    stopScoring.abort(err);
    await scoring.catch(() => undefined);
    await input.git.discardChanges(input.worktreePath);
    throw err;
  }
  // Step D: score under the same timeout, saturation handler included.
  const screened = await scoring;
  attempt.spent(screened.usage);
  if ('screenedOut' in screened) return { outcome: 'revert', score: null, note: screened.screenedOut };
  // Steps E/F.
  const from = await settledStart(loop, kept);
  return judgeEdit(loop, from, newText, screened, signal, (usage) => attempt.spent(usage));
}

/**
 * The first iteration's editor call and scoring ran beside the baseline's extra draws (docs/how-it-works.md
 * § Baseline). Nothing before the keep decision reads what they decide: the editor's prompt, the edit and
 * the screening read draw 0's text and verdicts, which the state from draw 0 holds as the settled one
 * does. The keep decision reads the kept score (their mean), the noise and the flip rate, so it waits for
 * them here; the row waits in runIteration. A cost budget their spend reaches ends the iteration unjudged.
 */
async function settledStart(loop: LoopContext, kept: KeptState): Promise<KeptState> {
  if (!loop.startPending) return kept;
  const settled = await loop.startSettled();
  if (!settled) throw loop.interrupted();
  const stop = costCapReached(loop);
  if (stop) throw new CapAtStart(stop);
  return settled;
}
