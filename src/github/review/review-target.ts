/**
 * The GitHub side of the review engine's target (docs/how-it-works.md § Layers and ports): the pull request
 * read through the API at exact SHAs, and fixes committed through the pull session.
 */
import { boundText, type BoundedText, type Claims } from '../../core/review/material.js';
import type { CommitResult, FileRead, FolderEntry, ReviewTarget, SearchHit } from '../../ports/review.js';
import type { PullSession } from './pull-session-port.js';

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
