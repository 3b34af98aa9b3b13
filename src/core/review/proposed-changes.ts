/**
 * A proposed fix as line changes (docs/how-it-works.md § Review fixes): with `fix: manual` the App shows
 * the executor's edits as GitHub suggested changes, which replace whole lines of the head — so each
 * edited file's old and new text are compared line by line into the runs of lines that changed.
 */

/** Lines `startLine`–`endLine` (1-based, at the head) of `path` become `newLines`. */
export interface ProposedChange {
  path: string;
  startLine: number;
  endLine: number;
  oldLines: string[];
  newLines: string[];
}

/** Above this many cells the middle of a file is compared as one run (one suggestion) instead. */
const MAX_CELLS = 1_000_000;

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

interface Run {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Changed runs between two line arrays (end-exclusive indexes), by a longest-common-subsequence table. */
function changedRuns(a: string[], b: string[], offset: number): Run[] {
  if (a.length * b.length > MAX_CELLS) {
    return [{ oldStart: offset, oldEnd: offset + a.length, newStart: offset, newEnd: offset + b.length }];
  }
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const runs: Run[] = [];
  let i = 0;
  let j = 0;
  let open: Run | undefined;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      if (open) {
        runs.push({
          oldStart: open.oldStart,
          oldEnd: offset + i,
          newStart: open.newStart,
          newEnd: offset + j,
        });
        open = undefined;
      }
      i++;
      j++;
      continue;
    }
    open ??= { oldStart: offset + i, oldEnd: 0, newStart: offset + j, newEnd: 0 };
    if (j < b.length && (i === a.length || table[i * width + j + 1]! >= table[(i + 1) * width + j]!)) j++;
    else i++;
  }
  if (open)
    runs.push({ oldStart: open.oldStart, oldEnd: offset + i, newStart: open.newStart, newEnd: offset + j });
  return runs;
}

/**
 * The runs of lines that differ between `before` and `after` of one file. A pure insertion takes the
 * line above it (or below, at the top) along, since a suggestion must replace at least one line.
 */
export function proposedChanges(path: string, before: string, after: string): ProposedChange[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const runs = changedRuns(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix), prefix);
  return runs.map((run) => {
    let { oldStart, oldEnd, newStart, newEnd } = run;
    if (oldStart === oldEnd) {
      if (oldStart > 0) {
        oldStart -= 1;
        newStart -= 1;
      } else if (oldEnd < a.length) {
        oldEnd += 1;
        newEnd += 1;
      }
    }
    return {
      path,
      startLine: oldStart + 1,
      endLine: oldEnd,
      oldLines: a.slice(oldStart, oldEnd),
      newLines: b.slice(newStart, newEnd),
    };
  });
}
