/**
 * The GitHub side of the review engine's ports (docs/how-it-works.md § Layers and ports), built on the
 * pull session: the store keeps the engine's state, the reviewer's memory and the acquittal receipts in
 * the sticky comment's hidden block (each round's full text lives in its PR review, so the round log is
 * not duplicated there); the target is the pull request read through the API at exact SHAs; the checkpoint
 * answers from the command that resumed the loop, or `wait`.
 *
 * They are written against the shapes of the engine's ports (src/ports/review.ts) without importing them,
 * so the App builds before the engine lands; wiring them in is `implements` plus the engine's state schema
 * in `readState` (see createLoopRunner in engine.ts).
 */
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

function records(raw: unknown): EngineRecords {
  return raw !== null && typeof raw === 'object' ? (raw as EngineRecords) : {};
}

export class GitHubReviewStore {
  readonly location: string;
  readonly #session: PullSession;

  constructor(session: PullSession) {
    this.#session = session;
    this.location = `the review-loop status comment of pull request #${session.pr.pr.number}`;
  }

  async #records(): Promise<EngineRecords> {
    return records(await this.#session.loadReviewState());
  }

  async #change(change: (current: EngineRecords) => EngineRecords): Promise<void> {
    await this.#session.saveReviewState(change(await this.#records()));
  }

  /** The engine's raw state; the wiring parses it with the engine's StoredStateSchema. */
  async readState(): Promise<unknown> {
    return (await this.#records()).state;
  }

  writeState(state: unknown): Promise<void> {
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
      return { ...current, memory: memory.length > MEMORY_LIMIT ? memory.slice(-MEMORY_LIMIT) : memory };
    });
  }

  /** Each round's full text is its PR review; the sticky comment shows one row per round instead. */
  async appendLog(_text: string): Promise<void> {}

  appendReceipt(receipt: Record<string, unknown>): Promise<void> {
    return this.#change((current) => ({
      ...current,
      receipts: [...(current.receipts ?? []), receipt].slice(-RECEIPT_LIMIT),
    }));
  }

  async readReceipts(): Promise<Array<Record<string, unknown>>> {
    return (await this.#records()).receipts ?? [];
  }

  /** No trace folder on a pull request: the id names the PR and run, and the reviews are the trace. */
  async createTraceFolder(now: Date): Promise<string> {
    const id = `review-loop/pr-${this.#session.pr.pr.number}/${now.toISOString().slice(0, 10)}`;
    await this.#change((current) => ({ ...current, traceId: id }));
    return id;
  }

  /** Requests and raw answers are not kept beyond the round's review (which holds the raw answer). */
  async writeTrace(_traceId: string, _name: string, _trace: unknown): Promise<void> {}
}

/** A diff cut at a line break inside the budget (the engine's BoundedText shape). */
export function boundDiff(text: string, budget: number): { text: string; omittedChars: number } {
  if (text.length <= budget) return { text, omittedChars: 0 };
  const cut = text.lastIndexOf('\n', budget);
  const end = cut > budget / 2 ? cut : budget;
  return { text: text.slice(0, end), omittedChars: text.length - end };
}

/** Files the search reads at most, and the bytes of each: search has no API at a SHA, so it walks files. */
const SEARCH_FILE_LIMIT = 100;
const SEARCH_FILE_BYTES = 200_000;

export class GitHubReviewTarget {
  readonly label: string;
  readonly #session: PullSession;
  /** The head the last `resolve` saw: fixes are built on it, never on a head nobody reviewed. */
  #head: string;

  constructor(session: PullSession) {
    this.#session = session;
    this.label = `pull request #${session.pr.pr.number}`;
    this.#head = session.pr.headSha;
  }

  /** The PR's title and body are its claims (untrusted text; the engine quotes it as data). */
  async claims(): Promise<{ source: string; text: string }> {
    const { title, body } = this.#session.pr;
    return { source: this.label, text: `${title}\n\n${body}`.trim() };
  }

  async resolve(): Promise<{ base: string; head: string }> {
    const { mergeBase } = await this.#session.compare(this.#session.pr.baseSha, this.#head);
    return { base: mergeBase, head: this.#head };
  }

  async filesUnderReview(base: string, head: string): Promise<string[]> {
    return (await this.#session.compare(base, head)).files;
  }

  async diff(from: string, to: string, budget: number): Promise<{ text: string; omittedChars: number }> {
    return boundDiff(await this.#session.readCompareDiff(from, to), budget);
  }

  async changedFiles(from: string, to: string): Promise<string[]> {
    return (await this.#session.compare(from, to)).files;
  }

  readFile(path: string, at: string, maxBytes: number) {
    return this.#session.readEntry(path, at, maxBytes);
  }

  listFolder(path: string, at: string) {
    return this.#session.listFolder(path, at);
  }

  /** Lines containing `query`, walking at most SEARCH_FILE_LIMIT files under `folder` at `at`. */
  async searchText(
    query: string,
    at: string,
    options: { folder?: string; maxHits: number },
  ): Promise<Array<{ path: string; line: number; text: string }>> {
    const hits: Array<{ path: string; line: number; text: string }> = [];
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
  async commitFiles(
    files: Array<{ path: string; text: string }>,
    message: string,
  ): Promise<{ head: string; refused: Array<{ path: string; reason: string }> }> {
    const result = await this.#session.commitFiles(files, message, this.#head);
    if (result.status === 'committed') {
      this.#head = result.sha;
      return { head: result.sha, refused: [] };
    }
    return { head: this.#head, refused: files.map((file) => ({ path: file.path, reason: result.reason })) };
  }
}

export type CheckpointReply =
  | { kind: 'go' }
  | { kind: 'skip'; items: number[] }
  | { kind: 'stop' }
  | { kind: 'guidance'; text: string }
  | { kind: 'wait' };

/** Answers the engine's checkpoint once with the command that resumed the loop; after that, `wait`. */
export class CommentCheckpoint {
  #answer: CheckpointReply | undefined;

  constructor(answer: CheckpointReply | undefined) {
    this.#answer = answer;
  }

  async ask(): Promise<CheckpointReply> {
    const answer = this.#answer ?? { kind: 'wait' };
    this.#answer = undefined;
    return answer;
  }
}
