/** Temporary folders a test module makes and removes again in one sweep (afterEach / afterAll). */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempDirs {
  make(prefix?: string): Promise<string>;
  /** Removes every folder made since the last sweep. */
  removeAll(): Promise<void>;
}

/**
 * One registry per helper module, so one module's sweep never removes another's folders. `resolveLinks`
 * returns the real path (it then compares equal to what git and fs report).
 */
export function tempDirs(defaultPrefix: string, options: { resolveLinks: boolean }): TempDirs {
  const made: string[] = [];
  return {
    async make(prefix = defaultPrefix) {
      const created = await mkdtemp(path.join(os.tmpdir(), prefix));
      const dir = options.resolveLinks ? await realpath(created) : created;
      made.push(dir);
      return dir;
    },
    async removeAll() {
      await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}
