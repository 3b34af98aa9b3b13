/**
 * The CLI's record of the draw without the skill (docs/how-it-works.md § Decisions under noise, "Uplift"):
 * `<skill folder>/evals/uplift-without.json`, beside results.tsv, so the next run on the same checkout
 * reuses it. The Action uses it on its checkout too and carries the file on its state branch. Never read or
 * written through a symbolic link.
 */
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { upliftRecordPath, type SkillLocation } from '../../core/iterate/skill-layout.js';
import type { UpliftRecords } from '../../ports/uplift-records.js';

/** A record is a few kilobytes; anything far larger is not one. */
const MAX_BYTES = 4 * 1024 * 1024;

export function createUpliftRecordFiles(project: string): UpliftRecords {
  return createRecordFiles((skill) => upliftRecordPath(project, skill));
}

/** A per-skill record file at `fileOf(skill)` (the baseline's draws use it too, baseline-draws.ts). */
export function createRecordFiles(fileOf: (skill: SkillLocation) => string): UpliftRecords {
  return {
    async read(skill) {
      const file = fileOf(skill);
      try {
        const info = await lstat(file);
        if (!info.isFile() || info.size > MAX_BYTES) return { text: '', source: file };
        return { text: await readFile(file, 'utf8'), source: file };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async write(skill, text) {
      const file = fileOf(skill);
      const info = await lstat(file).catch(() => undefined);
      if (info && !info.isFile()) throw new Error(`refusing to write ${file}: it is not a regular file`);
      await writeFile(file, text);
    },
  };
}
