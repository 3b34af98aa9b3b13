/** Two ways to count lines, each where it belongs. Pure: no I/O. */

/**
 * Lines the way `wc -l` counts them: the number of newline characters (a last line without one is not
 * counted). The ship gate and the simplicity bias compare SKILL.md sizes this way.
 */
export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Lines as a reader counts them in a render: trailing blank lines and the final newline do not add a
 * line; '' has 0. The `max-lines` check counts this way.
 */
export function countTextLines(text: string): number {
  const trimmed = text.trimEnd();
  return trimmed === '' ? 0 : trimmed.split(/\r\n|\r|\n/).length;
}
