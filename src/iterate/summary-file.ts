/** The morning summary's writer (docs/how-it-works.md § Morning summary and results.tsv): one markdown file per run under `<project>/docs/skill-iterate-runs/`. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunResult } from '../core/iterate/run-result.js';
import { runsDirOf } from '../core/iterate/skill-layout.js';
import { renderMorningSummary, summaryDate } from '../core/iterate/summary.js';

/** `YYYY-MM-DD`, then `YYYY-MM-DDb` … `YYYY-MM-DDz` (the original skill's auto-disambiguation). */
export function summaryFileNames(date: string): string[] {
  const letters = Array.from({ length: 25 }, (_, i) => String.fromCharCode(0x62 + i));
  return [`${date}.md`, ...letters.map((letter) => `${date}${letter}.md`)];
}

/**
 * Writes docs/skill-iterate-runs/YYYY-MM-DD[b-z].md under the project, redacted with the exact `secrets`
 * in use; returns the path written.
 */
export async function writeMorningSummary(
  project: string,
  run: RunResult,
  secrets: readonly string[] = [],
): Promise<string> {
  const dir = runsDirOf(project);
  await mkdir(dir, { recursive: true });
  const text = renderMorningSummary(run, secrets);
  const names = summaryFileNames(summaryDate(run.startedAt));
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      // 'wx' (exclusive create): two runs finishing together each get their own file, never a clobber.
      await writeFile(file, text, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(
    `morning summary not written: ${path.join(dir, names[0] ?? '')} and its b-z variants all exist; ` +
      `move some of them out of ${dir}`,
  );
}
