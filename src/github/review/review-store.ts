/**
 * The GitHub side of the review engine's store (docs/how-it-works.md § Layers and ports), built on the pull
 * session: the engine's state, the reviewer's memory and the acquittal receipts live in the sticky
 * comment's hidden block (each round's full text lives in its PR review, so the round log is not duplicated
 * there).
 */
import type { CallTrace } from '../../core/review/answers.js';
import type { AcquittalReceipt } from '../../core/review/log.js';
import { StoredStateSchema, type ReviewState, type StoredState } from '../../core/review/state.js';
import {
  boundRecords,
  MEMORY_LIMIT,
  RECEIPT_LIMIT,
  records,
  trimMemory,
  type EngineRecords,
} from '../../core/review/sticky-records.js';
import type { ReviewStore } from '../../ports/review.js';
import type { PullSession } from './pull-session-port.js';
import { SkillclimbError } from '../../core/errors.js';

export class ReviewStateUnreadableError extends SkillclimbError {
  readonly kind = 'github';
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
    return (await this.#records()).receipts ?? [];
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
