/**
 * The GitHub side of the review engine's ports (docs/how-it-works.md § Layers and ports), built on the
 * pull session: the store keeps the engine's state, the reviewer's memory and the acquittal receipts in
 * the sticky comment's hidden block (each round's full text lives in its PR review, so the round log is
 * not duplicated there); the target is the pull request read through the API at exact SHAs; the checkpoint
 * always answers `wait` — a person answers with a later comment, which the App hands the engine as the
 * resume input of the next call.
 */
import type { CallTrace } from '../core/review-answers.js';
import type { AcquittalReceipt } from '../core/review-log.js';
import { boundText, type BoundedText, type Claims } from '../core/review-material.js';
import { StoredStateSchema, type ReviewState, type StoredState } from '../core/review-state.js';
import type {
  Checkpoint,
  CheckpointAnswer,
  CommitResult,
  FileRead,
  FolderEntry,
  ReviewStore,
  ReviewTarget,
  SearchHit,
} from '../ports/review.js';
import type { PullSession } from './pull-session.js';

/** The engine's records as the App keeps them in the sticky comment. */
export interface EngineRecords {
  state?: unknown;
  memory?: string;
  receipts?: Array<Record<string, unknown>>;
  traceId?: string;
}

/** Memory beyond this is cut from the front (oldest first): the sticky comment has one 65,536-character body. */
export const MEMORY_LIMIT = 20_000;
const RECEIPT_LIMIT = 20;
/**
 * The engine's records at most, as JSON characters (docs/how-it-works.md § The App, state on the PR):
 * base64 makes them a third larger, the App's own bookkeeping and the visible round log share the same
 * 65,536-character comment, so the block must stay well under it or the loop can never save again.
 */
export const RECORDS_BUDGET = 24_000;
/** What a weakness's text keeps when even the rounds resume needs are over the budget. */
const KEPT_TEXT = 600;

