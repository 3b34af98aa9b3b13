/**
 * The sticky status comment (docs/how-it-works.md § Review state, memory and receipts): ONE comment per
 * pull request, written by the App, edited in place and never re-posted. Its first line is a marker, the
 * middle is the human-readable round log, the end is the state as base64 JSON inside an HTML comment —
 * base64 has no `-`, `>` or `<`, so no content (a title, a model answer, a path) can end the block early.
 *
 * Only the App's own comment is ever read as state: a comment by anyone else carrying the same marker and
 * the same block is ignored, whatever it contains.
 */
import { isDeepStrictEqual } from 'node:util';
import { KeyedLock } from '../../core/keyed-lock.js';
import type { AppIdentity, AppOctokit, PullRef } from './app-octokit.js';
import { isByApp, pullKey } from './app-octokit.js';
import { BODY_LIMIT, postable } from '../../core/text/untrusted-text.js';
import { SkillclimbError } from '../../core/errors.js';

export const STICKY_MARKER = '<!-- skillclimb:review-loop -->';
const STATE_PREFIX = '<!-- skillclimb:review-loop-state ';
const STATE_SUFFIX = ' -->';
const STATE_LINE = /^<!-- skillclimb:review-loop-state ([A-Za-z0-9+/=]*) -->$/;

export interface StickyComment {
  id: number;
  body: string;
  url: string;
}

export class StickyTooLargeError extends SkillclimbError {
  readonly kind = 'github';
  constructor(size: number) {
    super(`the review-loop state is ${size} characters, over what one comment can hold`);
    this.name = 'StickyTooLargeError';
  }
}

export function encodeStateBlock(state: unknown): string {
  return `${STATE_PREFIX}${Buffer.from(JSON.stringify(state), 'utf8').toString('base64')}${STATE_SUFFIX}`;
}

/** What a body's LAST line holds: no state block, a state, or a block that does not decode (and why). */
type StateBlockRead =
  { kind: 'none' } | { kind: 'state'; value: unknown } | { kind: 'unreadable'; problem: string };

export function readStateBlock(body: string): StateBlockRead {
  const last = body.trimEnd().split('\n').at(-1)?.replace(/\r$/, '') ?? '';
  const match = STATE_LINE.exec(last);
  if (!match) {
    return last.startsWith(STATE_PREFIX)
      ? { kind: 'unreadable', problem: 'its state block is cut or holds characters base64 does not have' }
      : { kind: 'none' };
  }
  try {
    return {
      kind: 'state',
      value: JSON.parse(Buffer.from(match[1] ?? '', 'base64').toString('utf8')) as unknown,
    };
  } catch {
    return { kind: 'unreadable', problem: 'its state block does not decode to JSON' };
  }
}

/** The state in a body's LAST line, or undefined when there is none or it does not decode. */
export function decodeStateBlock(body: string): unknown {
  const read = readStateBlock(body);
  return read.kind === 'state' ? read.value : undefined;
}

/**
 * Marker, visible log (bounded to fit, whatever it opened closed), state block: always under GitHub's
 * body limit, or an error. The visible log is the caller's Markdown, its untrusted parts already quoted.
 */
export function composeStickyBody(visible: string, state: unknown, limit = BODY_LIMIT): string {
  const block = encodeStateBlock(state);
  const room = limit - STICKY_MARKER.length - block.length - 4;
  if (room < 512) throw new StickyTooLargeError(block.length);
  return `${STICKY_MARKER}\n${postable(visible.trim(), room)}\n\n${block}`;
}

/**
 * Whether writing `next` over `current` would change nothing: the same visible text and the same state
 * (its JSON's key order aside — a state read back and written again need not list its keys alike).
 */
function sameStickyBody(current: string, next: string): boolean {
  if (current === next) return true;
  const visible = (body: string) => body.trimEnd().split('\n').slice(0, -1).join('\n');
  const state = decodeStateBlock(next);
  return (
    state !== undefined &&
    visible(current) === visible(next) &&
    isDeepStrictEqual(decodeStateBlock(current), state)
  );
}

function isSticky(comment: { body?: string | null }): boolean {
  return (comment.body ?? '').split('\n', 1)[0]?.replace(/\r$/, '').trim() === STICKY_MARKER;
}

/** The App's sticky comment on the PR (the oldest, should there ever be two), or undefined. */
export async function findStickyComment(
  octokit: AppOctokit,
  pr: PullRef,
  app: AppIdentity,
): Promise<StickyComment | undefined> {
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner: pr.owner,
    repo: pr.repo,
    issue_number: pr.number,
    per_page: 100,
  });
  const ours = comments.find((comment) => isByApp(comment, app) && isSticky(comment));
  return ours && { id: ours.id, body: ours.body ?? '', url: ours.html_url };
}

export interface StickyRead<T> {
  comment: StickyComment | undefined;
  /** The decoded state, or undefined (no comment yet, or a state this version cannot read and no rebuild). */
  state: T | undefined;
  /** Why the comment's own state could not be read, when `state` was rebuilt instead (or is undefined). */
  unreadable?: string | undefined;
}

/**
 * Rebuilds the state of a sticky comment whose own cannot be read (docs/how-it-works.md § Review state,
 * memory and receipts): from what the App posted elsewhere on the pull request, never an empty state.
 */
