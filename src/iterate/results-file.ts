/**
 * Appends to and reads `<skill>/evals/results.tsv`. Every append is one `write` of whole lines on a file
 * opened for appending, so an interrupted run (SIGINT, SIGKILL, power loss) leaves whole lines only — at
 * worst one torn last line, which the parser skips.
 */
import { mkdir, open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { RESULTS_HEADER, formatResultsRow, parseResultsTsv } from '../core/results-tsv.js';
import type { ResultsRow } from './ports.js';

/** Appends to the same file from one process are serialised so "is the file new?" has one answer each. */
const pending = new Map<string, Promise<void>>();

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

async function appendLine(file: string, line: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  let handle: FileHandle;
  try {
    // 'ax': create-or-fail in append mode, so exactly one writer (even across processes) adds the header.
    handle = await open(file, 'ax');
    try {
      await writeAll(handle, `${RESULTS_HEADER}\n${line}\n`);
    } finally {
      await handle.close();
    }
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  handle = await open(file, 'a+');
  try {
    const { size } = await handle.stat();
    let text = `${line}\n`;
    if (size === 0) {
      text = `${RESULTS_HEADER}\n${text}`;
    } else if (!(await endsWithNewline(handle, size))) {
      // A torn line from an interrupted run: start on a fresh line so the new row stays whole.
      text = `\n${text}`;
    }
    await writeAll(handle, text);
  } finally {
    await handle.close();
  }
}

/** Appends one whole line (header first when the file is new) in a single write. */
export async function appendResultsRow(file: string, row: ResultsRow): Promise<void> {
  const key = path.resolve(file);
  const line = formatResultsRow(row);
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
