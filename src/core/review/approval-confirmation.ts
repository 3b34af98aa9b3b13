/**
 * When a positive verdict approves (docs/how-it-works.md § Approval under noise): the stop gate's verdict
 * (score ≥ 6 and ready or almost) is one noisy answer, so an approval also needs
 *   1. no critical or major finding standing in the round itself — a "ready" that lists a checked blocker
 *      is a contradiction, and the finding wins; and
 *   2. a confirmation: a fresh review of the same head by the reviewer's model, shown neither the first
 *      verdict nor the reviewer's memory, in which no critical or major finding survives the check
 *      against the code. Its verdict alone does not block (a verdict is what this guards against); a
 *      blocker it found and the check confirmed does, and joins the round's findings for the fix.
 * Pure: the decisions and their sentences.
 */
import type { DismissedWeakness, RankedWeakness } from './state.js';
import { sameFinding } from './finding-identity.js';

const BLOCKING = new Set<RankedWeakness['severity']>(['critical', 'major']);

/** The findings that keep a round from approving: critical or major, not resolved in a debate. */
export function blockingFindings(findings: readonly RankedWeakness[]): RankedWeakness[] {
  return findings.filter((f) => BLOCKING.has(f.severity) && !f.resolved_by_debate);
}

/** Why a positive verdict does not approve when the round lists a blocker, for the round's note. */
export function standingBlockerNote(blockers: readonly RankedWeakness[]): string {
  const first = blockers[0]!;
  const more = blockers.length > 1 ? ` and ${blockers.length - 1} more` : '';
  return (
    `not approved: the verdict is positive, but a ${first.severity} finding stands ("${first.title}"${more}), ` +
    'and a standing critical or major finding keeps any round from approving'
  );
}

/**
 * The confirmation's findings that are new to this round: not the same finding as one the round already
 * has, and not one the maintainers dismissed.
 */
export function newFindings(
  second: readonly RankedWeakness[],
  first: readonly RankedWeakness[],
  dismissed: readonly DismissedWeakness[],
): RankedWeakness[] {
  return second.filter(
    (w) => !first.some((f) => sameFinding(w, f)) && !dismissed.some((d) => sameFinding(w, d)),
  );
}

export type ConfirmationOutcome =
  | { confirmed: true; sentence: string }
  | { confirmed: false; findings: RankedWeakness[]; note: string; sentence: string };

/**
 * The decision once the confirmation's new blockers have been checked: the approval stands when none
 * holds; otherwise the round does not approve and the confirmed blockers follow the round's own findings.
 */
export function confirmationOutcome(
  round: number,
  first: readonly RankedWeakness[],
  confirmedBlockers: readonly RankedWeakness[],
  secondVerdict: string,
): ConfirmationOutcome {
  if (confirmedBlockers.length === 0) {
    return {
      confirmed: true,
      sentence: `round ${round}: a fresh second review of this head (verdict ${secondVerdict}) found no blocker that a check against the code confirms; the approval stands`,
    };
  }
  const findings = [...first, ...confirmedBlockers].map((f, i) => ({ ...f, rank: i + 1 }));
  const titles = confirmedBlockers.map((f) => `"${f.title.replace(/\s+/g, ' ')}"`).join(', ');
  return {
    confirmed: false,
    findings,
    note:
      `not approved: a fresh second review of this head found ${confirmedBlockers.length === 1 ? 'a blocker' : 'blockers'} ` +
      `the first review missed and a check against the code confirmed: ${titles}`,
    sentence: `round ${round}: the approval is withheld — a fresh second review found ${confirmedBlockers.length} confirmed blocker(s): ${titles}`,
  };
}

/** The note when the confirmation could not be read: an approval nobody confirmed is not given. */
export const UNCONFIRMED_NOTE =
  'not approved: the fresh second review that confirms an approval gave no usable answer (twice)';
