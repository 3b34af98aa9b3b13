/**
 * The CLI's record of the skills a night budget kept from starting (docs/how-it-works.md § Caps and budgets):
 * `<project>/.skill-iterate-not-started.json`, beside the lock file; the next run queues them first and a
 * run that leaves none deletes the file.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { NotStartedRecord } from '../../ports/not-started.js';

export const NOT_STARTED_FILE = '.skill-iterate-not-started.json';

const FileSchema = z.object({ not_started: z.array(z.string()) }).loose();

export function createNotStartedFile(project: string): NotStartedRecord {
  const file = path.join(path.resolve(project), NOT_STARTED_FILE);
  const record: NotStartedRecord = {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const record = FileSchema.safeParse(parsed);
      if (!record.success) {
        throw new Error(
          `${file}: expected {"not_started": ["skill", ...]} (the skills a night budget kept from starting); ` +
            'fix it or delete it',
        );
      }
      return record.data.not_started;
    },
    async update(next) {
      const skills = next(await record.read());
      if (skills.length === 0) {
        await rm(file, { force: true });
        return;
      }
      await writeFile(file, `${JSON.stringify({ not_started: skills }, null, 2)}\n`);
    },
  };
  return record;
}
