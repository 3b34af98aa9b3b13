/**
 * Appends to and reads `<skill>/evals/results.tsv`. Every append is one `write` of whole lines on a file
 * opened for appending (the first one creates the file with header and row already in it), so an
 * interrupted run (SIGINT, SIGKILL, power loss) leaves whole lines only — at worst one torn last line,
 * which the parser skips and the next append steps past.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, mkdir, open, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { RESULTS_HEADER, formatResultsRow, parseResultsTsv } from '../core/iterate/results-tsv.js';
import type { ResultsRow } from '../core/iterate/run-result.js';
import { SkillclimbError } from '../core/errors.js';

/** Appends to the same file from one process are serialised so "is the file new?" has one answer each. */
const pending = new Map<string, Promise<void>>();
/**
 * Files this process has appended to. A torn line can only come from an earlier, interrupted run, so the
 * check for one runs once per file (re-reading on every append could race another writer mid-line).
 */
const continued = new Set<string>();

async function writeAll(handle: FileHandle, text: string): Promise<void> {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  // One write() in practice; the loop only guards against a short write on an unusual filesystem.
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset, null);
    offset += bytesWritten;
  }
}

async function endsWithNewline(handle: FileHandle, size: number): Promise<boolean> {
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Filesystems without hard links (some network and FUSE mounts) answer link() with one of these. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates `file` holding `text`, or returns false when it already exists. The content is written to a
 * private temporary file first and hard-linked into place, so another process never sees the new file
 * empty (and never adds a second header to it).
 */
async function createWith(file: string, text: string): Promise<boolean> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  await writeFile(temp, text, { flag: 'wx' });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
  } finally {
    await rm(temp, { force: true });
  }
  // No hard links here: exclusive create in append mode still gives the header to exactly one writer.
  try {
    await writeFile(file, text, { flag: 'ax' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** `a+` that refuses a symbolic link instead of appending to wherever it points (ELOOP). */
const APPEND_NO_FOLLOW = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export class SymlinkedResultsFileError extends SkillclimbError {
  readonly kind = 'input-file';
  constructor(readonly file: string) {
    super(
      `refusing to write ${file}: it is a symbolic link (or inside a linked folder); results.tsv must be a regular file`,
    );
    this.name = 'SymlinkedResultsFileError';
  }
}

/** A linked evals folder would carry the new file (and its temporary twin) outside the skill. */
async function refuseLinkedFolder(file: string): Promise<void> {
  try {
    if ((await lstat(path.dirname(file))).isSymbolicLink()) throw new SymlinkedResultsFileError(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

async function openForAppend(file: string): Promise<FileHandle> {
  try {
    return await open(file, APPEND_NO_FOLLOW);
  } catch (err) {
    // ELOOP on Linux and macOS; EMLINK is what the BSDs answer for O_NOFOLLOW on a link.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new SymlinkedResultsFileError(file);
    throw err;
  }
}

async function appendLine(file: string, line: string): Promise<void> {
  await refuseLinkedFolder(file);
  await mkdir(path.dirname(file), { recursive: true });
  if (await createWith(file, `${RESULTS_HEADER}\n${line}\n`)) {
    continued.add(file);
    return;
  }
  const handle = await openForAppend(file);
  try {
    const { size } = await handle.stat();
    let text = `${line}\n`;
    if (size === 0) {
      text = `${RESULTS_HEADER}\n${text}`;
    } else if (!continued.has(file) && !(await endsWithNewline(handle, size))) {
      // A torn line from an interrupted run: start on a fresh line so the new row stays whole.
      text = `\n${text}`;
    }
    await writeAll(handle, text);
    continued.add(file);
  } finally {
    await handle.close();
  }
}

/**
 * Appends one whole line (header first when the file is new) in a single write, its description redacted
 * with the exact `secrets` in use (docs/how-it-works.md § Untrusted text and secrets).
 */
export async function appendResultsRow(
  file: string,
  row: ResultsRow,
  secrets: readonly string[] = [],
): Promise<void> {
  const key = path.resolve(file);
  const line = formatResultsRow(row, secrets);
  const previous = pending.get(key) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(() => appendLine(key, line));
  pending.set(key, current);
  try {
    await current;
  } finally {
    if (pending.get(key) === current) pending.delete(key);
  }
}

/** The parsed rows, or [] when the file does not exist. */
export async function readResultsRows(file: string): Promise<ResultsRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseResultsTsv(text);
}
