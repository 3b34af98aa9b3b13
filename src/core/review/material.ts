/**
 * What a reviewer is shown, bounded: the claims, the diff, the changed files. Prompts have a size budget
 * (docs/how-it-works.md § Review rounds); what does not fit is cut with a note saying how much was cut,
 * never silently.
 */

/** Text cut to a budget; `omittedChars` > 0 says how much was left out. */
export interface BoundedText {
  text: string;
  omittedChars: number;
}

/** Cuts at the last line break inside the budget, so a diff is never cut mid-line. */
export function boundText(text: string, budget: number): BoundedText {
  if (text.length <= budget) return { text, omittedChars: 0 };
  const cut = text.lastIndexOf('\n', budget);
  const end = cut > budget / 2 ? cut : budget;
  return { text: text.slice(0, end), omittedChars: text.length - end };
}

export function withCutNote(bounded: BoundedText, what: string): string {
  if (bounded.omittedChars === 0) return bounded.text;
  return `${bounded.text}\n[… ${bounded.omittedChars} more characters of ${what} cut to fit the size budget]`;
}

export interface Claims {
  /** Where the claims came from: `README.md`, `--claims notes.md`, `pull request #12`. */
  source: string;
  text: string;
}

export interface FileAtHead {
  path: string;
  text: string;
}

export interface FilesBundle {
  files: FileAtHead[];
  /** Paths left out (size budget, binary, unreadable), with the reason. */
  omitted: Array<{ path: string; reason: string }>;
}

/** Files in order until the budget is spent; a file that does not fit whole is cut, the rest are named. */
export function bundleFiles(
  files: ReadonlyArray<FileAtHead>,
  budget: number,
  omitted: ReadonlyArray<{ path: string; reason: string }> = [],
): FilesBundle {
  const out: FileAtHead[] = [];
  const left = [...omitted];
  let remaining = budget;
  for (const file of files) {
    if (remaining <= 0) {
      left.push({ path: file.path, reason: 'size budget spent' });
      continue;
    }
    const bounded = boundText(file.text, remaining);
    out.push({ path: file.path, text: withCutNote(bounded, file.path) });
    remaining -= bounded.text.length;
  }
  return { files: out, omitted: left };
}

/** The default budgets (characters): roughly 30k tokens of material in a round's prompt. */
export const REVIEW_BUDGETS = {
  claims: 20_000,
  diff: 60_000,
  sinceLast: 40_000,
  files: 60_000,
  fixFiles: 80_000,
} as const;
export type ReviewBudgets = { [K in keyof typeof REVIEW_BUDGETS]: number };
