import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { KILL_SWITCH_FILE } from '../../core/iterate/skill-layout.js';
import type { KillSwitch } from '../../ports/kill-switch.js';

export interface FileKillSwitch extends KillSwitch {
  /** Absolute path of the file whose presence stops the run. */
  readonly path: string;
}

/**
 * The CLI's kill-switch: the file `.skill-iterate-killswitch` at the project root. Checked at launch by the
 * pre-flight and between skills by the orchestrator. The reason is the original skill's launch-halt message, so it
 * tells the operator what to do whichever of the two reads it.
 */
export function createFileKillSwitch(project: string): FileKillSwitch {
  const file = path.resolve(project, KILL_SWITCH_FILE);
  return {
    path: file,
    async check() {
      try {
        // lstat: a dangling symlink named like the kill-switch still counts as "set".
        await lstat(file);
        return `kill-switch is set at ${file}; remove the file to proceed`;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}
