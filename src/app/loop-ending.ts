/**
 * How a loop's turn ends, in words (docs/how-it-works.md § The App): the phase the record takes, the check
 * run's conclusion and title for each way the engine can stop, and what the end says about a late stop.
 */
import type { Phase } from '../github/review/loop-state.js';
import type { LoopOutcome, LoopStatus } from './loop-runner.js';
import type { EndReason } from './worker-context.js';

export type Conclusion = 'success' | 'failure' | 'action_required' | 'cancelled' | 'neutral';

/**
 * What the loop's end says. A stop that came once the loop had ended on its own (an approval posted, the
 * rounds run out) did not end it: that outcome stands, and the words say the stop came late.
 */
export function endWords(outcome?: LoopOutcome, failure?: string, reason?: EndReason, status?: LoopStatus) {
  if (failure !== undefined || reason !== 'stop') return failure ?? outcome?.message;
  const paused = ['stopped', 'awaiting-fix', 'awaiting-checkpoint', 'interrupted'];
  if (outcome === undefined || paused.includes(status ?? '')) return 'Ended by `/review-loop stop`.';
  return `${outcome.message} The \`/review-loop stop\` came after the loop had ended so.`;
}

export interface Ending {
  phase: Phase;
  conclusion: Conclusion;
  title: string;
}

export function endingOf(status: LoopStatus, outcome: LoopOutcome): Ending {
  const last = outcome.lastScore === undefined ? 'no verdict' : `${outcome.lastScore}/10`;
  switch (status) {
    case 'acquitted':
      return {
        phase: 'acquitted',
        conclusion: 'success',
        title: `Approved: ${last}, ${outcome.lastVerdict ?? ''}`,
      };
    case 'awaiting-fix':
      return { phase: 'waiting-fix', conclusion: 'action_required', title: 'Waiting for a fix' };
    case 'awaiting-checkpoint':
      return {
        phase: 'waiting-checkpoint',
        conclusion: 'action_required',
        title: 'Waiting at the checkpoint',
      };
    case 'interrupted':
      return {
        phase: 'interrupted',
        conclusion: 'action_required',
        title: 'Interrupted; comment /review-loop continue',
      };
    case 'stopped':
      return { phase: 'stopped', conclusion: 'failure', title: 'Stopped' };
    case 'max-rounds':
      // The title follows the last round: one without a verdict did not request changes.
      return {
        phase: 'gave-up',
        conclusion: 'failure',
        title:
          outcome.lastRoundScored === false
            ? 'Rounds ran out; the last round had no verdict'
            : 'Rounds ran out with changes still requested',
      };
    case 'budget':
      return { phase: 'gave-up', conclusion: 'failure', title: 'Budget spent with changes still requested' };
    case 'not-independent':
      return {
        phase: 'not-independent',
        conclusion: 'failure',
        title: `Not approved: ${last}, ${outcome.lastVerdict ?? ''}, but the reviewer is not independent of the executor`,
      };
    case 'reviewed':
      // One review and no fix: no pass either, so a required check does not let the change through.
      return { phase: 'reviewed', conclusion: 'failure', title: `Reviewed once (fix: none): ${last}` };
  }
}
