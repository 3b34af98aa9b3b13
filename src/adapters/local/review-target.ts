/**
 * The change under review on a local checkout (docs/how-it-works.md § Review rounds, § Review fixes): the
 * current branch's commits since its merge base with the base branch (optionally narrowed to some paths),
 * read at commits with git (`ls-tree`, `cat-file`, `grep`), never by following the working tree — so what
 * the reviewer sees is exactly what was committed, and a symbolic link is a link, never its target. Fixes
 * are written to the working tree and committed on the current branch, one commit per round.
 */
import { lstat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { boundText } from '../../core/review/material.js';
import { forbiddenArea, normalizeRepoPath } from '../../core/review/edits.js';
import type { BoundedText, Claims } from '../../core/review/material.js';
import { committerConfig, GitOperationError, runGit } from '../../git/client.js';
import type { CommitResult, FileRead, FolderEntry, ReviewTarget, SearchHit } from '../../ports/review.js';
import { SkillclimbError } from '../../core/errors.js';

/** Blobs larger than this are not read at all (a review prompt has no room for them anyway). */
const MAX_BLOB_BYTES = 4_000_000;
const MAX_LISTED_FILES = 300;
const README_NAMES = ['README.md', 'README', 'readme.md', 'Readme.md', 'README.rst', 'README.txt'];

export interface LocalTargetOptions {
  /** The repository's top-level folder (where git paths start). */
  repoRoot: string;
  /** The project folder (holds review-stage/ and .aris/), inside the repository. */
  project: string;
  /** Repository-relative paths narrowing what is under review; [] for the whole change. */
  paths: readonly string[];
  /** A ref or commit the change is measured from (resolved by resolveBaseRef). */
  baseRef: string;
  /** `--claims FILE` (absolute), else the README at the head. */
  claimsFile: string | undefined;
  /** Shown in messages for `--claims` (as the person typed it). */
  claimsLabel?: string | undefined;
  /** `--allow-dirty`: fixes still refuse files that have uncommitted changes. */
  allowDirty: boolean;
}

/** A base that cannot be found: the message names the flag or what was tried; `--base` fixes it. */
export class BaseRefError extends SkillclimbError {
  readonly kind = 'usage';
  override name = 'BaseRefError';
}

async function git(dir: string, args: string[], operation = args[0] ?? 'git'): Promise<string> {
  // Paths from models and people are file names, never pathspec magic (`:(exclude)…`, globs).
  return runGit(dir, operation, ['--literal-pathspecs', ...args]);
}

async function refExists(repoRoot: string, ref: string): Promise<boolean> {
  try {
    await runGit(repoRoot, 'rev-parse', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** `--base`, else the remote's default branch (origin first), else `main`, else `master`. */
export async function resolveBaseRef(repoRoot: string, explicit: string | undefined): Promise<string> {
  if (explicit !== undefined) {
    if (await refExists(repoRoot, explicit)) return explicit;
    throw new BaseRefError(`--base ${explicit}: no such branch or commit in ${repoRoot}`);
  }
  const remotes = (await runGit(repoRoot, 'remote', ['remote']).catch(() => ''))
    .split('\n')
    .map((r) => r.trim())
    .filter(Boolean)
    .sort((a, b) => (a === 'origin' ? -1 : b === 'origin' ? 1 : 0));
  for (const remote of remotes) {
    try {
      const ref = (
        await runGit(repoRoot, 'symbolic-ref', ['symbolic-ref', '--quiet', `refs/remotes/${remote}/HEAD`])
      ).trim();
      const short = ref.replace(/^refs\/remotes\//, '');
      if (short && (await refExists(repoRoot, short))) return short;
    } catch {
      // no default branch recorded for this remote
    }
  }
  for (const name of ['main', 'master']) if (await refExists(repoRoot, name)) return name;
  throw new BaseRefError(
    `cannot find the base of the change in ${repoRoot}: no --base, no remote default branch, no main or master`,
  );
}

/** The current branch, or undefined on a detached HEAD. */
export async function currentBranch(repoRoot: string): Promise<string | undefined> {
  try {
    return (
      (await runGit(repoRoot, 'symbolic-ref', ['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

/** The pathspecs that keep the loop's own records out of what is under review. */
function exclusions(projectPrefix: string): string[] {
  const at = (p: string) => (projectPrefix === '' ? p : `${projectPrefix}/${p}`);
  return [`:(top,exclude)${at('review-stage')}`, `:(top,exclude)${at('.aris')}`];
}

/** Tracked files with uncommitted changes (staged or not), outside the loop's own records. */
export async function dirtyFiles(repoRoot: string, projectPrefix: string): Promise<string[]> {
  const out = await runGit(repoRoot, 'status', [
    'status',
    '--porcelain',
    '-z',
    '--untracked-files=no',
    '--',
    ':(top)',
    ...exclusions(projectPrefix),
  ]);
  return out
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
}

/**
 * Answers about commits never change (a SHA names its content), so each is asked of git once per target:
 * a round reads the same files for the review, the fix and the log, and every git call is a process.
 */
function memo<T>(cache: Map<string, Promise<T>>, key: string, compute: () => Promise<T>): Promise<T> {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = compute();
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

function splitZ(text: string): string[] {
  return text.split('\0').filter((s) => s !== '');
}

function gitError(err: unknown): string {
  return err instanceof GitOperationError ? err.message : String(err);
}

type TreeEntry = { mode: string; type: string; sha: string; size: number };

export async function createLocalReviewTarget(options: LocalTargetOptions): Promise<ReviewTarget> {
  return new LocalReviewTarget(options, await currentBranch(options.repoRoot));
}

/**
 * The target's reads (`claims`, `resolve`, `diff`, `readFile`, `listFolder`, `searchText`) go through git at
 * a commit and are memoised per target; its one write, `commitFiles`, first sorts the edits into the ones it
 * may write and the refused ones (`screenEdits`), then writes and commits them (`commitWritable`).
 */
class LocalReviewTarget implements ReviewTarget {
  readonly label: string;
  private readonly repoRoot: string;
  private readonly projectPrefix: string;
  private readonly narrowed: boolean;
  private readonly scope: string[];
  private readonly cache = new Map<string, Promise<unknown>>();
  private identity: Promise<string[]> | undefined;

  constructor(
    private readonly options: LocalTargetOptions,
    branch: string | undefined,
  ) {
    this.repoRoot = options.repoRoot;
    this.projectPrefix = path.relative(this.repoRoot, options.project).split(path.sep).join('/');
    this.narrowed = options.paths.length > 0;
    this.scope = [
      ...(this.narrowed ? options.paths.map((p) => `:(top)${p}`) : [':(top)']),
      ...exclusions(this.projectPrefix),
    ];
    this.label =
      `${branch ? `branch ${branch}` : 'detached HEAD'} in ${this.repoRoot}` +
      (this.narrowed ? `, limited to ${options.paths.join(', ')}` : '');
  }

  /** Scope pathspecs carry magic on purpose; they are built here, never from model or user text. */
  private scoped(args: string[], operation: string): Promise<string> {
    return runGit(this.repoRoot, operation, [...args, '--', ...this.scope]);
  }

  private once<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return memo(this.cache as Map<string, Promise<T>>, key, compute);
  }

  private lsTree(at: string, entry: string): Promise<TreeEntry | undefined> {
    return this.once(`ls-tree\0${at}\0${entry}`, async () => {
      // `-l` adds the blob's size, so reading a file needs no separate `cat-file -s`.
      const out = await git(this.repoRoot, ['ls-tree', '-l', '-z', at, '--', entry], 'ls-tree');
      const first = splitZ(out)[0];
      if (first === undefined) return undefined;
      const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t/.exec(first);
      if (!m) return undefined;
      return { mode: m[1]!, type: m[2]!, sha: m[3]!, size: m[4] === '-' ? 0 : Number(m[4]) };
    });
  }

  private async head(): Promise<string> {
    return (await runGit(this.repoRoot, 'rev-parse', ['rev-parse', 'HEAD'])).trim();
  }

  private async listFilesUnderReview(base: string, head: string): Promise<string[]> {
    const changed = splitZ(
      await this.scoped(
        ['diff', '--name-only', '-z', '--no-renames', '--diff-filter=ACMRT', base, head],
        'diff --name-only',
      ),
    );
    if (changed.length > 0 || !this.narrowed) return changed;
    // Paths given but nothing changed in them: the files themselves are under review.
    // ls-tree takes no exclude magic: the loop's own records are filtered out here instead.
    const listed = splitZ(
      await git(
        this.repoRoot,
        ['ls-tree', '-r', '--name-only', '-z', head, '--', ...this.options.paths],
        'ls-tree',
      ),
    );
    const own = ['review-stage/', '.aris/'].map((p) =>
      this.projectPrefix === '' ? p : `${this.projectPrefix}/${p}`,
    );
    return listed.filter((f) => !own.some((p) => f.startsWith(p))).slice(0, MAX_LISTED_FILES);
  }

  private async isInside(relPath: string): Promise<string | undefined> {
    // Every component from the repository root down must be a real folder or file, never a link.
    let current = this.repoRoot;
    for (const segment of relPath.split('/')) {
      current = path.join(current, segment);
      let stat;
      try {
        stat = await lstat(current);
      } catch {
        return 'no such file in the working tree';
      }
      if (stat.isSymbolicLink()) return 'a symbolic link on disk (never followed)';
    }
    return undefined;
  }

  async claims(): Promise<Claims> {
    if (this.options.claimsFile !== undefined) {
      return {
        source: this.options.claimsLabel ?? this.options.claimsFile,
        text: await readFile(this.options.claimsFile, 'utf8'),
      };
    }
    const head = await this.head();
    for (const name of README_NAMES) {
      const entry = await this.lsTree(head, name);
      if (entry?.type === 'blob' && entry.mode !== '120000') {
        return {
          source: name,
          text: await runGit(this.repoRoot, 'cat-file', ['cat-file', 'blob', entry.sha]),
        };
      }
    }
    return {
      source: '(no README and no --claims file)',
      text: '(The change states no claims: judge it on what the code does and whether that is correct.)',
    };
  }

  async resolve(): Promise<{ base: string; head: string }> {
    const head = await this.head();
    const base = await this.once(`merge-base\0${head}`, async () => {
      try {
        return (await runGit(this.repoRoot, 'merge-base', ['merge-base', this.options.baseRef, head])).trim();
      } catch (err) {
        throw new BaseRefError(`${this.options.baseRef} and HEAD share no history: ${gitError(err)}`);
      }
    });
    return { base, head };
  }

  filesUnderReview(base: string, head: string): Promise<string[]> {
    return this.once(`files\0${base}\0${head}`, () => this.listFilesUnderReview(base, head));
  }

  async diff(from: string, to: string, budget: number): Promise<BoundedText> {
    const text = await this.once(`diff\0${from}\0${to}`, () =>
      this.scoped(['diff', '--no-color', '--no-ext-diff', '-M', from, to], 'diff'),
    );
    return boundText(text, budget);
  }

  changedFiles(from: string, to: string): Promise<string[]> {
    return this.once(`changed\0${from}\0${to}`, async () =>
      splitZ(await this.scoped(['diff', '--name-only', '-z', from, to], 'diff --name-only')),
    );
  }

  async readFile(relPath: string, at: string, maxBytes: number): Promise<FileRead> {
    const entry = await this.lsTree(at, relPath);
    if (entry === undefined) return { kind: 'missing' };
    if (entry.mode === '120000') return { kind: 'symlink' };
    if (entry.type === 'tree' || entry.type === 'commit') return { kind: 'folder' };
    const bytes = entry.size;
    if (bytes > MAX_BLOB_BYTES) return { kind: 'file', text: '', bytes, truncated: true };
    const text = await this.once(`blob\0${entry.sha}`, () =>
      runGit(this.repoRoot, 'cat-file', ['cat-file', 'blob', entry.sha]),
    );
    if (text.slice(0, 8000).includes('\0')) return { kind: 'binary', bytes };
    const bounded = boundText(text, maxBytes);
    return { kind: 'file', text: bounded.text, bytes, truncated: bounded.omittedChars > 0 };
  }

  async listFolder(relPath: string, at: string): Promise<FolderEntry[] | undefined> {
    let prefix = '';
    if (relPath !== '') {
      const entry = await this.lsTree(at, relPath);
      if (entry?.type !== 'tree') return undefined;
      prefix = `${relPath}/`;
    }
    const out = await git(this.repoRoot, ['ls-tree', '-z', at, '--', ...(prefix ? [prefix] : [])], 'ls-tree');
    return splitZ(out).map((line) => {
      const m = /^(\d+) (\w+) [0-9a-f]+\t(.*)$/s.exec(line);
      const name = (m?.[3] ?? line).slice(prefix.length);
      const kind: FolderEntry['kind'] =
        m?.[1] === '120000' ? 'symlink' : m?.[2] === 'tree' ? 'folder' : m?.[2] === 'blob' ? 'file' : 'other';
      return { name, kind };
    });
  }

  async searchText(
    query: string,
    at: string,
    searchOptions: { folder?: string; maxHits: number },
  ): Promise<SearchHit[]> {
    let out: string;
    try {
      out = await git(
        this.repoRoot,
        [
          'grep',
          '-n',
          '-I',
          '-F',
          '--null',
          '--no-color',
          '-e',
          query,
          at,
          '--',
          ...(searchOptions.folder ? [searchOptions.folder] : []),
        ],
        'grep',
      );
    } catch (err) {
      // git grep exits 1 when nothing matches.
      if (/exit code 1$/.test(gitError(err))) return [];
      throw err;
    }
    const hits: SearchHit[] = [];
    for (const line of out.split('\n')) {
      if (hits.length >= searchOptions.maxHits) break;
      const [where, lineNo, ...rest] = line.split('\0');
      if (where === undefined || lineNo === undefined) continue;
      hits.push({
        path: where.startsWith(`${at}:`) ? where.slice(at.length + 1) : where,
        line: Number(lineNo),
        text: rest.join('\0'),
      });
    }
    return hits;
  }

  async commitFiles(files: Array<{ path: string; text: string }>, message: string): Promise<CommitResult> {
    const { writable, refused } = await this.screenEdits(files);
    if (writable.length > 0) refused.push(...(await this.commitWritable(writable, message)));
    return { head: await this.head(), refused };
  }

  /** Sorts the edits into the files the loop may write and the refused ones, each with its reason. */
  private async screenEdits(files: Array<{ path: string; text: string }>): Promise<{
    writable: Array<{ path: string; text: string }>;
    refused: Array<{ path: string; reason: string }>;
  }> {
    const refused: Array<{ path: string; reason: string }> = [];
    const writable: Array<{ path: string; text: string }> = [];
    const dirty = this.options.allowDirty
      ? new Set(await dirtyFiles(this.repoRoot, this.projectPrefix))
      : new Set<string>();
    for (const file of files) {
      const checked = normalizeRepoPath(file.path);
      if (!checked.ok) {
        refused.push({ path: file.path, reason: checked.reason });
        continue;
      }
      const area = forbiddenArea(checked.path);
      if (area !== undefined) {
        refused.push({ path: file.path, reason: `${area} is never edited by the review loop` });
        continue;
      }
      const outside = await this.isInside(checked.path);
      if (outside !== undefined) {
        refused.push({ path: file.path, reason: outside });
        continue;
      }
      if (dirty.has(checked.path)) {
        refused.push({
          path: file.path,
          reason: 'the file has uncommitted changes (--allow-dirty keeps them yours)',
        });
        continue;
      }
      writable.push({ path: checked.path, text: file.text });
    }
    return { writable, refused };
  }

  /**
   * Writes the files and commits them on the current branch; when the commit fails the edit is undone and
   * every file is refused with the reason (returned).
   */
  private async commitWritable(
    writable: Array<{ path: string; text: string }>,
    message: string,
  ): Promise<Array<{ path: string; reason: string }>> {
    for (const file of writable) await writeFile(path.join(this.repoRoot, file.path), file.text, 'utf8');
    const paths = writable.map((f) => f.path);
    this.identity ??= committerConfig(this.repoRoot);
    try {
      // Hooks run: these commits land on the person's own branch, under the person's own rules.
      await runGit(
        this.repoRoot,
        'commit',
        ['--literal-pathspecs', 'commit', '-m', message, '--', ...paths],
        await this.identity,
      );
      return [];
    } catch (err) {
      await runGit(this.repoRoot, 'checkout', ['--literal-pathspecs', 'checkout', 'HEAD', '--', ...paths]);
      return paths.map((p) => ({
        path: p,
        reason: `the commit failed and the edit was undone: ${gitError(err)}`,
      }));
    }
  }
}
