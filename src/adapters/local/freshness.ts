import { stat } from 'node:fs/promises';
import { resultsTsvPath } from '../../core/iterate/skill-layout.js';
import type { Freshness } from '../../ports/freshness.js';

/** The CLI's freshness: the mtime of `<project>/<skill folder>/evals/results.tsv` (null when absent). */
export function createMtimeFreshness(project: string): Freshness {
  return {
    async lastRunAt(skill) {
      try {
        return (await stat(resultsTsvPath(project, skill))).mtime;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw err;
      }
    },
  };
}
