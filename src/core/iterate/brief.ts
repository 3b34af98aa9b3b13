/**
 * Text from outside (a skill name from a queue file, a git or API error) echoed in a message or a status:
 * one line, long words shortened and the whole cut when long, saying how long it was — a 20 MB "skill name"
 * must not be printed whole, and a 250-character name quoted three times in a git error must not hide the
 * error's last words ("File name too long").
 */

/** The default room for an echoed name. */
export const ECHO_MAX = 120;

/** A word this long keeps its start and end: `aaaa…zzzz (250 characters)`. */
const LONG_WORD = 80;

function shortenWord(word: string): string {
  return `${word.slice(0, 40)}…${word.slice(-20)} (${word.length.toLocaleString('en-US')} characters)`;
}

/** `text` on one line, at most `max` characters of it (plus a note of its full length when cut). */
export function brief(text: string, max = ECHO_MAX): string {
  // Only the start can be shown: looking further into a huge text would cost for nothing.
  const cutShort = text.length > max * 8;
  const line = (cutShort ? text.slice(0, max * 8) : text).replace(/\s+/g, ' ').trim();
  const shortened = line.replace(new RegExp(`\\S{${LONG_WORD},}`, 'g'), (word, offset: number) =>
    // A word running into the cut has no known length: only its start is shown.
    cutShort && offset + word.length === line.length ? word.slice(0, 40) : shortenWord(word),
  );
  if (!cutShort && shortened.length <= max) return shortened;
  let cut = shortened.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}… (${text.length.toLocaleString('en-US')} characters in all)`;
}
