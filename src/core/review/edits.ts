/**
 * Which files a review fix may touch, and applying one `{path, old_string, new_string}` edit to a file's
 * text (docs/how-it-works.md § Review fixes). Pure: the adapters add what needs the file system or the
 * forge (symlinks on disk, the tree's file modes).
 */
import type { FileEdit } from './answers.js';

/** Never edited, whatever the allow-list says: CI definitions, the loop's own records, git internals. */
export const FORBIDDEN_PREFIXES = ['.github/workflows/', 'review-stage/', '.aris/', '.git/'] as const;

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/**
 * A repository-relative path in its one canonical spelling (`a/b.ts`), or why it is refused: absolute
 * paths, `..` segments, backslashes, empty or `.` segments that hide where a path points.
 */
export function normalizeRepoPath(raw: string): PathCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'empty path' };
  if (text.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text) || text.startsWith('~')) {
    return { ok: false, reason: 'absolute paths are refused' };
  }
  if (text.includes('\\')) return { ok: false, reason: 'backslashes are refused (use / separators)' };
  const segments = text.replace(/^\.\//, '').split('/');
  if (segments.some((s) => s === '..')) return { ok: false, reason: '".." segments are refused' };
  if (segments.some((s) => s === '' || s === '.'))
    return { ok: false, reason: 'empty or "." path segments are refused' };
  return { ok: true, path: segments.join('/') };
}

/** The forbidden area a normalized path is in, case-insensitively (macOS and Windows checkouts fold case). */
export function forbiddenArea(path: string): string | undefined {
  const lower = path.toLowerCase();
  return FORBIDDEN_PREFIXES.find((prefix) => lower.startsWith(prefix) || `${lower}/` === prefix);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

/**
 * A glob as a regular expression over normalized paths: `**` any number of segments, `*` within one
 * segment, `?` one character. A glob without `/` matches the file name at any depth (as .gitignore does).
 */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.trim().replace(/^\.\//, '');
  const anchored = pattern.includes('/') ? pattern : `**/${pattern}`;
  let out = '';
  for (let i = 0; i < anchored.length; i++) {
    const ch = anchored[i]!;
    if (ch === '*') {
      if (anchored[i + 1] === '*') {
        const slash = anchored[i + 2] === '/';
        out += slash ? '(?:[^/]+/)*' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else out += escapeRegExp(ch);
  }
  return new RegExp(`^${out}$`);
}

export interface AllowList {
  /** The files the change under review already touches (normalized). */
  touched: ReadonlySet<string>;
  /** Extra globs from the configuration. */
  globs: readonly string[];
}

/** Whether a fix may edit `raw`; the reason names the rule that refused it. */
export function checkEditPath(raw: string, allow: AllowList): PathCheck {
  const normalized = normalizeRepoPath(raw);
  if (!normalized.ok) return normalized;
  const { path } = normalized;
  const area = forbiddenArea(path);
  if (area !== undefined) return { ok: false, reason: `${area} is never edited by the review loop` };
  if (allow.touched.has(path)) return normalized;
  if (allow.globs.some((glob) => globToRegExp(glob).test(path))) return normalized;
  return {
    ok: false,
    reason: 'not in the allow-list (only files the change under review touches, plus configured globs)',
  };
}

export type EditResult = { ok: true; text: string } | { ok: false; reason: string };

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

/** Applies one edit: `old_string` must occur exactly once (what an edit means must not depend on which). */
export function applyEditToText(text: string, edit: Pick<FileEdit, 'old_string' | 'new_string'>): EditResult {
  if (edit.old_string === '') return { ok: false, reason: 'old_string is empty' };
  if (edit.old_string === edit.new_string)
    return { ok: false, reason: 'old_string and new_string are identical' };
  const count = occurrences(text, edit.old_string);
  if (count === 0) return { ok: false, reason: 'old_string does not occur in the file' };
  if (count > 1)
    return { ok: false, reason: `old_string occurs ${count} times (it must occur exactly once)` };
  const at = text.indexOf(edit.old_string);
  return { ok: true, text: text.slice(0, at) + edit.new_string + text.slice(at + edit.old_string.length) };
}
