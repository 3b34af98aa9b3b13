/**
 * Which lines of a file a review comment may point at: the right-hand side of the diff hunks GitHub
 * shows for a pull request (added and context lines). A line outside every hunk cannot carry an inline
 * comment — GitHub rejects the whole review — so weaknesses citing one stay in the review body.
 */

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/** Right-side line numbers inside the hunks of one file's unified-diff `patch`. */
export function commentableLines(patch: string | null | undefined): Set<number> {
  const lines = new Set<number>();
  let next: number | undefined;
  for (const line of (patch ?? '').split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      next = Number(hunk[1]);
      continue;
    }
    if (next === undefined) continue;
    if (line.startsWith('+') || line.startsWith(' ')) {
      lines.add(next);
      next += 1;
    }
    // '-' lines exist only on the left; '\ No newline at end of file' is not a line.
  }
  return lines;
}
