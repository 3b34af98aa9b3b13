/**
 * The human checkpoint's answers (docs/how-it-works.md § Review rounds): the original's vocabulary — go,
 * skip N[,M], stop, or free text as guidance for the fix — plus `wait`, for a front-end that has no one to
 * ask right now (the App, a script whose input ended): the run pauses and resumes with the answer later.
 */

export type CheckpointAnswer =
  | { kind: 'go' }
  | { kind: 'skip'; items: number[] }
  | { kind: 'stop' }
  | { kind: 'guidance'; text: string }
  | { kind: 'wait' };

const APPROVALS = new Set(['go', 'continue', 'ok', 'okay', 'proceed', 'yes', 'y']);
const STOPS = new Set(['stop', 'enough', 'done', 'quit', 'abort']);

/**
 * Reads one answer. `skip 2`, `skip 1,3`, `skip 1, 3` and `skip 1 3` skip those fixes; an empty answer
 * means go (pressing Enter accepts the suggested fixes, as the prompt says).
 */
export function parseCheckpointAnswer(input: string): CheckpointAnswer {
  const text = input.trim();
  const word = text.toLowerCase().replace(/[.!]+$/, '');
  if (word === '' || APPROVALS.has(word)) return { kind: 'go' };
  if (STOPS.has(word)) return { kind: 'stop' };
  if (word === 'wait') return { kind: 'wait' };
  const skip = /^skip\s+(\d+(?:\s*[,\s]\s*\d+)*)$/.exec(word);
  if (skip?.[1] !== undefined) {
    const items = [...new Set(skip[1].split(/[\s,]+/).map(Number))]
      .filter((n) => n > 0)
      .sort((a, b) => a - b);
    if (items.length > 0) return { kind: 'skip', items };
  }
  return { kind: 'guidance', text };
}
