/**
 * Reading a file the operator (or a pull request) put in the project — SKILL.md, the eval files, the queue
 * file — without ever blocking or reading what is not a file: a directory, a FIFO, a socket or a device in
 * its place, a dangling link or a link loop is refused by name before anything is opened, the open itself
 * never waits (O_NONBLOCK: a FIFO swapped in between the two does not block), and what was opened is
 * checked again (fstat) before it is read, with a size bound.
 */
import { constants } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';
import { SkillclimbError } from '../core/errors.js';

/** What is in place of an expected regular file. */
export type NotRegularKind =
  | 'a directory'
  | 'a FIFO (named pipe)'
  | 'a socket'
  | 'a device'
  | 'a dangling symbolic link'
  | 'a symbolic link loop'
  | 'not a regular file';

export class NotRegularFileError extends SkillclimbError {
  readonly kind = 'input-file';
  constructor(
    readonly file: string,
    /** What is there instead of a regular file of bounded size. */
    readonly found: NotRegularKind | 'too large',
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'NotRegularFileError';
  }
}

function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): NotRegularKind {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function refused(file: string, kind: NotRegularKind): NotRegularFileError {
  return new NotRegularFileError(
    file,
    kind,
    `is ${kind === 'not a regular file' ? 'not a regular file' : kind}, not a regular file`,
  );
}

/**
 * What is at `file`: `missing` (nothing, not even a link), `file` (a regular file, or a link to one), or
 * the NotRegularFileError that names what is there instead. Never opens anything.
 */
export async function inspectFile(file: string): Promise<'missing' | 'file' | NotRegularFileError> {
  let target;
  try {
    target = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return refused(file, 'a symbolic link loop');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    // Nothing there, or a link whose target is missing.
    try {
      if ((await lstat(file)).isSymbolicLink()) return refused(file, 'a dangling symbolic link');
    } catch {
      // nothing at all
    }
    return 'missing';
  }
  return target.isFile() ? 'file' : refused(file, kindOf(target));
}

/**
 * The file's text, or undefined when nothing is there. Throws NotRegularFileError for anything but a
 * regular file (or a link to one) and for a file over `maxBytes`.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<string | undefined> {
  const found = await inspectFile(file);
  if (found === 'missing') return undefined;
  if (found !== 'file') throw found;
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw refused(file, 'a symbolic link loop');
    throw err;
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw refused(file, kindOf(opened));
    if (opened.size > maxBytes) {
      throw new NotRegularFileError(
        file,
        'too large',
        `is ${opened.size.toLocaleString('en-US')} bytes, over the limit of ${maxBytes.toLocaleString('en-US')}`,
      );
    }
    const buffer = Buffer.alloc(Math.min(opened.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) {
        throw new NotRegularFileError(
          file,
          'too large',
          `is over the limit of ${maxBytes.toLocaleString('en-US')} bytes`,
        );
      }
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}
