/**
 * The review engine's records as the App keeps them in the sticky comment's hidden block, and the bound
 * that keeps that block small (docs/how-it-works.md § Layers and ports): the waiting round's raw answers
 * go first, then older rounds' weaknesses, texts and memory, oldest first.
 */
import type { StoredState } from './state.js';

/** The engine's records as the App keeps them in the sticky comment. */
export interface EngineRecords {
  state?: unknown;
  memory?: string;
  receipts?: Array<Record<string, unknown>>;
  traceId?: string;
}

/** Memory beyond this is cut from the front (oldest first): the sticky comment has one 65,536-character body. */
export const MEMORY_LIMIT = 20_000;
export const RECEIPT_LIMIT = 20;
/**
 * The engine's records at most, as JSON characters (docs/how-it-works.md § The App, state on the PR):
 * base64 makes them a third larger, the App's own bookkeeping and the visible round log share the same
 * 65,536-character comment, so the block must stay well under it or the loop can never save again.
 */
export const RECORDS_BUDGET = 24_000;
/** What a weakness's text keeps when even the rounds resume needs are over the budget. */
const KEPT_TEXT = 600;

/** The records read from the sticky state block (an absent block reads as none). */
export function records(raw: unknown): EngineRecords {
  return raw !== null && typeof raw === 'object' ? raw : {};
}

const MEMORY_HEADING = /^# Reviewer Memory — .*$/gm;

/**
 * Memory cut to `max` characters, oldest first, keeping the current run's heading: the reviewer is only
 * shown the part under its run's heading (memoryForRun), so a cut through it would lose the whole memory.
 */
export function trimMemory(memory: string, max: number): string {
  if (memory.length <= max) return memory;
  const headings = [...memory.matchAll(MEMORY_HEADING)];
  const last = headings.at(-1);
  const heading = last ? `${last[0]}\n` : '';
  const room = Math.max(0, max - heading.length);
  const tail = room === 0 ? '' : memory.slice(-room);
  // Start at a line break when there is one, so no section begins mid-sentence.
  const cut = tail.indexOf('\n');
  const body = cut === -1 ? tail : tail.slice(cut + 1);
  return last && !body.includes(last[0]) ? `${heading}${body}` : body;
}

type Weakness = StoredState extends { history?: Array<{ weaknesses: Array<infer W> }> } ? W : never;
type Round = NonNullable<StoredState['history']>[number];
type Pending = NonNullable<StoredState['pending']>;

const size = (value: unknown): number => JSON.stringify(value).length;
const cutText = (text: string): string => (text.length > KEPT_TEXT ? `${text.slice(0, KEPT_TEXT)}…` : text);
const textless = (w: Weakness): Weakness => ({ ...w, detail: '', minimum_fix: '' });
const shortened = (w: Weakness): Weakness => ({
  ...w,
  detail: cutText(w.detail),
  minimum_fix: cutText(w.minimum_fix),
});

/**
 * The engine's records cut, deterministically and step by step, until they fit `budget`
 * (docs/how-it-works.md § The App, state on the PR). What resume needs stays: the round counters, every
 * round's score, verdict and weakness titles and efforts (the blockers of a give-up), the waiting round's
 * weaknesses with their text (its fix is built from them) and the current run's memory heading. Each
 * round's full text is in its PR review, so nothing cut here is lost from the pull request.
 */
export function boundRecords(input: EngineRecords, budget = RECORDS_BUDGET): EngineRecords {
  const out: EngineRecords = { ...input };
  const state =
    input.state !== null && typeof input.state === 'object'
      ? { ...(input.state as Record<string, unknown>) }
      : undefined;
  if (state) out.state = state;
  const history = (): Round[] | undefined =>
    state && Array.isArray(state.history) ? (state.history as Round[]) : undefined;
  const lastScored = history()?.findLastIndex((r) => r.score !== null) ?? -1;
  const rounds = (pick: (i: number) => boolean, change: (w: Weakness) => Weakness) => {
    const current = history();
    if (!state || !current) return;
    state.history = current.map((r, i) => (pick(i) ? { ...r, weaknesses: r.weaknesses.map(change) } : r));
  };
  const waiting = (): Pending | undefined =>
    state?.pending !== null && typeof state?.pending === 'object' ? (state.pending as Pending) : undefined;
  const pending = (change: (p: Pending) => Pending) => {
    const current = waiting();
    if (state && current) state.pending = change(current);
  };
  const steps: Array<() => void> = [
    // The waiting round's raw answers: its posted PR review holds them; resume never reads them.
    () => pending((p) => ({ ...p, raw: '', verifier_raw: null })),
    // The weaknesses of every round but the last scored one: the engine only reads that round's (its
    // blockers), and each round's are in its PR review and its row of the sticky log.
    () => {
      const current = history();
      if (state && current) {
        state.history = current.map((r, i) => (i === lastScored ? r : { ...r, weaknesses: [] }));
      }
    },
    // The waiting round's memory update (already in the memory), summary and debate (in its review).
    () =>
      pending((p) => ({
        ...p,
        memory_update: '',
        summary: cutText(p.summary),
        debate: p.debate === null ? null : cutText(p.debate),
      })),
    // With a round waiting, the last scored round's text: the fix is built from the waiting round's.
    () => {
      if (waiting()) rounds((i) => i === lastScored, textless);
    },
    // The waiting round's weakness texts, cut short (titles, ranks and places stay whole).
    () => pending((p) => ({ ...p, weaknesses: p.weaknesses.map(shortened) })),
    () => rounds((i) => i === lastScored, shortened),
    // The reviewer memory, oldest first (the current run's heading stays).
    () => {
      for (let pass = 0; pass < 3 && out.memory && size(out) > budget; pass++) {
        out.memory = trimMemory(out.memory, Math.max(0, out.memory.length - (size(out) - budget)));
      }
    },
    // Older receipts (the acquitting round's review carries its own).
    () => {
      if (out.receipts) out.receipts = out.receipts.slice(-1);
    },
  ];
  const [always, ...rest] = steps;
  always?.();
  for (const step of rest) {
    if (size(out) <= budget) break;
    step();
  }
  return out;
}