function records(raw: unknown): EngineRecords {
  return raw !== null && typeof raw === 'object' ? (raw as EngineRecords) : {};
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

export class ReviewStateUnreadableError extends Error {
  constructor(location: string, detail: string) {
    super(
      `the review state in ${location} cannot be read (${detail}); comment \`/review-loop\` to start afresh`,
    );
    this.name = 'ReviewStateUnreadableError';
  }
}

export class GitHubReviewStore implements ReviewStore {
  readonly location: string;
  readonly #session: PullSession;

  constructor(session: PullSession) {
    this.#session = session;
    this.location = `the review-loop status comment of pull request #${session.pr.pr.number}`;
  }

  async #records(): Promise<EngineRecords> {
    return records(await this.#session.loadReviewState());
  }

  /** Every write is bounded (boundRecords): an unbounded state would fail every later save of the loop. */
  async #change(change: (current: EngineRecords) => EngineRecords): Promise<void> {
    await this.#session.saveReviewState(boundRecords(change(await this.#records())));
  }

  async readState(): Promise<StoredState | undefined> {
    const raw = (await this.#records()).state;
    if (raw === undefined || raw === null) return undefined;
    const parsed = StoredStateSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ReviewStateUnreadableError(this.location, parsed.error.issues[0]?.message ?? 'invalid');
    }
    return parsed.data;
  }

  writeState(state: ReviewState): Promise<void> {
    return this.#change((current) => ({ ...current, state }));
  }

  deleteState(): Promise<void> {
    return this.#change(({ state: _dropped, ...rest }) => rest);
  }

  async readMemory(): Promise<string> {
    return (await this.#records()).memory ?? '';
  }

  appendMemory(text: string): Promise<void> {
    return this.#change((current) => {
      const memory = `${current.memory ?? ''}${text}`;
      return { ...current, memory: trimMemory(memory, MEMORY_LIMIT) };
    });
  }

  /** Each round's full text is its PR review; the sticky comment shows one row per round instead. */
  async appendLog(_text: string): Promise<void> {}

  appendReceipt(receipt: AcquittalReceipt): Promise<void> {
    return this.#change((current) => ({
      ...current,
      receipts: [...(current.receipts ?? []), { ...receipt }].slice(-RECEIPT_LIMIT),
    }));
  }

  async readReceipts(): Promise<Array<Partial<AcquittalReceipt>>> {
    return ((await this.#records()).receipts ?? []) as Array<Partial<AcquittalReceipt>>;
  }

  /** No trace folder on a pull request: the id names the PR and run, and the reviews are the trace. */
  async createTraceFolder(now: Date): Promise<string> {
    const id = `review-loop/pr-${this.#session.pr.pr.number}/${now.toISOString().slice(0, 10)}`;
    await this.#change((current) => ({ ...current, traceId: id }));
    return id;
  }

  /** Requests and raw answers are not kept beyond the round's review (which holds the raw answer). */
  async writeTrace(_traceId: string, _name: string, _trace: CallTrace): Promise<void> {}
}

/** A diff cut at a line break inside the budget (the engine's own bound). */
export function boundDiff(text: string, budget: number): BoundedText {
  return boundText(text, budget);
}

/** Files the search reads at most, and the bytes of each: search has no API at a SHA, so it walks files. */
const SEARCH_FILE_LIMIT = 100;
const SEARCH_FILE_BYTES = 200_000;

export class GitHubReviewTarget implements ReviewTarget {
  readonly label: string;
  readonly #session: PullSession;
  /** The head the last `resolve` saw: fixes are built on it, never on a head nobody reviewed. */
  #head: string;
  /** The head the App's last fix was committed on: GitHub may still report it as the PR's head for a moment. */
  #committedOn: string | undefined;

  constructor(session: PullSession) {
    this.#session = session;
    this.label = `pull request #${session.pr.pr.number}`;
    this.#head = session.pr.headSha;
  }

  /** The head the loop is on now (the last resolved one, or the App's own fix on it). */
  get head(): string {
    return this.#head;
  }

  /** The PR's title and body are its claims (untrusted text; the engine quotes it as data). */
  async claims(): Promise<Claims> {
    const { title, body } = this.#session.pr;
    return { source: this.label, text: `${title}\n\n${body}`.trim() };
  }

  /**
   * The merge base and the PR's head now: a person's push while the loop runs is reviewed in the next
   * round. Right after the App's own fix GitHub may still name the commit it was made on; the fix wins.
   */
  async resolve(): Promise<{ base: string; head: string }> {
    const current = await this.#session.currentHead();
    if (current !== this.#committedOn) this.#head = current;
    const { mergeBase } = await this.#session.compare(this.#session.pr.baseSha, this.#head);
    return { base: mergeBase, head: this.#head };
  }

  async filesUnderReview(base: string, head: string): Promise<string[]> {
    return (await this.#session.compare(base, head)).files;
  }

  async diff(from: string, to: string, budget: number): Promise<BoundedText> {
    return boundDiff(await this.#session.readCompareDiff(from, to), budget);
  }

  async changedFiles(from: string, to: string): Promise<string[]> {
    return (await this.#session.compare(from, to)).files;
  }

  readFile(path: string, at: string, maxBytes: number): Promise<FileRead> {
    return this.#session.readEntry(path, at, maxBytes);
  }

  listFolder(path: string, at: string): Promise<FolderEntry[] | undefined> {
    return this.#session.listFolder(path, at);
  }

  /** Lines containing `query`, walking at most SEARCH_FILE_LIMIT files under `folder` at `at`. */
  async searchText(
    query: string,
    at: string,
    options: { folder?: string; maxHits: number },
  ): Promise<SearchHit[]> {
    const hits: SearchHit[] = [];
    const queue = [options.folder ?? ''];
    let read = 0;
    while (queue.length > 0 && hits.length < options.maxHits && read < SEARCH_FILE_LIMIT) {
      const folder = queue.shift() ?? '';
      for (const entry of (await this.#session.listFolder(folder, at)) ?? []) {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.kind === 'folder') queue.push(path);
        if (entry.kind !== 'file' || read >= SEARCH_FILE_LIMIT) continue;
        read += 1;
        const file = await this.#session.readEntry(path, at, SEARCH_FILE_BYTES);
        if (file.kind !== 'file') continue;
        file.text.split('\n').forEach((text, i) => {
          if (hits.length < options.maxHits && text.includes(query)) hits.push({ path, line: i + 1, text });
        });
      }
    }
    return hits;
  }

  /** One commit on the PR branch through the Git Data API; nothing is forced, forks are refused. */
  async commitFiles(files: Array<{ path: string; text: string }>, message: string): Promise<CommitResult> {
    const result = await this.#session.commitFiles(files, message, this.#head);
    if (result.status === 'committed') {
      this.#committedOn = this.#head;
      this.#head = result.sha;
      return { head: result.sha, refused: [] };
    }
    return { head: this.#head, refused: files.map((file) => ({ path: file.path, reason: result.reason })) };
  }
}

/**
 * The App's checkpoint: nobody is at a terminal, so the engine is told to `wait` — it saves the reviewed
 * round and returns `awaiting-checkpoint`. The person's later `/review-loop go | skip N | stop | <text>`
 * reaches the engine as the resume input of the next call, which applies it to the round that waited.
 */
export class CommentCheckpoint implements Checkpoint {
  async ask(): Promise<CheckpointAnswer> {
    return { kind: 'wait' };
  }
}
