/**
 * The CLI's records kept between nights (docs/how-it-works.md § Baseline): `<skill folder>/evals/
 * uplift-without.json` (the draw without the skill) and `<skill folder>/evals/baseline-draws.json` (the
 * baseline's draws), beside results.tsv, so the next run on the same checkout reuses them. The Action uses
 * them in its checkout too and carries the files on its state branch. Never read or written through a
 * symbolic link.
 */
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { baselineDrawsPath, upliftRecordPath, type SkillLocation } from '../../core/iterate/skill-layout.js';
import type { RecordFiles } from '../../ports/night-records.js';

/** A record is a few kilobytes; anything far larger is not one. */
const MAX_BYTES = 4 * 1024 * 1024;

export function createUpliftRecordFiles(project: string): RecordFiles {
  return createRecordFiles((skill) => upliftRecordPath(project, skill));
}

export function createBaselineDrawsFiles(project: string): RecordFiles {
  return createRecordFiles((skill) => baselineDrawsPath(project, skill));
}

/** A per-skill record file at `fileOf(skill)`. */
function createRecordFiles(fileOf: (skill: SkillLocation) => string): RecordFiles {
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
