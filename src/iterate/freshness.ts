import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Freshness } from '../ports/freshness.js';

/** Where a skill's run log lives; its mtime is the seed's cross-night-resume signal. */
export function resultsTsvPath(project: string, skill: string): string {
  return path.resolve(project, '.claude', 'skills', skill, 'evals', 'results.tsv');
}

/** The CLI's freshness: the mtime of `<project>/.claude/skills/<skill>/evals/results.tsv` (null when absent). */
export function createMtimeFreshness(project: string): Freshness {
  return {
    async lastRunAt(skill) {
      try {
        return (await stat(resultsTsvPath(project, skill))).mtime;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}