export interface StickyRecovery<T> {
  rebuild(input: { octokit: AppOctokit; pr: PullRef; comment: StickyComment; problem: string }): Promise<T>;
  /** The visible log of a rebuilt state, for the edit that records it. */
  render(state: T): string;
}

/**
 * Reads and writes the sticky comment. Writes for one PR are serialised in this process (a `stop` and a
 * round finishing at once would otherwise both read the old state). Every update lists the PR's comments
 * again rather than remembering the id: the state must be the comment's current one (another process, or
 * the App before a restart, may have written it), and finding it there is what keeps it created once and
 * then only edited.
 */
/** Runs `work` holding `key`'s lock across processes. */
export type SharedLock = <R>(key: string, work: () => Promise<R>) => Promise<R>;

export class StickyStore<T> {
  readonly #app: AppIdentity;
  readonly #parse: (raw: unknown) => T | undefined;
  readonly #locks = new KeyedLock();
  readonly #shared: SharedLock | undefined;

  readonly #recover: StickyRecovery<T> | undefined;

  /**
   * `shared`: a lock across processes (the App's replicas), taken inside this process's own. `recover`:
   * how a comment whose state cannot be read gets one back (without it, such a comment reads as no state).
   */
  constructor(
    app: AppIdentity,
    parse: (raw: unknown) => T | undefined,
    shared?: SharedLock,
    recover?: StickyRecovery<T>,
  ) {
    this.#app = app;
    this.#parse = parse;
    this.#shared = shared;
    this.#recover = recover;
  }

  /** The comment and its state as written, or why that state cannot be read. */
  async #load(octokit: AppOctokit, pr: PullRef): Promise<StickyRead<T>> {
    const comment = await findStickyComment(octokit, pr, this.#app);
    if (!comment) return { comment, state: undefined };
    const block = readStateBlock(comment.body);
    const state = block.kind === 'state' ? this.#parse(block.value) : undefined;
    if (state !== undefined) return { comment, state };
    const problem =
      block.kind === 'unreadable'
        ? block.problem
        : block.kind === 'none'
          ? 'it has no state block (it was edited)'
          : 'its state is not one this version of the App reads';
    return { comment, state: undefined, unreadable: problem };
  }

  /** The rebuilt state of a comment whose own cannot be read (undefined without a way to rebuild it). */
  async #rebuilt(octokit: AppOctokit, pr: PullRef, read: StickyRead<T>): Promise<T | undefined> {
    if (!this.#recover || !read.comment || read.unreadable === undefined) return read.state;
    return this.#recover.rebuild({ octokit, pr, comment: read.comment, problem: read.unreadable });
  }

  /**
   * The comment's state. One that cannot be read is rebuilt (`recover`) and written at once under the
   * PR's lock, so the comment says so even when no other write follows; it is never read as "no state".
   */
  async read(octokit: AppOctokit, pr: PullRef): Promise<StickyRead<T>> {
    const first = await this.#load(octokit, pr);
    const recover = this.#recover;
    if (first.unreadable === undefined || !recover) return first;
    return this.#locked(pullKey(pr), async () => {
      const read = await this.#load(octokit, pr);
      if (read.unreadable === undefined || !read.comment) return read;
      const state = (await this.#rebuilt(octokit, pr, read)) as T;
      const comment = await this.#write(
        octokit,
        pr,
        read.comment,
        composeStickyBody(recover.render(state), state),
      );
      return { comment, state, unreadable: read.unreadable };
    });
  }

  /**
   * Read-modify-write under the PR's lock: `change` gets the current state and returns the next one and
   * the visible log to show; the comment is edited in place, or created when the PR has none yet — and
   * left alone when the body would be the one it has.
   */
  async update(
    octokit: AppOctokit,
    pr: PullRef,
    change: (
      current: T | undefined,
    ) => { state: T; visible: string } | Promise<{ state: T; visible: string }>,
  ): Promise<{ state: T; comment: StickyComment }> {
    return this.#locked(pullKey(pr), async () => {
      const read = await this.#load(octokit, pr);
      const { comment } = read;
      // A state that cannot be read is rebuilt, never replaced by an empty one (issue 27).
      const next = await change(await this.#rebuilt(octokit, pr, read));
      const body = composeStickyBody(next.visible, next.state);
      // Nothing to show and nothing to keep that the comment does not hold already: no edit.
      if (comment && sameStickyBody(comment.body, body)) return { state: next.state, comment };
      return { state: next.state, comment: await this.#write(octokit, pr, comment, body) };
    });
  }

  /** Edits the comment in place, or creates it when the PR has none yet. */
  async #write(
    octokit: AppOctokit,
    pr: PullRef,
    comment: StickyComment | undefined,
    body: string,
  ): Promise<StickyComment> {
    const written = comment
      ? await octokit.rest.issues.updateComment({
          owner: pr.owner,
          repo: pr.repo,
          comment_id: comment.id,
          body,
        })
      : await octokit.rest.issues.createComment({
          owner: pr.owner,
          repo: pr.repo,
          issue_number: pr.number,
          body,
        });
    return { id: written.data.id, body, url: written.data.html_url };
  }

  #locked<R>(key: string, work: () => Promise<R>): Promise<R> {
    const shared = this.#shared;
    return this.#locks.run(key, shared ? () => shared(key, work) : work);
  }
}
