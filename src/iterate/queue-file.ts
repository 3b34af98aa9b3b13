/** Queue-file parsing (docs/how-it-works.md § The queue): hand edits never halt a 4 AM run on whitespace or comments. */

export interface QueueEntry {
  name: string;
  /** 1-based line number in the file, for error messages. */
  line: number;
}

/**
 * One skill name per line: lines are stripped; blank lines and whole-line `#` comments are ignored; an
 * inline `#` starts a trailing comment (split on the first `#`, keep the left side, re-strip).
 */
export function parseQueueFile(text: string): QueueEntry[] {
  const entries: QueueEntry[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((raw, index) => {
      const stripped = raw.trim();
      if (!stripped || stripped.startsWith('#')) return;
      const name = (stripped.split('#', 1)[0] ?? '').trim();
      entries.push({ name, line: index + 1 });
    });
  return entries;
}
