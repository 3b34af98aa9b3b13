/** Queue-file parsing (docs/how-it-works.md § The queue): hand edits never halt a 4 AM run on whitespace or comments. */
import { brief } from '../core/iterate/brief.js';
import { SkillclimbError } from '../core/errors.js';

export interface QueueEntry {
  name: string;
  /** 1-based line number in the file, for error messages. */
  line: number;
}

/** A line longer than this is not a skill name with a comment; it is refused (and echoed shortened). */
export const QUEUE_LINE_MAX = 1024;

/** A queue file that is not a list of names; the message starts with the line (the caller adds the file). */
export class QueueFileError extends SkillclimbError {
  readonly kind = 'input-file';
  constructor(message: string) {
    super(message);
    this.name = 'QueueFileError';
  }
}

/**
 * One skill name per line: lines are stripped; blank lines and whole-line `#` comments are ignored; an
 * inline `#` starts a trailing comment (split on the first `#`, keep the left side, re-strip). One pass over
 * the text; a line over QUEUE_LINE_MAX characters throws QueueFileError.
 */
export function parseQueueFile(text: string): QueueEntry[] {
  const entries: QueueEntry[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((raw, index) => {
      if (raw.length > QUEUE_LINE_MAX) {
        throw new QueueFileError(
          `line ${index + 1}: ${raw.length.toLocaleString('en-US')} characters, over the limit of ` +
            `${QUEUE_LINE_MAX.toLocaleString('en-US')} ("${brief(raw)}")`,
        );
      }
      const stripped = raw.trim();
      if (!stripped || stripped.startsWith('#')) return;
      const name = (stripped.split('#', 1)[0] ?? '').trim();
      entries.push({ name, line: index + 1 });
    });
  return entries;
}
